"""A game that brings its rules and breaks them: each fault fails the match (or the
bot's step) naming the method and the reason, and a match past its timeout, or
stopped, asks the game nothing more (issue 72, items 1, 3, 5 and 8)."""
import os
import signal
import sys
import threading
import time

import pytest

import playtune
from playtune import PlaytuneError

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "examples", "tictactoe"))
import tictactoe  # noqa: E402


class Board(tictactoe.Board):
    def clone(self):
        copy = type(self)(self.n, self.k)
        copy.cells, copy.turn, copy.winner = list(self.cells), self.turn, self.winner
        return copy


def _game(board, name):
    class Game(tictactoe.TicTacToe):
        def new_initial_state(self, settings):
            return board(3, 3)

    Game.name = name
    return Game()


class SelfClone(Board):
    def clone(self):
        return self


class SharedClone(Board):
    def clone(self):
        copy = type(self)(self.n, self.k)
        copy.cells, copy.turn, copy.winner = self.cells, self.turn, self.winner  # the list shared
        return copy


def test_a_clone_that_returns_the_state_itself_is_refused():
    game = _game(SelfClone, "selfclone")
    state = game.new_initial_state({})
    with pytest.raises(PlaytuneError, match=r"clone\(\) returned the state itself"):
        game.bot("mcts(iterations=20)", 0, 1).step(state)
    assert state.cells == [-1] * 9, "the bot's search played on the caller's state"


def test_a_clone_that_shares_what_it_changes_is_refused_where_the_game_is_registered():
    with pytest.raises(PlaytuneError, match=r"clone\(\).*changed the state it was cloned from"):
        playtune.register_game(_game(SharedClone, "sharedclone"), in_process=True)


class _Heuristic(Board):
    gives = 0.0

    def heuristic_value(self, player):
        if isinstance(self.gives, BaseException):
            raise self.gives
        return self.gives


@pytest.mark.parametrize(
    "gives, says",
    [
        (ValueError("no estimate"), r"heuristic_value\(\) raised ValueError\('no estimate'\)"),
        (float("nan"), r"heuristic_value\(0\) returned nan: give a finite number"),
        ("good", r"heuristic_value\(0\) returned 'good': give a finite number"),
        (None, r"heuristic_value\(0\) returned None: give a finite number"),
        (True, r"heuristic_value\(0\) returned True: give a finite number"),
    ],
)
def test_a_broken_heuristic_fails_the_step_and_the_match(gives, says):
    board = type("Broken", (_Heuristic,), {"gives": gives})
    game = _game(board, "brokenheuristic")
    with pytest.raises(PlaytuneError, match=says):
        game.bot("osla", 0, 1).step(game.new_initial_state({}))
    playtune.register_game(game, in_process=True)
    with pytest.raises(PlaytuneError, match=says):
        playtune.tournament("brokenheuristic", ["osla", "random"], games=2)


def test_a_keyboard_interrupt_in_the_heuristic_is_raised_again():
    board = type("Interrupting", (_Heuristic,), {"gives": KeyboardInterrupt()})
    game = _game(board, "interruptingheuristic")
    with pytest.raises(KeyboardInterrupt):
        game.bot("osla", 0, 1).step(game.new_initial_state({}))


class _Slow(Board):
    """Each clone takes 10 ms, and swallows the TimeoutError that interrupts it, as
    careless code does: playtune must stop asking on its own. Every call's time is
    kept."""

    calls = []

    def clone(self):
        _Slow.calls.append(time.monotonic())
        if _Slow.calls[-1] > _Slow.calls[0] + 6.0:
            # Quick from here: a playtune that asks on ends this test in seconds.
            return super().clone()
        try:
            time.sleep(0.01)
        except TimeoutError:  # the point of the test
            pass
        return super().clone()


def _calls_after(t):
    return sum(1 for c in _Slow.calls if c > t)


def test_an_in_process_match_ends_at_its_timeout():
    game = _game(_Slow, "slowclone")
    playtune.register_game(game, in_process=True, timeout=1)
    _Slow.calls = []
    start = time.monotonic()
    # 100,000 iterations of 10 ms: a match that ran on would take hours.
    with pytest.raises(PlaytuneError, match="timeout"):
        playtune.tournament("slowclone", ["mcts(iterations=100000)", "random"], games=1)
    assert _Slow.calls, "the game was never asked"
    assert _calls_after(start + 2.0) == 0, "the game was still asked a second after the match's timeout"


def test_ctrl_c_ends_an_in_process_match():
    game = _game(_Slow, "slowclone2")
    playtune.register_game(game, in_process=True, timeout=600)
    _Slow.calls = []
    sent = []

    def interrupt():
        sent.append(time.monotonic())
        os.kill(os.getpid(), signal.SIGINT)

    timer = threading.Timer(1.0, interrupt)
    timer.start()
    try:
        with pytest.raises(KeyboardInterrupt):
            playtune.tournament("slowclone2", ["mcts(iterations=100000)", "random"], games=4)
    finally:
        timer.cancel()
    assert sent
    assert _calls_after(sent[0] + 1.0) == 0, "the game was still asked a second after Ctrl-C"


sys.path.insert(0, os.path.join(ROOT, "examples", "kuhn"))
import kuhn  # noqa: E402


class SharedMoves(kuhn.Hand):
    """Copies the cards, shares the moves: the deal (a chance node) shows nothing
    wrong, the first bet does."""

    def clone(self):
        copy = SharedMoves(self.ante)
        copy.cards, copy.moves = list(self.cards), self.moves
        return copy


class _SharedKuhn(kuhn.Kuhn):
    name = "sharedkuhn"

    def new_initial_state(self, settings):
        return SharedMoves(1)


def _dealt(hand):
    hand.apply_action(0)
    hand.apply_action(2)
    return hand


def test_a_clone_that_shares_what_a_later_move_changes_fails_the_match_and_the_step():
    """Found by the fault probe: where the first node is a chance node, the check at
    registration cannot see it; the match and the bot's step check that the search
    left their state where it stood."""
    game = _SharedKuhn()
    playtune.register_game(game, in_process=True)
    with pytest.raises(PlaytuneError, match="the search's moves changed the state it searched from"):
        playtune.tournament("sharedkuhn", ["ismcts(iterations=20)", "random"], games=2)
    state = _dealt(game.new_initial_state({"ante": 1}))
    with pytest.raises(PlaytuneError, match="changed the state it (searched from|was given)"):
        game.bot("ismcts(iterations=20)", 0, 1).step(state)
    assert state.moves == [], "the bot's step moved the caller's state"


class _NoStart(tictactoe.TicTacToe):
    name = "nostart"
    gives = None

    def new_initial_state(self, settings):
        if isinstance(self.gives, Exception):
            raise self.gives
        return self.gives


@pytest.mark.parametrize(
    "gives, says",
    [
        (ValueError("no board"), r"new_initial_state\(\) raised ValueError: no board"),
        (None, r"new_initial_state\(\) returned None: give a state"),
        (5, r"new_initial_state\(\) returned 5: give a state"),
    ],
)
def test_a_new_initial_state_that_fails_is_named(gives, says):
    with pytest.raises(PlaytuneError, match=says):
        playtune.register_game(type("NoStart", (_NoStart,), {"gives": gives})(), in_process=True)


class _BadWorld(kuhn.Hand):
    def resample_from_infostate(self, player, sampler):
        return "x"

    def clone(self):
        copy = _BadWorld(self.ante)
        copy.cards, copy.moves = list(self.cards), list(self.moves)
        return copy


class _SameWorld(_BadWorld):
    def resample_from_infostate(self, player, sampler):
        return self

    def clone(self):
        copy = _SameWorld(self.ante)
        copy.cards, copy.moves = list(self.cards), list(self.moves)
        return copy


def test_a_resampler_that_returns_the_state_itself_is_named():
    class SameWorldKuhn(kuhn.Kuhn):
        name = "sameworld"

        def new_initial_state(self, settings):
            return _SameWorld(1)

    game = SameWorldKuhn()
    with pytest.raises(PlaytuneError, match="the resampler returned the state it was given"):
        game.bot("ismcts(iterations=20)", 0, 1).step(_dealt(game.new_initial_state({"ante": 1})))


def test_a_resampler_that_returns_no_state_is_named():
    class BadWorldKuhn(kuhn.Kuhn):
        name = "badworld"

        def new_initial_state(self, settings):
            return _BadWorld(1)

    game = BadWorldKuhn()
    with pytest.raises(PlaytuneError, match="the resampler returned 'x', not a state"):
        game.bot("ismcts(iterations=20)", 0, 1).step(_dealt(game.new_initial_state({"ante": 1})))
