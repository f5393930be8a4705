#!/usr/bin/env python3
"""What a design problem's landscape allows: read a run folder of random points each
measured precisely (many games a rung) and print

- the share of points that keep the run's constraints, and the skill-depth quantiles
  of those that do;
- the mean depth of a perfect pick among n random points (n = 60, 80, 160): what random
  search followed by a flawless selection would reach;
- how well an additive (1-tuple) model of depth predicts held-out points (5-fold
  cross-validated correlation, and the true depth of the 10 points it ranks best).

    scripts/design-landscape.py RUN

RUN: a run folder of `playtune optimize --algo random --no-race` (one trial); the
constraints are read from its config.ron. Standard library only.
"""
import csv
import random
import re
import statistics as st
import sys

run = sys.argv[1]
config = open(f"{run}/config.ron").read()
block = re.search(r"constraints:\s*\[(.*?)\]", config, re.S)
constraints = re.findall(r'"([^"]+)"', block.group(1)) if block else []


def keeps(row):
    for c in constraints:
        m = re.fullmatch(r"(\w+)\s*(<=|>=)\s*([-\d.]+)", c)
        if m:
            x, bound = float(row[m[1]]), float(m[3])
            if (m[2] == "<=" and x > bound) or (m[2] == ">=" and x < bound):
                return False
            continue
        m = re.fullmatch(r"(\w+)\s+in\s+([-\d.]+)\.\.([-\d.]+)", c)
        if m:
            if not float(m[2]) <= float(row[m[1]]) <= float(m[3]):
                return False
            continue
        sys.exit(f"{run}/config.ron: constraint `{c}` is not one this script reads")
    return True


rows = [r for r in csv.DictReader(open(f"{run}/evals.csv")) if r["phase"] == "search"]
header = list(rows[0].keys())
dims = header[header.index("seed") + 1 : header.index("fitness")]
dims = [d for d in dims if len({r[d] for r in rows}) > 1]
feasible = [r for r in rows if keeps(r)]
depth = sorted(float(r["fitness"]) for r in feasible)
print(f"points: {len(rows)}, keeping the constraints {constraints}: {len(feasible)} "
      f"({len(feasible) / len(rows):.0%})")


def quantile(p):
    return depth[int(p * (len(depth) - 1))]


se = st.mean(float(r["skill_depth_se"]) for r in feasible)
print(f"their skill depth, each measured with a standard error of {se:.3f} on average "
      "(the tails below are that much wider than the truth's):")
print("quantiles 50/75/90/95/99/max:",
      " ".join(f"{quantile(p):.3f}" for p in (0.5, 0.75, 0.9, 0.95, 0.99, 1.0)))
rng = random.Random(1)
for n in (60, 80, 160):
    picks = []
    for _ in range(5000):
        sample = rng.sample(rows, min(n, len(rows)))
        kept = [float(r["fitness"]) for r in sample if keeps(r)]
        picks.append(max(kept) if kept else min(depth))
    print(f"perfect pick among {n} random points: mean depth {st.mean(picks):.3f}")


def additive(train):
    mu = st.mean(float(r["fitness"]) for r in train)
    effect = {}
    for d in dims:
        for v in {r[d] for r in train}:
            ys = [float(r["fitness"]) for r in train if r[d] == v]
            # Shrunk towards 0 by 5 pseudo-observations, as a model with few samples
            # a value should be.
            effect[(d, v)] = (sum(ys) - mu * len(ys)) / (len(ys) + 5)
    return lambda r: mu + sum(effect.get((d, r[d]), 0.0) for d in dims)


order = list(range(len(feasible)))
rng.shuffle(order)
predicted = [0.0] * len(feasible)
for fold in range(5):
    test = set(order[fold::5])
    model = additive([feasible[i] for i in range(len(feasible)) if i not in test])
    for i in test:
        predicted[i] = model(feasible[i])
truth = [float(r["fitness"]) for r in feasible]
mp, mt = st.mean(predicted), st.mean(truth)
cov = sum((a - mp) * (b - mt) for a, b in zip(predicted, truth))
corr = cov / (sum((a - mp) ** 2 for a in predicted) ** 0.5 * sum((b - mt) ** 2 for b in truth) ** 0.5)
best = sorted(range(len(feasible)), key=lambda i: -predicted[i])[:10]
print(f"additive model of depth over {len(dims)} dimensions, 5-fold cross-validated: "
      f"correlation {corr:.2f}; the 10 points it ranks best have mean depth "
      f"{st.mean(truth[i] for i in best):.3f} (all feasible points: {mt:.3f})")
