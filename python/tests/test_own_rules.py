"""Games that bring only their rules (docs/own-rules.md): playtune's bots play them,
design runs build and check a ladder of those bots, moves never depend on what a seat
cannot see, and the same seed plays the same match with every bot kind."""
import os
import sys

import pytest

import playtune
from playtune import PlaytuneError

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
TICTACTOE = os.path.join(ROOT, "examples", "tictactoe", "tictactoe.py")
KUHN = os.path.join(ROOT, "examples", "kuhn", "kuhn.py")
sys.path.insert(0, os.path.join(ROOT, "examples", "tictactoe"))
sys.path.insert(0, os.path.join(ROOT, "examples", "kuhn"))
import kuhn  # noqa: E402
import tictactoe  # noqa: E402

#: Every bot kind playtune offers a forward-model game, small enough to be quick.
BOTS = [
    "random",
    "osla(budget=50)",
    "mcts(iterations=40)",
    "ismcts(iterations=40)",
    "bmrh(evaluations=20,budget=200)",
    "srh(evaluations=20,budget=200)",
    "microbial(budget=200)",
    "uct(iterations=40)",
]


def _match(bots, seed, settings):
    return {"settings": settings, "seats": [{"bot": b.split("(")[0], "settings": _settings(b)} for b in bots],
            "seed": seed}


def _settings(spec):
    if "(" not in spec:
        return {}
    inner = spec[spec.index("(") + 1:-1]
    return dict(kv.split("=") for kv in inner.split(","))


def test_the_docs_game_is_designed_from_python_on_the_ladder_playtune_builds(tmp_path):
    name = playtune.register_game(tictactoe.GAME, workers=2)
    run = playtune.create_run("design", settings={"game": name, "games": 6}, budget=12, seed=2,
                              runs_dir=tmp_path, name="ttt", race=0)
    result = run.run(progress=False, verdict=6)
    run.close()
    verdict = result["trials"][0]["verdict"]
    assert verdict["sentence"], verdict
    config = (tmp_path / "ttt" / "config.ron").read_text()
    assert "tictactoe.py:GAME" in config, config


def test_the_docs_game_is_designed_from_the_command_line_by_its_reference(cli, tmp_path):
    out = cli("optimize", "--problem", "design", "--set", f"game={TICTACTOE}:GAME", "--set", "games=6",
              "--budget", "12", "--verdict", "6", "--runs-dir", tmp_path, "--name", "ttt",
              "--ladder-check-games", "30")
    assert "The recommendation" in out.stdout or "own rules" in out.stdout, out.stdout
    # It declares no ladder: the run plays one built to be ordered (or, where none
    # can be, says so and checks the generic one).
    assert "declares no ladder" in out.stderr, out.stderr
    assert "built to be ordered" in out.stderr or "ladder check" in out.stderr, out.stderr
    games = cli("games", f"{TICTACTOE}:GAME").stdout
    assert "random, osla, mcts(iterations=16), mcts(iterations=128)" in games, games


def test_a_bot_outside_a_match_steps_from_its_seed_alone():
    state = tictactoe.GAME.new_initial_state({"n": 3, "k": 3})
    moves = []
    for _ in range(2):
        bot = tictactoe.GAME.bot("mcts(iterations=60)", 0, seed=11)
        moves.append([bot.step(state) for _ in range(5)])
    assert moves[0] == moves[1]
    assert state.legal_actions() == list(range(9)), "step leaves the state as it was"
    # It takes the win in one it is offered: X on 0 and 1, O on 3 and 4.
    s = tictactoe.GAME.new_initial_state({"n": 3, "k": 3})
    for a in (0, 3, 1, 4):
        s.apply_action(a)
    assert tictactoe.GAME.bot("mcts(iterations=200)", 0, seed=1).step(s) == 2
    with pytest.raises(PlaytuneError, match="seat 1"):
        tictactoe.GAME.bot("mcts", 1, seed=1).step(tictactoe.GAME.new_initial_state({"n": 3, "k": 3}))
    with pytest.raises(PlaytuneError, match="not an agent|unknown|no agent|is not"):
        tictactoe.GAME.bot("alphazero", 0)


@pytest.mark.parametrize("seat", [1.5, True, "0", -1, 2 ** 70, 2])
def test_a_bot_s_seat_is_a_whole_number_of_the_game_s_seats(seat):
    # Issue 72, item 11: 1.5, True and "0" became seats; -1 and 2**70 raised a bare
    # OverflowError.
    with pytest.raises(PlaytuneError, match="seat="):
        tictactoe.GAME.bot("mcts", seat)
    with pytest.raises(PlaytuneError, match="seed="):
        tictactoe.GAME.bot("mcts", 0, seed=1.5)
    with pytest.raises(PlaytuneError, match="spec="):
        tictactoe.GAME.bot(3, 0)


@pytest.mark.parametrize("game,settings", [(tictactoe.GAME, {"n": 3, "k": 3}), (kuhn.GAME, {"ante": 1})])
def test_every_bot_kind_plays_the_same_match_from_the_same_seed(game, settings):
    differs = 0
    for i, bot in enumerate(BOTS):
        lineup = [bot, BOTS[(i + 3) % len(BOTS)]]
        for seed in (1, 2, 3):
            first = game.play(_match(lineup, seed, settings))
            again = game.play(_match(lineup, seed, settings))
            assert first == again, (bot, seed)
            differs += first != game.play(_match(lineup, seed + 100, settings))
    assert differs > 0, "another seed never plays another match: the seed is not used"


def test_a_tournament_of_playtune_bots_gives_the_same_figures_twice():
    name = playtune.register_game(kuhn.GAME, workers=2)
    agents = ["random", "osla", "ismcts(iterations=30)"]
    first = playtune.tournament(name, agents, games=30, seed=4)
    assert first == playtune.tournament(name, agents, games=30, seed=4)


def _kuhn_pairs():
    """Pairs of Kuhn states the acting seat cannot tell apart: the same own card and
    bets, the other card different. 4 decision points x 3 own cards: 12 pairs."""
    pairs = []
    for moves in ([], [0], [1], [0, 1]):
        actor = len(moves) % 2
        for own in (0, 1, 2):
            others = [c for c in (0, 1, 2) if c != own]
            states = []
            for other in others:
                s = kuhn.Hand(1)
                cards = [own, other] if actor == 0 else [other, own]
                for a in cards + moves:
                    s.apply_action(a)
                states.append(s)
            assert states[0].information_state_string(actor) == states[1].information_state_string(actor)
            pairs.append((actor, states[0], states[1]))
    return pairs


class _SeeingKuhn(kuhn.Kuhn):
    """The same rules, declared with nothing hidden: search reads the true deal."""

    name = "kuhn-seeing"
    hidden_information = False


@pytest.mark.parametrize("spec", ["osla(budget=40)", "mcts(iterations=60)", "ismcts(iterations=60)", "uct(iterations=60)",
                                  "microbial(budget=200)"])
def test_no_bot_move_depends_on_the_card_its_seat_cannot_see(spec):
    pairs = _kuhn_pairs()
    checked = 0
    for seed in range(9):
        for actor, a, b in pairs:
            here = kuhn.GAME.bot(spec, actor, seed=seed).step(a)
            there = kuhn.GAME.bot(spec, actor, seed=seed).step(b)
            assert here == there, (spec, seed, a.cards, a.moves)
            checked += 1
    assert checked >= 100


def test_the_control_searching_the_true_deal_does_see_the_card():
    seeing = _SeeingKuhn()
    differ = sum(
        seeing.bot("mcts(iterations=60)", actor, seed=seed).step(a)
        != seeing.bot("mcts(iterations=60)", actor, seed=seed).step(b)
        for seed in range(9)
        for actor, a, b in _kuhn_pairs()
    )
    assert differ >= 10, differ


def test_a_hidden_game_without_a_resampler_gets_random_only():
    class Blind(kuhn.Kuhn):
        name = "kuhn-blind"

        def new_initial_state(self, settings):
            hand = kuhn.Hand(int(settings["ante"]))
            hand.resample_from_infostate = None  # not callable: no resampler
            return hand

    game = Blind()
    with pytest.raises(PlaytuneError, match="random"):
        game.bot("mcts", 0)
    desc = playtune.games.description(game)
    assert "resample: false" in desc
    assert game.play(_match(["random", "random"], 1, {"ante": 1}))["length"] >= 2


def test_the_docs_page_shows_the_example_game_whole():
    page = open(os.path.join(ROOT, "docs", "own-rules.md")).read()
    assert open(TICTACTOE).read() in page


def _blocks(kind):
    import re

    page = open(os.path.join(ROOT, "docs", "own-rules.md")).read()
    return re.findall(rf"```{kind}\n(.*?)```", page, flags=re.S)


@pytest.fixture
def beside_examples(tmp_path, monkeypatch):
    """A fresh folder where `examples/` is the repository's, as the docs' commands
    expect to be run from the top of a checkout."""
    os.symlink(os.path.join(ROOT, "examples"), tmp_path / "examples")
    monkeypatch.chdir(tmp_path)
    return tmp_path


@pytest.mark.parametrize("index", range(1, 3))
def test_the_pages_python_examples_run_as_written(index, beside_examples, capsys):
    code = _blocks("python")[index]
    exec(compile(code, "docs/own-rules.md", "exec"), {"__name__": "__doc_example__"})
    assert capsys.readouterr().out.strip()


def test_the_pages_commands_run_as_written(cli, beside_examples):
    import shlex

    commands = [line for block in _blocks("sh") for line in block.splitlines() if line.startswith("playtune ")]
    assert len(commands) >= 4, commands
    for line in commands:
        if "tictactoe.ron" in line and not __import__("shutil").which("node"):
            continue
        out = cli(*shlex.split(line, comments=True)[1:])
        assert out.stdout.strip(), line


def _leduc_pairs(game, count):
    """Pairs of leduc poker states at which the acting seat's information state is the
    same and the true histories differ (the other private card), from random play."""
    import numpy as np

    seen, pairs = {}, []
    for seed in range(5000):
        rng = np.random.RandomState(seed)
        state = game.new_initial_state()
        while not state.is_terminal() and len(pairs) < count:
            if state.is_chance_node():
                outcomes, probs = zip(*state.chance_outcomes())
                state.apply_action(int(outcomes[rng.choice(len(outcomes), p=probs)]))
                continue
            p = state.current_player()
            key = (p, state.information_state_string(p))
            other = seen.get(key)
            if other is not None and other.history() != state.history():
                pairs.append((p, other.clone(), state.clone()))
                del seen[key]
            elif other is None:
                seen[key] = state.clone()
            legal = state.legal_actions()
            state.apply_action(int(legal[rng.randint(len(legal))]))
        if len(pairs) >= count:
            return pairs
    return pairs


def test_the_ismcts_path_does_not_read_the_hidden_card_and_replays_in_leduc():
    pyspiel = pytest.importorskip("pyspiel", reason="OpenSpiel is not installed")
    import numpy as np
    from playtune.openspiel import OpenSpielGame

    adapter = OpenSpielGame("leduc_poker")
    assert adapter.search == "playtune-ismcts"
    game = adapter._load({})
    make = adapter._bots["mcts"][2]
    settings = {"simulations": 60, "uct_c": 2.0}
    pairs = _leduc_pairs(game, 110)
    assert len(pairs) >= 100
    cheated = 0
    for i, (seat, a, b) in enumerate(pairs):
        here = make(game, seat, settings, np.random.RandomState(i)).step(a)
        there = make(game, seat, settings, np.random.RandomState(i)).step(b)
        assert here == there, (i, a.history(), b.history())
        seeing = {pyspiel.MCTSBot(game, pyspiel.RandomRolloutEvaluator(1, i), 2.0, 60, 1000, False, i, False)
                  .step(s.clone()) for s in (a, b)}
        cheated += len(seeing) > 1
    # The control, pyspiel's MCTS on the true state, reads the other card.
    assert cheated >= 5, cheated
    # Replay: the same tournament twice gives the same figures.
    name = playtune.register_game(adapter, in_process=True)
    agents = ["random", "mcts(simulations=40)"]
    first = playtune.tournament(name, agents, games=40, seed=9)
    assert first == playtune.tournament(name, agents, games=40, seed=9)


def test_dark_hex_s_ladder_is_checked_before_a_design_run(cli, beside_examples):
    pytest.importorskip("pyspiel", reason="OpenSpiel is not installed")
    out = cli("optimize", "--problem", "design", "--set", "game=examples/openspiel/dark_hex.py:GAME",
              "--set", "games=4", "--budget", "4", "--verdict", "0", "--ladder-check-games", "60")
    err = out.stderr
    # Its example declares pyspiel's MCTS as its ladder, which is checked; a game
    # declaring none would have one built where its bots beat random.
    assert "ladder check" in err or "declares no ladder" in err, err
    if "built to be ordered" not in err:
        assert "ladder check" in err, err
        # Ordered, said not to be with a proposal (or none possible), or inconclusive
        # at these few games.
        assert ("is ordered" in err) or ("not shown ordered at 60 games" in err) or (
            "NOT shown ordered" in err and (
                "an ordered ladder of these rungs" in err or "no two of its rungs" in err)), err


def _sinfo_up():
    import shutil
    import subprocess

    if not shutil.which("sinfo"):
        return False
    p = subprocess.run(["sinfo", "--noheader", "--format=%T"], capture_output=True, text=True, timeout=20)
    return p.returncode == 0 and any(s in p.stdout for s in ("idle", "mix", "alloc"))


def test_a_design_run_of_a_python_game_by_reference_runs_through_slurm(cli, beside_examples):
    """The game's processes start on the cluster's node from its reference, and the
    run's log is the local run's, evaluation for evaluation."""
    if not _sinfo_up():
        if os.environ.get("PLAYTUNE_REQUIRE_SLURM"):
            pytest.fail("PLAYTUNE_REQUIRE_SLURM is set but no Slurm cluster answers `sinfo`")
        pytest.skip("no Slurm cluster here (bash scripts/slurm-test-cluster.sh start starts one)")
    args = ["optimize", "--problem", "design", "--set", "game=examples/tictactoe/tictactoe.py:GAME",
            "--set", "games=4", "--budget", "8", "--batch", "4", "--verdict", "0", "--quiet"]
    cli(*args, "--name", "local")
    cli(*args, "--name", "cluster", "--executor", "slurm", "--tasks", "2", "--poll", "0.5")
    local = (beside_examples / "runs" / "local" / "evals.csv").read_text()
    cluster = (beside_examples / "runs" / "cluster" / "evals.csv").read_text()
    assert local == cluster
    assert len(local.splitlines()) == 9, local


def test_a_design_run_goes_to_slurm_from_python_without_the_binary(beside_examples, monkeypatch):
    """Issue 74: a design run created and run from Python on the Slurm test cluster,
    with no ``playtune`` binary on the PATH. Its array tasks run this Python with the
    wheel (``python -m playtune task ...``), and its log is a local Python run's, row
    for row."""
    if not _sinfo_up():
        if os.environ.get("PLAYTUNE_REQUIRE_SLURM"):
            pytest.fail("PLAYTUNE_REQUIRE_SLURM is set but no Slurm cluster answers `sinfo`")
        pytest.skip("no Slurm cluster here (bash scripts/slurm-test-cluster.sh start starts one)")
    # No folder of the PATH holds a `playtune` (the venv's command included): the tasks
    # (sbatch passes this environment on) can only run the wheel through Python.
    path = [d for d in os.environ["PATH"].split(os.pathsep) if not os.path.exists(os.path.join(d, "playtune"))]
    monkeypatch.setenv("PATH", os.pathsep.join(path))
    # The game's own processes: this Python, which has the wheel.
    monkeypatch.setenv("PLAYTUNE_PYTHON", sys.executable)
    common = dict(problem="design", budget=8, seed=3, ladder_check="off", quiet=True, batch=4,
                  settings={"game": "examples/tictactoe/tictactoe.py:GAME", "games": 4})
    with playtune.create_run(name="local", **common) as run:
        run.run(progress=False, verdict=0)
    with playtune.create_run(name="cluster", **common) as run:
        result = run.run(progress=False, verdict=0, executor="slurm", tasks=2, poll=0.5)
    assert result["trials"], result
    local = (beside_examples / "runs" / "local" / "evals.csv").read_text()
    cluster = (beside_examples / "runs" / "cluster" / "evals.csv").read_text()
    assert local == cluster
    assert len(local.splitlines()) == 9, local
    scripts = sorted((beside_examples / "runs" / "cluster" / "slurm").rglob("*.sh"))
    assert scripts, "no batch script was submitted"
    for script in scripts:
        assert f"'{sys.executable}' '-m' 'playtune' task " in script.read_text(), script.read_text()
    # Refused before anything is submitted: a Python function runs here, not on Slurm.
    with playtune.create_run(name="refused", **common) as run:
        with pytest.raises(PlaytuneError, match="a Python function runs here"):
            run.run(lambda p: 0.0, executor="slurm")
        with pytest.raises(PlaytuneError, match="executor='cloud'"):
            run.run(executor="cloud")


def test_playtune_s_bots_are_tuned_and_searched_by_map_elites(cli, beside_examples):
    game = "game=examples/tictactoe/tictactoe.py:GAME"
    common = ["--set", game, "--set", "agent=mcts(iterations=30)", "--set", "opponents=osla", "--set", "games=4"]
    out = cli("optimize", "--problem", "tune-agent", *common, "--budget", "8", "--verdict", "4", "--name", "tune")
    assert "untuned agent mcts(iterations=30)" in out.stdout, out.stdout
    out = cli("map-elites", "--problem", "tune-agent", *common, "--evaluations", "12",
              "--axes", "mean_length=5:9:4", "--name", "archive")
    assert "as an agent: mcts(iterations=30," in out.stdout, out.stdout


def test_a_python_match_reports_a_trace_its_own_feature_and_its_frames():
    """Issue 73, items 3 to 5: a match over a Python game's rules reports each seat's
    score before every move and at the end, the feature its final state reports
    (``Board.features()``: the corners each seat holds), and, asked, each board as
    ``str(state)`` writes it with the move made."""
    match = dict(_match(["mcts(iterations=30)", "random"], 3, {"n": 3, "k": 3}), show=True)
    reply = tictactoe.GAME.play(match)
    trace = reply["trace"]
    assert len(trace) == reply["length"] + 1 and trace[-1] == reply["scores"], reply
    corners = reply["features"]["corners"]
    assert len(corners) == 2 and 0 <= sum(corners) <= 4, reply
    frames = reply["frames"]
    assert frames[0].startswith("move 1: seat 0 to move\n. . .\n. . .\n. . .\nseat 0 plays "), frames
    assert frames[-1].startswith("the end, after"), frames
    # Not asked, no frames, and the same match.
    quiet = tictactoe.GAME.play(_match(["mcts(iterations=30)", "random"], 3, {"n": 3, "k": 3}))
    assert "frames" not in quiet and quiet["scores"] == reply["scores"]


def test_a_match_of_playtunes_bots_in_process_goes_straight_to_the_rules(monkeypatch):
    """Issue 73, item 2: in process, a match of playtune's bots alone is played in Rust
    on the game's states, with no request line for the game's ``play`` and no reply
    line back; it is the match the line would have played, features and all. A match
    beside the game's own bot still goes to its ``play``."""
    from playtune import _playtune, games

    lines = []
    real_register = _playtune.register_game

    def register(straight):
        def through(description, file, play, timeout, start=None):
            def counted(line):
                lines.append(line)
                return play(line)

            return real_register(description, file, counted, timeout, start if straight else None)

        monkeypatch.setattr(games._playtune, "register_game", through)
        name = playtune.register_game(tictactoe.GAME, in_process=True)
        monkeypatch.setattr(games._playtune, "register_game", real_register)
        return name

    agents = ["mcts(iterations=20)", "random", "uct(iterations=20)"]
    name = register(straight=True)
    straight = playtune.tournament(name, agents, games=12, seed=5)
    assert lines == []
    name = register(straight=False)
    by_line = playtune.tournament(name, agents, games=12, seed=5)
    assert len(lines) == 12 * 3
    assert straight == by_line

    class WithOwnBot(tictactoe.TicTacToe):
        name = "tictactoe-own-bot"
        bots = [{"name": "first", "about": "plays the first legal move"}]

        def play(self, match):
            if all(s["bot"] != "first" for s in match["seats"]):
                return super().play(match)
            raise ValueError("the own bot's match came to play(match)")

    lines.clear()
    monkeypatch.setattr(games._playtune, "register_game",
                        lambda d, f, play, t, start=None: real_register(d, f, lambda l: (lines.append(l), play(l))[1], t, start))
    own = playtune.register_game(WithOwnBot(), in_process=True)
    with pytest.raises(PlaytuneError, match="the own bot's match came to play"):
        playtune.tournament(own, ["first", "random"], games=2, seed=1)
    assert lines, "a match beside the game's own bot goes to its play(match)"
    lines.clear()
    playtune.tournament(own, ["random", "uct(iterations=10)"], games=2, seed=1)
    assert lines == []


def test_a_feature_the_game_does_not_declare_fails_the_match():
    class Undeclared(tictactoe.TicTacToe):
        name = "tictactoe-undeclared"
        features = ()

    with pytest.raises(PlaytuneError, match="`corners`, which it does not declare"):
        Undeclared().play(_match(["random", "random"], 1, {"n": 3, "k": 3}))


def test_play_show_watches_a_python_game_from_the_command_line(cli, beside_examples):
    out = cli("play", "--game", "examples/tictactoe/tictactoe.py:GAME", "--agents", "mcts(iterations=40),random",
              "--show").stdout
    assert out.startswith("move 1: seat 0 to move\n. . .\n. . .\n. . .\nseat 0 plays "), out
    assert "\nthe end, after " in out and "corners_0=" in out, out


def test_the_own_feature_is_an_archive_axis_drawn_as_a_heatmap(cli, beside_examples):
    common = ["--set", "game=examples/tictactoe/tictactoe.py:GAME", "--set", "agent=mcts(iterations=20)",
              "--set", "opponents=random", "--set", "games=4"]
    cli("map-elites", "--problem", "tune-agent", *common, "--evaluations", "8", "--axes", "corners=0:3:3",
        "--name", "corners")
    cli("plot", "runs/corners", "--heatmap", "fitness", "--format", "svg", "--out", "plots")
    assert "corners" in (beside_examples / "plots" / "heatmap_fitness.svg").read_text()


def test_a_three_seat_game_s_ladder_is_checked_against_copies_of_the_rung_below(cli, beside_examples):
    """Issue 73, item 6: Nim for three seats (examples/nim3/nim3.py). Each rung plays
    two copies of the one below and must take more than its even share, a third."""
    out = cli("check-ladder", "--game", "examples/nim3/nim3.py:GAME", "--ladder", "random,osla,mcts(iterations=200)",
              "--games", "100").stdout
    assert "3 seats: each rung against 2 copies of the one below, 100 games a step" in out, out
    first = next(line for line in out.splitlines() if "osla against 2 copies of random" in line)
    assert "(even share 0.333)" in first and "stronger by more than 2 standard errors" in first, out
    assert "mcts(iterations=200) against 2 copies of osla" in out, out


def _counted_game(name, playout):
    """Tic-tac-toe whose states count the calls playtune makes; with its own playout
    (``playout`` a function of the state, seed and max_steps) or none."""
    calls = {"playout": 0, "apply": 0}

    class Counted(tictactoe.Board):
        def apply_action(self, a):
            calls["apply"] += 1
            super().apply_action(a)

        def clone(self):
            copy = Counted(self.n, self.k)
            copy.cells, copy.turn, copy.winner = list(self.cells), self.turn, self.winner
            return copy

    if playout is None:
        Counted.playout = None  # not callable: no playout of its own
    else:
        def own(self, seed, max_steps):
            calls["playout"] += 1
            return playout(self, seed, max_steps)
        Counted.playout = own

    class Game(tictactoe.TicTacToe):
        def new_initial_state(self, settings):
            return Counted(3, 3)

    Game.name = name
    return Game(), calls


def _uncounted_playout(state, seed, max_steps):
    rng, steps = __import__("random").Random(seed), 0
    while steps < max_steps and not state.is_terminal():
        moves = state.legal_actions()
        tictactoe.Board.apply_action(state, moves[int(rng.random() * len(moves))])
        steps += 1
    return steps


def test_a_state_s_own_playout_is_one_call_a_playout_and_is_checked():
    """Issue 73: a Python state's optional ``playout(seed, max_steps)`` plays the search's
    random playouts in one call each, where the search otherwise applies every move of
    them itself; the bot still takes the win it is offered, and a playout that says it
    played more moves than it may fails the move, naming it."""
    own, with_calls = _counted_game("tictactoe-own-playout", _uncounted_playout)
    plain, without_calls = _counted_game("tictactoe-no-playout", None)
    for game in (own, plain):
        game.bot("uct(iterations=100)", 0, seed=3).step(game.new_initial_state({}))
    assert without_calls["playout"] == 0 and with_calls["playout"] > 50, (with_calls, without_calls)
    assert without_calls["apply"] > 3 * with_calls["apply"], (with_calls, without_calls)
    for spec in ("uct(iterations=200)", "mcts(iterations=200)"):
        s = own.new_initial_state({})
        for a in (0, 3, 1, 4):
            tictactoe.Board.apply_action(s, a)
        assert own.bot(spec, 0, seed=1).step(s) == 2, spec
    liar, _ = _counted_game("tictactoe-long-playout", lambda state, seed, max_steps: max_steps + 1)
    with pytest.raises(PlaytuneError, match=r"playout\(\d+, \d+\) returned \d+: give the moves it played"):
        liar.bot("uct(iterations=20)", 0, seed=1).step(liar.new_initial_state({}))
