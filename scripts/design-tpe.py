#!/usr/bin/env python3
"""Optuna's TPE on the design problem of scripts/compare-design-optimizers.sh, for the
same table: Rinascimento at 2 players, ladder rnd, osla(budget=50), mcts(budget=200),
10 games a rung, 80 trials, SEEDS studies (TPESampler(seed=s), its defaults, told the
run's playability constraints through `constraints_func`, as a user who has them
would). Each study's answer is its best feasible trial, else its best; the shell
script plays it again on the fresh seeds it plays the other optimisers' answers on.

    scripts/design-tpe.py [SEEDS] [OUT]

TPE_ENQUEUE_OWN=1 (environment) enqueues 2-player Splendor's rules as the first trial.

Writes OUT/tpe.summary.json (one row per study: its answer's point, with `players`,
and the study's best value). Needs the playtune Python package and optuna. About 1 to
1.5 minutes on 2 cores at 20 seeds.
"""
import json
import os
import sys
import time

import optuna
import playtune

seeds = int(sys.argv[1]) if len(sys.argv) > 1 else 20
out = sys.argv[2] if len(sys.argv) > 2 else "runs/design-optimizers"
settings = {
    "game": "rinascimento",
    "ladder": "rnd,osla(budget=50),mcts(budget=200)",
    "games": 10,
    "game_settings": "players=2",
}
info = playtune.problem_info("design", settings)
# The searched dimensions only: `players` is fixed at 2 by the game settings, and a
# point that moved it would be another game (the Python package refuses one).
dims = [d for d in info.space.dims() if not d["fixed"] and d["kind"] == "int" and d["min"] < d["max"]]
fixed = {d["name"]: d["default"] for d in info.space.dims() if d["fixed"]}
# The design problem's playability constraints (docs/design.md#constraints).
CONSTRAINTS = [
    ("stalemate_rate", None, 0.05),
    ("mean_length", 40.0, 120.0),
    ("seat_advantage", None, 0.3),
]


def violations(features):
    out = []
    for name, low, high in CONSTRAINTS:
        x = features[name]
        out.append(max(x - high, (low - x) if low is not None else 0.0))
    return out


optuna.logging.set_verbosity(optuna.logging.WARNING)
rows = []
started = time.time()
for s in range(seeds):

    def objective(trial):
        point = dict(fixed, **{d["name"]: trial.suggest_int(d["name"], d["min"], d["max"], step=d["step"]) for d in dims})
        e = playtune.evaluate("design", point, seed=1_000_003 * s + trial.number, settings=settings)
        trial.set_user_attr("violations", violations(e["features"]))
        return e["fitness"]

    study = optuna.create_study(
        direction="maximize",
        sampler=optuna.samplers.TPESampler(
            seed=s, constraints_func=lambda t: t.user_attrs["violations"]
        ),
    )
    if os.environ.get("TPE_ENQUEUE_OWN") == "1":
        # The game's own rules (the space's defaults at 2 players) as the first trial,
        # as a user who knows them would enqueue them.
        study.enqueue_trial({d["name"]: d["default"] for d in dims})
    study.optimize(objective, n_trials=80)
    done = [t for t in study.trials if t.value is not None]
    feasible = [t for t in done if all(v <= 0 for v in t.user_attrs["violations"])]
    answer = max(feasible or done, key=lambda t: t.value)
    rows.append({"trial": s, "point": dict(fixed, **answer.params), "best_value": answer.value,
                 "feasible": bool(feasible)})
    print(f"study {s}: best value {answer.value:+.3f}", flush=True)
os.makedirs(out, exist_ok=True)
json.dump({"tpe": rows}, open(f"{out}/tpe.summary.json", "w"), indent=1)
print(f"tpe: {len(rows)} answers, took {time.time() - started:.0f} s")
