#!/usr/bin/env bash
# MAP-Elites on pyribs' sphere domain, pyribs and playtune side by side in one script:
# same domain, 100 dimensions, 100 x 100 grid, batch 36, Gaussian sigma 0.5, 100,000
# evaluations, one thread each, the two alternating round by round (one seed a round).
# Prints medians of evaluations per second, coverage and QD score of both, and the
# median of the per-round speed ratios (medians: pyribs' first round is slow while
# Python warms up, and a mean would carry that).
#   bash benches/compare_pyribs.sh [ROUNDS]     (needs python3 with venv; pip reaches PyPI)
set -euo pipefail
cd "$(dirname "$0")/.."
seeds=${1:-7}
venv=${PYRIBS_VENV:-/tmp/pyribs}
if [ ! -x "$venv/bin/python" ] || ! "$venv/bin/python" -c 'import ribs' 2>/dev/null; then
  python3 -m venv "$venv" && "$venv/bin/pip" install -q "ribs[visualize]==0.12.0"
fi
peer=${PYRIBS_SCRIPT:-benches/pyribs_sphere.py}
cargo build --release -q
out=$(mktemp -d)
for s in $(seq 1 "$seeds"); do
  OPENBLAS_NUM_THREADS=1 OMP_NUM_THREADS=1 MKL_NUM_THREADS=1 "$venv/bin/python" "$peer" \
    --dim 100 --evals 100000 --batch 36 --sigma 0.5 --seed "$s" >>"$out/pyribs.jsonl"
  RAYON_NUM_THREADS=1 target/release/playtune map-elites --problem sphere --set dims=100 \
    --evaluations 100000 --batch 36 --sigma 0.5 --seed "$s" --no-log --json -q \
    --runs-dir "$out/runs" | tail -n 1 >>"$out/playtune.jsonl"
done
python3 - "$out" <<'PY'
import json, sys, statistics as st
d = sys.argv[1]
py = [json.loads(l) for l in open(f"{d}/pyribs.jsonl")]
pt = [json.loads(l) for l in open(f"{d}/playtune.jsonl")]
py_rate = [p["evals_per_s"] for p in py]
# Like pyribs' figure, the search loop alone (ask, evaluate, tell), without saving files.
pt_rate = [100000 / p["search_seconds"] for p in pt]
ratios = [a / b for a, b in zip(pt_rate, py_rate)]
print(f"pyribs:   {st.median(py_rate):>10.0f} evals/s (median; range {min(py_rate):.0f}-{max(py_rate):.0f})  coverage {st.median(p['coverage'] for p in py):.4f}  QD {st.median(p['qd_score'] for p in py):.0f}")
print(f"playtune: {st.median(pt_rate):>10.0f} evals/s (median; range {min(pt_rate):.0f}-{max(pt_rate):.0f})  coverage {st.median(p['trials'][0]['coverage'] for p in pt):.4f}  QD {st.median(p['trials'][0]['qd_score'] for p in pt):.0f}")
print(f"speed ratio playtune / pyribs: median {st.median(ratios):.1f}x (per round {min(ratios):.1f}-{max(ratios):.1f}x) over {len(pt)} alternating rounds")
PY
