"""OpenSpiel games at native speed (docs/benchmarks.md#openspiel-games): oware at its
own rules, through playtune's OpenSpiel adapter, in one sitting.

1. Matches a second on one core, MCTS against MCTS at equal simulations: the adapter's
   `mcts` (pyspiel's C++ MCTSBot, random rollouts) against OpenSpiel's Python MCTSBot
   with the same settings (uct_c 2, one rollout), the bot the adapter played before.
2. Matches a second of a tournament (random against C++ MCTS at 100 simulations) in 2
   game processes against 1, the same seeds.

    python benches/openspiel_bots.py [SIMULATIONS] [matches]

Needs the Python package and open_spiel installed (pip install ./python open_spiel).
"""
import os
import sys
import time

import playtune
from playtune.openspiel import OpenSpielGame

HERE = os.path.dirname(os.path.abspath(__file__))


def python_mcts(game, seat, settings, rng):
    import numpy as np
    from open_spiel.python.algorithms import mcts

    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=np.random.RandomState(rng.randint(1 << 31)))
    return mcts.MCTSBot(game, uct_c=2.0, max_simulations=int(settings["simulations"]), evaluator=evaluator,
                        random_state=np.random.RandomState(rng.randint(1 << 31)), solve=False)


GAME = OpenSpielGame(
    "oware",
    {"num_houses_per_player": {"int": [3, 6], "default": 6}},
    bots={"python-mcts": ("OpenSpiel's Python MCTSBot",
                          {"simulations": {"int": [2, 100_000], "default": 100}}, python_mcts)},
    name="bench-oware",
)


def per_second(name, agents, games, seed=1):
    start = time.perf_counter()
    r = playtune.tournament(name, agents, games=games, seed=seed)
    return r["design"]["games"] / (time.perf_counter() - start), r


def main():
    # Read here, not at import: the game processes import this file to find GAME.
    sims = int(sys.argv[1]) if len(sys.argv) > 1 else 100
    matches = int(sys.argv[2]) if len(sys.argv) > 2 else 4
    here = playtune.register_game(GAME, in_process=True)
    cpp, _ = per_second(here, [f"mcts(simulations={sims})"] * 2, 4 * matches)
    py, _ = per_second(here, [f"python-mcts(simulations={sims})"] * 2, matches)
    print(f"oware, MCTS against MCTS at {sims} simulations, one process (matches a second):")
    print("| bots | matches a second | against the Python MCTSBot |")
    print("| --- | ---: | ---: |")
    print(f"| OpenSpiel's Python MCTSBot | {py:.3f} | 1.0x |")
    print(f"| pyspiel's C++ MCTSBot (playtune's `mcts`) | {cpp:.3f} | {cpp / py:.1f}x |")
    print()
    agents = ["random", f"mcts(simulations={sims})"]
    names = {}
    for workers in (1, 2):
        GAME.name = f"bench-oware-{workers}"
        names[workers] = playtune.register_game(GAME, workers=workers)
        per_second(names[workers], agents, 4, seed=99)  # starts the game processes
    # Alternating rounds, the median of each: what the machine does meanwhile falls
    # on both.
    rates = {1: [], 2: []}
    figures = {}
    for _ in range(3):
        for workers in (1, 2):
            rate, r = per_second(names[workers], agents, 40 * matches)
            rates[workers].append(rate)
            figures[workers] = [a["wins"] for a in r["agents"]]
    assert figures[1] == figures[2], figures
    rates = {w: sorted(v)[1] for w, v in rates.items()}
    print(f"oware, random against C++ MCTS at {sims} simulations, {40 * matches} matches (same seeds, same wins), median of 3 alternating rounds:")
    print("| game processes | matches a second | against 1 |")
    print("| ---: | ---: | ---: |")
    print(f"| 1 | {rates[1]:.2f} | 1.00x |")
    print(f"| 2 | {rates[2]:.2f} | {rates[2] / rates[1]:.2f}x |")


if __name__ == "__main__":
    main()
