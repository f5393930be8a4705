"""Tic-tac-toe on an n x n board, k in a row to win: rules only, no bots.

playtune's own bots play it (random, osla, mcts, ...), and a design run searches its
board size and row length on the ladder playtune builds (docs/own-rules.md).
"""
import playtune


class Board:
    def __init__(self, n, k):
        self.n, self.k, self.cells, self.turn, self.winner = n, k, [-1] * (n * n), 0, None

    def current_player(self):
        return -4 if self.is_terminal() else self.turn

    def legal_actions(self):
        return [i for i, c in enumerate(self.cells) if c < 0]

    def apply_action(self, a):
        self.cells[a] = self.turn
        if self._line_through(a):
            self.winner = self.turn
        self.turn = 1 - self.turn

    def _line_through(self, a):
        n, r, c = self.n, a // self.n, a % self.n
        for dr, dc in ((0, 1), (1, 0), (1, 1), (1, -1)):
            run = 1
            for sign in (1, -1):
                rr, cc = r + sign * dr, c + sign * dc
                while 0 <= rr < n and 0 <= cc < n and self.cells[rr * n + cc] == self.turn:
                    run, rr, cc = run + 1, rr + sign * dr, cc + sign * dc
            if run >= self.k:
                return True
        return False

    def is_terminal(self):
        return self.winner is not None or min(self.cells) >= 0

    def returns(self):
        if self.winner is None:
            return [0.0, 0.0]
        return [1.0, -1.0] if self.winner == 0 else [-1.0, 1.0]

    def clone(self):
        copy = Board(self.n, self.k)
        copy.cells, copy.turn, copy.winner = list(self.cells), self.turn, self.winner
        return copy

    def playout(self, seed, max_steps):
        # Optional: the search's random playouts played here, in one call, uniformly
        # random moves drawn from `seed` by a small generator; the moves played returned.
        x, steps, free = seed, 0, [i for i, c in enumerate(self.cells) if c < 0]
        while steps < max_steps and self.winner is None and free:
            x = (x * 6364136223846793005 + 1442695040888963407) & 0xFFFFFFFFFFFFFFFF
            self.apply_action(free.pop((x >> 33) % len(free)))
            steps += 1
        return steps

    def features(self):
        # A feature of the game's own, per seat, of the final state: the corners held.
        n, held = self.n, [0, 0]
        for i in (0, n - 1, n * (n - 1), n * n - 1):
            if self.cells[i] >= 0:
                held[self.cells[i]] += 1
        return {"corners": held}

    def __str__(self):
        # The board as `playtune play --show` prints it: X moves first, "." is empty.
        rows = (self.cells[r * self.n:(r + 1) * self.n] for r in range(self.n))
        return "\n".join(" ".join(".XO"[c + 1] for c in row) for row in rows)


class TicTacToe(playtune.Game):
    name = "tictactoe"
    about = "n x n board, k in a row wins"
    settings = {"n": {"int": [3, 5], "default": 3}, "k": {"int": [3, 5], "default": 3}}
    playable = ["stalemate_rate <= 0.9"]
    features = ["corners"]  # reported by Board.features() at the end of each match

    def new_initial_state(self, settings):
        return Board(int(settings["n"]), min(int(settings["k"]), int(settings["n"])))


GAME = TicTacToe()
