"""Spaces: RON files and text, and spaces from dicts."""

from __future__ import annotations

import os
from typing import Any, Dict, List, Mapping, NamedTuple, Optional, Sequence, Union

from ._playtune import PlaytuneError, Space


def load_space(path: Union[str, os.PathLike]) -> Space:
    """Reads a space file (RON), as ``--space`` does."""
    return Space.load(os.fspath(path))


def parse_space(text: str, file: str = "<string>") -> Space:
    """Parses the text of a space file (RON); ``file`` names it in errors."""
    return Space.from_ron(text, file)


class Variant(NamedTuple):
    """A RON enum variant, as :func:`ron` writes it: ``Bool`` (no ``value``),
    ``List([...])`` (a value) or ``Int(min: 1, max: 9)`` (a dict: its fields)."""

    name: str
    value: Any = None


def ron(value: Any) -> str:
    """``value`` as RON text on one line: a dict is a struct (its fields in order), a
    list or tuple a list, a :class:`Variant` an enum variant; strings, bools, ints and
    floats are themselves."""
    if isinstance(value, Variant):
        if value.value is None:
            return value.name
        if isinstance(value.value, Mapping):
            return f"{value.name}({_fields(value.value)})"
        return f"{value.name}({ron(value.value)})"
    if isinstance(value, Mapping):
        return f"({_fields(value)})"
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(ron(x) for x in value) + "]"
    if isinstance(value, str):
        return '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float):
        return repr(float(value))
    return str(value)


def _fields(fields: Mapping[str, Any]) -> str:
    return ", ".join(f"{k}: {ron(v)}" for k, v in fields.items())


def ron_file(fields: Mapping[str, Any], spread: Sequence[str] = ()) -> str:
    """A file's top struct as RON text (a space file, a game description): a field a
    line, and each list named in ``spread`` an item a line."""
    out = "(\n"
    for k, v in fields.items():
        if k in spread:
            out += f"    {k}: [\n" + "".join(f"        {ron(x)},\n" for x in v) + "    ],\n"
        else:
            out += f"    {k}: {ron(v)},\n"
    return out + ")\n"


def dimensions(dims: Any) -> List[Dict[str, Any]]:
    """Dimensions written as a space dict writes them (a dict by name or a list of
    dicts with a ``"name"``), checked, as the structs a space file's ``dims`` holds
    (for :func:`ron`)."""
    if isinstance(dims, Mapping):
        items = [dict(d, name=n) for n, d in dims.items()]
    elif isinstance(dims, (list, tuple)):
        items = [dict(d) for d in dims]
    else:
        raise PlaytuneError("a space dict needs `dims`: a dict by name or a list of dicts")
    out = []
    for d in items:
        name = d.pop("name", None)
        if not isinstance(name, str):
            raise PlaytuneError(f"a dimension needs a string `name`: {d!r}")
        default = d.pop("default", None)
        step = d.pop("step", None)
        levels = d.pop("levels", None)
        kinds = [k for k in ("int", "float", "list", "categories", "bool") if k in d]
        if len(kinds) != 1:
            raise PlaytuneError(
                f"dimension {name}: give one of int, float, list, categories, bool"
            )
        kind = kinds[0]
        arg = d.pop(kind)
        if d:
            raise PlaytuneError(f"dimension {name}: unknown keys {sorted(d)}")
        if step is not None and kind != "int":
            raise PlaytuneError(f"dimension {name}: step is for int dimensions, not {kind}")
        if levels is not None and kind != "float":
            raise PlaytuneError(f"dimension {name}: levels is for float dimensions, not {kind}")
        if levels is not None and (isinstance(levels, bool) or not isinstance(levels, int)):
            raise PlaytuneError(f"dimension {name}: levels takes a whole number, not {levels!r}")
        if kind in ("int", "float", "list"):
            values = list(arg) if isinstance(arg, (list, tuple)) else [arg]
            for v in values + ([step] if step is not None else []):
                if isinstance(v, bool) or not isinstance(v, (int, float)):
                    raise PlaytuneError(f"dimension {name}: {kind} takes numbers, not {v!r}")
        step = 1 if step is None else step
        if kind == "int":
            lo, hi = arg
            for bound in (lo, hi, step):
                if isinstance(bound, bool) or not float(bound).is_integer():
                    raise PlaytuneError(
                        f"dimension {name}: int takes whole numbers, not {bound!r} (a float dimension takes the rest)"
                    )
            domain = Variant("Int", {"min": int(lo), "max": int(hi), "step": int(step)})
        elif kind == "float":
            lo, hi = arg
            levels = int(9 if levels is None else levels)
            domain = Variant("Float", {"min": float(lo), "max": float(hi), "levels": levels})
        elif kind == "list":
            domain = Variant("List", [float(x) for x in arg])
        elif kind == "categories":
            domain = Variant("Categories", [str(x) for x in arg])
        else:
            domain = Variant("Bool")
        dim: Dict[str, Any] = {"name": name, "kind": domain}
        if default is not None:
            dim["default"] = default
        out.append(dim)
    return out


def space_from_dict(spec: Mapping[str, Any]) -> Space:
    """A space from a dict, checked as a space file is.

    ``{"name": "bot", "dims": {"depth": {"int": [1, 10]}, "c": {"float": [0.0, 2.0],
    "levels": 9}, "style": {"categories": ["calm", "wild"]}, "rush": {"bool": True},
    "radius": {"list": [25, 50, 100]}}}``; each dimension may add ``"default"``
    (a value) and ``"step"`` (int); ``dims`` may also be a list
    of dicts each with a ``"name"``. ``"groups"`` maps a group name to dimension names,
    ``"constraints"`` is a list of constraint strings.
    """
    if not isinstance(spec, Mapping):
        raise PlaytuneError("a space dict needs `name` and `dims`")
    dims = dimensions(spec.get("dims"))
    fields: Dict[str, Any] = {"name": str(spec.get("name", "space")), "dims": dims}
    groups = spec.get("groups")
    if groups:
        fields["groups"] = [{"name": g, "dims": list(ds)} for g, ds in groups.items()]
    constraints = spec.get("constraints")
    if constraints:
        fields["constraints"] = list(constraints)
    return Space.from_ron(ron_file(fields, spread=("dims",)), "<dict>")


def _space(space: Union[Space, Mapping[str, Any], str, os.PathLike, None]) -> Optional[Space]:
    if space is None or isinstance(space, Space):
        return space
    if isinstance(space, Mapping):
        return space_from_dict(space)
    return load_space(space)
