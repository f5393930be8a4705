#!/usr/bin/env node
// Duel in JavaScript: the same game as duel.py, over the same match protocol
// (docs/your-own-game.md), so that either can be designed and their results compared.
// One JSON request a line on standard input, one JSON answer a line on standard output.
"use strict";
const readline = require("readline");

const MASK = (1n << 64n) - 1n;
const SKILL = { novice: 0, club: 1, expert: 2 };

// splitmix64 on BigInt: the match's randomness comes from its seed alone.
function splitmix64(seed) {
  let state = BigInt.asUintN(64, seed);
  return () => {
    state = (state + 0x9e3779b97f4a7c15n) & MASK;
    let z = state;
    z = ((z ^ (z >> 30n)) * 0xbf58476d1ce4e5b9n) & MASK;
    z = ((z ^ (z >> 27n)) * 0x94d049bb133111ebn) & MASK;
    return z ^ (z >> 31n);
  };
}

function skill(seat) {
  if (seat.bot === "trained") {
    return 2.0 - (seat.settings.aim - 3) ** 2 / 4.0;
  }
  return SKILL[seat.bot];
}

function play(request) {
  const { edge, rounds } = request.settings;
  const [a, b] = request.seats.map(skill);
  const p = 1.0 / (1.0 + Math.exp(-edge * (a - b)));
  const next = splitmix64(request.seed);
  const score = [0, 0];
  const trace = [[0, 0]];
  const need = Math.floor(rounds / 2) + 1;
  while (Math.max(...score) < need) {
    const u = Number(next() >> 11n) * (1.0 / 2 ** 53);
    score[u < p ? 0 : 1] += 1;
    trace.push([...score]);
  }
  return {
    scores: score,
    winners: [score[0] > score[1] ? 0 : 1],
    length: trace.length - 1,
    ended_by: "rules",
    trace,
  };
}

// The seed is a 64-bit number: read it exactly, not as a double.
function parse(line) {
  const seed = BigInt(line.match(/"seed"\s*:\s*(\d+)/)[1]);
  const request = JSON.parse(line);
  request.seed = seed;
  return request;
}

readline.createInterface({ input: process.stdin }).on("line", (line) => {
  if (!line.trim()) return;
  const request = parse(line);
  let reply;
  try {
    reply = play(request);
  } catch (e) {
    reply = { error: String(e) };
  }
  reply.id = request.id;
  process.stdout.write(JSON.stringify(reply) + "\n");
});
