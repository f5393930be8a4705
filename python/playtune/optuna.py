"""NTBEA as an Optuna sampler: ``optuna.create_study(sampler=NtbeaSampler())``.

NTBEA (the N-Tuple Bandit Evolutionary Algorithm) searches a fixed, discrete space
and is made for noisy objectives: it models the mean of every value and pair of values
it has seen, so one lucky evaluation does not steer it. The sampler maps Optuna's
distributions onto playtune dimensions:

- ``IntDistribution``: every integer ``low..high`` in steps of ``step`` when there are
  at most ``max_levels`` of them, else ``levels`` evenly spaced integers (log-spaced
  when ``log=True``);
- ``FloatDistribution``: with a ``step``, its grid when at most ``max_levels`` values;
  otherwise ``levels`` evenly spaced values from ``low`` to ``high`` (log-spaced when
  ``log=True``);
- ``CategoricalDistribution``: its choices.

As Optuna's other relative samplers do, it samples the first trial independently
(``RandomSampler``) until the search space is known (the intersection of the finished
trials' distributions); parameters outside that space are sampled independently too.

**Its state is the study.** At each sample it brings NTBEA's model up to date with the
study's finished trials it has not seen, whoever ran them (another thread of
``n_jobs``, another process sharing the storage, an enqueued or fixed trial), with the
parameters each really ran, then proposes the best neighbour, by NTBEA's UCB score, of
the latest finished trial, drawn with randomness from the trial's number. A trial
asked and never finished blocks nothing; a study resumed in a new process (or the
sampler unpickled) rebuilds the same model from the trials. A complete trial's value is
learned (negated for a study that minimises); a pruned trial's last intermediate value
stands for its result; a failed trial, or a pruned one without a value, counts as a
visit at the worst value seen, so a region that always fails loses its exploration
bonus. Single-objective studies only: a multi-objective study is refused at its first
trial.
"""

from __future__ import annotations

import math
import threading
from typing import Any, Dict, List, Optional, Sequence

import optuna
from optuna.distributions import (
    BaseDistribution,
    CategoricalDistribution,
    FloatDistribution,
    IntDistribution,
)
from optuna.samplers import BaseSampler, RandomSampler
from optuna.search_space import IntersectionSearchSpace
from optuna.study import Study, StudyDirection
from optuna.trial import FrozenTrial, TrialState

from . import _playtune
from .optimizers import algorithm_config
from .spaces import space_from_dict

__all__ = ["NtbeaSampler"]


def _levels(low: float, high: float, n: int, log: bool) -> List[float]:
    if n <= 1 or high <= low:
        return [low]
    if log:
        a, b = math.log(low), math.log(high)
        return [math.exp(a + (b - a) * i / (n - 1)) for i in range(n)]
    return [low + (high - low) * i / (n - 1) for i in range(n)]


def _choices(dist: BaseDistribution, levels: int, max_levels: int) -> List[Any]:
    """The values NTBEA chooses from for one Optuna distribution."""
    if isinstance(dist, CategoricalDistribution):
        return list(dist.choices)
    if isinstance(dist, IntDistribution):
        step = dist.step or 1
        count = (dist.high - dist.low) // step + 1
        if count <= max_levels and not dist.log:
            return list(range(dist.low, dist.high + 1, step))
        if dist.log and count <= max_levels and dist.high - dist.low + 1 <= max_levels:
            return list(range(dist.low, dist.high + 1))
        raw = _levels(float(dist.low), float(dist.high), levels, dist.log)
        out: List[int] = []
        for x in raw:
            v = dist.low + round((x - dist.low) / step) * step
            v = min(max(v, dist.low), dist.high)
            if v not in out:
                out.append(int(v))
        return out
    if isinstance(dist, FloatDistribution):
        if dist.step is not None:
            count = int(round((dist.high - dist.low) / dist.step)) + 1
            if count <= max_levels:
                return [min(dist.low + i * dist.step, dist.high) for i in range(count)]
        vals = _levels(dist.low, dist.high, levels, dist.log)
        if dist.step is not None:
            vals = sorted({min(dist.low + round((v - dist.low) / dist.step) * dist.step, dist.high) for v in vals})
        return [min(max(v, dist.low), dist.high) for v in vals]
    raise TypeError(f"NtbeaSampler cannot map {dist!r}")


_FINISHED = (TrialState.COMPLETE, TrialState.FAIL, TrialState.PRUNED)


class NtbeaSampler(BaseSampler):
    """An Optuna sampler driven by playtune's NTBEA.

    Args:
        budget: the trials NTBEA plans for (its tuple choice depends on it): the
            study's ``n_trials`` where known; by default 1000.
        seed: the seed of NTBEA's proposals and of the independent sampler.
        levels: values a continuous (or too fine) distribution is cut into.
        max_levels: the most values an integer or stepped distribution keeps whole.
        **settings: NTBEA's settings by the names ``config.ron`` gives them
            (``k``, ``epsilon``, ``neighbours``, ``mutation``, ``tuples`` such as
            ``"1+2"``).
    """

    def __init__(
        self,
        budget: Optional[int] = None,
        seed: Optional[int] = None,
        levels: int = 9,
        max_levels: int = 32,
        **settings: Any,
    ) -> None:
        if int(levels) < 2 or int(max_levels) < 2:
            raise ValueError(
                f"NtbeaSampler: levels {levels}, max_levels {max_levels}: give at least 2 each (one level would fix every distribution at its lower bound)"
            )
        self._budget = 1000 if budget is None else int(budget)
        self._seed = 0 if seed is None else int(seed)
        self._levels = int(levels)
        self._max_levels = int(max_levels)
        self._settings = dict(settings)
        for bad in ("batch", "runs", "selection_budget"):
            if bad in self._settings:
                raise ValueError(
                    f"NtbeaSampler: `{bad}` is not a setting here: parallel workers share one model through the study"
                )
        self._random = RandomSampler(seed=seed)
        self._reset()

    def _reset(self) -> None:
        # What is rebuilt from the study: the model, the space it was built on, and
        # the trials it has learned.
        self._model: Any = None
        self._names: List[str] = []
        self._dists: Dict[str, BaseDistribution] = {}
        self._values: Dict[str, List[Any]] = {}
        self._seen: set = set()
        self._minimize = False
        self._study_id: Any = None
        # Optuna's n_jobs threads share the sampler: one of them at a time in NTBEA.
        self._lock = threading.Lock()

    def __getstate__(self) -> Dict[str, Any]:
        state = self.__dict__.copy()
        for k in ("_model", "_lock", "_seen", "_names", "_dists", "_values", "_study_id"):
            state.pop(k, None)
        return state

    def __setstate__(self, state: Dict[str, Any]) -> None:
        self.__dict__.update(state)
        self._reset()

    def reseed_rng(self) -> None:
        self._random.reseed_rng()

    def infer_relative_search_space(self, study: Study, trial: FrozenTrial) -> Dict[str, BaseDistribution]:
        if len(study.directions) != 1:
            raise ValueError("NtbeaSampler is for single-objective studies")
        if self._model is not None and self._study_id == id(study):
            return dict(self._dists)
        finished = study._get_trials(deepcopy=False, states=_FINISHED, use_cache=True)
        space = {}
        for name, dist in optuna.search_space.intersection_search_space(finished).items():
            if dist.single():
                continue
            space[name] = dist
        return space

    def _build(self, study: Study, search_space: Dict[str, BaseDistribution]) -> None:
        self._minimize = study.direction == StudyDirection.MINIMIZE
        self._names = sorted(search_space)
        self._dists = {n: search_space[n] for n in self._names}
        dims = []
        for i, n in enumerate(self._names):
            values = _choices(search_space[n], self._levels, self._max_levels)
            self._values[n] = values
            dims.append({"name": f"p{i}", "categories": [str(j) for j in range(len(values))]})
        space = space_from_dict({"name": "optuna", "dims": dims})
        ron = algorithm_config("ntbea", space, self._settings)
        self._model = _playtune.NtbeaModel(space, ron, self._budget, self._seed)
        self._seen = set()
        self._study_id = id(study)

    def _index(self, name: str, value: Any) -> Optional[int]:
        """The level of ``name`` a trial's value falls on: its choice, or the nearest."""
        values = self._values[name]
        if isinstance(self._dists[name], CategoricalDistribution):
            for i, v in enumerate(values):
                if v == value or (v is value):
                    return i
            return None
        try:
            x = float(value)
        except (TypeError, ValueError):
            return None
        return min(range(len(values)), key=lambda i: abs(float(values[i]) - x))

    def _catch_up(self, study: Study) -> None:
        """Learns every finished trial of ``study`` not learned yet, by number."""
        trials = study._get_trials(deepcopy=False, states=_FINISHED, use_cache=True)
        for t in sorted(trials, key=lambda t: t.number):
            if t.number in self._seen:
                continue
            self._seen.add(t.number)
            point = []
            for n in self._names:
                if n not in t.params or t.distributions.get(n) != self._dists[n]:
                    point = None
                    break
                i = self._index(n, t.params[n])
                if i is None:
                    point = None
                    break
                point.append(float(i))
            if point is None:
                continue  # it ran another space: nothing to learn here
            value: Optional[float] = None
            if t.state == TrialState.COMPLETE and t.values and math.isfinite(t.values[0]):
                value = t.values[0]
            elif t.state == TrialState.PRUNED and t.intermediate_values:
                last = t.intermediate_values[max(t.intermediate_values)]
                value = last if math.isfinite(last) else None
            if value is not None and self._minimize:
                value = -value
            self._model.observe(point, value)

    def sample_relative(
        self, study: Study, trial: FrozenTrial, search_space: Dict[str, BaseDistribution]
    ) -> Dict[str, Any]:
        if not search_space:
            return {}
        with self._lock:
            if self._model is None or self._study_id != id(study):
                self._build(study, search_space)
            self._catch_up(study)
            values = self._model.propose(trial.number)
        return {
            n: self._values[n][int(values[i])]
            for i, n in enumerate(self._names)
            if n in search_space
        }

    def sample_independent(
        self,
        study: Study,
        trial: FrozenTrial,
        param_name: str,
        param_distribution: BaseDistribution,
    ) -> Any:
        if len(study.directions) != 1:
            raise ValueError("NtbeaSampler is for single-objective studies")
        return self._random.sample_independent(study, trial, param_name, param_distribution)

    def recommend(self, study: Optional[Study] = None) -> Optional[Dict[str, Any]]:
        """NTBEA's recommendation: ``{"params": ..., "estimate": ..., "se": ...,
        "samples": ...}``, the model's estimate of its value (in the study's
        direction), its standard error and the evaluations behind it. On a noisy
        objective a better answer than ``study.best_params`` (the luckiest trial).
        With ``study``, its trials are learned first (a sampler unpickled or made
        afresh recommends from the study). None before NTBEA has a model."""
        with self._lock:
            if study is not None:
                if self._model is None or self._study_id != id(study):
                    space = self.infer_relative_search_space(study, None)  # type: ignore[arg-type]
                    if not space:
                        return None
                    self._build(study, space)
                self._catch_up(study)
            if self._model is None:
                return None
            rec = self._model.recommend()
        if rec is None:
            return None
        values, estimate, se, samples = rec
        return {
            "params": {n: self._values[n][int(values[i])] for i, n in enumerate(self._names)},
            "estimate": -estimate if self._minimize else estimate,
            "se": se,
            "samples": samples,
        }
