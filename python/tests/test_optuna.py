"""The NTBEA sampler in real Optuna studies, and the journal export read by Optuna."""

import math
import random

import optuna
import pytest

import playtune
import playtune.journal
from playtune.optuna import NtbeaSampler


def test_the_sampler_finds_noisy_onemax_in_a_real_study():
    rng = random.Random(0)
    sampler = NtbeaSampler(budget=200, seed=3)
    study = optuna.create_study(sampler=sampler, direction="maximize")
    study.optimize(lambda t: sum(t.suggest_int(f"x{i}", 0, 1) for i in range(12)) + rng.gauss(0, 1), n_trials=200)
    assert len(study.trials) == 200
    rec = sampler.recommend()
    assert sum(rec["params"].values()) >= 11 and rec["samples"] >= 1 and rec["se"] >= 0
    # Its params are Optuna's own: a plot and the importance evaluator take them.
    optuna.visualization.matplotlib  # noqa: B018 (the module imports)
    assert set(study.best_params) == {f"x{i}" for i in range(12)}


def test_every_distribution_kind_and_a_minimising_study():
    def objective(t):
        x = t.suggest_float("x", -2.0, 2.0)
        lr = t.suggest_float("lr", 1e-4, 1e-1, log=True)
        n = t.suggest_int("n", 1, 100, log=True)
        k = t.suggest_int("k", 0, 10, step=2)
        q = t.suggest_float("q", 0.0, 1.0, step=0.25)
        c = t.suggest_categorical("c", ["a", None, 3])
        assert -2.0 <= x <= 2.0 and 1e-4 <= lr <= 1e-1 and 1 <= n <= 100 and k % 2 == 0
        assert q in (0.0, 0.25, 0.5, 0.75, 1.0) and c in ("a", None, 3)
        return (x - 1.0) ** 2 + abs(math.log10(lr) + 2) + (0 if c is None else 1) + abs(k - 4)

    sampler = NtbeaSampler(budget=150, seed=1, levels=9)
    study = optuna.create_study(sampler=sampler, direction="minimize")
    study.optimize(objective, n_trials=150)
    rec = sampler.recommend()["params"]
    assert rec["c"] is None and rec["k"] == 4 and abs(rec["x"] - 1.0) <= 0.5
    assert study.best_value < 1.0


def test_failed_and_pruned_trials_are_told_as_failures():
    calls = {"n": 0}

    def objective(t):
        calls["n"] += 1
        v = sum(t.suggest_int(f"x{i}", 0, 1) for i in range(6))
        if calls["n"] % 7 == 0:
            raise optuna.TrialPruned()
        if calls["n"] % 11 == 0:
            raise RuntimeError("crash")
        return v

    sampler = NtbeaSampler(budget=80, seed=2)
    study = optuna.create_study(sampler=sampler, direction="maximize")
    study.optimize(objective, n_trials=80, catch=(RuntimeError,))
    states = {t.state for t in study.trials}
    assert optuna.trial.TrialState.PRUNED in states and optuna.trial.TrialState.FAIL in states
    assert sum(sampler.recommend()["params"].values()) >= 5


def test_the_sampler_works_with_a_storage_and_past_its_budget(tmp_path):
    storage = optuna.storages.JournalStorage(
        optuna.storages.journal.JournalFileBackend(str(tmp_path / "study.journal")))
    sampler = NtbeaSampler(budget=20, seed=0)
    study = optuna.create_study(sampler=sampler, storage=storage, study_name="s", direction="maximize")
    study.optimize(lambda t: t.suggest_int("a", 0, 5) + t.suggest_int("b", 0, 5), n_trials=30)
    again = optuna.load_study(study_name="s", storage=storage)
    assert len(again.trials) == 30


def test_a_run_folder_exported_to_the_journal_loads_in_optuna(tmp_path):
    space = {"name": "mixed", "dims": {
        "n": {"int": [1, 9], "step": 2}, "c": {"categories": ["a", "b"]},
        "r": {"list": [25, 50, 100]}, "f": {"float": [0.0, 2.0], "levels": 5}, "on": {"bool": True}}}

    def f(p):
        if p["n"] == 9 and p["c"] == "b":
            raise ValueError("refused")
        return p["n"] + (p["c"] == "a") + p["r"] / 100 + p["f"] + p["on"], {"size": p["r"]}

    with playtune.create_run(space=space, budget=60, seed=1, runs_dir=tmp_path, name="mixed",
                             features=["size"], max_failures=1.0) as run:
        result = run.run(f, progress=False)
    out = tmp_path / "run.journal"
    name = playtune.journal.export_journal(run.path, out)
    storage = optuna.storages.JournalStorage(optuna.storages.journal.JournalFileBackend(str(out)))
    study = optuna.load_study(study_name=name, storage=storage)
    spent = result["trials"][0]["spent"]
    assert len(study.trials) == spent["search"]
    failed = [t for t in study.trials if t.state == optuna.trial.TrialState.FAIL]
    assert len(failed) == spent.get("failed", 0)
    best = study.best_trial
    assert best.value == max(t.value for t in study.trials if t.value is not None)
    assert set(best.params) == {"n", "c", "r", "f", "on"} and "feature_size" in best.user_attrs
    assert study.direction == optuna.study.StudyDirection.MAXIMIZE
    assert optuna.importance.get_param_importances(study)  # Optuna's analysis reads it


def test_a_dimension_the_run_fixes_is_exported_as_its_one_value(tmp_path):
    settings = {"game": "rinascimento", "ladder": "rnd,osla(budget=5)", "games": 1,
                "game_settings": "players=2"}
    with playtune.create_run("design", settings=settings, budget=4, seed=1, runs_dir=tmp_path,
                             name="two-players", race=0) as run:
        run.run(progress=False)
    out = tmp_path / "run.journal"
    name = playtune.journal.export_journal(run.path, out)
    storage = optuna.storages.JournalStorage(optuna.storages.journal.JournalFileBackend(str(out)))
    study = optuna.load_study(study_name=name, storage=storage)
    players = study.trials[0].distributions["players"]
    assert (players.low, players.high) == (2, 2) and players.single()
    assert not study.trials[0].distributions["coins"].single()
    assert {t.params["players"] for t in study.trials} == {2}


def test_parallel_workers_share_the_sampler():
    sampler = NtbeaSampler(budget=120, seed=4)
    study = optuna.create_study(sampler=sampler, direction="maximize")
    study.optimize(lambda t: sum(t.suggest_int(f"x{i}", 0, 1) for i in range(8)), n_trials=120, n_jobs=2)
    assert len(study.trials) == 120
    assert sum(sampler.recommend()["params"].values()) >= 7
