#!/usr/bin/env python3
"""Each point once against intensified, at equal budgets: NTBEA, random search and RMHC
at 50, 100 and 200 evaluations on PROBLEM (a benchmark that reports the answer's true
fitness, such as synthetic-design), SEEDS seeds each, every other flag at its default
and no verdict. Prints, a line a cell, the mean true fitness of the answers with its
standard error and how many were optimal.

    scripts/intensify-synthetic.py PLAYTUNE [PROBLEM] [SEEDS]

About 5 minutes on 2 cores for synthetic-design at 50 seeds.
"""
import json
import statistics as st
import subprocess
import sys
import tempfile

PT = sys.argv[1]
problem = sys.argv[2] if len(sys.argv) > 2 else "synthetic-design"
seeds = int(sys.argv[3]) if len(sys.argv) > 3 else 50
with tempfile.TemporaryDirectory() as runs:
    for algo in ["ntbea", "random", "rmhc"]:
        for budget in [50, 100, 200]:
            row = {}
            for mode, flags in [("once", ["--no-intensify"]), ("intensify", ["--intensify-max", "8"])]:
                tf, opt = [], 0
                for s in range(1, seeds + 1):
                    out = subprocess.run(
                        [PT, "optimize", "--problem", problem, "--algo", algo, "--budget", str(budget),
                         "--seed", str(s), "--verdict", "0", "--json", "-q", "--no-log", "--runs-dir", runs,
                         "--name", f"{algo}-{budget}-{mode}-{s}"] + flags,
                        capture_output=True, text=True, check=True)
                    d = json.loads(out.stdout.strip().splitlines()[-1])
                    tf.append(d["true_fitness"])
                    opt += bool(d["optimal"])
                row[mode] = (st.mean(tf), st.stdev(tf) / len(tf) ** 0.5, opt)
            print(algo, budget, " ".join(f"{m}: {v[0]:.4f} ± {v[1]:.4f} optimal {v[2]}/{seeds}"
                                         for m, v in row.items()), flush=True)
