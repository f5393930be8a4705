#!/usr/bin/env bash
# One default Space Battle skill-depth evaluation (1SLA, RAS and MCTS each playing a
# 2000-tick game against RAS on the default parameters), timed for two playtune
# binaries side by side: the binaries alternate, so that whatever else the machine is
# doing weighs on both alike. Prints each binary's median wall and CPU seconds per
# evaluation and their ratios, and fails if the two give different results.
#
#   bash benches/space_battle_eval.sh BEFORE AFTER [ROUNDS]   (default 7 rounds)
#
# e.g. build the base commit into /tmp/playtune-before, then
#   bash benches/space_battle_eval.sh /tmp/playtune-before target/release/playtune
set -euo pipefail

if [ $# -lt 2 ]; then
    echo "usage: $0 BEFORE AFTER [ROUNDS]" >&2
    exit 2
fi
bins=("$1" "$2")
rounds=${3:-7}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# Every dimension at its default: random search then has a single point to evaluate.
# One dimension must stay free; BLACKHOLE_CELL_15 is outside the default 2 x 2 grid,
# so either of its values gives the same game.
fix=()
while read -r name value; do
    [ "$name" = BLACKHOLE_CELL_15 ] || fix+=(--fix "$name=$value")
done < <("${bins[0]}" spaces export space-battle |
    sed -nE 's/.*name: "([A-Z_0-9]+)", kind: .*default: "?([^")]*)"?\),?$/\1 \2/p')

evaluate() { # binary, output file; prints "wall cpu" seconds
    local start end
    start=$(date +%s.%N)
    local cpu
    cpu=$( { /usr/bin/time -f '%U %S' "$1" optimize --problem space-battle --algo random \
        --budget 1 --seed 1 --no-log --quiet --json --runs-dir "$work/runs" "${fix[@]}" \
        >"$2"; } 2>&1 | tail -n 1)
    end=$(date +%s.%N)
    awk -v s="$start" -v e="$end" -v c="$cpu" 'BEGIN { split(c, t, " "); printf "%.3f %.3f\n", e - s, t[1] + t[2] }'
}

median() { sort -g | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }

for b in 0 1; do
    evaluate "${bins[$b]}" "$work/warm$b.json" >/dev/null # page the binary in
    : >"$work/times$b"
done
for r in $(seq 1 "$rounds"); do
    # Alternate which binary goes first.
    for b in $(if [ $((r % 2)) -eq 1 ]; then echo 0 1; else echo 1 0; fi); do
        t=$(evaluate "${bins[$b]}" "$work/out$b.json")
        echo "$t" >>"$work/times$b"
        echo "round $r ${bins[$b]}: wall ${t% *} s, cpu ${t#* } s"
    done
    # The same evaluation must give the same result.
    fitness() { grep -o '"estimate":[^,]*' "$1" | head -n 1; }
    if [ "$(fitness "$work/out0.json")" != "$(fitness "$work/out1.json")" ]; then
        echo "results differ: $(fitness "$work/out0.json") vs $(fitness "$work/out1.json")" >&2
        exit 1
    fi
done
w0=$(cut -d' ' -f1 "$work/times0" | median)
w1=$(cut -d' ' -f1 "$work/times1" | median)
c0=$(cut -d' ' -f2 "$work/times0" | median)
c1=$(cut -d' ' -f2 "$work/times1" | median)
echo "result (both): $(fitness "$work/out0.json")"
echo "median of $rounds rounds, one default evaluation:"
echo "  ${bins[0]}: wall $w0 s, cpu $c0 s"
echo "  ${bins[1]}: wall $w1 s, cpu $c1 s"
awk -v a="$w0" -v b="$w1" -v c="$c0" -v d="$c1" \
    'BEGIN { printf "  ratio (first / second): wall %.2fx, cpu %.2fx\n", a / b, c / d }'
