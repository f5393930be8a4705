"""The Python side of benches/match_overhead.sh: matches a second of examples/duel as a
Python class in process, against its Python process over the match protocol, in one
script, alternating rounds (run with RAYON_NUM_THREADS=1 for one thread).

    python benches/match_overhead.py [ROUNDS] [MATCHES]
"""
import os
import statistics
import sys
import time

import playtune

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "examples", "duel"))
from duel_class import Duel  # noqa: E402


def rate(game, matches):
    start = time.perf_counter()
    r = playtune.tournament(game, ["novice", "expert"], games=matches, seed=7,
                            settings={"edge": 0.4, "rounds": 11})
    assert r["design"]["games"] == matches
    return matches / (time.perf_counter() - start)


def main():
    rounds = int(sys.argv[1]) if len(sys.argv) > 1 else 5
    matches = int(sys.argv[2]) if len(sys.argv) > 2 else 4000
    games = [("python process", os.path.join(ROOT, "examples", "duel", "duel.ron")),
             ("python in process", playtune.register_game(Duel()))]
    for _, g in games:
        rate(g, 10)
    rates = {name: [] for name, _ in games}
    for _ in range(rounds):
        for name, g in games:
            rates[name].append(rate(g, matches))
    base = statistics.median(rates["python process"])
    print(f"matches a second, median of {rounds} rounds of {matches} matches")
    for name, _ in games:
        m = statistics.median(rates[name])
        print(f"{name:20} {m:12.0f}   {base / m:8.2f}x the Python process's time")


if __name__ == "__main__":
    main()
