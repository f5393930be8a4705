"""NTBEA on a noisy objective, loaded as OptunaHub loads it.

    python example.py             # this folder as the package (needs playtune installed)
"""
from __future__ import annotations

import os
import random

import optuna

try:
    import optunahub

    module = optunahub.load_local_module(
        package="samplers/ntbea",
        registry_root=os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."),
    )
except ImportError:  # without optunahub: the package's own module
    import importlib.util

    spec = importlib.util.spec_from_file_location(
        "ntbea", os.path.join(os.path.dirname(os.path.abspath(__file__)), "__init__.py")
    )
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)

rng = random.Random(0)


def noisy_onemax(trial: optuna.Trial) -> float:
    return sum(trial.suggest_int(f"x{i}", 0, 1) for i in range(20)) + rng.gauss(0, 1)


sampler = module.NtbeaSampler(budget=300, seed=0)
study = optuna.create_study(sampler=sampler, direction="maximize")
study.optimize(noisy_onemax, n_trials=300)
answer = sampler.recommend(study)
print("NTBEA's answer:", sum(answer["params"].values()), "ones, estimate",
      round(answer["estimate"], 2), "+-", round(answer["se"], 2), "over", answer["samples"], "evaluations")
print("the luckiest trial:", sum(study.best_params.values()), "ones")
