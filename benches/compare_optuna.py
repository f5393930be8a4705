#!/usr/bin/env python3
"""NTBEA (playtune's Optuna sampler, and playtune alone) against Optuna's TPE on noisy
OneMax at equal budgets.

    python3 benches/compare_optuna.py [--studies 10] [--bits 20] [--trials 500] [--sigma 1]

Each study maximises the number of ones of BITS bits plus Gaussian noise (sd SIGMA,
drawn from the study's own generator, seeded), for TRIALS evaluations. Reported, per
method, over STUDIES seeded studies: how often its answer is the optimum (all ones),
the mean true value (ones) of that answer, and the mean seconds a study took. TPE's
answer is its best trial (what ``study.best_params`` gives); the NTBEA sampler's is
both its best trial and ``sampler.recommend()`` (the model's answer); playtune alone
is ``playtune.optimizer(..., "ntbea").recommend()``. Needs optuna and playtune
(``pip install ./python optuna``).
"""

import argparse
import random
import statistics
import time

import optuna

import playtune
from playtune.optuna import NtbeaSampler


def study(sampler, bits, trials, sigma, seed):
    rng = random.Random(1_000_003 * seed + 17)

    def objective(t):
        return sum(t.suggest_int(f"x{i}", 0, 1) for i in range(bits)) + rng.gauss(0.0, sigma)

    s = optuna.create_study(sampler=sampler, direction="maximize")
    started = time.perf_counter()
    s.optimize(objective, n_trials=trials)
    return s, time.perf_counter() - started


def ones(params):
    return sum(int(v) for v in params.values())


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--studies", type=int, default=10)
    ap.add_argument("--bits", type=int, default=20)
    ap.add_argument("--trials", type=int, default=500)
    ap.add_argument("--sigma", type=float, default=1.0)
    a = ap.parse_args()
    optuna.logging.set_verbosity(optuna.logging.WARNING)
    rows = {k: [] for k in ("TPE best trial", "NtbeaSampler best trial", "NtbeaSampler recommend()", "playtune alone recommend()")}
    times = {k: [] for k in ("TPE", "NtbeaSampler", "playtune alone")}
    for seed in range(a.studies):
        s, secs = study(optuna.samplers.TPESampler(seed=seed), a.bits, a.trials, a.sigma, seed)
        rows["TPE best trial"].append(ones(s.best_params))
        times["TPE"].append(secs)
        sampler = NtbeaSampler(budget=a.trials, seed=seed)
        s, secs = study(sampler, a.bits, a.trials, a.sigma, seed)
        rows["NtbeaSampler best trial"].append(ones(s.best_params))
        rows["NtbeaSampler recommend()"].append(ones(sampler.recommend()["params"]))
        times["NtbeaSampler"].append(secs)
        rng = random.Random(1_000_003 * seed + 17)
        space = {"name": "onemax", "dims": {f"x{i}": {"int": [0, 1]} for i in range(a.bits)}}
        started = time.perf_counter()
        opt = playtune.optimizer(space, "ntbea", budget=a.trials, seed=seed)
        rec = opt.optimize(lambda p: sum(p.values()) + rng.gauss(0.0, a.sigma))
        times["playtune alone"].append(time.perf_counter() - started)
        rows["playtune alone recommend()"].append(int(sum(rec["values"])))
        print(f"study {seed}: " + ", ".join(f"{k} {v[-1]}" for k, v in rows.items()), flush=True)
    print(f"\nnoisy OneMax, {a.bits} bits, noise sd {a.sigma}, {a.trials} evaluations, {a.studies} studies each")
    print(f"{'answer':30} {'optimal':>10} {'mean ones':>10}")
    for k, v in rows.items():
        hits = sum(x == a.bits for x in v)
        print(f"{k:30} {hits:>4}/{len(v):<5} {statistics.mean(v):>10.2f}")
    print(f"\n{'method':30} {'s/study':>10}")
    for k, v in times.items():
        print(f"{k:30} {statistics.mean(v):>10.3f}")


if __name__ == "__main__":
    main()
