"""Duel as an OpenSpiel game (pyspiel, in Python), designed through playtune's
OpenSpiel adapter (docs/your-own-game.md).

Each round both players choose an effort (0, 1 or 2), then chance gives the round to
seat 0 with probability 1 / (1 + exp(-edge * (e0 - e1))); the first to win most of
`rounds` rounds wins. A bot that always gives effort k plays as duel's bot of skill
k, so the skill depth of the ladder effort 0, 1, 2 is duel's, known in closed form.

    import playtune, duel_openspiel
    playtune.register_game(duel_openspiel.adapter())
    playtune.tournament("openspiel-duel", ["effort(level=0)", "effort(level=2)"])
"""
import math

import pyspiel

_EFFORTS = 3
_GAME_TYPE = pyspiel.GameType(
    short_name="python_duel_effort",
    long_name="Python Duel (effort)",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
    information=pyspiel.GameType.Information.PERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.ZERO_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=2,
    min_num_players=2,
    provides_information_state_string=False,
    provides_information_state_tensor=False,
    provides_observation_string=False,
    provides_observation_tensor=False,
    parameter_specification={"edge": 1.0, "rounds": 3},
)


class DuelGame(pyspiel.Game):
    def __init__(self, params=None):
        params = params or {}
        self.edge = float(params.get("edge", 1.0))
        self.rounds = int(params.get("rounds", 3))
        info = pyspiel.GameInfo(
            num_distinct_actions=_EFFORTS,
            max_chance_outcomes=2,
            num_players=2,
            min_utility=-1.0,
            max_utility=1.0,
            utility_sum=0.0,
            max_game_length=3 * self.rounds,
        )
        super().__init__(_GAME_TYPE, info, params)

    def new_initial_state(self):
        return DuelState(self)


class DuelState(pyspiel.State):
    def __init__(self, game):
        super().__init__(game)
        self.edge, self.need = game.edge, game.rounds // 2 + 1
        self.efforts = []
        self.score = [0, 0]

    def current_player(self):
        if self.is_terminal():
            return pyspiel.PlayerId.TERMINAL
        if len(self.efforts) == 2:
            return pyspiel.PlayerId.CHANCE
        return len(self.efforts)

    def _legal_actions(self, player):
        return list(range(_EFFORTS))

    def chance_outcomes(self):
        e0, e1 = self.efforts
        p = 1.0 / (1.0 + math.exp(-self.edge * (e0 - e1)))
        return [(0, p), (1, 1.0 - p)]

    def _apply_action(self, action):
        if len(self.efforts) == 2:
            self.score[action] += 1
            self.efforts = []
        else:
            self.efforts.append(action)

    def is_terminal(self):
        return max(self.score) >= self.need

    def returns(self):
        if not self.is_terminal():
            return [0.0, 0.0]
        return [1.0, -1.0] if self.score[0] > self.score[1] else [-1.0, 1.0]

    def _action_to_string(self, player, action):
        return f"effort {action}" if player != pyspiel.PlayerId.CHANCE else f"round to {action}"

    def __str__(self):
        return f"{self.score[0]}-{self.score[1]} {self.efforts}"


pyspiel.register_game(_GAME_TYPE, DuelGame)


class _Effort:
    def __init__(self, level):
        self.level = level

    def step(self, state):
        return self.level


def adapter():
    """Duel through playtune's OpenSpiel adapter: edge and rounds designed, the
    ladder effort 0, 1, 2."""
    from playtune.openspiel import OpenSpielGame

    edges = [0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.8, 1.0, 1.25, 1.5, 2.0, 3.0]
    return OpenSpielGame(
        "python_duel_effort",
        {"edge": {"list": edges, "default": 2.0}, "rounds": {"int": [1, 15], "step": 2, "default": 5}},
        bots={"effort": ("always gives effort `level`", {"level": {"int": [0, 2], "default": 0}},
                         lambda game, seat, settings, rng: _Effort(int(settings["level"])))},
        ladder=["effort(level=0)", "effort(level=1)", "effort(level=2)"],
        name="openspiel-duel",
    )


#: duel as a playtune game, named `examples/duel/duel_openspiel.py:GAME` from any
#: process (``playtune games examples/duel/duel_openspiel.py:GAME``).
GAME = adapter()
