"""Run folders: created, opened, driven and resumed as the command line does."""

from __future__ import annotations

import numbers
import os
import sys
from typing import Any, Callable, Dict, Iterable, List, Mapping, Optional, Sequence, Tuple, Union

from . import _playtune
from ._playtune import PlaytuneError, Space
from ._common import Result, _Progress, _feature_names, _point_function, _setting
from .optimizers import algorithm_config
from .problems import problem_info
from .spaces import _space


class Run:
    """A run folder, open and locked (as a running command holds it).

    What it writes is what ``playtune optimize``/``map-elites``/``tell`` write: the
    command line resumes, reports and plots it, and a run it made opens here.
    """

    def __init__(self, path: Union[str, os.PathLike]) -> None:
        from .games import check_script_guard

        check_script_guard("open_run")
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
        verdict: Optional[int] = None,
        executor: str = "local",
        slurm_args: str = "",
        tasks: int = 16,
        poll: float = 10.0,
    ) -> Dict[str, Any]:
        """Drives the run to its end, in one pass as ``playtune optimize`` does, and
        returns its result.

        A design or tuning run then ends with its verdict, as the command line's does:
        each recommendation and the problem's own baseline (the game's own rules, the
        untuned agent) played in pairs on fresh seeds common to both until one answer
        is shown (better or worse by the problem's margin, or equal within it), at
        most ``verdict`` pairs (by default the command line's cap, the budget, 40 to
        1,000; 0 skips it), kept in the result's trials (``trials[i]["verdict"]``) and in
        ``result.ron``. Every evaluation the verdict plays is kept in the run's
        ``verdict.jsonl``: a run stopped during its verdict goes on where it stopped,
        and a finished run judged again gets the same verdict without playing.

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

        ``executor="slurm"`` evaluates on a Slurm cluster from this machine (its login
        node), as ``playtune optimize --executor slurm`` does, with no ``playtune``
        binary: each batch the search waits for is a job array of at most ``tasks``
        tasks, each running this Python with the wheel (``python -m playtune task
        ...``), so the nodes must see this Python and the run folder on a shared
        filesystem. ``slurm_args`` are extra sbatch options (partition, time limit,
        account); ``poll`` is the longest wait in seconds between two looks at the
        queue. The run's files are, row for row, a local run's; the verdict is then
        played here. Ctrl-C stops the wait (the tasks go on; the same call again
        collects them). A ``manual`` run is evaluated by ``func`` here, never on
        Slurm.
        """
        if executor not in ("local", "slurm"):
            raise PlaytuneError(f'executor={executor!r}: one of "local", "slurm"')
        if executor == "slurm":
            if func is not None:
                raise PlaytuneError(
                    "executor=\"slurm\" evaluates the run's own problem on the cluster: "
                    "a Python function runs here (executor=\"local\")"
                )
            return self._run_on_slurm(progress, verdict, slurm_args, tasks, poll)
        call = None if func is None else _point_function(func, seeded=True)
        cfg = self.config()
        total = int(cfg["budget"]) * int(cfg["trials"])
        bar = _Progress(progress, total)
        # A resumed run's bar starts at what its logs hold, as the command line's.
        bar.update(self._folder.logged() if progress else 0)
        try:
            # One pass, as `playtune optimize` runs: the folder's logs are read once,
            # the optimisers kept in memory; a failure is tried again with the same
            # seed, as the command line tries a failing evaluator again
            # (`faults.retries`).
            if progress:
                result = self._drive_with_verdict_bar(call, bar, verdict)
            else:
                result = self._folder.drive(call, None, verdict, None)
            self._print_verdicts(result, progress)
            return result
        except KeyboardInterrupt:
            print(
                f"\ninterrupted: every evaluation done is in {self.path}; "
                f"playtune.resume({self.path!r}) or `playtune resume {self.path}` goes on from there",
                file=sys.stderr,
            )
            raise
        finally:
            bar.close()

    def _run_on_slurm(
        self, progress: bool, verdict: Optional[int], slurm_args: str, tasks: int, poll: float
    ) -> Dict[str, Any]:
        bars: Dict[str, Any] = {}
        tick = self._verdict_tick(bars, verdict) if progress else None
        program = [sys.executable, "-m", "playtune"]
        try:
            result = self._folder.drive_slurm(program, slurm_args, tasks, poll, progress, verdict, tick)
            self._print_verdicts(result, progress)
            return result
        finally:
            if "verdict" in bars:
                bars["verdict"].close()

    def _verdict_tick(self, bars: Dict[str, Any], verdict: Optional[int], before: Optional["_Progress"] = None) -> Callable[[int], None]:
        def tick(k: int) -> None:
            if "verdict" not in bars:
                if before is not None:
                    before.close()
                n = self._folder.default_verdict() if verdict is None else verdict
                trials = int(self.config()["trials"])
                bars["verdict"] = _Progress(True, 2 * n * trials, "verdict evaluations")
            bars["verdict"].update(k)

        return tick

    def _drive_with_verdict_bar(self, call: Any, bar: "_Progress", verdict: Optional[int]) -> Dict[str, Any]:
        bars: Dict[str, Any] = {}
        tick = self._verdict_tick(bars, verdict, bar)
        try:
            return self._folder.drive(call, bar.update, verdict, tick)
        finally:
            if "verdict" in bars:
                bars["verdict"].close()

    @staticmethod
    def _print_verdicts(result: Mapping[str, Any], progress: bool) -> None:
        if not progress:
            return
        for t in result.get("trials", []):
            v = t.get("verdict")
            if v:
                print(f"verdict, trial {t.get('trial', 0)}: {v['sentence']}", file=sys.stderr)

    def close(self) -> None:
        """Unlocks the folder."""
        self._folder.close()


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
    race_baseline: str = "entrant",
    intensify: bool = True,
    ladder_check: str = "warn",
    ladder_check_games: Optional[int] = None,
    quiet: bool = False,
    **algorithm_settings: Any,
) -> Run:
    """Creates a run folder as ``playtune optimize`` (``map-elites``) does and opens it.

    ``race``: the share of each trial's budget that races the strongest candidates
    before recommending (``--race``); 0 for none (``--no-race``); ``None``, the
    command line's default (every optimiser but MAP-Elites races a quarter on
    ``design`` and ``tune-agent``). ``race_baseline`` (``--race-baseline``): how the
    problem's own baseline takes part in the race: ``"entrant"`` (the default), one
    candidate like the others; ``"incumbent"``, recommended unless a candidate beats it
    with confidence; ``"none"``, left out. ``intensify`` (``--no-intensify`` when
    false): NTBEA's points that could still beat the best so far are measured again
    during the search, on its seeds, on problems judged against a baseline of their
    own.

    Before the folder is made, as ``playtune optimize`` does, on standard error: a
    ``design`` run's ladder is built where the game declares none, or else checked at
    the game's own rules (``ladder_check`` as ``--ladder-check``: ``"warn"`` says where
    a rung is not shown stronger than the one below, ``"use"`` searches on the ordered
    ladder proposed, ``"off"`` skips the check; ``ladder_check_games`` as
    ``--ladder-check-games``), and a run judged against a baseline says what it will
    cost. ``quiet=True`` says nothing (as ``-q``).

    ``problem`` is a built-in problem (``settings`` as ``--set``) or ``"manual"`` (the
    default): points evaluated in Python, over ``space``, reporting ``features``.
    ``algorithm`` and ``algorithm_settings`` as :func:`algorithm_config` takes them.
    The folder is ``runs_dir/name`` (default ``PROBLEM-GAME-ALGO-sSEED`` for a
    problem that plays a game, else ``PROBLEM-ALGO-sSEED``, made unique).
    """
    from .games import check_script_guard, reference

    sp = _space(space)
    sets = {str(k): _setting(v) for k, v in (settings or {}).items()}
    # Before the folder is made: a script run again by a game process makes none.
    check_script_guard("create_run", sets.get("game"))
    if "game" in sets:
        # A game registered to play in worker processes is recorded by its reference,
        # which the command line resolves (`playtune resume`, `reevaluate`, `report`).
        sets["game"] = reference(sets["game"])
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
    if ladder_check_games is not None and (isinstance(ladder_check_games, bool) or not isinstance(ladder_check_games, numbers.Integral) or ladder_check_games < 0):
        raise PlaytuneError(f"ladder_check_games={ladder_check_games!r}: give a whole number of games a pair of rungs")
    path = _playtune.create_run(
        os.fspath(runs_dir), name, problem, sets, sp, ron, budget, trials, seed,
        retries, max_failures, True, space_file, race, race_baseline, intensify,
        ladder_check, ladder_check_games, quiet,
    )
    return Run(path)


#: The problems whose features the user names (their ``features`` setting).
_USER_FEATURES = ("manual", "command")


def open_run(path: Union[str, os.PathLike]) -> Run:
    """Opens (and locks) an existing run folder, made here or by the command line."""
    return Run(path)


def resume(
    path: Union[str, os.PathLike],
    func: Optional[Callable[..., Result]] = None,
    progress: bool = True,
    verdict: Optional[int] = None,
    executor: str = "local",
    slurm_args: str = "",
    tasks: int = 16,
    poll: float = 10.0,
) -> Dict[str, Any]:
    """Goes on with an interrupted run (as ``playtune resume``) and returns its result,
    its verdict included (see :meth:`Run.run`); ``executor="slurm"`` goes on on the
    cluster, collecting first what its tasks wrote, as ``playtune resume RUN
    --executor slurm`` does."""
    with Run(path) as r:
        return r.run(func, progress=progress, verdict=verdict, executor=executor,
                     slurm_args=slurm_args, tasks=tasks, poll=poll)
