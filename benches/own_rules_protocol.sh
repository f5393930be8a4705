#!/usr/bin/env bash
# Bring only your rules, over the protocol: playtune's search bots on a game whose rules
# live in another process (examples/tictactoe/tictactoe.js under node), against a plain
# UCT MCTS written for the benchmark inside node's own process (benches/tictactoe_mcts.js:
# a closed tree over both players, 100 iterations, random playouts, no protocol).
#
# Each round, alternated, one core each (RAYON_NUM_THREADS=1, one game process, a copy
# of tictactoe.ron with `workers: 1`), GAMES games (default 40) of self-play from the
# opening at 100 iterations:
#   - mcts(iterations=100): the generic open-loop MCTS, one operation a request;
#   - uct(iterations=100): UCT on the game's own states, its expansions batched into
#     one `expand` request (32 a batch);
#   - the in-process node UCT.
# Decisions a second: moves played over the command's wall time (process starts
# included for playtune; the matches only for node, whose start is printed beside,
# and set against playtune's whole command in a last line).
# The medians over ROUNDS rounds (default 3) and their ratios, then the strength of the
# two searches: uct(iterations=100) against mcts(iterations=100), 200 games (seed 7):
# uct's win rate (a draw 1/2) with its standard error.
#
#   cargo build --release && bash benches/own_rules_protocol.sh [GAMES]
#
# PLAYTUNE (environment) names another binary (default target/release/playtune).
set -euo pipefail
games=${1:-40}
rounds=${ROUNDS:-3}
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

# Decisions a second of one self-play tournament of `$1`, over its wall time.
protocol() {
  local start end
  start=$(date +%s.%N)
  RAYON_NUM_THREADS=1 "$bin" tournament --game "$dir/tictactoe.ron" \
      --agents "$1,$1" --games "$games" --json >"$dir/out"
  end=$(date +%s.%N)
  node -e '
const [file, start, end] = process.argv.slice(1);
const lines = require("fs").readFileSync(file, "utf8").trim().split("\n");
const r = JSON.parse(lines[lines.length - 1]);
console.log((r.mean_length * r.games / (Number(end) - Number(start))).toFixed(1));
' "$dir/out" "$start" "$end"
}

: >"$dir/rounds"
for ((r = 1; r <= rounds; r++)); do
  m=$(protocol "mcts(iterations=100)")
  u=$(protocol "uct(iterations=100)")
  j=$(node "$root/benches/tictactoe_mcts.js" "$games" 100)
  echo "$m $u $j" >>"$dir/rounds"
  echo "round $r: mcts $m, uct $u decisions/s over the protocol; in-process node $(node -e 'const j = JSON.parse(process.argv[1]); console.log(j.decisions_per_second.toFixed(1) + " (" + j.process_seconds.toFixed(3) + " s with node'"'"'s start)")' "$j")"
done

RAYON_NUM_THREADS=1 "$bin" tournament --game "$dir/tictactoe.ron" --seed 7 \
    --agents "uct(iterations=100),mcts(iterations=100)" --games 200 --json >"$dir/strength"

node -e '
const fs = require("fs");
const [roundsFile, strengthFile, games] = process.argv.slice(1);
const rows = fs.readFileSync(roundsFile, "utf8").trim().split("\n").map((l) => {
  const [m, u, ...j] = l.split(" ");
  const base = JSON.parse(j.join(" "));
  return { m: Number(m), u: Number(u), j: base.decisions_per_second, jw: base.moves / base.process_seconds };
});
const median = (xs) => { const s = [...xs].sort((a, b) => a - b); return s[Math.floor(s.length / 2)]; };
const m = median(rows.map((r) => r.m)), u = median(rows.map((r) => r.u)), j = median(rows.map((r) => r.j));
console.log(`medians over ${rows.length} rounds of ${games} games, decisions a second:`);
console.log(`  mcts(iterations=100) over the protocol: ${m.toFixed(1)}`);
console.log(`  uct(iterations=100) over the protocol:  ${u.toFixed(1)} (${(u / m).toFixed(1)}x mcts)`);
console.log(`  in-process node UCT, 100 iterations:    ${j.toFixed(1)} (${(j / u).toFixed(1)}x uct, ${(j / m).toFixed(1)}x mcts)`);
// The line above sets the whole playtune command (its start and that of the game
// process) against the matches of the node baseline alone; here both count starts.
const jw = median(rows.map((r) => r.jw));
console.log(`  the same, its process start counted:   ${jw.toFixed(1)} (${(jw / u).toFixed(1)}x uct: both whole commands)`);
const lines = fs.readFileSync(strengthFile, "utf8").trim().split("\n");
const s = JSON.parse(lines[lines.length - 1]);
const a = s.agents[0];
console.log(`strength: ${a.name} against mcts(iterations=100), ${a.games} games: win rate ${a.win_rate.toFixed(3)} ± ${a.win_rate_se.toFixed(3)} (0.5: equal)`);
console.log(`${new Date().toISOString().slice(0, 10)}, nproc ${require("os").cpus().length}, node ${process.version}`);
' "$dir/rounds" "$dir/strength" "$games"
