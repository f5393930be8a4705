#!/usr/bin/env python3
"""An external evaluator for playtune: a hold strategy for the dice game Pig.

Pig: two players take turns; in a turn a player rolls a die as often as they like,
adding the rolls to a turn total, and banks the total when they choose to hold. A
roll of 1 loses the turn total and ends the turn. The first to bank 100 wins.

The point tunes a strategy; its fitness is its win rate over GAMES seeded games
against the classic "hold at 20" baseline (each side starting half of them), and it
reports two features: `turns`, the mean length of a game in turns (both players'),
and `banked`, the mean number of points it banks per turn (a bust banks 0).

Two ways to run, both deterministic in the request's seed:
  one-shot (playtune's mode=once): read one request from stdin,
      {"seed": 3, "point": {"hold_at": 20, ...}}, print one result line.
  worker (mode=worker, PLAYTUNE_WORKER=1 in the environment): answer each request
      line {"id": 7, "seed": 3, "point": {...}} with one line
      {"id": 7, "fitness": ..., "features": {...}} until stdin ends.
"""

import json
import os
import random
import sys

TARGET = 100
GAMES = int(os.environ.get("PIG_GAMES", "200"))
ENDGAMES = ("steady", "race", "all_in")
OPENINGS = ("cautious", "normal", "bold")


class Baseline:
    """Hold at 20, or as soon as the turn total wins."""

    def holds(self, me, opp, turn):
        return turn >= 20 or me + turn >= TARGET


class Tuned:
    def __init__(self, point):
        self.hold_at = int(point.get("hold_at", 20))
        # Holding sooner when ahead: a lead is worth protecting.
        self.lead_ease = float(point.get("lead_ease", 0.0))
        self.endgame = point.get("endgame", "steady")
        self.opening = point.get("opening", "normal")
        self.finish = bool(point.get("finish", True))
        if self.endgame not in ENDGAMES:
            raise ValueError(f"unknown endgame {self.endgame!r} (one of {ENDGAMES})")
        if self.opening not in OPENINGS:
            raise ValueError(f"unknown opening {self.opening!r} (one of {OPENINGS})")
        if self.hold_at < 1:
            raise ValueError(f"hold_at must be at least 1, not {self.hold_at}")

    def holds(self, me, opp, turn):
        if self.finish and me + turn >= TARGET:
            return True
        threshold = float(self.hold_at)
        if me < 25:
            threshold = {"cautious": 12.0, "normal": threshold, "bold": 30.0}[self.opening]
        if me > opp:
            threshold -= self.lead_ease * (me - opp) / 4
        if opp >= TARGET - 20:
            # The opponent is close to winning: a small bank may not be enough.
            if self.endgame == "race":
                threshold += 10
            elif self.endgame == "all_in":
                return me + turn >= TARGET
        return turn >= max(threshold, 1.0)


def play(rng, players):
    """One game; the index of the winner, the turns taken and the points each banked
    per turn (lists)."""
    scores = [0, 0]
    banked = [[], []]
    turns = 0
    while True:
        for i, player in enumerate(players):
            turn = 0
            while True:
                roll = int(rng.random() * 6) + 1
                if roll == 1:
                    turn = 0
                    break
                turn += roll
                if player.holds(scores[i], scores[1 - i], turn):
                    break
            scores[i] += turn
            banked[i].append(turn)
            turns += 1
            if scores[i] >= TARGET:
                return i, turns, banked


def evaluate(point, seed):
    tuned = Tuned(point)
    rng = random.Random(seed)
    wins = 0
    turns = 0
    banked = []
    for g in range(GAMES):
        first = g % 2 == 0
        players = [tuned, Baseline()] if first else [Baseline(), tuned]
        me = 0 if first else 1
        winner, t, b = play(rng, players)
        wins += winner == me
        turns += t
        banked.extend(b[me])
    return {
        "fitness": wins / GAMES,
        "features": {"turns": turns / GAMES, "banked": sum(banked) / len(banked)},
    }


def serve():
    for line in sys.stdin:
        if not line.strip():
            continue
        request = json.loads(line)
        try:
            reply = evaluate(request["point"], request["seed"])
        except (ValueError, KeyError, TypeError) as e:
            reply = {"error": str(e)}
        reply["id"] = request["id"]
        print(json.dumps(reply), flush=True)


def once():
    request = json.loads(sys.stdin.read())
    try:
        result = evaluate(request["point"], request["seed"])
    except (ValueError, KeyError, TypeError) as e:
        print(f"pig_eval: {e}", file=sys.stderr)
        sys.exit(1)
    print(json.dumps(result))


if __name__ == "__main__":
    if os.environ.get("PLAYTUNE_WORKER") == "1":
        serve()
    else:
        once()
