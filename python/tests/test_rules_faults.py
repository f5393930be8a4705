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
