"""OpenSpiel games through playtune's adapter (playtune.openspiel): duel written as an
OpenSpiel game (examples/duel/duel_openspiel.py) designed to its closed-form deepest
rules, and OpenSpiel's own games, with chance nodes and simultaneous moves, played by
OpenSpiel's bots. Skipped where OpenSpiel is not installed."""
import math
import os
import sys

import pytest

pyspiel = pytest.importorskip("pyspiel", reason="OpenSpiel is not installed (pip install open_spiel)")

import playtune  # noqa: E402
from playtune.openspiel import OpenSpielGame  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "examples", "duel"))
import duel_openspiel  # noqa: E402
from duel import depth, deepest, majority  # noqa: E402



@pytest.fixture(scope="module")
def duel():
    # Made at the module's top level (duel_openspiel.GAME): its matches play in game
    # processes, one per core.
    return playtune.register_game(duel_openspiel.GAME)


def test_openspiel_duel_wins_as_its_closed_form_says(duel):
    r = playtune.tournament(duel, ["effort(level=0)", "effort(level=2)"], games=1000, seed=2,
                            settings={"edge": 0.4, "rounds": 15})
    expert = r["agents"][1]["win_rate"]
    truth = majority(1 / (1 + math.exp(-0.8)), 15)
    assert abs(expert - truth) < 3 * math.sqrt(truth * (1 - truth) / 1000), (expert, truth)


def test_designing_an_openspiel_game_finds_its_deepest_rules(duel, tmp_path):
    best = deepest()
    run = playtune.create_run("design", settings={"game": duel, "games": 20}, budget=100,
                              trials=20, seed=1, runs_dir=tmp_path)
    result = run.run(progress=False)
    run.close()
    near = sum(depth(t["values"][0], int(t["values"][1])) >= best - 0.01 for t in result["trials"])
    # 17 of the 96 rule sets are within 0.01 of the deepest: a random pick lands there
    # in about 3.5 of 20 seeds.
    assert near >= 10, near


def test_openspiel_games_with_chance_and_simultaneous_moves():
    pig = playtune.register_game(
        OpenSpielGame("pig", {"winscore": {"int": [5, 30], "step": 5, "default": 10}})
    )
    r = playtune.tournament(pig, ["random", "mcts(simulations=20)"], games=10, settings={"winscore": 10})
    assert r["agents"][1]["win_rate"] >= 0.5, r["agents"]
    info = playtune.evaluate("design", {"winscore": 10}, seed=3,
                             settings={"game": pig, "games": 2, "ladder": "random,mcts(simulations=5)"})
    assert "mean_length" in info["features"]
    zumo = playtune.register_game(OpenSpielGame("oshi_zumo", {"coins": {"int": [10, 50], "step": 10, "default": 20}},
                                                ladder=["random", "random"]))
    r = playtune.tournament(zumo, ["random", "random"], games=10, settings={"coins": 10})
    assert r["design"]["games"] == 10
    with pytest.raises(playtune.PlaytuneError, match="no parameter `colour`"):
        OpenSpielGame("pig", {"colour": {"int": [1, 2]}})


def _liars_dice_state(game, dice, bids):
    state = game.new_initial_state()
    for d in dice:
        state.apply_action(d)
    for b in bids:
        state.apply_action(b)
    return state


def test_the_liars_dice_mcts_bot_does_not_see_the_hidden_die():
    """Seat 1 answers seat 0's bid knowing only its own die: over 20 bot seeds and
    every own die, the action it plays is the same whatever seat 0's hidden die is,
    so its action distribution in each information state does not depend on it.
    pyspiel's MCTSBot on the true state, the bot the adapter played before, fails
    the same check (it calls "liar" exactly when the hidden die makes the bid false)."""
    import numpy as np

    adapter = OpenSpielGame("liars_dice", {"numdice": {"int": [1, 2], "default": 1}})
    assert adapter.search == "determinized"
    game = adapter._load({"numdice": 1})
    mcts = adapter._bots["mcts"][2]
    settings = {"simulations": 100, "uct_c": 2.0, "rollouts": 1, "worlds": 10}
    bid = 3  # seat 0 bids "two 4s" (action 3) on one die each
    cheated = 0
    for seed in range(20):
        for own in range(6):
            fair = {mcts(game, 1, settings, np.random.RandomState(seed))
                    .step(_liars_dice_state(game, [hidden, own], [bid])) for hidden in range(6)}
            assert len(fair) == 1, (seed, own, fair)
            seeing = {pyspiel.MCTSBot(game, pyspiel.RandomRolloutEvaluator(1, seed), 2.0, 100, 1000,
                                      False, seed, False).step(_liars_dice_state(game, [hidden, own], [bid]))
                      for hidden in range(6)}
            cheated += len(seeing) > 1
    # The check can fail: a bot that reads the true state fails it in most states.
    assert cheated >= 60, cheated


def _turns(state, seat):
    """How many moves the others made before each of the seat's moves and since."""
    replay, runs = state.get_game().new_initial_state(), [0]
    for a in state.history():
        if replay.current_player() == seat:
            runs.append(0)
        else:
            runs[-1] += 1
        replay.apply_action(a)
    return runs


def test_the_determinized_bot_does_not_read_the_hidden_turn_order_in_dark_hex():
    """In dark hex a move onto a hidden enemy stone is invisible to the other player
    and the mover moves again, so a seat cannot tell how many moves its opponent made
    between its own. Over every pair of states random play reaches (1,000 seeds, dark
    hex 3x3) at which the seat to act has the same information state string but the
    histories differ, at least 100 of them in how many moves the opponent made between
    the seat's own, the world sampler draws the same world on both states from the
    same generator, and the determinized MCTS bot plays the same move on both.
    pyspiel's MCTSBot on the true state fails the same check."""
    import numpy as np
    from playtune.openspiel import sample_world

    adapter = OpenSpielGame("dark_hex", fixed={"num_rows": 3, "num_cols": 3})
    assert adapter.search == "determinized"
    game = adapter._load({})
    mcts = adapter._bots["mcts"][2]
    settings = {"simulations": 40, "uct_c": 2.0, "rollouts": 1, "worlds": 4}
    seen = {}  # (seat, its information state string) -> {history: state}
    for seed in range(1000):
        rng = np.random.RandomState(seed)
        state = game.new_initial_state()
        while not state.is_terminal():
            seat = state.current_player()
            key = (seat, state.information_state_string(seat))
            seen.setdefault(key, {}).setdefault(tuple(state.history()), state.clone())
            legal = state.legal_actions()
            state.apply_action(legal[rng.randint(len(legal))])
    pairs = []
    for states in seen.values():
        first, *others = states.values()
        if len(first.legal_actions()) > 1:
            pairs += [(first, other) for other in others]
    turn_order = [(a, b) for a, b in pairs
                  if _turns(a, a.current_player()) != _turns(b, b.current_player())]
    assert len(pairs) >= 100 and len(turn_order) >= 100, (len(pairs), len(turn_order))
    cheated = 0
    for i, (a, b) in enumerate(pairs):
        seat = a.current_player()
        worlds = [sample_world(s, seat, np.random.RandomState(i)) for s in (a, b)]
        assert worlds[0] is not None and worlds[0].history() == worlds[1].history(), (a.history(), b.history())
        fair = {mcts(game, seat, settings, np.random.RandomState(i)).step(s) for s in (a, b)}
        assert len(fair) == 1, (a.history(), b.history(), fair)
        seeing = {pyspiel.MCTSBot(game, pyspiel.RandomRolloutEvaluator(1, i), 2.0, 40, 1000,
                                  False, i, False).step(s) for s in (a, b)}
        cheated += len(seeing) > 1
    # The check can fail: a bot that reads the true state fails it (in 1,380 pairs).
    assert cheated >= 100, cheated


def test_every_two_player_openspiel_game_plays_or_is_refused_with_a_reason():
    """Every 2-player game OpenSpiel registers plays one match at its default
    parameters (random against the MCTS bot where the game has one, else random
    against random), or is refused with OpenSpiel's or playtune's reason. The counts
    are docs/your-own-game.md's."""
    import warnings

    played, refused = [], {}
    for gt in pyspiel.registered_games():
        if not (gt.min_num_players <= 2 <= gt.max_num_players):
            continue
        name = gt.short_name
        try:
            fixed = {"players": 2} if "players" in gt.parameter_specification else {}
            # 100 steps at most: a match the cap ends is played all the same.
            g = OpenSpielGame(name, fixed=fixed, max_steps=100, name=f"breadth-{name}")
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                n = playtune.register_game(g, in_process=True)
            mcts = "mcts(simulations=2,worlds=1)" if "determinized" in (g.search or "") else "mcts(simulations=2)"
            bots = ["random", mcts] if g.search else ["random", "random"]
            r = playtune.tournament(n, bots, games=1, seed=1)
            assert r["design"]["games"] == 1
            played.append(name)
        except (playtune.PlaytuneError, pyspiel.SpielError, RuntimeError) as e:
            refused[name] = str(e)
    for name, why in refused.items():
        assert why.strip(), name
    print(f"played {len(played)}, refused {len(refused)}: {sorted(refused)}")
    assert len(played) >= 70, (len(played), refused)
    assert len(played) + len(refused) == sum(
        gt.min_num_players <= 2 <= gt.max_num_players for gt in pyspiel.registered_games()
    )


#: OpenSpiel games that hide information, by how their bots see it: dark hex gives no
#: resampler (worlds are sampled from what the seat has seen), leduc poker resamples
#: from an information state, Kuhn poker is written in Python.
BOT_GAMES = [
    ("dark_hex", {"num_rows": 3, "num_cols": 3}),
    ("leduc_poker", {}),
    ("python_kuhn_poker", {}),
]
#: playtune's bots (iterations=) and the game's own MCTS, the one its matches play
#: (simulations=).
BOT_SPECS = ["random", "osla", "mcts(iterations=20)", "ismcts(iterations=20)", "mcts(simulations=20)"]


def _decisions(adapter, count, seed):
    """Up to ``count`` states of a random playout (the game at its own rules) where the
    seat to move has a choice: chance outcomes and moves drawn from ``seed``."""
    import numpy as np

    rng = np.random.RandomState(seed)
    state, found = adapter._load({}).new_initial_state(), []
    while not state.is_terminal() and len(found) < count:
        if state.is_chance_node():
            outcomes, probs = zip(*state.chance_outcomes())
            state.apply_action(int(outcomes[rng.choice(len(outcomes), p=probs)]))
            continue
        legal = state.legal_actions()
        if len(legal) > 1:
            found.append(state.clone())
        state.apply_action(legal[rng.randint(len(legal))])
    return found


@pytest.mark.parametrize("name,fixed", BOT_GAMES, ids=[g for g, _ in BOT_GAMES])
def test_an_openspiel_game_gives_bots_outside_a_match(name, fixed):
    """``OpenSpielGame(...).bot(spec, seat, seed)``, playtune's bots and the game's own
    MCTS: at each of a playout's decisions, the bot for the seat to move returns one of
    its legal actions, leaves the state as it was, and a second bot from the same seed
    fed the same states returns the same moves."""
    pytest.importorskip("open_spiel.python.games")  # registers pyspiel's Python games
    adapter = OpenSpielGame(name, fixed=fixed)
    states = _decisions(adapter, 3, seed=5)
    assert states, name
    for spec in BOT_SPECS:
        moves = []
        for _ in range(2):
            bots = [adapter.bot(spec, seat, seed=7) for seat in range(adapter.players)]
            played = []
            for state in states:
                seat = state.current_player()
                before = (str(state), list(state.history()))
                action = bots[seat].step(state)
                assert (str(state), list(state.history())) == before, (spec, before)
                assert action in state.legal_actions(seat), (spec, action, state.legal_actions(seat))
                played.append(int(action))
            moves.append(played)
        assert moves[0] == moves[1], (spec, moves)


def test_an_openspiel_bot_refuses_what_is_not_a_seat_a_spec_or_a_seed():
    game = OpenSpielGame("leduc_poker")
    for seat in (1.5, True, "0", 2, -1):
        with pytest.raises(playtune.PlaytuneError, match="seat"):
            game.bot("random", seat)
    with pytest.raises(playtune.PlaytuneError, match="spec"):
        game.bot(3, 0)
    for seed in (1.5, True, "1"):
        with pytest.raises(playtune.PlaytuneError, match="seed"):
            game.bot("random", 0, seed=seed)
    # A name neither the game's bots nor playtune's: both are named.
    with pytest.raises(playtune.PlaytuneError, match="simulations") as refused:
        game.bot("alphazero", 0)
    assert "ismcts" in str(refused.value)
    # The game's own MCTS checks its settings as a match does.
    with pytest.raises(playtune.PlaytuneError, match="simulations"):
        game.bot("mcts(simulations=0)", 0)
