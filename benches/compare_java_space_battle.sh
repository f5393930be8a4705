#!/usr/bin/env bash
# Space Battle against its Java base game, side by side on one core: the game Space
# Battle Evolved extends (github.com/ljialin/spaceBattleGame), driven by
# benches/java/SpaceBattleBench.java, and playtune's Space Battle in its nearest
# like-for-like configuration (no black holes, normal missiles, 1000-tick games).
# Two figures, in alternating rounds, medians:
#   - ticks a second, random against random;
#   - MCTS decisions a second at 100 iterations a decision, rollouts 10 steps deep,
#     one tick a step (the reference's open-loop MCTS; playtune's mcts with macro=1),
#     against random.
#
#   SPACE_BATTLE_JAVA=<checkout of github.com/ljialin/spaceBattleGame> \
#       bash benches/compare_java_space_battle.sh [ROUNDS]     (default 5)
#
# Without SPACE_BATTLE_JAVA it says so and exits 0. Needs javac and a release build.
set -euo pipefail
rounds=${1:-5}
root=$(cd "$(dirname "$0")/.." && pwd)
bin=${PLAYTUNE:-$root/target/release/playtune}
if [ -z "${SPACE_BATTLE_JAVA:-}" ]; then
    echo "SPACE_BATTLE_JAVA is not set: give it a checkout of github.com/ljialin/spaceBattleGame to compare against; nothing measured"
    exit 0
fi
for tool in javac java; do
    command -v "$tool" >/dev/null || { echo "no $tool on PATH: nothing measured"; exit 0; }
done
[ -x "$bin" ] || { echo "no $bin: cargo build --release first" >&2; exit 2; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# The reference's sources without its tests (they need a display); our driver beside.
find "$SPACE_BATTLE_JAVA/src" -name '*.java' -not -path '*/test/*' >"$work/files"
javac -nowarn -d "$work/classes" @"$work/files" "$root/benches/java/SpaceBattleBench.java" 2>&1 | grep -v '^Note' || true
# One core for both sides, where taskset is there.
one=()
command -v taskset >/dev/null && one=(taskset -c 0)
export RAYON_NUM_THREADS=1
settings=(--game space-battle --set MISSILE_TYPE=normal)

java_ticks() { "${one[@]}" java -cp "$work/classes" SpaceBattleBench ticks 300 1000 | awk '{print $6}'; }
java_mcts() { "${one[@]}" java -cp "$work/classes" SpaceBattleBench mcts 4 250 100 | awk '{print $10}'; }
# playtune's tournament prints "... N states/s on 1 thread(s)": states are ticks here.
ours_ticks() {
    "${one[@]}" "$bin" tournament "${settings[@]}" --set max_ticks=1000 --agents random,random --games 2000 |
        sed -nE 's/.* ([0-9]+) states\/s on.*/\1/p'
}
ours_mcts() {
    # One MCTS decision a tick: decisions a second are ticks a second.
    "${one[@]}" "$bin" tournament "${settings[@]}" --set max_ticks=250 --games 8 \
        --agents "mcts(iterations=100,depth=10,macro=1),random" |
        sed -nE 's/.* ([0-9]+) states\/s on.*/\1/p'
}
median() { sort -g | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }

for f in java_ticks ours_ticks java_mcts ours_mcts; do : >"$work/$f"; done
for r in $(seq 1 "$rounds"); do
    order="java_ticks ours_ticks java_mcts ours_mcts"
    [ $((r % 2)) -eq 0 ] && order="ours_ticks java_ticks ours_mcts java_mcts"
    for f in $order; do
        v=$($f)
        echo "$v" >>"$work/$f"
        echo "round $r $f: $v"
    done
done
jt=$(median <"$work/java_ticks"); ot=$(median <"$work/ours_ticks")
jm=$(median <"$work/java_mcts"); om=$(median <"$work/ours_mcts")
echo
echo "| one core, medians of $rounds rounds | Java base game | playtune | ratio |"
echo "|---|---|---|---|"
awk -v j="$jt" -v o="$ot" 'BEGIN { printf "| ticks a second, random v random, 1000-tick games | %.0f | %.0f | %.1fx |\n", j, o, o / j }'
awk -v j="$jm" -v o="$om" 'BEGIN { printf "| MCTS decisions a second, 100 iterations, depth 10 | %.1f | %.1f | %.1fx |\n", j, o, o / j }'
