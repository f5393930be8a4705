#!/usr/bin/env node
// Tic-tac-toe in JavaScript: the rules of tictactoe.py (an n x n board, k in a row
// wins) over the match protocol's forward-model operations, and no bots: playtune's
// own bots (random, osla, mcts, ...) search it, asking one operation a line.
// One JSON request a line on standard input, one JSON reply a line on standard output:
//   {"id": 1, "op": "new", "settings": {"n": 3, "k": 3}, "seed": 7}
//   {"id": 2, "op": "apply", "state": 0, "action": 4}       (in place)
//   {"id": 3, "op": "clone", "state": 0}
//   {"id": 4, "op": "playout", "state": 1, "seed": 9, "max_steps": 200}   (in place)
//   {"id": 5, "op": "drop", "drop": [1]}   (any request may carry "drop")
//   {"id": 6, "op": "show", "state": 0}     (optional: the board as text, for play --show)
//   {"id": 7, "op": "expand", "items": [{"state": 0, "action": 4, "seed": 9, "max_steps": 200}]}
//     (optional: a batch of a search's expansions, each a new state and its playout)
// A reply says where its state stands: {"id", "state", "player": 0, "legal": [...]}
// or {"id", "state", "player": "over", "returns": [1, -1], "features": {"corners": [2, 1]}}
// (a feature of its own: the corners each seat holds at the end); a failure is
// {"id", "error"}.
"use strict";
const readline = require("readline");

const states = new Map(); // state id -> board
let nextId = 0;

function newBoard(n, k) {
  return { n, k: Math.min(k, n), cells: new Array(n * n).fill(-1), turn: 0, winner: -1, free: n * n };
}

function isOver(b) {
  return b.winner >= 0 || b.free === 0;
}

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
  if (isOver(b) || !Number.isInteger(a) || a < 0 || a >= b.cells.length || b.cells[a] >= 0) {
    throw new Error(`move ${a} is not legal here`);
  }
  b.cells[a] = b.turn;
  b.free -= 1;
  if (lineThrough(b, a)) b.winner = b.turn;
  b.turn = 1 - b.turn;
}

// Where board `b` stands, as every state reply says it. A finished match's reply
// carries the game's own feature too; a playout's end needs only its returns.
function standing(b, features = true) {
  if (!isOver(b)) return { player: b.turn, legal: legal(b) };
  const returns = b.winner < 0 ? [0, 0] : b.winner === 0 ? [1, -1] : [-1, 1];
  return features ? { player: "over", returns, features: { corners: corners(b) } } : { player: "over", returns };
}

// Where state `id` stands.
function where(id) {
  return { state: id, ...standing(states.get(id)) };
}

// Uniformly random moves on `b`, in place, from `seed`, until the end or `maxSteps`.
function playout(b, seed, maxSteps) {
  const random = mulberry32(seed);
  let steps = 0;
  while (!isOver(b) && steps < maxSteps) {
    const moves = legal(b);
    move(b, moves[Math.floor(random() * moves.length)]);
    steps += 1;
  }
  const end = standing(b, false);
  end.steps = steps;
  return end;
}

const copy = (b) => ({ ...b, cells: b.cells.slice() });

// The corners each seat holds: a feature of the game's own, for play-style archives.
function corners(b) {
  const n = b.n, held = [0, 0];
  for (const i of [0, n - 1, n * (n - 1), n * n - 1]) if (b.cells[i] >= 0) held[b.cells[i]] += 1;
  return held;
}

// The board as text: X moves first, "." is empty.
function text(b) {
  const rows = [];
  for (let r = 0; r < b.n; r++) {
    rows.push(b.cells.slice(r * b.n, (r + 1) * b.n).map((c) => (c < 0 ? "." : "XO"[c])).join(" "));
  }
  return rows.join("\n");
}

function board(id) {
  if (!states.has(id)) throw new Error(`no state ${id}`);
  return states.get(id);
}

function keep(b) {
  states.set(nextId, b);
  return nextId++;
}

// mulberry32: a small generator, seeded with the low 32 bits of the request's seed.
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

const ops = {
  new: (r) => where(keep(newBoard(r.settings.n || 3, r.settings.k || 3))),
  apply: (r) => {
    move(board(r.state), r.action);
    return where(r.state);
  },
  clone: (r) => where(keep(copy(board(r.state)))),
  playout: (r) => ({ state: r.state, ...playout(board(r.state), r.seed, r.max_steps) }),
  // A batch of a search's expansions in one request: each a new state (a copy with
  // the move applied) and a random playout of a copy of it.
  expand: (r) => ({
    items: r.items.map((it) => {
      const child = copy(board(it.state));
      move(child, it.action);
      const reply = where(keep(child));
      if (!isOver(child)) reply.playout = playout(copy(child), it.seed, it.max_steps);
      return reply;
    }),
  }),
  drop: () => ({}),
  show: (r) => ({ text: text(board(r.state)) }),
};

// The match's seed (in `new`) is a 64-bit number, beyond a double's exact range: it is
// read from the text, before JSON.parse could round it, and kept as its low 32 bits.
// The search's seeds (`playout`, `expand`) are below 2^53, exact as JSON numbers.
function parse(line) {
  const request = JSON.parse(line);
  if (request.op === "new") request.seed = Number(BigInt(/"seed"\s*:\s*(\d+)/.exec(line)[1]) & 0xffffffffn);
  return request;
}

readline.createInterface({ input: process.stdin }).on("line", (line) => {
  if (!line.trim()) return;
  let request = {}, reply;
  try {
    request = parse(line);
    for (const id of request.drop || []) states.delete(id);
    const op = ops[request.op];
    if (!op) throw new Error(`unknown op ${JSON.stringify(request.op)}`);
    reply = op(request);
  } catch (e) {
    reply = { error: e.message };
  }
  process.stdout.write(JSON.stringify({ id: request.id, ...reply }) + "\n");
});
