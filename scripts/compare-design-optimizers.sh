#!/usr/bin/env bash
# NTBEA and random search, each at playtune's defaults, on the design problem of issue
# 41: Rinascimento at 2 players, ladder rnd, osla(budget=50), mcts(budget=200), 10 games
# a rung, 80 evaluations, SEEDS trials each. Every answer is then played again on fresh
# seeds (`playtune reevaluate --n 25`: 25 evaluations of 10 games, 250 games a rung) beside
# 2-player Splendor, the answers of trial t of every optimiser on the same seeds, and
# each run's own verdict (its default 10 evaluations a side) is checked against those
# fresh games.
#
#   scripts/compare-design-optimizers.sh [PLAYTUNE] [SEEDS] [OUT] [ALGOS]
#
# ALGOS: names as --algo takes them, at their defaults; NAME+race races a quarter of
# the budget, NAME-norace never races; tpe is Optuna's TPE (scripts/design-tpe.py,
# through the Python package: PYTHON names an interpreter that has it and optuna). FLAGS (environment) adds flags to every
# search, for example FLAGS="--race-candidates 8".
#
# Writes OUT/summary.json and prints a table: each algorithm's fresh skill depth (mean
# and standard error over its answers), the two-sided Mann-Whitney U p-value between
# each pair (normal approximation with tie correction), and how many verdict claims
# ("deeper"/"shallower") the fresh games bear out. About 17 minutes on 2 cores for
# "ntbea random tpe".
set -euo pipefail
PLAYTUNE=${1:-target/release/playtune}
SEEDS=${2:-20}
OUT=${3:-runs/design-optimizers}
ALGOS=${4:-ntbea random rmhc}
mkdir -p "$OUT"
for algo in $ALGOS; do
  if [ "$algo" = tpe ]; then
    # Optuna's TPE through the Python package (PYTHON: an interpreter that has both).
    "${PYTHON:-python3}" "$(dirname "$0")/design-tpe.py" "$SEEDS" "$OUT"
    # Its answers are played on the fresh seeds every other answer of the same trial
    # is: `reevaluate`'s seeds follow --seed and --trial, whatever the run, so a run of
    # one evaluation a trial lends the problem's settings.
    ref="$OUT/fresh-seeds"
    [ -d "$ref" ] || "$PLAYTUNE" optimize --problem design --set game=rinascimento \
      --set ladder="rnd,osla(budget=50),mcts(budget=200)" --set games=10 \
      --set game_settings="players=2" --algo random --no-race --verdict 0 --budget 1 \
      --trials "$SEEDS" -q --name fresh-seeds --runs-dir "$OUT" > /dev/null
    python3 - "$PLAYTUNE" "$OUT" <<'EOF_TPE'
import json, subprocess, sys
playtune, out = sys.argv[1:]
rows = json.load(open(f"{out}/tpe.summary.json"))["tpe"]
trials, points = [], []
for r in rows:
    args = [a for k, v in r["point"].items() for a in ("--point", f"{k}={v}")]
    line = subprocess.run([playtune, "reevaluate", f"{out}/fresh-seeds", "--trial", str(r["trial"]),
                           "--n", "25", "--seed", "777", "--json", *args],
                          check=True, capture_output=True, text=True).stdout.strip().splitlines()[-1]
    points.append(json.loads(line)["points"][0])
    # No verdict of its own: its best value stands for the estimate.
    trials.append({"trial": r["trial"], "verdict": {"outcome": "NoBetter"},
                   "estimate": r["best_value"], "recommendation_feasible": r["feasible"]})
json.dump({"trials": trials}, open(f"{out}/tpe.json", "w"))
json.dump({"points": points}, open(f"{out}/tpe.fresh.json", "w"))
EOF_TPE
    continue
  fi
  # NAME+race races a quarter of the budget, NAME-norace never; NAME alone: defaults.
  case "$algo" in
    *+race) flags=(--algo "${algo%+race}" --race 0.25) ;;
    *-norace) flags=(--algo "${algo%-norace}" --no-race) ;;
    *) flags=(--algo "$algo") ;;
  esac
  rm -rf "${OUT:?}/$algo"
  "$PLAYTUNE" optimize --problem design --set game=rinascimento \
    --set ladder="rnd,osla(budget=50),mcts(budget=200)" --set games=10 \
    --set game_settings="players=2" "${flags[@]}" ${FLAGS:-} --budget 80 --trials "$SEEDS" \
    --json -q --name "$algo" --runs-dir "$OUT" | tail -1 > "$OUT/$algo.json"
  "$PLAYTUNE" reevaluate "$OUT/$algo" --n 25 --seed 777 --json | tail -1 > "$OUT/$algo.fresh.json"
done
python3 - "$OUT" $ALGOS <<'EOF'
import json, math, sys
out, algos = sys.argv[1], sys.argv[2:]

def depth(side):
    rates = [f for f in side["features"] if f["name"].startswith("win_rate_")]
    return min((b["mean"] - a["mean"], math.hypot(a["se"], b["se"])) for a, b in zip(rates, rates[1:]))

def mann_whitney(a, b):
    pooled = sorted([(x, 0) for x in a] + [(x, 1) for x in b])
    ranks, i = [0.0] * len(pooled), 0
    ties = 0.0
    while i < len(pooled):
        j = i
        while j + 1 < len(pooled) and pooled[j + 1][0] == pooled[i][0]:
            j += 1
        for k in range(i, j + 1):
            ranks[k] = (i + j) / 2 + 1
        t = j - i + 1
        ties += t ** 3 - t
        i = j + 1
    n1, n2 = len(a), len(b)
    r1 = sum(r for r, (_, g) in zip(ranks, pooled) if g == 0)
    u = r1 - n1 * (n1 + 1) / 2
    n = n1 + n2
    sd = math.sqrt(n1 * n2 / 12 * ((n + 1) - ties / (n * (n - 1))))
    z = (abs(u - n1 * n2 / 2) - 0.5) / sd if sd > 0 else 0.0
    return u, math.erfc(z / math.sqrt(2))

summary = {}
for algo in algos:
    run = json.load(open(f"{out}/{algo}.json"))
    fresh = json.load(open(f"{out}/{algo}.fresh.json"))["points"]
    rows = []
    for t, f in zip(run["trials"], fresh):
        v = f["verdict"]
        rec, rec_se = depth(v["recommendation"])
        base, base_se = depth(v["baseline"])
        diff, se = rec - base, math.hypot(rec_se, base_se)
        said = t["verdict"]["outcome"]
        right = {"Better": diff > 0, "Worse": diff < 0, "NoBetter": True}[said]
        rows.append({"trial": t["trial"], "fresh_depth": rec, "fresh_depth_se": rec_se,
                     "splendor_depth": base, "splendor_depth_se": base_se, "said": said, "right": right,
                     "estimate": t["estimate"], "feasible": t.get("recommendation_feasible")})
    summary[algo] = rows
json.dump(summary, open(f"{out}/summary.json", "w"), indent=1)
print(f"{'algorithm':10} {'answers':>7} {'fresh depth':>12} {'se':>7} {'estimate':>9} {'claims right':>13} {'beat Splendor by 2 se':>22}")
for algo, rows in summary.items():
    d = [r["fresh_depth"] for r in rows]
    m = sum(d) / len(d)
    se = math.sqrt(sum((x - m) ** 2 for x in d) / (len(d) - 1) / len(d))
    est = sum(r["estimate"] for r in rows) / len(rows)
    claims = [r for r in rows if r["said"] != "NoBetter"]
    beat = sum(r["splendor_depth"] is not None and r["fresh_depth"] - r["splendor_depth"] > 2 * math.hypot(r["fresh_depth_se"], r["splendor_depth_se"]) for r in rows)
    print(f"{algo:10} {len(rows):>7} {m:>12.3f} {se:>7.3f} {est:>9.3f} {sum(r['right'] for r in claims):>6} of {len(claims):<4} {beat:>22}")
for i, a in enumerate(algos):
    for b in algos[i + 1:]:
        u, p = mann_whitney([r["fresh_depth"] for r in summary[a]], [r["fresh_depth"] for r in summary[b]])
        print(f"{a} vs {b}: U = {u:.1f}, p = {p:.4f}")
EOF
