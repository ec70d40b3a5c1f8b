"""Every ruleset as an OpenSpiel game: `load_game(RULESET, **options)` is a `pyspiel.Game`.

The game is a Python game registered with `pyspiel.register_game`, as OpenSpiel's own Python games
are (`open_spiel/python/games`): its short name is `ziggurat_` and the ruleset's name with `_` for
`-` (`ziggurat_my_game` for `my-game.rules`), and its parameters are the ruleset's options plus `max_game_length`,
so once `load_game` has registered a ruleset, `pyspiel.load_game("ziggurat_my_game(size=4)")`
loads it too. Its states hold Ziggurat states (`progress.Progress`); its actions are the ids of
`actions.ActionSpace` (a move of several ids is several decisions of the same player, or of
nature, whose probabilities are split over them); its observation tensor is
`observations.Observer`'s and its strings are the engine's observation and information state.

Returns are -1 / 1 (0 a draw) for two players, the results (0 to 1) for more, and the points of a
ruleset whose results are points (`win P by K`: a poker game's chips); `payoff` replaces them with
any function of the final state (`load_game(RULESET, payoff=chips, payoff_range=(-2, 2),
zero_sum=True)`). Needs the `openspiel` extra (`pip install
'ziggurat[openspiel]'`).
"""

from __future__ import annotations

from pathlib import Path
from typing import Callable, Optional

import numpy as np

from ..dsl.loader import find
from ..errors import GameError
from ..interpreter.games import load
from . import need
from .actions import ActionSpace
from .observations import Observer
from .progress import MAX_LENGTH, Progress

pyspiel = need("pyspiel", "openspiel", "open-spiel")

_REGISTERED: dict = {}  # short name -> the ruleset's path
POINTS_RANGE = 1e6  # the utility bound stated for results in points when no payoff_range is given


def short_name(ruleset: str) -> str:
    """The name OpenSpiel knows a ruleset by: `ziggurat_` and its file's stem, `-` as `_`."""
    stem = Path(str(find(ruleset))).stem
    return "ziggurat_" + "".join(c if c.isalnum() else "_" for c in stem)


def load_game(ruleset: str, *, payoff: Optional[Callable] = None, payoff_range: Optional[tuple] = None,
              zero_sum: bool = False, max_game_length: int = MAX_LENGTH, **options) -> "pyspiel.Game":
    """The OpenSpiel game of a ruleset (a shipped name or a path) at the given options.

    `payoff(state) -> list of numbers` (one per player, read at the end) replaces the results as
    returns; then `payoff_range` = (min, max) must be given, and `zero_sum` says whether the
    payoffs always sum to 0. A game longer than `max_game_length` ids ends there as a draw.
    GameError for a bad ruleset, option or argument, or a ruleset with no fixed action space."""
    name = register(ruleset)
    params = dict(options, max_game_length=max_game_length)
    if payoff is None:
        if zero_sum or payoff_range is not None and not load(ruleset, params).points:
            raise GameError("payoff_range and zero_sum go with a payoff function (or payoff_range with "
                            "a ruleset whose results are points)")
        if payoff_range is not None:
            return ZigguratGame(_REGISTERED[name], params, payoff_range=tuple(payoff_range))
        return pyspiel.load_game(name, params)
    if payoff_range is None or len(payoff_range) != 2:
        raise GameError("a payoff function needs payoff_range=(min, max)")
    return ZigguratGame(_REGISTERED[name], params, payoff=payoff, payoff_range=tuple(payoff_range),
                        zero_sum=zero_sum)


def register(ruleset: str) -> str:
    """Register a ruleset with OpenSpiel (once) and return its short name."""
    path = str(find(ruleset).resolve())
    name = short_name(ruleset)
    if name in _REGISTERED:
        if _REGISTERED[name] != path:
            raise GameError(f"OpenSpiel already has a game {name} from {_REGISTERED[name]}")
        return name
    game = load(path)
    defaults = {k: v for k, v in game.options.items() if isinstance(v, (bool, int, float, str))}
    defaults["max_game_length"] = MAX_LENGTH
    _REGISTERED[name] = path
    # A class, as OpenSpiel's own Python games register (a closure is still held by pyspiel's
    # registry when Python shuts down, and aborts it).
    factory = type(f"ZigguratGame_{name}", (ZigguratGame,), {"__init__": _registered_init, "ruleset": path})
    pyspiel.register_game(_game_type(game, name, defaults), factory)
    return name


def _game_type(game, name: str, parameters: dict, zero_sum: bool = False):
    n = len(game.players)
    T = pyspiel.GameType
    utility = T.Utility.ZERO_SUM if zero_sum or n == 2 and game.points != "general-sum" else T.Utility.GENERAL_SUM
    return T(
        short_name=name, long_name=f"Ziggurat {game.title}",
        dynamics=T.Dynamics.SEQUENTIAL,
        chance_mode=T.ChanceMode.EXPLICIT_STOCHASTIC if game.has_chance else T.ChanceMode.DETERMINISTIC,
        information=T.Information.IMPERFECT_INFORMATION if game.has_secrets else T.Information.PERFECT_INFORMATION,
        utility=utility, reward_model=T.RewardModel.TERMINAL,
        max_num_players=n, min_num_players=n,
        provides_information_state_string=True, provides_information_state_tensor=False,
        provides_observation_string=True, provides_observation_tensor=True,
        parameter_specification=parameters)


def _registered_init(self, params=None):
    ZigguratGame.__init__(self, type(self).ruleset, params)


class ZigguratGame(pyspiel.Game):
    """A ruleset at one option set, as a pyspiel game."""

    def __init__(self, ruleset: str, params=None, *, payoff=None, payoff_range=None, zero_sum=False):
        params = dict(params or {})
        self.max_length = int(params.pop("max_game_length", MAX_LENGTH))
        if self.max_length < 1:
            raise GameError(f"max_game_length must be 1 or more, not {self.max_length}")
        self.zgame = load(ruleset, params)
        self.space = ActionSpace(self.zgame)
        self.payoff = payoff
        seed = self.zgame.options.get("seed")
        self.seed = None if isinstance(seed, int) else 0  # a random setup is fixed: the seed option, or 0
        n = len(self.zgame.players)
        points = self.zgame.points
        if payoff is not None:
            low, high = payoff_range
            utility_sum = 0.0 if zero_sum else None
        elif points:  # the rules' points are the returns; their range is not known ahead unless given
            low, high = payoff_range or (-POINTS_RANGE, POINTS_RANGE)
            utility_sum = 0.0 if points == "zero-sum" else None
        elif n == 2:
            low, high, utility_sum = -1.0, 1.0, 0.0
        else:
            low, high, utility_sum = 0.0, 1.0, None
        info = pyspiel.GameInfo(
            num_distinct_actions=self.space.num_distinct_actions,
            max_chance_outcomes=self.space.num_distinct_actions if self.zgame.has_chance else 0,
            num_players=n, min_utility=float(low), max_utility=float(high), utility_sum=utility_sum,
            max_game_length=self.max_length)
        name = short_name(ruleset)
        game_type = _game_type(self.zgame, name, {}, zero_sum) if payoff is not None else \
            _game_type(self.zgame, name, {**{k: v for k, v in self.zgame.options.items()
                                             if isinstance(v, (bool, int, float, str))},
                                          "max_game_length": self.max_length})
        super().__init__(game_type, info, {**{k: v for k, v in params.items()}, "max_game_length": self.max_length}
                         if payoff is None else {})

    def new_initial_state(self):
        return ZigguratState(self, Progress(self.space, self.zgame.new(self.seed), seed=self.seed,
                                            payoff=self.payoff, max_length=self.max_length))

    def make_py_observer(self, iig_obs_type=None, params=None):
        if params:
            raise ValueError(f"a Ziggurat observer takes no parameters, not {params}")
        return ZigguratObserver(self, iig_obs_type)


class ZigguratState(pyspiel.State):
    """A Ziggurat state (and the move under way in it) as a pyspiel state."""

    def __init__(self, game, progress: Progress):
        super().__init__(game)
        self.progress = progress

    def current_player(self):
        p = self.progress
        if p.is_terminal():
            return pyspiel.PlayerId.TERMINAL
        if p.is_chance():
            return pyspiel.PlayerId.CHANCE
        return p.mover()

    def _legal_actions(self, player):
        return self.progress.legal_ids()

    def chance_outcomes(self):
        return self.progress.chance_ids()

    def _apply_action(self, action):
        self.progress.apply(int(action))

    def _action_to_string(self, player, action):
        return self.progress.id_text(int(action))

    def is_terminal(self):
        return self.progress.is_terminal()

    def returns(self):
        return self.progress.returns()

    def __str__(self):
        p = self.progress
        return p.state.text() + (f"\nunder way: {p.pending_text()}" if p.prefix else "")


class ZigguratObserver:
    """OpenSpiel's observer protocol (`tensor`, `dict`, `set_from`, `string_from`): the
    observation tensor and string, or with perfect recall the information state string (there is
    no information state tensor)."""

    def __init__(self, game: ZigguratGame, iig_obs_type=None):
        self.perfect_recall = bool(iig_obs_type is not None and iig_obs_type.perfect_recall)
        if iig_obs_type is not None and game.zgame.has_secrets \
                and iig_obs_type.private_info != pyspiel.PrivateInfoType.SINGLE_PLAYER:
            raise ValueError("a Ziggurat game is observed by one player at a time (private info SINGLE_PLAYER)")
        self.observer = Observer(game.zgame)
        self.tensor = np.zeros(0 if self.perfect_recall else self.observer.size, np.float32)
        self.dict = {} if self.perfect_recall else self.observer.views(self.tensor)

    def set_from(self, state, player):
        if not self.perfect_recall:
            self.observer.fill(self.tensor, state.progress, player)

    def string_from(self, state, player):
        p = state.progress
        return p.information_state_string(player) if self.perfect_recall else p.observation_string(player)


__all__ = ["load_game", "register", "short_name", "ZigguratGame", "ZigguratState", "ZigguratObserver"]
