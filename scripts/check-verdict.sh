#!/usr/bin/env bash
# Is the verdict's sentence right? The README's design command, at its stated budget,
# over SEEDS seeds; each run's verdict is then checked against FRESH games a rung of the
# recommendation and of the game's own rules (2-player Splendor), played on seeds
# neither the run nor its verdict used (`playtune reevaluate --n FRESH/20 --seed 999`:
# 20 games a rung an evaluation, the rung rates pooled over every evaluation).
#
#   scripts/check-verdict.sh [PLAYTUNE] [SEEDS] [FRESH] [OUT]
#
# A sentence is right when: "deeper" and the fresh depth of the recommendation is above
# the baseline's; "shallower" and it is below; "not shown deeper" always (it claims no
# difference), and the summary counts those where the fresh games do show one (more
# than 2 standard errors of the difference either way): what a larger verdict would
# have found. Prints one line per seed and a summary, and writes
# OUT/verdict-check.jsonl. About 4 minutes a seed on 2 cores.
set -euo pipefail
PLAYTUNE=${1:-target/release/playtune}
SEEDS=${2:-10}
FRESH=${3:-1000}
OUT=${4:-runs/verdict-check}
mkdir -p "$OUT"
: > "$OUT/verdict-check.jsonl"
for seed in $(seq 1 "$SEEDS"); do
  name="readme-design-s$seed"
  rm -rf "${OUT:?}/$name"
  "$PLAYTUNE" optimize --problem design --set game=rinascimento \
    --set ladder="rnd,osla,mcts(budget=1000)" --set games=20 --set game_settings="players=2" \
    --constraint "stalemate_rate <= 0.05" --constraint "mean_length in 40..120" \
    --seed "$seed" --json -q --name "$name" --runs-dir "$OUT" | tail -1 > "$OUT/$name.json"
  "$PLAYTUNE" reevaluate "$OUT/$name" --n $((FRESH / 20)) --seed 999 --json \
    | tail -1 > "$OUT/$name.fresh.json"
  python3 - "$OUT/$name.json" "$OUT/$name.fresh.json" "$seed" >> "$OUT/verdict-check.jsonl" <<'EOF'
import json, math, sys
run = json.load(open(sys.argv[1]))
fresh = json.load(open(sys.argv[2]))["points"][0]["verdict"]
v = run["verdict"]

def depth(side):
    rates = [f for f in side["features"] if f["name"].startswith("win_rate_")]
    gaps = [(b["mean"] - a["mean"], math.hypot(a["se"], b["se"])) for a, b in zip(rates, rates[1:])]
    return min(gaps)

rec, rec_se = depth(fresh["recommendation"])
base, base_se = depth(fresh["baseline"])
diff, se = rec - base, math.hypot(rec_se, base_se)
said = v["outcome"]
right = {"Better": diff > 0, "Worse": diff < 0, "NoBetter": True}[said]
missed = said == "NoBetter" and abs(diff) > 2 * se
print(json.dumps({"seed": int(sys.argv[3]), "said": said, "sentence": v["sentence"],
                  "fresh_depth": rec, "fresh_depth_se": rec_se, "baseline_depth": base,
                  "baseline_depth_se": base_se, "difference": diff, "difference_se": se,
                  "right": right, "missed": missed}))
EOF
  tail -1 "$OUT/verdict-check.jsonl"
done
python3 - "$OUT/verdict-check.jsonl" <<'EOF'
import json, sys
rows = [json.loads(l) for l in open(sys.argv[1])]
claims = [r for r in rows if r["said"] != "NoBetter"]
print(f"{sum(r['right'] for r in rows)} of {len(rows)} sentences right; "
      f"{sum(r['right'] for r in claims)} of {len(claims)} claims (deeper or shallower) right; said: "
      + ", ".join(f"{s} {sum(r['said'] == s for r in rows)}" for s in ("Better", "NoBetter", "Worse"))
      + f"; not shown where 1,000 fresh games a rung show a difference: {sum(r['missed'] for r in rows)}")
EOF
