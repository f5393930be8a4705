"""Games that bring only their rules, searched by playtune's bots
(docs/benchmarks.md#bring-only-your-rules-playtunes-bots-over-python-and-protocol-games).

A. MCTS decisions a second on one core, equal simulations (100, uct c 2, one random
   rollout), on OpenSpiel's own Python tic-tac-toe (`python_tic_tac_toe`, a
   pyspiel.Game written in Python): OpenSpiel's Python `MCTSBot` against playtune's
   `ForwardBot` on the same positions, in this process, rounds alternated. Beside them,
   the rules' own cost: 100 random playouts (clone, then random moves to the end) in a
   plain Python loop, no search: about the calls a decision at 100 simulations makes.
B. The same decisions for the plain-Python tic-tac-toe of examples/tictactoe/
   (`GAME.bot("mcts(iterations=100,c=2)", seat, seed)`), whose board plays the search's
   random playouts itself (`Board.playout`, one call a playout; MCTSBot's rollouts,
   written to the State API, cannot use it), and beside it the same board with its
   `playout` left out, the search applying each playout move.
C. Matches a second of `playtune tournament --game examples/tictactoe/tictactoe.py:GAME
   --agents "mcts(iterations=400),mcts(iterations=400)"` in 2 game processes against 1
   (a description `(python: "tictactoe.py:GAME", workers: N)` in a temporary folder),
   rounds alternated, the same seed (so the same wins).

    python benches/own_rules.py [--quick] [--rounds N] [--games N] [--profile]

Run from the repository root; needs open_spiel, numpy, the playtune package and
target/release/playtune (C is skipped without it). --quick is a smoke test of a few
seconds; --profile also prints cProfile's count of the state's methods that playtune's
bot calls (A, one round).
"""
import os

# One thread everywhere in this process (numpy's BLAS, rayon); the tournaments of C get
# the environment as it was.
ENV = dict(os.environ)
for _v in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS", "NUMEXPR_NUM_THREADS", "RAYON_NUM_THREADS"):
    os.environ[_v] = "1"

import argparse  # noqa: E402
import datetime  # noqa: E402
import json  # noqa: E402
import platform  # noqa: E402
import random  # noqa: E402
import shutil  # noqa: E402
import statistics  # noqa: E402
import subprocess  # noqa: E402
import sys  # noqa: E402
import tempfile  # noqa: E402
import time  # noqa: E402

import numpy as np  # noqa: E402
import pyspiel  # noqa: E402
from open_spiel.python.algorithms import mcts  # noqa: E402
from open_spiel.python.games import tic_tac_toe  # noqa: E402,F401  (registers python_tic_tac_toe)

from playtune import _playtune  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
EXAMPLE = os.path.join(ROOT, "examples", "tictactoe")
sys.path.insert(0, EXAMPLE)
import tictactoe  # noqa: E402

SIMS = 100
SPEC = f"mcts(iterations={SIMS},c=2)"
# UCT on the game's own states, as OpenSpiel's MCTSBot searches (a closed tree over
# both players): no path played twice.
UCT = f"uct(iterations={SIMS},c=2)"
ALL_CPUS = os.sched_getaffinity(0) if hasattr(os, "sched_getaffinity") else None


def one_core():
    if hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {min(ALL_CPUS)})


def all_cores():
    if hasattr(os, "sched_setaffinity") and ALL_CPUS:
        os.sched_setaffinity(0, ALL_CPUS)


def machine():
    model = platform.processor() or platform.machine()
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    model = line.split(":", 1)[1].strip()
                    break
    except OSError:
        pass
    return f"{os.cpu_count()} cores (nproc), {model}"


def move_lists(seeds):
    """The positions: 0 to 6 random moves from fixed seeds, none of them over."""
    lists = []
    for seed in range(seeds):
        for moves in range(7):
            rng = random.Random(1000 * seed + moves)
            s = tictactoe.Board(3, 3)
            played = []
            for _ in range(moves):
                a = rng.choice(s.legal_actions())
                s.apply_action(a)
                played.append(a)
                if s.is_terminal():
                    played.pop()
                    break
            lists.append(played)
    return lists


def positions(new_state, lists):
    out = []
    for played in lists:
        s = new_state()
        for a in played:
            s.apply_action(a)
        assert not s.is_terminal()
        out.append(s)
    return out


def decide(step_of, states):
    """Seconds to decide once in each of `states`."""
    start = time.perf_counter()
    for s in states:
        step_of(s)(s)
    return time.perf_counter() - start


def playouts(states, n, rng):
    """The rules' own cost of n random playouts from each state, in a Python loop."""
    r = rng.random
    start = time.perf_counter()
    for root in states:
        for _ in range(n):
            s = root.clone()
            while s.current_player() >= 0:
                legal = s.legal_actions()
                s.apply_action(legal[int(r() * len(legal))])
            s.returns()
    return time.perf_counter() - start


def alternate(contenders, rounds):
    """Median seconds of each contender over `rounds`, the order reversed every round."""
    times = {name: [] for name, _ in contenders}
    for r in range(rounds):
        order = contenders if r % 2 == 0 else contenders[::-1]
        for name, run in order:
            times[name].append(run())
    return {name: statistics.median(t) for name, t in times.items()}


class _GameShim:
    """What OpenSpiel's Python MCTSBot reads of a game, for a game that is not a
    pyspiel.Game: its type (sequential, rewards at the end), its best utility."""

    def __init__(self):
        from types import SimpleNamespace

        self._type = SimpleNamespace(reward_model=pyspiel.GameType.RewardModel.TERMINAL,
                                     dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL)

    def get_type(self):
        return self._type

    def max_utility(self):
        return 1.0

    def num_players(self):
        return 2


class _Board(tictactoe.Board):
    """examples/tictactoe's state with the two calls OpenSpiel's bots make that the
    docs' game leaves out: legal_actions(player) and is_chance_node()."""

    def legal_actions(self, player=None):
        return super().legal_actions()

    def is_chance_node(self):
        return False

    def clone(self):
        copy = _Board(self.n, self.k)
        copy.cells, copy.turn, copy.winner = list(self.cells), self.turn, self.winner
        return copy


class _NoPlayoutBoard(tictactoe.Board):
    # The docs' board without its own playout: the search then applies each playout
    # move itself, three calls a move (what B measured before 2026-11-29 16:40 UTC).
    playout = None


class _NoPlayout(tictactoe.TicTacToe):
    name = "tictactoe-no-playout"

    def new_initial_state(self, settings):
        return _NoPlayoutBoard(3, 3)


def bench_decisions(seeds, rounds, profile):
    one_core()
    lists = move_lists(seeds)
    game = pyspiel.load_game("python_tic_tac_toe")
    os_states = positions(game.new_initial_state, lists)
    own_states = positions(lambda: _Board(3, 3), lists)
    n = len(lists)

    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=np.random.RandomState(7))
    os_bot = mcts.MCTSBot(game, uct_c=2.0, max_simulations=SIMS, evaluator=evaluator,
                          random_state=np.random.RandomState(8), solve=False)
    pt_bots = [_playtune.ForwardBot("python_tic_tac_toe", SPEC, seat, 9 + seat, 2) for seat in (0, 1)]
    own_bots = [tictactoe.GAME.bot(SPEC, seat, 9 + seat) for seat in (0, 1)]
    pt_uct = [_playtune.ForwardBot("python_tic_tac_toe", UCT, seat, 9 + seat, 2) for seat in (0, 1)]
    own_uct = [tictactoe.GAME.bot(UCT, seat, 9 + seat) for seat in (0, 1)]
    plain_uct = [_NoPlayout().bot(UCT, seat, 9 + seat) for seat in (0, 1)]
    own_evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=np.random.RandomState(7))
    own_os_bot = mcts.MCTSBot(_GameShim(), uct_c=2.0, max_simulations=SIMS, evaluator=own_evaluator,
                              random_state=np.random.RandomState(8), solve=False)
    rng = random.Random(5)

    contenders = [
        ("openspiel", lambda: decide(lambda s: os_bot.step, os_states)),
        ("playtune", lambda: decide(lambda s: pt_bots[s.current_player()].step, os_states)),
        ("playtune-uct", lambda: decide(lambda s: pt_uct[s.current_player()].step, os_states)),
        ("rules", lambda: playouts(os_states, SIMS, rng)),
        ("own", lambda: decide(lambda s: own_bots[s.current_player()].step, own_states)),
        ("own-uct", lambda: decide(lambda s: own_uct[s.current_player()].step, own_states)),
        ("own-uct-plain", lambda: decide(lambda s: plain_uct[s.current_player()].step, own_states)),
        ("own-openspiel", lambda: decide(lambda s: own_os_bot.step, own_states)),
        ("own-rules", lambda: playouts(own_states, SIMS, rng)),
    ]
    for _, run in contenders:  # warm-up: imports, caches, first allocations
        run()
    med = alternate(contenders, rounds)

    calls = None
    if profile:
        import cProfile
        import pstats

        prof = cProfile.Profile()
        prof.enable()
        decide(lambda s: pt_bots[s.current_player()].step, os_states)
        prof.disable()
        stats = pstats.Stats(prof).sort_stats("tottime")
        calls = []
        for (file, line, fn), (cc, nc, tt, ct, _) in stats.stats.items():
            calls.append((tt, nc / n, ct, f"{os.path.basename(file)}:{line}({fn})"))
        calls.sort(reverse=True)
    all_cores()
    return n, med, calls


def tournament(binary, ron, games):
    env = dict(ENV, PLAYTUNE_PYTHON=ENV.get("PLAYTUNE_PYTHON") or sys.executable)
    start = time.perf_counter()
    out = subprocess.run(
        [binary, "tournament", "--game", ron, "--agents", "mcts(iterations=400),mcts(iterations=400)",
         "--games", str(games), "--json"],
        env=env, check=True, capture_output=True, text=True,
    ).stdout
    wall = time.perf_counter() - start
    r = json.loads(out.strip().splitlines()[-1])
    return wall, r["seconds"], [a["wins"] for a in r["agents"]]


def bench_workers(games, rounds):
    binary = os.path.join(ROOT, "target", "release", "playtune")
    if not os.access(binary, os.X_OK):
        return None
    all_cores()
    tmp = tempfile.mkdtemp(prefix="own_rules_")
    try:
        shutil.copy(os.path.join(EXAMPLE, "tictactoe.py"), tmp)
        rons = {}
        for w in (1, 2):
            rons[w] = os.path.join(tmp, f"tictactoe-{w}.ron")
            with open(rons[w], "w") as f:
                f.write(f'(python: "tictactoe.py:GAME", workers: {w})\n')
        tournament(binary, rons[1], 4)  # warm-up: the interpreter's files in the cache
        wall, own = {1: [], 2: []}, {1: [], 2: []}
        wins = {}
        for r in range(rounds):
            for w in ((1, 2) if r % 2 == 0 else (2, 1)):
                wl, sec, wins[w] = tournament(binary, rons[w], games)
                wall[w].append(wl)
                own[w].append(sec)
        assert wins[1] == wins[2], wins
        return {w: (games / statistics.median(own[w]), games / statistics.median(wall[w])) for w in (1, 2)}
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def load():
    try:
        return os.getloadavg()[0]
    except OSError:
        return float("nan")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--quick", action="store_true", help="a smoke test of a few seconds")
    ap.add_argument("--rounds", type=int, help="alternating rounds (default 5, --quick 2)")
    ap.add_argument("--games", type=int, help="matches a tournament in C (default 120, --quick 12)")
    ap.add_argument("--profile", action="store_true", help="cProfile playtune's side of A once")
    a = ap.parse_args()
    rounds = a.rounds or (2 if a.quick else 5)
    games = a.games or (12 if a.quick else 120)
    seeds = 1 if a.quick else 4

    load_before = load()
    n, med, calls = bench_decisions(seeds, rounds, a.profile)
    workers = bench_workers(games, rounds)
    load_after = load()

    rate = {k: n / v for k, v in med.items()}
    print(f"# {datetime.date.today().isoformat()}, {machine()}, Python {platform.python_version()}, "
          f"pyspiel {getattr(pyspiel, '__version__', '?')}; load average {load_before:.2f} before, {load_after:.2f} after")
    print(f"# A, B: {n} positions (0 to 6 random moves, {seeds} seed(s)), one core, {SIMS} simulations a decision, "
          f"median of {rounds} alternating rounds")
    print()
    print("| what, one core | decisions a second | ratio |")
    print("| --- | ---: | ---: |")
    print(f"| A. python_tic_tac_toe, OpenSpiel's Python MCTSBot | {rate['openspiel']:.1f} | 1.00x |")
    print(f"| A. python_tic_tac_toe, playtune's ForwardBot `{SPEC}` | {rate['playtune']:.1f} | "
          f"**{rate['playtune'] / rate['openspiel']:.2f}x** |")
    print(f"| A. python_tic_tac_toe, playtune's ForwardBot `{UCT}` | {rate['playtune-uct']:.1f} | "
          f"**{rate['playtune-uct'] / rate['openspiel']:.2f}x** |")
    print(f"| A. python_tic_tac_toe, its rules alone: {SIMS} random playouts in a Python loop | {rate['rules']:.1f} | "
          f"{rate['rules'] / rate['openspiel']:.2f}x |")
    print(f"| B. examples/tictactoe (plain Python), OpenSpiel's Python MCTSBot | {rate['own-openspiel']:.1f} | 1.00x |")
    print(f"| B. examples/tictactoe (plain Python), playtune's `GAME.bot(\"{SPEC}\")` | {rate['own']:.1f} | "
          f"**{rate['own'] / rate['own-openspiel']:.2f}x** |")
    print(f"| B. examples/tictactoe (plain Python), playtune's `GAME.bot(\"{UCT}\")` | {rate['own-uct']:.1f} | "
          f"**{rate['own-uct'] / rate['own-openspiel']:.2f}x** |")
    print(f"| B. the same, its board's own `playout` left out (the search applies each move) `{UCT}` | "
          f"{rate['own-uct-plain']:.1f} | {rate['own-uct-plain'] / rate['own-openspiel']:.2f}x |")
    print(f"| B. examples/tictactoe, its rules alone: {SIMS} random playouts in a Python loop | {rate['own-rules']:.1f} | |")
    if workers:
        print()
        print(f"# C: `playtune tournament --game tictactoe.py:GAME --agents \"mcts(iterations=400),mcts(iterations=400)\" "
              f"--games {games}`, median of {rounds} alternating rounds, same seed and wins")
        print()
        print("| game processes | matches a second (the tournament's own seconds) | ratio | matches a second (the whole command) "
              "| ratio |")
        print("| ---: | ---: | ---: | ---: | ---: |")
        for w in (1, 2):
            own, wall = workers[w]
            print(f"| {w} | {own:.1f} | {own / workers[1][0]:.2f}x | {wall:.1f} | {wall / workers[1][1]:.2f}x |")
    else:
        print()
        print("# C skipped: no target/release/playtune")
    print()
    a_ratio = rate["playtune"] / rate["openspiel"]
    b_ratio = rate["own"] / rate["own-openspiel"]
    b_uct = rate["own-uct"] / rate["own-openspiel"]
    print(f"B (playtune / OpenSpiel on the docs' plain-Python tic-tac-toe, aim >= 5x): uct {b_uct:.2f}x "
          f"{'met' if b_uct >= 5 else 'short'}, mcts {b_ratio:.2f}x")
    print(f"A (playtune / OpenSpiel on pyspiel's python_tic_tac_toe): {a_ratio:.2f}x")
    # The same search on the same positions costs the same in B (its board without its
    # own playout, so that both games answer the same calls); what A costs beyond B is
    # the pyspiel game's rules (less the plain game's), a floor under any bot.
    floor = med["playtune-uct"] - med["own-uct-plain"]
    if floor > 0:
        print(f"A's ceiling: python_tic_tac_toe's rules take at least {1000 * floor / n:.2f} ms of playtune's "
              f"{1000 * med['playtune-uct'] / n:.2f} ms a `uct` decision (A less B without its playout), so a search "
              f"costing nothing would be at most {med['openspiel'] / floor:.2f}x OpenSpiel's bot")
    if workers:
        c_ratio = workers[2][0] / workers[1][0]
        print(f"C (2 game processes / 1, aim >= 1.7x): {c_ratio:.2f}x {'met' if c_ratio >= 1.7 else 'short'}")
        busy = max(load_before, load_after)
        if busy > 0.5:
            print(f"   (other work held the machine: load average {busy:.2f} on {os.cpu_count()} cores; C's ratio needs "
                  f"both cores free: rerun when the machine is quiet)")
    if calls:
        print()
        print("# playtune's side of A under cProfile (one pass over the positions): seconds in the function itself, "
              "calls a decision, seconds with what it calls")
        for tt, nc, ct, name in calls[:16]:
            print(f"{tt:8.3f} {nc:9.1f} {ct:8.3f}  {name}")
        step = [(tt, ct) for tt, _, ct, name in calls if "ForwardBot" in name]
        if step:
            tt, ct = step[0]
            print(f"# step() itself (the Rust search, and crossing pyo3 and pybind11 to the state's methods): "
                  f"{tt:.3f} of its {ct:.3f} s ({100 * tt / ct:.0f}%); the state's Python methods the rest")


if __name__ == "__main__":
    main()
