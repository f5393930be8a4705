"""playtune from Python: design games and tune game-playing bots.

The optimisers (random search, RMHC, B-RMHC, NTBEA, MAP-Elites), the run folders and
the built-in games are the Rust crate's own; this package is a thin layer over them.

- :func:`optimizer` gives an optimiser driven by ask/tell from a Python loop, in memory.
- :func:`create_run` / :func:`open_run` give a :class:`Run`: a run folder the command
  line reads and writes too (``playtune resume``, ``report``, ``plot``, ``ask``,
  ``tell``). :meth:`Run.run` drives it: a Python function, or the run's built-in problem.
- :func:`evaluate`, :func:`tournament`, :func:`problem_info` and :func:`catalogue` reach
  the built-in problems and games.
- :mod:`playtune.optuna` holds an NTBEA sampler for Optuna; :mod:`playtune.journal`
  exports a run folder to Optuna's journal storage.

Every error is a :class:`PlaytuneError` (a ``ValueError``) with the command line's
message. See ``docs/python.md``.
"""

from __future__ import annotations

import os
import sys
import unicodedata
from typing import Any, Callable, Dict, Iterable, List, Mapping, NamedTuple, Optional, Sequence, Tuple, Union

from . import _playtune
from ._playtune import PlaytuneError, Space, catalogue
from .games import Game, register_game

__version__: str = _playtune.__version__

__all__ = [
    "PlaytuneError",
    "Space",
    "Optimizer",
    "Run",
    "load_space",
    "parse_space",
    "space_from_dict",
    "optimizer",
    "create_run",
    "open_run",
    "resume",
    "evaluate",
    "tournament",
    "problem_info",
    "ProblemInfo",
    "catalogue",
    "algorithm_config",
    "agent_spec",
    "Game",
    "register_game",
]

Point = Dict[str, Any]
Result = Any  # a fitness, (fitness, features), {"fitness": f, "features": {...}}, or None


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
        step = d.pop("step", 1)
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


def algorithm_config(
    algorithm: str,
    space: Space,
    settings: Optional[Mapping[str, Any]] = None,
    tie_break: Optional[str] = None,
) -> str:
    """An optimiser's configuration as ``config.ron`` records it (RON text).

    ``algorithm`` is random, rmhc, brmhc, ntbea or map-elites; ``settings`` override
    its declared defaults by the command line's names with ``_`` for ``-`` (NTBEA:
    ``k``, ``k_absolute``, ``epsilon``, ``neighbours``, ``tuples`` such as ``"1+2"``,
    ``runs``, ``batch``...; MAP-Elites: ``batch``, ``axes`` such as ``["f=0:1:10"]``,
    ``emitters`` such as ``["gaussian", "iso-line"]`` with ``sigma`` and
    ``line_sigma``, ``archive`` ``"cvt"`` with ``centroids``, ``better``,
    ``init_random``...; every one in docs/optimizers.md's settings table).
    """
    return _playtune.algorithm_ron(algorithm, dict(settings or {}), space, tie_break)


class Optimizer:
    """An optimiser driven by ask and tell, in memory (no run folder).

    ``ask()`` gives a batch of candidates (dicts with ``id``, ``point`` by name,
    ``values`` in the space's order and ``phase``); ``tell()`` takes every result of
    that batch; ``recommend()`` gives the optimiser's answer.
    """

    def __init__(
        self,
        space: Union[Space, Mapping[str, Any], str, os.PathLike],
        algorithm: str = "ntbea",
        budget: int = 200,
        seed: int = 0,
        features: Sequence[str] = (),
        axes: Sequence[str] = (),
        **settings: Any,
    ) -> None:
        self.space: Space = _space(space)  # type: ignore[assignment]
        self.features: List[str] = _feature_names(features)
        ron = algorithm_config(algorithm, self.space, settings)
        self._inner = _playtune.Optimizer(self.space, ron, budget, seed, self.features, list(axes))
        self._batch: List[Dict[str, Any]] = []

    @property
    def algorithm(self) -> str:
        """The configuration as ``config.ron`` records it."""
        return self._inner.algorithm

    def ask(self) -> List[Dict[str, Any]]:
        """The next batch of candidates; empty when the budget is spent."""
        self._batch = self._inner.ask()
        return self._batch

    def tell(self, results: Union[Mapping[int, Result], Iterable[Tuple[Any, Result]]]) -> None:
        """Tells the whole batch's results: ``{id: result}`` or ``[(candidate, result)]``.

        A result is a fitness (higher is better), ``(fitness, features)``,
        ``{"fitness": f, "features": {...}}``, or ``None`` for a failed evaluation.
        """
        if not isinstance(results, Mapping):
            results = {(c["id"] if isinstance(c, Mapping) else int(c)): r for c, r in results}
        self._inner.tell(dict(results))

    def ask_array(self) -> Tuple[Any, Any]:
        """The next batch as numpy arrays (pyribs' shape): ``(ids, values)``, values of
        shape (batch, dimensions) in the space's order."""
        import numpy as np

        batch = self.ask()
        ids = np.array([c["id"] for c in batch], dtype=np.int64)
        values = np.array([c["values"] for c in batch], dtype=np.float64).reshape(len(batch), len(self.space))
        return ids, values

    def tell_array(self, ids: Any, fitness: Any, features: Any = None) -> None:
        """Tells a batch from numpy arrays: ``fitness`` of shape (batch,), ``features``
        of shape (batch, features); a NaN fitness is a failed evaluation."""
        import numpy as np

        fitness = np.asarray(fitness, dtype=np.float64)
        feats = None if features is None else np.asarray(features, dtype=np.float64)
        results: Dict[int, Result] = {}
        for j, i in enumerate(np.asarray(ids).tolist()):
            if not np.isfinite(fitness[j]):
                results[int(i)] = None
            elif feats is None:
                results[int(i)] = float(fitness[j])
            else:
                results[int(i)] = (float(fitness[j]), [float(x) for x in feats[j]])
        self._inner.tell(results)

    def recommend(self) -> Dict[str, Any]:
        """The optimiser's answer: ``point``, ``values``, ``estimate``, ``se``, ``samples``."""
        return self._inner.recommend()

    def elites(self) -> Optional[List[Dict[str, Any]]]:
        """MAP-Elites: the archive's elites; None for the other optimisers."""
        return self._inner.elites()

    def metrics(self) -> List[Dict[str, Any]]:
        """MAP-Elites: coverage, QD score and best fitness after each batch."""
        return self._inner.metrics()

    def optimize(self, func: Callable[[Point], Result], progress: bool = False) -> Dict[str, Any]:
        """Drives the loop: evaluates every candidate with ``func(point)`` until the
        budget is spent; returns the recommendation. An exception in ``func`` is a
        failed evaluation; Ctrl-C stops the loop."""
        func = _point_function(func, seeded=False)
        bar = _Progress(progress, None)
        try:
            while True:
                batch = self.ask()
                if not batch:
                    return self.recommend()
                results: Dict[int, Result] = {}
                for c in batch:
                    try:
                        results[c["id"]] = func(c["point"])
                    except Exception:  # a failed evaluation, told as such
                        results[c["id"]] = None
                    bar.update(1)
                self.tell(results)
        finally:
            bar.close()


def optimizer(
    space: Union[Space, Mapping[str, Any], str, os.PathLike],
    algorithm: str = "ntbea",
    budget: int = 200,
    seed: int = 0,
    features: Sequence[str] = (),
    axes: Sequence[str] = (),
    **settings: Any,
) -> Optimizer:
    """An in-memory ask/tell optimiser over ``space`` (a Space, a dict or a space file)."""
    return Optimizer(space, algorithm, budget, seed, features, axes, **settings)


class _Progress:
    """A progress bar on standard error: tqdm's if it is installed, else a plain line."""

    def __init__(self, show: bool, total: Optional[int]) -> None:
        self.show = show
        self.n = 0
        self.total = total
        self.bar = None
        if show:
            try:
                from tqdm.auto import tqdm

                self.bar = tqdm(total=total, unit="eval", file=sys.stderr)
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
            print(f"\r{self.n}{of} evaluations", end="", file=sys.stderr, flush=True)

    def close(self) -> None:
        if self.bar is not None:
            self.bar.close()
        elif self.show and self.n:
            print(file=sys.stderr)


class Run:
    """A run folder, open and locked (as a running command holds it).

    What it writes is what ``playtune optimize``/``map-elites``/``tell`` write: the
    command line resumes, reports and plots it, and a run it made opens here.
    """

    def __init__(self, path: Union[str, os.PathLike]) -> None:
        self._folder = _playtune.RunFolder(os.fspath(path))
        self.path: str = self._folder.path
        self.space: Space = self._folder.space
        self.features: List[str] = self._folder.features

    def __enter__(self) -> "Run":
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()

    def __repr__(self) -> str:
        return f"Run({self.path!r})"

    @property
    def manual(self) -> bool:
        """Whether the run is evaluated outside playtune (problem ``manual``): by a
        Python function or by telling results."""
        return self._folder.manual

    def config(self) -> Dict[str, Any]:
        """The run's ``config.ron``."""
        return self._folder.config()

    def ask(self) -> List[Dict[str, Any]]:
        """The candidates the run waits for (``playtune ask``): dicts with ``id``,
        ``trial``, ``seed``, ``phase``, ``point`` and ``values``; empty when finished."""
        state, what = self._folder.step()
        return [] if state == "finished" else what

    def tell(self, results: Iterable[Tuple[Mapping[str, Any], Result]]) -> None:
        """Records results (``playtune tell``): ``[(candidate, result)]``, a result as
        :meth:`Optimizer.tell` takes it or a string saying why the evaluation failed."""
        items = []
        for c, r in results:
            items.append((int(c.get("trial", 0)), int(c["id"]), r))
        self._folder.tell(items)

    def ask_array(self) -> Tuple[List[Dict[str, Any]], Any]:
        """The candidates waited for and their values as a numpy array of shape
        (candidates, dimensions), in the space's order (pyribs' shape)."""
        import numpy as np

        batch = self.ask()
        values = np.array([c["values"] for c in batch], dtype=np.float64).reshape(len(batch), len(self.space))
        return batch, values

    def tell_array(self, candidates: Sequence[Mapping[str, Any]], fitness: Any, features: Any = None) -> None:
        """Records results from numpy arrays: ``fitness`` of shape (candidates,),
        ``features`` of shape (candidates, features) in the run's feature order; a NaN
        fitness is a failed evaluation."""
        import numpy as np

        fitness = np.asarray(fitness, dtype=np.float64)
        feats = None if features is None else np.asarray(features, dtype=np.float64)
        told: List[Tuple[Mapping[str, Any], Result]] = []
        for j, c in enumerate(candidates):
            if not np.isfinite(fitness[j]):
                told.append((c, "the fitness is NaN, not a finite number"))
            elif feats is None:
                told.append((c, float(fitness[j])))
            else:
                told.append((c, (float(fitness[j]), [float(x) for x in feats[j]])))
        self.tell(told)

    def finished(self) -> bool:
        """Whether every evaluation is in (then ``result.ron`` is written)."""
        return self._folder.step()[0] == "finished"

    def result(self) -> Dict[str, Any]:
        """The run's result (as ``result.ron`` holds it); a PlaytuneError while the run
        still waits for evaluations."""
        state, what = self._folder.step()
        if state != "finished":
            raise PlaytuneError(
                f"run {self.path} is not finished: {len(what)} candidate(s) wait for results"
            )
        return what

    def run(
        self,
        func: Optional[Callable[..., Result]] = None,
        progress: bool = True,
    ) -> Dict[str, Any]:
        """Drives the run to its end, in one pass as ``playtune optimize`` does, and
        returns its result.

        A run of a built-in problem evaluates in Rust, in parallel, the GIL released;
        a ``manual`` run calls ``func(point)`` (or ``func(point, seed)`` if it takes
        two arguments) for each candidate, on this thread; a ``func`` that cannot be
        called so is a TypeError before anything is evaluated. An exception in ``func``
        (or a string or None it returns) is a failed evaluation, tried again with the
        same seed and recorded in ``failures.jsonl``, as the command line records
        one. Ctrl-C stops the run, every batch finished before kept in the folder
        (for a built-in problem at once: its external evaluators are killed and the
        batch in flight dropped): :func:`resume` or ``playtune resume`` goes on from
        there.
        """
        call = None if func is None else _point_function(func, seeded=True)
        cfg = self.config()
        total = int(cfg["budget"]) * int(cfg["trials"])
        bar = _Progress(progress, total)
        try:
            # One pass, as `playtune optimize` runs: the folder's logs are read once,
            # the optimisers kept in memory; a failure is tried again with the same
            # seed, as the command line tries a failing evaluator again
            # (`faults.retries`).
            return self._folder.drive(call, bar.update if progress else None)
        except KeyboardInterrupt:
            print(
                f"\ninterrupted: every evaluation done is in {self.path}; "
                f"playtune.resume({self.path!r}) or `playtune resume {self.path}` goes on from there",
                file=sys.stderr,
            )
            raise
        finally:
            bar.close()

    def close(self) -> None:
        """Unlocks the folder."""
        self._folder.close()


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


def create_run(
    problem: str = "manual",
    space: Union[Space, Mapping[str, Any], str, os.PathLike, None] = None,
    algorithm: str = "ntbea",
    budget: int = 200,
    trials: int = 1,
    seed: int = 0,
    runs_dir: Union[str, os.PathLike] = "runs",
    name: Optional[str] = None,
    settings: Optional[Mapping[str, Any]] = None,
    features: Sequence[str] = (),
    retries: int = 2,
    max_failures: float = 0.2,
    race: Optional[float] = None,
    **algorithm_settings: Any,
) -> Run:
    """Creates a run folder as ``playtune optimize`` (``map-elites``) does and opens it.

    ``race``: the share of each trial's budget that races the strongest candidates
    before recommending (``--race``); 0 for none (``--no-race``); ``None``, the
    command line's default (random search and the hill climbers race a quarter on
    ``design`` and ``tune-agent``).

    ``problem`` is a built-in problem (``settings`` as ``--set``) or ``"manual"`` (the
    default): points evaluated in Python, over ``space``, reporting ``features``.
    ``algorithm`` and ``algorithm_settings`` as :func:`algorithm_config` takes them.
    The folder is ``runs_dir/name`` (default ``PROBLEM-ALGO-sSEED``, made unique).
    """
    sp = _space(space)
    sets = {str(k): _setting(v) for k, v in (settings or {}).items()}
    names = _feature_names(features)
    if names:
        if problem not in _USER_FEATURES:
            raise PlaytuneError(
                "features are for problems manual and command: a built-in problem names its own"
            )
        sets["features"] = ",".join(names)
    tie_break = None
    info_space = sp
    if problem != "manual":
        info_space_default, _, tie_break, _ = problem_info(problem, sets, space=sp)
        if info_space is None:
            info_space = info_space_default
    if info_space is None:
        raise PlaytuneError("problem manual needs a space: the points it evaluates")
    ron = algorithm_config(algorithm, info_space, algorithm_settings, tie_break)
    # A space file is recorded by its path, as `--space PATH` records it.
    space_file = os.fspath(space) if isinstance(space, (str, os.PathLike)) else None
    path = _playtune.create_run(
        os.fspath(runs_dir), name, problem, sets, sp, ron, budget, trials, seed,
        retries, max_failures, True, space_file, race,
    )
    return Run(path)


#: The problems whose features the user names (their ``features`` setting).
_USER_FEATURES = ("manual", "command")


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


def open_run(path: Union[str, os.PathLike]) -> Run:
    """Opens (and locks) an existing run folder, made here or by the command line."""
    return Run(path)


def resume(
    path: Union[str, os.PathLike],
    func: Optional[Callable[..., Result]] = None,
    progress: bool = True,
) -> Dict[str, Any]:
    """Goes on with an interrupted run (as ``playtune resume``) and returns its result."""
    with Run(path) as r:
        return r.run(func, progress=progress)


class ProblemInfo(NamedTuple):
    """What :func:`problem_info` tells of a problem; a tuple too, in this order."""

    #: The space it searches.
    space: Space
    #: The features each evaluation reports.
    features: List[str]
    #: The feature MAP-Elites breaks fitness ties on, if any.
    tie_break: Optional[str]
    #: Its default MAP-Elites grid: one dict per axis.
    axes: List[Dict[str, Any]]


def problem_info(
    problem: str,
    settings: Optional[Mapping[str, Any]] = None,
    space: Union[Space, Mapping[str, Any], str, os.PathLike, None] = None,
) -> ProblemInfo:
    """A built-in problem under ``settings``: its space, the features each evaluation
    reports, the feature MAP-Elites breaks fitness ties on (if any) and its default
    MAP-Elites grid, by name (``info.features``) or unpacked as before. ``space``: the
    space searched, checked against the problem's; ``command`` (an external program)
    needs one, as ``--space`` gives it."""
    sets = {str(k): _setting(v) for k, v in (settings or {}).items()}
    return ProblemInfo(*_playtune.problem_info(problem, sets, _space(space)))


def evaluate(
    problem: str,
    point: Optional[Mapping[str, Any]] = None,
    seed: int = 0,
    settings: Optional[Mapping[str, Any]] = None,
    space: Union[Space, Mapping[str, Any], str, os.PathLike, None] = None,
) -> Dict[str, Any]:
    """Evaluates a point (by name; the dimensions left out take their defaults) of a
    built-in problem with ``seed``: ``{"fitness": f, "features": {...}}``. The
    ``design`` problem's features are the game-design metrics. ``space`` as
    :func:`problem_info` takes it (``command`` needs one)."""
    sets = {str(k): _setting(v) for k, v in (settings or {}).items()}
    return _playtune.evaluate(problem, dict(point or {}), seed, sets, _space(space))


def agent_spec(
    problem: str, point: Mapping[str, Any], settings: Optional[Mapping[str, Any]] = None
) -> Optional[str]:
    """A point of an agent-tuning problem (``tune-agent``, ``rinascimento-agent``,
    ``strategy-hps``) as the agent spec :func:`tournament` and ``playtune play`` take;
    None for a problem that tunes no agent."""
    sets = {str(k): _setting(v) for k, v in (settings or {}).items()}
    return _playtune.agent_spec(problem, dict(point), sets)


def tournament(
    game: str,
    agents: Sequence[str] = (),
    games: int = 10,
    seed: int = 0,
    settings: Optional[Mapping[str, Any]] = None,
    budget: Optional[int] = None,
) -> Dict[str, Any]:
    """Plays ``games`` games between agent specs (``playtune tournament``); the
    result holds each agent's win rate and the games' design metrics (``design``).
    The GIL is released while the games play."""
    sets = [(str(k), _setting(v)) for k, v in (settings or {}).items()]
    return _playtune.tournament(game, list(agents), games, seed, sets, budget)
