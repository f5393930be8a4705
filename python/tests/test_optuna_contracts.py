"""The NTBEA sampler keeps Optuna's sampler contracts: its state is the study, so
abandoned trials, parallel threads, enqueued trials, pickling, resumed studies and
processes sharing a storage all feed one model, and every trial after the first
finished one gets a full NTBEA point (none falls back to random silently)."""
import multiprocessing
import pickle
import random

import optuna
import pytest

from playtune.optuna import NtbeaSampler

optuna.logging.set_verbosity(optuna.logging.WARNING)


class Counting(NtbeaSampler):
    """Records the trials NTBEA gave a full point to."""

    def __init__(self, *a, **k):
        super().__init__(*a, **k)
        self.from_ntbea = set()

    def sample_relative(self, study, trial, search_space):
        params = super().sample_relative(study, trial, search_space)
        if search_space and set(params) == set(search_space):
            self.from_ntbea.add(trial.number)
        return params

    def __getstate__(self):
        state = super().__getstate__()
        state["from_ntbea"] = set()
        return state


def onemax(bits, noise=0.0, seed=0):
    rng = random.Random(seed)

    def objective(t):
        return sum(t.suggest_int(f"x{i}", 0, 1) for i in range(bits)) + rng.gauss(0, noise)

    return objective


def test_an_abandoned_trial_blocks_nothing():
    sampler = Counting(budget=60, seed=1)
    study = optuna.create_study(sampler=sampler, direction="maximize")
    study.optimize(onemax(8), n_trials=3)
    study.ask()  # asked, never told: a crashed worker
    study.optimize(onemax(8), n_trials=50)
    assert set(range(4, 54)) <= sampler.from_ntbea


def test_parallel_threads_all_sample_from_ntbea():
    sampler = Counting(budget=100, seed=2)
    study = optuna.create_study(sampler=sampler, direction="maximize")
    study.optimize(onemax(8), n_trials=100, n_jobs=4)
    # Only trials started before any had finished sample independently.
    assert len(sampler.from_ntbea) >= 100 - 4 - 1, len(sampler.from_ntbea)


def test_enqueued_trials_teach_the_params_they_ran():
    sampler = Counting(budget=40, seed=3)
    study = optuna.create_study(sampler=sampler, direction="maximize")
    study.optimize(onemax(6), n_trials=2)
    for _ in range(5):
        study.enqueue_trial({f"x{i}": 1 for i in range(6)})
    study.optimize(onemax(6), n_trials=20)
    rec = sampler.recommend(study)
    # Five evaluations of the all-ones point at 6: the model knows them.
    assert rec["params"] == {f"x{i}": 1 for i in range(6)}, rec
    assert rec["samples"] >= 5


def test_pickled_and_resumed_samplers_continue_the_same_search(tmp_path):
    storage = optuna.storages.JournalStorage(
        optuna.storages.journal.JournalFileBackend(str(tmp_path / "s.journal")))
    sampler = Counting(budget=60, seed=4)
    study = optuna.create_study(sampler=sampler, storage=storage, study_name="s", direction="maximize")
    study.optimize(onemax(8), n_trials=30)
    again = pickle.loads(pickle.dumps(sampler))
    resumed = optuna.load_study(study_name="s", storage=storage, sampler=again)
    resumed.optimize(onemax(8), n_trials=30)
    assert set(range(30, 60)) <= again.from_ntbea
    rec = again.recommend(resumed)
    assert rec["samples"] >= 1 and sum(rec["params"].values()) >= 7


def test_a_multi_objective_study_is_refused_at_its_first_trial():
    study = optuna.create_study(sampler=NtbeaSampler(), directions=["maximize", "minimize"])
    with pytest.raises(ValueError, match="single-objective"):
        study.optimize(lambda t: (t.suggest_int("a", 0, 3), 1.0), n_trials=1)


def test_a_region_that_always_fails_is_avoided():
    # x0 = 1 always fails: random search puts half its trials there.
    def objective(t):
        x = [t.suggest_int(f"x{i}", 0, 1) for i in range(10)]
        if x[0] == 1:
            raise RuntimeError("this rule breaks the game")
        return sum(x)

    shares = []
    for seed in range(5):
        study = optuna.create_study(sampler=NtbeaSampler(budget=100, seed=seed), direction="maximize")
        study.optimize(objective, n_trials=100, catch=(RuntimeError,))
        failed = sum(t.state == optuna.trial.TrialState.FAIL for t in study.trials)
        shares.append(failed / 100)
    assert sum(shares) / len(shares) <= 0.5, shares


def _worker(path, seed):
    storage = optuna.storages.JournalStorage(optuna.storages.journal.JournalFileBackend(path))
    study = optuna.load_study(study_name="shared", storage=storage, sampler=NtbeaSampler(budget=400, seed=seed))
    study.optimize(onemax(16, noise=1.0, seed=seed), n_trials=100)


def _last_quarter(study):
    done = sorted((t for t in study.trials if t.value is not None), key=lambda t: t.number)
    tail = done[-len(done) // 4:]
    return sum(sum(t.params.values()) for t in tail) / len(tail)


def test_four_processes_sharing_a_journal_learn_as_one(tmp_path):
    shared, single = [], []
    for rep in range(3):
        path = str(tmp_path / f"shared{rep}.journal")
        storage = optuna.storages.JournalStorage(optuna.storages.journal.JournalFileBackend(path))
        optuna.create_study(study_name="shared", storage=storage, direction="maximize")
        ctx = multiprocessing.get_context("spawn")
        procs = [ctx.Process(target=_worker, args=(path, 10 * rep + w)) for w in range(4)]
        for p in procs:
            p.start()
        for p in procs:
            p.join()
            assert p.exitcode == 0
        shared.append(_last_quarter(optuna.load_study(study_name="shared", storage=storage)))
        study = optuna.create_study(sampler=NtbeaSampler(budget=400, seed=100 + rep), direction="maximize")
        study.optimize(onemax(16, noise=1.0, seed=rep), n_trials=400)
        single.append(_last_quarter(study))
    # Measured before the sampler learned from the storage: 12.35 shared against 13.0.
    assert sum(shared) / 3 >= sum(single) / 3 - 0.35, (shared, single)


def test_levels_that_would_collapse_a_distribution_are_refused():
    for levels, max_levels in ((0, 32), (1, 32), (9, 1)):
        with pytest.raises(ValueError, match="at least 2"):
            NtbeaSampler(levels=levels, max_levels=max_levels)
