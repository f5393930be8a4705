#!/usr/bin/env bash
# Does the main job answer? The README's main job (`playtune optimize --problem design`,
# every flag at its default) over seeds FIRST..LAST, extra flags in FLAGS (a budget, a
# game setting); for each seed: the verdict's outcome, the pairs it played, its
# difference and the run's wall time, then the same recommendations judged by the
# verdict of before 2026-11-29 (25 pairs, a paired t-test at 0.01: `playtune reevaluate
# --fixed --n 25`, on the same seeds as the run's own verdict).
#
#   scripts/main-job-verdicts.sh [PLAYTUNE] [FIRST] [LAST] [OUT]
#
# Writes OUT/verdicts.jsonl (a line a seed) and prints a summary. About 1 to 1.5
# minutes a seed on 2 cores at the defaults.
set -euo pipefail
PLAYTUNE=$(realpath "${1:-target/release/playtune}")
FIRST=${2:-1}
LAST=${3:-10}
OUT=${4:-runs/main-job-verdicts}
FLAGS=${FLAGS:-}
mkdir -p "$OUT"
for seed in $(seq "$FIRST" "$LAST"); do
  name="main-s$seed"
  rm -rf "${OUT:?}/$name"
  start=$(date +%s.%N)
  # shellcheck disable=SC2086
  "$PLAYTUNE" optimize --problem design $FLAGS --seed "$seed" --json -q --name "$name" \
    --runs-dir "$OUT" | tail -1 > "$OUT/$name.json"
  end=$(date +%s.%N)
  "$PLAYTUNE" reevaluate "$OUT/$name" --fixed --n 25 --json | tail -1 > "$OUT/$name.fixed25.json"
  python3 - "$OUT/$name.json" "$OUT/$name.fixed25.json" "$seed" "$start" "$end" \
    >> "$OUT/verdicts.jsonl" <<'PY'
import json, sys
run = json.load(open(sys.argv[1]))
fixed = json.load(open(sys.argv[2]))["points"][0]["verdict"]
v = run["verdict"]
q = v.get("sequential") or {}
print(json.dumps({
    "seed": int(sys.argv[3]),
    "seconds": round(float(sys.argv[5]) - float(sys.argv[4]), 1),
    "outcome": "Same" if v.get("same_point") else v["outcome"],
    "alternative": v.get("alternative", False),
    "pairs": v["pairs"], "cap": q.get("cap"),
    "difference": round(v["difference"], 4), "se": round(v["difference_se"], 4),
    "recommendation": round(v["recommendation"]["mean"], 4),
    "baseline": round(v["baseline"]["mean"], 4),
    "fixed25": fixed["outcome"], "fixed25_p": fixed["p"],
}))
PY
  tail -1 "$OUT/verdicts.jsonl"
done
python3 - "$OUT/verdicts.jsonl" <<'PY'
import json, sys
rows = [json.loads(l) for l in open(sys.argv[1])]
decided = [r for r in rows if r["outcome"] in ("Better", "Worse", "Equal")]
fixed = [r for r in rows if r["fixed25"] in ("Better", "Worse")]
n = len(rows)
print(f"{len(decided)} of {n} decided ({', '.join(sorted(set(r['outcome'] for r in rows)))}); "
      f"pairs a verdict: mean {sum(r['pairs'] for r in rows) / n:.1f}, most {max(r['pairs'] for r in rows)}; "
      f"wall time a seed: mean {sum(r['seconds'] for r in rows) / n:.1f} s, most {max(r['seconds'] for r in rows):.1f} s; "
      f"the fixed 25-pair verdict decided {len(fixed)} of {n}")
PY
