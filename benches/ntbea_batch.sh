#!/usr/bin/env bash
# Batch NTBEA (--batch q) against sequential NTBEA (q = 1), in one sitting:
#  1. quality at equal evaluations on the acceptance benchmarks (share of trials that
#     find the optimum; the win-rate benchmark: mean true win rate of the
#     recommendation), 200 trials each (400 for the win rate);
#  2. wall time with a slow evaluator (a persistent worker that takes 0.2 s an
#     evaluation), 4 workers, 40 evaluations.
# Usage: benches/ntbea_batch.sh [path/to/playtune]   (default: target/release/playtune)
set -euo pipefail
P=${1:-target/release/playtune}
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
field() { python3 -c "import json,sys; print(round(json.loads(sys.stdin.read().splitlines()[-1])['$1'], 3))"; }
echo "| q | OneMax D=10, sigma 1, budget 200 | OneMax D=20, budget 500 | trap 6x3, sigma 2, budget 400 | win rate 7x8, budget 100 (mean true) |"
echo "|---|---|---|---|---|"
for q in 1 2 4 8; do
  row="| $q"
  for bench in "noisy-onemax --set dims=10 --set sigma=1 --budget 200" \
               "noisy-onemax --set dims=20 --budget 500" \
               "noisy-trap --set dims=6 --set values=3 --set sigma=2 --budget 400"; do
    # shellcheck disable=SC2086
    row="$row | $($P optimize --problem $bench --trials 200 --seed 1 --batch $q --no-log -q --runs-dir "$out" --json | field success_rate)"
  done
  row="$row | $($P optimize --problem noisy-winrate --set dims=7 --set values=8 --budget 100 --trials 400 --seed 1 --batch $q --no-log -q --runs-dir "$out" --json | field mean_final_value) |"
  echo "$row"
done
# A worker: 0.2 s an evaluation, the fitness the number of ones in the point.
cat > "$out/slow.sh" <<'W'
while IFS= read -r line; do
  id=$(printf '%s' "$line" | sed 's/.*"id":\([0-9]*\).*/\1/')
  ones=$(printf '%s' "$line" | sed 's/.*"point"//' | grep -o ':1\.0' | wc -l)
  sleep 0.2
  printf '{"id": %s, "fitness": %s}\n' "$id" "$ones"
done
W
echo
echo "| q | wall time, 40 evaluations of 0.2 s, 4 workers | ratio to q = 1 |"
echo "|---|---|---|"
base=""
for q in 1 4; do
  start=$(date +%s.%N)
  $P optimize --problem command --space spaces/noisy_onemax_10.ron --set cmd="sh $out/slow.sh" \
     --workers 4 --budget 40 --batch $q --seed 1 -q --runs-dir "$out" >/dev/null
  t=$(python3 -c "import time; print(round($(date +%s.%N) - $start, 2))")
  [ -z "$base" ] && base=$t
  echo "| $q | $t s | $(python3 -c "print(round($t / $base, 2))") |"
done
