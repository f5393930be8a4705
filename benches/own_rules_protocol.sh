#!/usr/bin/env bash
# Bring only your rules, over the protocol: playtune's MCTS searching a game whose
# rules live in another process, one forward-model operation a JSON line.
# mcts(iterations=100) against mcts(iterations=100) on examples/tictactoe/tictactoe.js
# (node), GAMES games (default 40), seed 1, one match at a time (RAYON_NUM_THREADS=1)
# in one game process (a copy of tictactoe.ron with `workers: 1`). Prints decisions a
# second: the moves played (mean length x games, as the tournament reports them) over
# the tournament's wall time, process starts included; and playtune's own `seconds`
# and states/s beside it.
# Then the in-process baseline, benches/tictactoe_mcts.js: a plain UCT MCTS in node
# (closed tree over both players, 100 iterations, self-play, seed 1) searching the same
# rules with no protocol, GAMES games; its decisions a second (the matches only, and
# over the whole process, node's start included) and the ratio of the two.
#
#   cargo build --release && bash benches/own_rules_protocol.sh [GAMES]
#
# PLAYTUNE (environment) names another binary (default target/release/playtune).
set -euo pipefail
games=${1:-40}
root=$(cd "$(dirname "$0")/.." && pwd)
bin=${PLAYTUNE:-$root/target/release/playtune}
[ -x "$bin" ] || { echo "no $bin: cargo build --release first" >&2; exit 2; }
command -v node >/dev/null || { echo "no node on PATH: nothing measured"; exit 0; }

dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
sed -e "s|command: \"node tictactoe.js\"|command: \"node $root/examples/tictactoe/tictactoe.js\"|" \
    -e 's|forward_model: true,|forward_model: true, workers: 1,|' \
    "$root/examples/tictactoe/tictactoe.ron" >"$dir/tictactoe.ron"
grep -q 'workers: 1' "$dir/tictactoe.ron" || { echo "could not set workers: 1" >&2; exit 2; }

start=$(date +%s.%N)
RAYON_NUM_THREADS=1 "$bin" tournament --game "$dir/tictactoe.ron" \
    --agents "mcts(iterations=100),mcts(iterations=100)" --games "$games" --json >"$dir/out"
end=$(date +%s.%N)
node "$root/benches/tictactoe_mcts.js" "$games" 100 >"$dir/js"

node -e '
const [file, start, end, games, jsFile] = process.argv.slice(1);
const lines = require("fs").readFileSync(file, "utf8").trim().split("\n");
const r = JSON.parse(lines[lines.length - 1]);
const wall = Number(end) - Number(start);
const moves = r.mean_length * r.games;
console.log(`${r.games} games of ${r.game}, mcts(iterations=100) against mcts(iterations=100), one worker`);
console.log(`moves ${moves.toFixed(0)} (mean length ${r.mean_length.toFixed(2)} x ${r.games} games) in ${wall.toFixed(2)} s wall (playtune: ${r.seconds.toFixed(2)} s, ${r.states_per_second.toFixed(0)} states/s)`);
console.log(`decisions a second: ${(moves / wall).toFixed(1)}`);
const js = JSON.parse(require("fs").readFileSync(jsFile, "utf8").trim());
console.log(`in-process JS (benches/tictactoe_mcts.js): ${js.games} games, mcts(${js.iterations}) self-play, wins ${js.wins.join("/")}, draws ${js.draws}`);
console.log(`moves ${js.moves} in ${js.seconds.toFixed(3)} s (matches only; ${js.process_seconds.toFixed(3)} s the whole process)`);
console.log(`decisions a second: ${js.decisions_per_second.toFixed(1)} (${(js.moves / js.process_seconds).toFixed(1)} over the whole process)`);
console.log(`in-process JS / playtune over the protocol: ${(js.decisions_per_second / (moves / wall)).toFixed(1)}x`);
console.log(`${new Date().toISOString().slice(0, 10)}, nproc ${require("os").cpus().length}, node ${process.version}`);
' "$dir/out" "$start" "$end" "$games" "$dir/js"
