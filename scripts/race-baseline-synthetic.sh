#!/usr/bin/env bash
# How the baseline's part in the race changes the answer on the synthetic design
# benchmark (a known best rule set; its baseline, the default rules, is the worst):
# each optimiser at each budget, 30 trials, with no race, a race without the baseline,
# the baseline as an entrant (the default) and as an incumbent. Prints, per cell, the
# share of trials whose recommendation is the best rule set, the share within two
# levels of skill of it (true depth at least 0.167 of 0.2) and the mean true depth.
#
#   scripts/race-baseline-synthetic.sh [PLAYTUNE] [BUDGETS] [ALGOS]
#
# About 10 seconds on 2 cores at the defaults.
set -euo pipefail
PLAYTUNE=${1:-target/release/playtune}
BUDGETS=${2:-40 80 200 600}
ALGOS=${3:-random rmhc brmhc ntbea}
OUT=$(mktemp -d)
trap 'rm -rf "$OUT"' EXIT
for algo in $ALGOS; do
  for budget in $BUDGETS; do
    line="$algo $budget"
    for mode in norace none entrant incumbent; do
      if [ "$mode" = norace ]; then flags=(--no-race); else flags=(--race 0.25 --race-baseline "$mode"); fi
      cell=$("$PLAYTUNE" optimize --problem synthetic-design --algo "$algo" --budget "$budget" \
        --trials 30 --verdict 0 --seed 1 --json -q --no-log --name "$algo-$budget-$mode" \
        --runs-dir "$OUT" "${flags[@]}" | tail -1 | python3 -c '
import json, sys
t = json.load(sys.stdin)["trials"]
best = sum(x["optimal"] for x in t) / len(t)
near = sum(x["true_fitness"] >= 0.2 - 2 * 0.2 / 12 - 1e-9 for x in t) / len(t)
mean = sum(x["true_fitness"] for x in t) / len(t)
print(f"{best:.0%} {near:.0%} {mean:.3f}")')
      line="$line | $mode: $cell"
    done
    echo "$line"
  done
done
