#!/usr/bin/env node
// The in-process baseline for benches/own_rules_protocol.sh: a plain UCT MCTS written
// for this benchmark, searching tic-tac-toe in the same process as its rules, so no
// protocol, no JSON and no second process. Self-play from the opening, both seats
// this MCTS, one core, a seeded generator so a run is reproducible.
//
//   node benches/tictactoe_mcts.js [GAMES (40)] [ITERATIONS (100)]
//
// Prints one JSON line: games, iterations, moves, seconds (the matches only),
// decisions_per_second (moves / seconds), wins [seat 0, seat 1], draws, and
// process_seconds (the whole process, node's start included).
"use strict";

// The rules, as examples/tictactoe/tictactoe.js has them (copied: requiring that file
// would start its readline loop): n x n board, k in a row wins, cells -1 when empty.
function newBoard(n, k) {
  return { n, k: Math.min(k, n), cells: new Array(n * n).fill(-1), turn: 0, winner: -1, free: n * n };
}
const isOver = (b) => b.winner >= 0 || b.free === 0;
const clone = (b) => ({ ...b, cells: b.cells.slice() });
function legal(b) {
  const moves = [];
  b.cells.forEach((c, i) => c < 0 && moves.push(i));
  return moves;
}
// Whether the stone just placed at `a` makes k in a row.
function lineThrough(b, a) {
  const { n, k, cells } = b;
  const r = Math.floor(a / n), c = a % n, me = cells[a];
  for (const [dr, dc] of [[0, 1], [1, 0], [1, 1], [1, -1]]) {
    let run = 1;
    for (const sign of [1, -1]) {
      let rr = r + sign * dr, cc = c + sign * dc;
      while (rr >= 0 && rr < n && cc >= 0 && cc < n && cells[rr * n + cc] === me) {
        run += 1;
        rr += sign * dr;
        cc += sign * dc;
      }
    }
    if (run >= k) return true;
  }
  return false;
}
function move(b, a) {
  b.cells[a] = b.turn;
  b.free -= 1;
  if (lineThrough(b, a)) b.winner = b.turn;
  b.turn = 1 - b.turn;
}

// mulberry32: small, fast, and the same generator the example uses for its playouts.
function mulberry32(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

// The return of `player` at the end of a game: +1 win, -1 loss, 0 draw.
const returnOf = (b, player) => (b.winner < 0 ? 0 : b.winner === player ? 1 : -1);

// A closed-loop tree over both players' moves: a node is the state after `move`,
// played by `mover`; `value` sums the returns of `mover`, so UCB1 at any node picks
// the child best for whoever moves there.
function node(parent, mv, mover, b) {
  return { parent, move: mv, mover, visits: 0, value: 0, children: [], untried: isOver(b) ? [] : legal(b) };
}
const C = Math.SQRT2;

function search(root, iterations, random) {
  const top = node(null, -1, -1, root);
  for (let i = 0; i < iterations; i++) {
    const b = clone(root);
    let nd = top;
    // Selection: UCB1 while the node is fully expanded and has children.
    while (nd.untried.length === 0 && nd.children.length > 0) {
      const logN = Math.log(nd.visits);
      let best = null, bestScore = -Infinity;
      for (const ch of nd.children) {
        const score = ch.value / ch.visits + C * Math.sqrt(logN / ch.visits);
        if (score > bestScore) (best = ch), (bestScore = score);
      }
      nd = best;
      move(b, nd.move);
    }
    // Expansion: one untried move, picked at random (swap-remove).
    if (nd.untried.length > 0) {
      const j = Math.floor(random() * nd.untried.length);
      const mv = nd.untried[j];
      nd.untried[j] = nd.untried[nd.untried.length - 1];
      nd.untried.pop();
      const mover = b.turn;
      move(b, mv);
      const ch = node(nd, mv, mover, b);
      nd.children.push(ch);
      nd = ch;
    }
    // Playout: uniformly random moves to the end.
    while (!isOver(b)) {
      const moves = legal(b);
      move(b, moves[Math.floor(random() * moves.length)]);
    }
    // Back-up: each node scores the outcome for the player who moved into it.
    for (; nd !== null; nd = nd.parent) {
      nd.visits += 1;
      if (nd.mover >= 0) nd.value += returnOf(b, nd.mover);
    }
  }
  // Recommendation: the most visited root child (ties: the higher mean).
  let best = null;
  for (const ch of top.children) {
    if (!best || ch.visits > best.visits ||
        (ch.visits === best.visits && ch.value / ch.visits > best.value / best.visits)) best = ch;
  }
  return best.move;
}

function main() {
  const games = Number(process.argv[2] ?? 40), iterations = Number(process.argv[3] ?? 100);
  if (!(Number.isInteger(games) && games > 0 && Number.isInteger(iterations) && iterations > 0)) {
    console.error("usage: node benches/tictactoe_mcts.js [GAMES] [ITERATIONS]");
    process.exit(2);
  }
  const random = mulberry32(1);
  const wins = [0, 0];
  let moves = 0, draws = 0;
  const t0 = process.hrtime.bigint();
  for (let g = 0; g < games; g++) {
    const b = newBoard(3, 3);
    while (!isOver(b)) {
      move(b, search(b, iterations, random));
      moves += 1;
    }
    if (b.winner < 0) draws += 1;
    else wins[b.winner] += 1;
  }
  const seconds = Number(process.hrtime.bigint() - t0) / 1e9;
  console.log(JSON.stringify({
    games, iterations, moves, seconds,
    decisions_per_second: moves / seconds,
    wins, draws,
    process_seconds: process.uptime(),
  }));
}

main();
