#!/usr/bin/env bash
# MAP-Elites on pyribs' sphere domain, pyribs and playtune side by side in one script:
# same domain, 100 dimensions, 100 x 100 grid, batch 36, Gaussian sigma 0.5, 100,000
# evaluations, one thread each. Prints evaluations per second, coverage and QD score
# of both and the speed ratio.
#   bash benches/compare_pyribs.sh [SEEDS]      (needs python3 with venv; pip reaches PyPI)
set -euo pipefail
cd "$(dirname "$0")/.."
seeds=${1:-3}
venv=${PYRIBS_VENV:-/tmp/pyribs}
if [ ! -x "$venv/bin/python" ] || ! "$venv/bin/python" -c 'import ribs' 2>/dev/null; then
  python3 -m venv "$venv" && "$venv/bin/pip" install -q "ribs[visualize]==0.12.0"
fi
peer=${PYRIBS_SCRIPT:-../shared/bench/pyribs_sphere.py}
cargo build --release -q
out=$(mktemp -d)
for s in $(seq 1 "$seeds"); do
  OPENBLAS_NUM_THREADS=1 OMP_NUM_THREADS=1 MKL_NUM_THREADS=1 "$venv/bin/python" "$peer" \
    --dim 100 --evals 100000 --emitters 1 --batch 36 --seed "$s" >>"$out/pyribs.jsonl"
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
print(f"pyribs:   {st.mean(py_rate):>10.0f} evals/s  coverage {st.mean(p['coverage'] for p in py):.4f}  QD {st.mean(p['qd_score'] for p in py):.0f}")
print(f"playtune: {st.mean(pt_rate):>10.0f} evals/s  coverage {st.mean(p['trials'][0]['coverage'] for p in pt):.4f}  QD {st.mean(p['trials'][0]['qd_score'] for p in pt):.0f}")
print(f"speed ratio playtune / pyribs: {st.mean(pt_rate) / st.mean(py_rate):.1f}x over {len(pt)} seeds")
PY
