"""Games written against pyspiel's Python API, searched by playtune's bots through
`OpenSpielGame` (docs/benchmarks.md#games-written-against-pyspiels-python-api).

MCTS decisions a second on one core at equal simulations (100, UCT c 2, one random
rollout, no solver): OpenSpiel's Python `MCTSBot` against playtune's
`uct(iterations=100,c=2)` (a closed tree over both players, as `MCTSBot` searches), on
the same positions (0 to 6 random moves from 4 seeds), in this process, median of
alternating rounds. Three games nobody wrote for playtune's sake:
  - OpenSpiel's `python_tic_tac_toe` (numpy rules);
  - OpenSpiel's `python_liars_poker`, searched over the true state as `MCTSBot`
    searches it (`OpenSpielGame` itself would search the worlds a seat cannot tell
    apart: another search, not compared here);
  - Connect Four in plain Python lists (benches/connect_four_pyspiel.py), a designer's
    game written to the same API.

Beside each, the ceiling the game's rules set: every call playtune's search made of the
game's states in one pass (recorded through a stand-in state), replayed on the game's
own states in a plain Python loop, no search. No bot that makes those calls can beat
`MCTSBot` by more than `MCTSBot`'s time over the replay's.

    python benches/pyspiel_api.py [--rounds N] [--quick]

Needs open_spiel, numpy and the playtune package.
"""
import os

for _v in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS", "RAYON_NUM_THREADS"):
    os.environ[_v] = "1"

import argparse  # noqa: E402
import copy  # noqa: E402
import datetime  # noqa: E402
import itertools  # noqa: E402
import platform  # noqa: E402
import random  # noqa: E402
import statistics  # noqa: E402
import sys  # noqa: E402
import time  # noqa: E402

import numpy as np  # noqa: E402
import pyspiel  # noqa: E402
from open_spiel.python import games  # noqa: E402,F401  (registers the python_* games)
from open_spiel.python.algorithms import mcts  # noqa: E402

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import connect_four_pyspiel  # noqa: E402,F401  (registers bench_connect_four)

from playtune import _playtune  # noqa: E402
from playtune.openspiel import OpenSpielGame  # noqa: E402

SIMS = 100
UCT = f"uct(iterations={SIMS},c=2)"
GAMES = ["python_tic_tac_toe", "python_liars_poker", "bench_connect_four"]


def positions(game, seeds):
    """0 to 6 random moves from each seed (chance outcomes drawn), each a seat's turn
    with a choice to make."""
    out = []
    for seed in range(seeds):
        for moves in range(7):
            rng = random.Random(1000 * seed + moves)
            s = game.new_initial_state()
            played = 0
            while not s.is_terminal():
                if s.is_chance_node():
                    actions, probs = zip(*s.chance_outcomes())
                    s.apply_action(rng.choices(actions, probs)[0])
                    continue
                if played == moves:
                    break
                s.apply_action(rng.choice(s.legal_actions()))
                played += 1
            if not s.is_terminal() and len(s.legal_actions()) > 1:
                out.append(s)
    return out


class Recorder:
    """A pyspiel state's stand-in that logs each call playtune's search makes of it;
    `replay` makes the same calls of the game's own states."""

    def __init__(self, state, log, ids):
        self.state, self.log, self.ids, self.id = state, log, ids, next(ids)

    def _new(self, state, op):
        other = Recorder(state, self.log, self.ids)
        self.log.append((op, self.id, other.id))
        return other

    def clone(self):
        return self._new(self.state.clone(), "clone")

    def __deepcopy__(self, memo):
        return self._new(copy.deepcopy(self.state), "deepcopy")

    def current_player(self):
        self.log.append(("current_player", self.id, None))
        return self.state.current_player()

    def legal_actions(self, player=None):
        # playtune asks a pyspiel game's own `_legal_actions(player)` for a seat's turn.
        p = self.state.current_player()
        self.log.append(("legal", self.id, p))
        return self.state._legal_actions(p)

    def apply_action(self, action):
        self.log.append(("apply", self.id, action))
        self.state.apply_action(action)

    def is_terminal(self):
        self.log.append(("is_terminal", self.id, None))
        return self.state.is_terminal()

    def returns(self):
        self.log.append(("returns", self.id, None))
        return self.state.returns()

    def is_chance_node(self):
        self.log.append(("is_chance_node", self.id, None))
        return self.state.is_chance_node()

    def chance_outcomes(self):
        self.log.append(("chance_outcomes", self.id, None))
        return self.state.chance_outcomes()


def replay(roots, logs):
    """Seconds the game's own states take to answer the logged calls."""
    start = time.perf_counter()
    for root, log in zip(roots, logs):
        states = {0: root}
        for op, i, arg in log:
            s = states[i]
            if op == "clone":
                states[arg] = s.clone()
            elif op == "deepcopy":
                states[arg] = copy.deepcopy(s)
            elif op == "apply":
                s.apply_action(arg)
            elif op == "legal":
                s._legal_actions(arg)
            else:
                getattr(s, op)()
    return time.perf_counter() - start


def bots(name, players):
    """playtune's uct for each seat, as OpenSpielGame gives it where nothing is hidden;
    over the true state (as MCTSBot searches) where something is."""
    game = pyspiel.load_game(name)
    info = game.get_type().information
    if info == pyspiel.GameType.Information.PERFECT_INFORMATION:
        wrapped = OpenSpielGame(name)
        return [wrapped.bot(UCT, seat, 9 + seat) for seat in range(players)]
    return [_playtune.ForwardBot(name, UCT, seat, 9 + seat, players) for seat in range(players)]


def bench(name, seeds, rounds):
    game = pyspiel.load_game(name)
    states = positions(game, seeds)
    players = game.num_players()
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=np.random.RandomState(7))
    theirs = mcts.MCTSBot(game, uct_c=2.0, max_simulations=SIMS, evaluator=evaluator,
                          random_state=np.random.RandomState(8), solve=False)
    ours = bots(name, players)

    def run(step_of):
        start = time.perf_counter()
        for s in states:
            step_of(s)(s)
        return time.perf_counter() - start

    # The calls of one pass, from fresh bots with the same seeds as `ours`.
    logs = []
    recorders = bots(name, players)
    for s in states:
        log = []
        recorders[s.current_player()].step(Recorder(s.clone(), log, itertools.count()))
        logs.append(log)

    contenders = {
        "openspiel": lambda: run(lambda s: theirs.step),
        "playtune": lambda: run(lambda s: ours[s.current_player()].step),
        "rules": lambda: replay([s.clone() for s in states], logs),
    }
    for f in contenders.values():
        f()
    times = {k: [] for k in contenders}
    for r in range(rounds):
        order = list(contenders.items())
        for k, f in order if r % 2 == 0 else order[::-1]:
            times[k].append(f())
    med = {k: statistics.median(v) for k, v in times.items()}
    calls = sum(len(log) for log in logs) / len(states)
    return len(states), med, calls


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--rounds", type=int, help="alternating rounds (default 5, --quick 2)")
    ap.add_argument("--quick", action="store_true", help="a smoke test of a few seconds")
    a = ap.parse_args()
    rounds = a.rounds or (2 if a.quick else 5)
    seeds = 1 if a.quick else 4
    cpus = os.sched_getaffinity(0)
    os.sched_setaffinity(0, {min(cpus)})
    load = os.getloadavg()[0]
    rows = [(name, *bench(name, seeds, rounds)) for name in GAMES]
    os.sched_setaffinity(0, cpus)
    print(f"# {datetime.date.today().isoformat()}, {os.cpu_count()} cores, Python {platform.python_version()}, "
          f"pyspiel {getattr(pyspiel, '__version__', '?')}; load average {load:.2f} before, "
          f"{os.getloadavg()[0]:.2f} after; one core, {SIMS} simulations a decision, median of {rounds} "
          f"alternating rounds")
    print()
    print("| game | positions | OpenSpiel's `MCTSBot`, decisions/s | playtune's `uct`, decisions/s | "
          "playtune / `MCTSBot` | the rules' calls a decision | the ceiling the rules set |")
    print("| --- | ---: | ---: | ---: | ---: | ---: | ---: |")
    for name, n, med, calls in rows:
        print(f"| {name} | {n} | {n / med['openspiel']:.1f} | {n / med['playtune']:.1f} | "
              f"**{med['openspiel'] / med['playtune']:.2f}x** | {calls:.0f} | "
              f"{med['openspiel'] / med['rules']:.2f}x |")
    print()
    for name, n, med, _ in rows:
        ratio, ceiling = med["openspiel"] / med["playtune"], med["openspiel"] / med["rules"]
        room = "the rules leave room for 2x" if ceiling >= 2 else "the rules leave no room for 2x"
        print(f"{name}: {ratio:.2f}x, {100 * ratio / ceiling:.0f}% of the ceiling {ceiling:.2f}x ({room}; "
              f"aim >= 2x where they do: {'met' if ratio >= 2 or ceiling < 2 else 'short'})")


if __name__ == "__main__":
    main()
