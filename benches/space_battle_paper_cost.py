#!/usr/bin/env python3
"""What the Space Battle paper preset costs, from the points it really evaluates.

The preset's 34,750 evaluations are all in the published run
(runs/published/space-battle-paper: each algorithm's evals.csv, search and
pre-processing, and reevaluations.csv, the final games played again). This draws K of
them uniformly at random (fixed seed), evaluates each once with the given binary
(`playtune reevaluate --point ... -n 1`, one thread, one process at a time), and
prints the CPU seconds an evaluation takes, by enemy, and the preset's projected time:
evaluations x mean CPU seconds / cores. The first evaluations of a fresh run (random
points) are cheaper than the points the search moves to, so timing the start of a run
underestimates the whole.

    python3 benches/space_battle_paper_cost.py [PLAYTUNE] [K] [CORES]

PLAYTUNE defaults to target/release/playtune, K to 40, CORES to 2.
"""

import csv
import os
import random
import re
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
PUBLISHED = os.path.join(ROOT, "runs", "published", "space-battle-paper")
ALGORITHMS = ["rmhc", "b-rmhc", "ntbea"]


def space_dims(playtune):
    """(name, categories or None, is_bool) per dimension, in the space's order."""
    text = subprocess.run(
        [playtune, "spaces", "export", "space-battle"], check=True, capture_output=True, text=True
    ).stdout
    dims = []
    for m in re.finditer(r'\(name: "([A-Z_0-9]+)", kind: (\w+)(\(\[([^\]]*)\]\))?', text):
        name, kind, _, cats = m.groups()
        categories = re.findall(r'"([^"]*)"', cats) if kind == "Categories" else None
        dims.append((name, categories, kind == "Bool"))
    return dims


def all_points(dims):
    """Every evaluation of the preset as {name: value}, with its source."""
    names = [d[0] for d in dims]
    points = []
    for algorithm in ALGORITHMS:
        folder = os.path.join(PUBLISHED, algorithm)
        with open(os.path.join(folder, "evals.csv")) as f:
            for row in csv.DictReader(f):
                points.append(({n: row[n] for n in names}, algorithm + " search"))
        # trial, k, the point (values; a category or a bool as its index), fitness
        with open(os.path.join(folder, "reevaluations.csv")) as f:
            for row in csv.reader(f):
                values = row[2].split(";")
                point = {}
                for (name, categories, is_bool), v in zip(dims, values):
                    if categories is not None:
                        v = categories[int(v)]
                    elif is_bool:
                        v = "true" if v == "1" else "false"
                    point[name] = v
                points.append((point, algorithm + " re-evaluation"))
    return points


def main():
    playtune = sys.argv[1] if len(sys.argv) > 1 else os.path.join(ROOT, "target", "release", "playtune")
    k = int(sys.argv[2]) if len(sys.argv) > 2 else 40
    cores = int(sys.argv[3]) if len(sys.argv) > 3 else 2
    dims = space_dims(playtune)
    points = all_points(dims)
    sample = random.Random(2026).sample(points, k)
    work = tempfile.mkdtemp()
    try:
        # reevaluate needs a run folder of the problem; a copy, so the published one is
        # never written to.
        run = os.path.join(work, "ntbea")
        shutil.copytree(os.path.join(PUBLISHED, "ntbea"), run)
        env = dict(os.environ, RAYON_NUM_THREADS="1")
        seconds, by_enemy = [], {}
        started = time.time()
        for i, (point, source) in enumerate(sample):
            args = [playtune, "reevaluate", run, "-n", "1", "--no-verdict", "--seed", str(i + 1)]
            for name, value in point.items():
                args += ["--point", f"{name}={value}"]
            before = resource.getrusage(resource.RUSAGE_CHILDREN)
            subprocess.run(args, check=True, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            after = resource.getrusage(resource.RUSAGE_CHILDREN)
            cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
            seconds.append(cpu)
            by_enemy.setdefault(point["ENEMY_ID"], []).append(cpu)
            print(f"{i + 1:3d}/{k}  {source:24s} enemy {point['ENEMY_ID']:9s} grid {point['GRID_SIZE']}  {cpu:6.2f} s CPU", flush=True)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    mean = statistics.mean(seconds)
    se = statistics.stdev(seconds) / len(seconds) ** 0.5 if len(seconds) > 1 else 0.0
    print()
    print(f"{k} of the preset's {len(points)} evaluations, drawn at random, one each ({time.time() - started:.0f} s):")
    for enemy, s in sorted(by_enemy.items(), key=lambda e: -statistics.mean(e[1])):
        print(f"  enemy {enemy:9s} {len(s):3d} evaluations, mean {statistics.mean(s):6.2f} s CPU")
    print(f"  every enemy     {k:3d} evaluations, mean {mean:6.2f} +- {se:.2f} s CPU")
    hours = len(points) * mean / cores / 3600
    hours_se = len(points) * se / cores / 3600
    print(f"projected paper preset: {len(points)} x {mean:.2f} s / {cores} cores = {hours:.1f} +- {hours_se:.1f} hours")
    print(f"date: {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}   nproc: {os.cpu_count()}")


if __name__ == "__main__":
    main()
