"""Helpers the package's modules share: result types, progress, settings text."""

from __future__ import annotations

import sys
import unicodedata
from typing import Any, Callable, Dict, List, Optional

from ._playtune import PlaytuneError


Point = Dict[str, Any]
Result = Any  # a fitness, (fitness, features), {"fitness": f, "features": {...}}, or None


class _Progress:
    """A progress bar on standard error: tqdm's if it is installed, else a plain line."""

    def __init__(self, show: bool, total: Optional[int], what: str = "evaluations") -> None:
        self.show = show
        self.what = what
        self.n = 0
        self.total = total
        self.bar = None
        if show:
            try:
                from tqdm.auto import tqdm

                self.bar = tqdm(total=total, unit="eval", desc=None if what == "evaluations" else what, file=sys.stderr)
            except ImportError:
                self.bar = None

    def update(self, k: int) -> None:
        if not self.show or k <= 0:
            return
        self.n += k
        if self.bar is not None:
            self.bar.update(k)
        else:
            of = f"/{self.total}" if self.total else ""
            print(f"\r{self.n}{of} {self.what}", end="", file=sys.stderr, flush=True)

    def close(self) -> None:
        if self.bar is not None:
            self.bar.close()
        elif self.show and self.n:
            print(file=sys.stderr)


def _point_function(func: Any, seeded: bool) -> Callable[..., Result]:
    """``func`` as the evaluation loop calls it: ``f(point, seed)`` when ``seeded`` (a
    ``func(point)`` wrapped), else ``f(point)``. Checked before anything is evaluated:
    an exception in ``func`` is a failed evaluation, so a function that cannot be
    called with a point would otherwise fail every point, one by one."""
    import inspect

    if not callable(func):
        raise TypeError(f"func must be a function of a point, func(point) or func(point, seed); got {func!r}")
    try:
        sig = inspect.signature(func)
    except (TypeError, ValueError):
        sig = None  # a callable whose signature Python cannot read: taken as func(point)
    if sig is not None:
        point: Dict[str, Any] = {}
        for args in ((point, 0), (point,)) if seeded else ((point,),):
            try:
                sig.bind(*args)
            except TypeError:
                continue
            if len(args) == 2:
                return func
            break
        else:
            takes = "func(point) or func(point, seed)" if seeded else "func(point)"
            raise TypeError(f"func {getattr(func, '__name__', repr(func))}{sig} cannot be called as {takes}")
    return (lambda point, seed: func(point)) if seeded else func


def _feature_names(features: Any) -> List[str]:
    """Feature names as a run's ``features`` setting keeps them: the logs separate names
    by commas and trim the spaces around them, so a name that would not come back whole
    is refused, as is a string (which would be read as one name per character)."""
    if isinstance(features, (str, bytes)):
        raise TypeError(f"features is a list of names, got a string: {features!r} (give [{features!r}])")
    names = list(features)
    for name in names:
        if not isinstance(name, str):
            raise TypeError(f"features is a list of names (strings), got {name!r}")
        why = None
        if not name.strip():
            why = "it is blank"
        elif "," in name:
            why = "it holds a comma, which separates names in the logs"
        elif name != name.strip():
            why = "it starts or ends with a space, which the logs trim"
        elif any(unicodedata.category(c) == "Cc" for c in name):
            why = "it holds a control character"
        if why:
            raise PlaytuneError(f"features: {name!r} cannot name a feature: {why}")
        if names.count(name) > 1:
            raise PlaytuneError(f"features: {name!r} is named twice")
    return names


def _setting(v: Any) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, (list, tuple)):
        return ",".join(str(x) for x in v)
    return str(v)
