#!/usr/bin/env python3
"""NTBEA (playtune's Optuna sampler, and playtune alone) against Optuna's TPE on noisy
OneMax at equal budgets.

    python3 benches/compare_optuna.py [--studies 10] [--bits 20] [--trials 500] [--sigma 1]
                                      [--jobs 1] [--failing]

Each study maximises the number of ones of BITS bits plus Gaussian noise (sd SIGMA,
drawn from the study's own generator, seeded), for TRIALS evaluations. Reported, per
method, over STUDIES seeded studies: how often its answer is the optimum (all ones),
the mean true value (ones) of that answer, and the mean seconds a study took. TPE's
answer is its best trial (what ``study.best_params`` gives); the NTBEA sampler's is
both its best trial and ``sampler.recommend()`` (the model's answer); playtune alone
is ``playtune.optimizer(..., "ntbea").recommend()``. ``--jobs N`` runs each Optuna
study with N threads (``n_jobs``); ``--failing`` makes every point with ``x0 = 1`` fail
(the optimum is then every other bit set) and reports each method's share of failed
trials. Needs optuna and playtune
(``pip install ./python optuna``).
"""

import argparse
import random
import statistics
import time

import optuna

import playtune
from playtune.optuna import NtbeaSampler


def study(sampler, bits, trials, sigma, seed, jobs=1, failing=False):
    rng = random.Random(1_000_003 * seed + 17)

    def objective(t):
        x = [t.suggest_int(f"x{i}", 0, 1) for i in range(bits)]
        if failing and x[0] == 1:
            raise RuntimeError("this region always fails")
        return sum(x) + rng.gauss(0.0, sigma)

    s = optuna.create_study(sampler=sampler, direction="maximize")
    started = time.perf_counter()
    s.optimize(objective, n_trials=trials, n_jobs=jobs, catch=(RuntimeError,))
    return s, time.perf_counter() - started


def failed(s):
    return sum(t.state == optuna.trial.TrialState.FAIL for t in s.trials) / len(s.trials)


def ones(params):
    return sum(int(v) for v in params.values())


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--studies", type=int, default=10)
    ap.add_argument("--bits", type=int, default=20)
    ap.add_argument("--trials", type=int, default=500)
    ap.add_argument("--sigma", type=float, default=1.0)
    ap.add_argument("--jobs", type=int, default=1)
    ap.add_argument("--failing", action="store_true")
    a = ap.parse_args()
    best = a.bits - 1 if a.failing else a.bits
    shares = {"TPE": [], "NtbeaSampler": []}
    optuna.logging.set_verbosity(optuna.logging.WARNING)
    rows = {k: [] for k in ("TPE best trial", "NtbeaSampler best trial", "NtbeaSampler recommend()", "playtune alone recommend()")}
    times = {k: [] for k in ("TPE", "NtbeaSampler", "playtune alone")}
    for seed in range(a.studies):
        s, secs = study(optuna.samplers.TPESampler(seed=seed), a.bits, a.trials, a.sigma, seed, a.jobs, a.failing)
        rows["TPE best trial"].append(ones(s.best_params))
        times["TPE"].append(secs)
        shares["TPE"].append(failed(s))
        sampler = NtbeaSampler(budget=a.trials, seed=seed)
        s, secs = study(sampler, a.bits, a.trials, a.sigma, seed, a.jobs, a.failing)
        rows["NtbeaSampler best trial"].append(ones(s.best_params))
        rows["NtbeaSampler recommend()"].append(ones(sampler.recommend(s)["params"]))
        times["NtbeaSampler"].append(secs)
        shares["NtbeaSampler"].append(failed(s))
        rng = random.Random(1_000_003 * seed + 17)
        space = {"name": "onemax", "dims": {f"x{i}": {"int": [0, 1]} for i in range(a.bits)}}
        started = time.perf_counter()
        opt = playtune.optimizer(space, "ntbea", budget=a.trials, seed=seed)
        rec = opt.optimize(
            lambda p: None if a.failing and p["x0"] == 1 else sum(p.values()) + rng.gauss(0.0, a.sigma)
        )
        times["playtune alone"].append(time.perf_counter() - started)
        rows["playtune alone recommend()"].append(int(sum(rec["values"])))
        print(f"study {seed}: " + ", ".join(f"{k} {v[-1]}" for k, v in rows.items()), flush=True)
    print(f"\nnoisy OneMax, {a.bits} bits, noise sd {a.sigma}, {a.trials} evaluations, {a.studies} studies each,"
          f" {a.jobs} thread(s) a study{', x0 = 1 always fails' if a.failing else ''}")
    print(f"{'answer':30} {'optimal':>10} {'mean ones':>10}")
    for k, v in rows.items():
        hits = sum(x == best for x in v)
        print(f"{k:30} {hits:>4}/{len(v):<5} {statistics.mean(v):>10.2f}")
    print(f"\n{'method':30} {'s/study':>10}")
    for k, v in times.items():
        print(f"{k:30} {statistics.mean(v):>10.3f}")
    if a.failing:
        print(f"\n{'sampler':30} {'failed trials':>14}")
        for k, v in shares.items():
            print(f"{k:30} {statistics.mean(v):>14.1%}")


if __name__ == "__main__":
    main()
