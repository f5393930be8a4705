"""Connect Four written against pyspiel's Python API in plain Python lists, as a
designer would write a game OpenSpiel does not ship: a game for benches/pyspiel_api.py
(registered as `bench_connect_four` on import)."""
import pyspiel

ROWS, COLS = 6, 7
_TYPE = pyspiel.GameType(
    short_name="bench_connect_four", long_name="Connect Four (plain Python)",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.DETERMINISTIC,
    information=pyspiel.GameType.Information.PERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.ZERO_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=2, min_num_players=2,
    provides_information_state_string=False, provides_information_state_tensor=False,
    provides_observation_string=False, provides_observation_tensor=False,
    parameter_specification={})
_INFO = pyspiel.GameInfo(num_distinct_actions=COLS, max_chance_outcomes=0, num_players=2,
                         min_utility=-1.0, max_utility=1.0, utility_sum=0.0,
                         max_game_length=ROWS * COLS)


class ConnectFourGame(pyspiel.Game):
    def __init__(self, params=None):
        super().__init__(_TYPE, _INFO, params or {})

    def new_initial_state(self):
        return ConnectFourState(self)


class ConnectFourState(pyspiel.State):
    def __init__(self, game):
        super().__init__(game)
        self.cells = [-1] * (ROWS * COLS)  # row-major, row 0 at the bottom
        self.heights = [0] * COLS
        self.turn = 0
        self.winner = -1
        self.moves = 0

    def current_player(self):
        return pyspiel.PlayerId.TERMINAL if self.is_terminal() else self.turn

    def _legal_actions(self, player):
        return [c for c in range(COLS) if self.heights[c] < ROWS]

    def _apply_action(self, c):
        r = self.heights[c]
        self.cells[r * COLS + c] = self.turn
        self.heights[c] += 1
        self.moves += 1
        if self._four(r, c):
            self.winner = self.turn
        self.turn = 1 - self.turn

    def _four(self, r, c):
        me = self.turn
        for dr, dc in ((0, 1), (1, 0), (1, 1), (1, -1)):
            run = 1
            for s in (1, -1):
                rr, cc = r + s * dr, c + s * dc
                while 0 <= rr < ROWS and 0 <= cc < COLS and self.cells[rr * COLS + cc] == me:
                    run += 1
                    rr += s * dr
                    cc += s * dc
            if run >= 4:
                return True
        return False

    def _action_to_string(self, player, action):
        return str(action)

    def is_terminal(self):
        return self.winner >= 0 or self.moves == ROWS * COLS

    def returns(self):
        if self.winner < 0:
            return [0.0, 0.0]
        return [1.0, -1.0] if self.winner == 0 else [-1.0, 1.0]

    def __str__(self):
        return "\n".join(" ".join(".XO"[self.cells[r * COLS + c] + 1] for c in range(COLS)) for r in reversed(range(ROWS)))


pyspiel.register_game(_TYPE, ConnectFourGame)
