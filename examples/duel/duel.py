#!/usr/bin/env python3
"""Duel: a game whose skill depth is known in closed form, played over playtune's match
protocol (docs/your-own-game.md).

Two players play `rounds` rounds (an odd number); the first to win most of them wins.
A round goes to the more skilled player with probability 1 / (1 + exp(-edge * d)),
d the difference in skill: `edge` sets how much skill counts. The bots: novice (skill
0), club (1), expert (2), and trained, whose skill peaks when its `aim` is 3.

Each request is one JSON line on standard input; each answer one JSON line on
standard output. The randomness comes from the match's seed alone (splitmix64), so a
match is a function of its request.
"""
import json
import math
import sys

MASK = (1 << 64) - 1
SKILL = {"novice": 0.0, "club": 1.0, "expert": 2.0}


class SplitMix64:
    def __init__(self, seed):
        self.state = seed & MASK

    def next(self):
        self.state = (self.state + 0x9E3779B97F4A7C15) & MASK
        z = self.state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK
        return z ^ (z >> 31)

    def uniform(self):
        return (self.next() >> 11) * (1.0 / (1 << 53))


def skill(seat):
    if seat["bot"] == "trained":
        aim = seat["settings"]["aim"]
        return 2.0 - (aim - 3) ** 2 / 4.0
    return SKILL[seat["bot"]]


def play(request):
    edge = request["settings"]["edge"]
    rounds = request["settings"]["rounds"]
    a, b = (skill(s) for s in request["seats"])
    p = 1.0 / (1.0 + math.exp(-edge * (a - b)))
    rng = SplitMix64(request["seed"])
    score = [0, 0]
    trace = [[0, 0]]
    need = rounds // 2 + 1
    while max(score) < need:
        score[0 if rng.uniform() < p else 1] += 1
        trace.append(list(score))
    return {
        "scores": score,
        "winners": [0 if score[0] > score[1] else 1],
        "length": len(trace) - 1,
        "ended_by": "rules",
        "trace": trace,
    }


#: duel.ron's values of `edge`.
EDGES = [0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.8, 1.0, 1.25, 1.5, 2.0, 3.0]


def majority(p, rounds):
    """The chance of winning most of `rounds` rounds, each won with chance `p`."""
    return sum(math.comb(rounds, k) * p**k * (1 - p) ** (rounds - k) for k in range(rounds // 2 + 1, rounds + 1))


def depth(edge, rounds):
    """The closed-form skill depth of the ladder novice, club, expert under these rules:
    the smallest gap between neighbouring rungs' chances of beating the novice."""
    sig = lambda x: 1 / (1 + math.exp(-x))
    club, expert = majority(sig(edge), rounds), majority(sig(2 * edge), rounds)
    return min(club - 0.5, expert - club)


def deepest():
    """The greatest depth of any of duel.ron's 96 rule sets (0.159)."""
    return max(depth(e, r) for e in EDGES for r in range(1, 16, 2))


def main():
    for line in sys.stdin:
        if not line.strip():
            continue
        request = json.loads(line)
        try:
            reply = play(request)
        except Exception as e:  # a match it cannot play is refused, not a crash
            reply = {"error": f"{type(e).__name__}: {e}"}
        reply["id"] = request["id"]
        print(json.dumps(reply), flush=True)


if __name__ == "__main__":
    main()
