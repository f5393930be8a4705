"""Spaces: RON files and text, and spaces from dicts."""

from __future__ import annotations

import os
from typing import Any, List, Mapping, Optional, Union

from ._playtune import PlaytuneError, Space


def load_space(path: Union[str, os.PathLike]) -> Space:
    """Reads a space file (RON), as ``--space`` does."""
    return Space.load(os.fspath(path))


def parse_space(text: str, file: str = "<string>") -> Space:
    """Parses the text of a space file (RON); ``file`` names it in errors."""
    return Space.from_ron(text, file)


def _ron_string(s: str) -> str:
    return '"' + s.replace("\\", "\\\\").replace('"', '\\"') + '"'


def _ron_value(v: Any) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, str):
        return _ron_string(v)
    if isinstance(v, float):
        return repr(v) if "." in repr(v) or "e" in repr(v) else repr(v) + ".0"
    return str(v)


def _dim_lines(dims: Any) -> List[str]:
    """Dimensions written as a space dict writes them (a dict by name or a list of
    dicts with a ``"name"``), as the RON lines a space file holds."""
    if isinstance(dims, Mapping):
        items = [dict(d, name=n) for n, d in dims.items()]
    elif isinstance(dims, (list, tuple)):
        items = [dict(d) for d in dims]
    else:
        raise PlaytuneError("a space dict needs `dims`: a dict by name or a list of dicts")
    lines = []
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
            text = f"Int(min: {int(lo)}, max: {int(hi)}, step: {int(step)})"
        elif kind == "float":
            lo, hi = arg
            text = f"Float(min: {float(lo)!r}, max: {float(hi)!r}, levels: {int(9 if levels is None else levels)})"
        elif kind == "list":
            text = "List([" + ", ".join(_ron_value(float(x)) for x in arg) + "])"
        elif kind == "categories":
            text = "Categories([" + ", ".join(_ron_string(str(x)) for x in arg) + "])"
        else:
            text = "Bool"
        line = f"(name: {_ron_string(name)}, kind: {text}"
        if default is not None:
            line += f", default: {_ron_value(default)}"
        lines.append(line + ")")
    return lines


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
    lines = _dim_lines(spec.get("dims"))
    out = f"(\n    name: {_ron_string(str(spec.get('name', 'space')))},\n    dims: [\n"
    out += "".join(f"        {line},\n" for line in lines) + "    ],\n"
    groups = spec.get("groups")
    if groups:
        out += "    groups: [" + ", ".join(
            f"(name: {_ron_string(g)}, dims: [" + ", ".join(_ron_string(x) for x in ds) + "])"
            for g, ds in groups.items()
        ) + "],\n"
    constraints = spec.get("constraints")
    if constraints:
        out += "    constraints: [" + ", ".join(_ron_string(c) for c in constraints) + "],\n"
    out += ")\n"
    return Space.from_ron(out, "<dict>")


def _space(space: Union[Space, Mapping[str, Any], str, os.PathLike, None]) -> Optional[Space]:
    if space is None or isinstance(space, Space):
        return space
    if isinstance(space, Mapping):
        return space_from_dict(space)
    return load_space(space)
