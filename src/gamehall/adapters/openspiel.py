"""OpenSpiel adapter: every gamehall game as an OpenSpiel Python game named ``gamehall_<name>``.

    import pyspiel
    from gamehall.adapters.openspiel import register_all
    register_all()
    game = pyspiel.load_game("gamehall_hau_la", {"players": 3})

What the adapter declares, read from the game contract only (`gamehall.core`):
- parameters: the game's options with their defaults (OpenSpiel params are bool/int/float/str,
  gamehall options bool/int/str, so they map one to one);
- `GameType`: sequential, perfect information, terminal rewards; explicit stochastic chance when
  the game ``has_chance``, deterministic otherwise; zero-sum when ``utility_sum == 0``,
  constant-sum for another constant, general-sum when it is None; min/max players over every
  finite combination of option values (so Hau La is 2–4 through its ``players`` option);
- `GameInfo`: from the `Game` built with the given options;
- observations: `gamehall.adapters.encoding` (the game's own tensor hook if it has one, else a
  generic encoding of the public position ``State.to_json()`` with the observing seat); the
  observation string is that JSON; information-state strings come from OpenSpiel's
  public-information observer (the action history), as for its own perfect-information games;
- serialisation: OpenSpiel stores the action history and the pickled Python state, and the
  adapter pickles an engine state as its ``to_json()`` (rebuilt with ``state_from_json``), so
  ``pyspiel.serialize_game_and_state`` / ``deserialize_game_and_state`` round-trip in constant
  time per state and never depend on Python object layout.

Actions: a player's OpenSpiel action is the engine's action. A chance action is the index of
the outcome in the engine's ``chance_outcomes()`` at that node (OpenSpiel wants chance actions
below ``max_chance_outcomes``, while gamehall puts chance outcomes in the player action space);
`GamehallState.engine_action` translates, and ``state.engine_state.history()`` is the history
in gamehall's own actions (for a `GameRecord`). Chance is drawn by OpenSpiel from
``chance_outcomes()``; the engine state's own generator is not used.
"""

from __future__ import annotations

import itertools
import json
from collections.abc import Callable, Iterator, Mapping
from typing import Any

import numpy as np
import pyspiel
from open_spiel.python.observation import IIGObserverForPublicInfoGame

from gamehall.adapters.encoding import Encoder
from gamehall.core import (
    CHANCE,
    TERMINAL,
    Game,
    GamehallError,
    IllegalActionError,
    Option,
    OptionValue,
    State,
    game_class,
    list_games,
    state_from_json,
)

PREFIX = "gamehall_"
_MAX_OPTION_COMBINATIONS = 4096
_MAX_INT_RANGE = 64

# Registered short name -> gamehall class. The factory looks the class up when OpenSpiel asks
# for a game, so registering again (e.g. a test game redefined) takes effect.
_CLASSES: dict[str, type[Game]] = {}
_TYPES: dict[str, pyspiel.GameType] = {}
_FACTORIES: dict[str, type[GamehallGame]] = {}
_ENCODERS: dict[tuple[type[Game], tuple[tuple[str, OptionValue], ...]], Encoder] = {}


def register_all() -> list[str]:
    """Register every gamehall game with OpenSpiel; return the OpenSpiel names, sorted."""
    return [register(name) for name in list_games()]


def register(name: str) -> str:
    """Register one gamehall game (by registry name) with OpenSpiel; return its OpenSpiel name.

    Registering the same name again only points it at the current class: OpenSpiel keeps the
    first `GameType`, so a class whose facts changed needs a fresh process.
    """
    cls = game_class(name)
    short = PREFIX + cls.name
    known = short in _CLASSES
    _CLASSES[short] = cls
    if not known and short not in pyspiel.registered_names():
        _TYPES[short] = game_type(cls)
        # OpenSpiel's registry needs a class as the factory: a lambda or closure there is
        # released after the interpreter has shut down, which aborts the process at exit.
        factory = type(f"GamehallGame_{cls.name}", (GamehallGame,), {"short_name": short})
        _FACTORIES[short] = factory
        pyspiel.register_game(_TYPES[short], factory)
    return short


def load(name: str, **options: OptionValue) -> GamehallGame:
    """Register `name` if needed and load it with `options`, e.g. ``load("hula", size=5)``."""
    game = pyspiel.load_game(register(name), dict(options))
    assert isinstance(game, GamehallGame)
    return game


# --- game type and info ------------------------------------------------------------------------

def game_type(cls: type[Game]) -> pyspiel.GameType:
    """The truthful OpenSpiel `GameType` of a gamehall game class."""
    low, high = player_range(cls)
    return pyspiel.GameType(
        short_name=PREFIX + cls.name,
        long_name=f"gamehall {cls.title}",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=(pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC if cls.has_chance
                     else pyspiel.GameType.ChanceMode.DETERMINISTIC),
        information=pyspiel.GameType.Information.PERFECT_INFORMATION,
        utility=_utility(cls.utility_sum),
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=high,
        min_num_players=low,
        provides_information_state_string=True,
        provides_information_state_tensor=False,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification={o.name: o.default for o in cls.OPTIONS},
    )


def game_info(game: Game) -> pyspiel.GameInfo:
    """OpenSpiel's `GameInfo` for a gamehall game with its options resolved."""
    return pyspiel.GameInfo(
        num_distinct_actions=game.num_distinct_actions,
        max_chance_outcomes=game.max_chance_outcomes,
        num_players=game.num_players,
        min_utility=float(game.min_utility),
        max_utility=float(game.max_utility),
        utility_sum=None if game.utility_sum is None else float(game.utility_sum),
        max_game_length=game.max_game_length,
    )


def _utility(total: float | None) -> pyspiel.GameType.Utility:
    if total is None:
        return pyspiel.GameType.Utility.GENERAL_SUM
    if total == 0:
        return pyspiel.GameType.Utility.ZERO_SUM
    return pyspiel.GameType.Utility.CONSTANT_SUM


def player_range(cls: type[Game]) -> tuple[int, int]:
    """Fewest and most seats over the game's option combinations (defaults where unbounded)."""
    counts: set[int] = set()
    for options in _option_combinations(cls.OPTIONS):
        try:
            counts.add(cls(**options).num_players)
        except GamehallError:
            continue
    if not counts:
        counts.add(cls().num_players)
    return min(counts), max(counts)


def _option_combinations(spec: tuple[Option, ...]) -> Iterator[dict[str, OptionValue]]:
    values = [_finite_values(o) for o in spec]
    total = 1
    for v in values:
        total *= len(v)
    if total > _MAX_OPTION_COMBINATIONS:
        # Too many: vary only an option called "players" (OpenSpiel's name for the seat count).
        values = [v if o.name == "players" else [o.default] for o, v in zip(spec, values,
                                                                              strict=True)]
    for combo in itertools.product(*values):
        yield {o.name: v for o, v in zip(spec, combo, strict=True)}


def _finite_values(option: Option) -> list[OptionValue]:
    if option.choices is not None:
        return list(option.choices)
    if option.type is bool:
        return [False, True]
    if (option.type is int and option.min is not None and option.max is not None
            and option.max - option.min <= _MAX_INT_RANGE):
        return list(range(option.min, option.max + 1))
    return [option.default]


def encoder(game: Game) -> Encoder:
    """The shared observation encoder of a game with its options (built once)."""
    key = (type(game), tuple(sorted(game.options.items())))
    enc = _ENCODERS.get(key)
    if enc is None:
        enc = _ENCODERS[key] = Encoder(game)
    return enc


# --- the OpenSpiel game and state ----------------------------------------------------------------

class GamehallGame(pyspiel.Game):
    """A gamehall game with fixed options, seen as an OpenSpiel game."""

    short_name: str = ""
    """The OpenSpiel name; set on the per-game subclass that `register` makes."""

    def __init__(self, params: Mapping[str, Any] | None = None) -> None:
        cls = _CLASSES[self.short_name]
        self.engine: Game = cls(**dict(params or {}))
        self._initial_memo: dict[tuple[str, int], Any] = {}
        super().__init__(_TYPES[self.short_name], game_info(self.engine), dict(params or {}))

    def new_initial_state(self) -> GamehallState:
        # Every initial state is the same position, so they share one memo.
        return GamehallState(self, _Held(None, self.engine, self._initial_memo))

    def make_py_observer(self, iig_obs_type: Any = None,
                         params: Mapping[str, Any] | None = None) -> Any:
        """The gamehall observer, or OpenSpiel's history-based one for perfect recall."""
        if iig_obs_type is None or (iig_obs_type.public_info
                                    and not iig_obs_type.perfect_recall):
            return GamehallObserver(encoder(self.engine), params)
        return IIGObserverForPublicInfoGame(iig_obs_type, params)


class GamehallState(pyspiel.State):
    """An OpenSpiel state wrapping a gamehall engine state (kept in `held.state`).

    OpenSpiel asks the same questions of a position many times (the current player dozens of
    times per state in its tests), so answers are memoised per position in `held.memo`.
    """

    def __init__(self, game: GamehallGame, held: _Held) -> None:
        super().__init__(game)
        self.held = held

    @property
    def engine_state(self) -> State:
        """The gamehall state behind this OpenSpiel state (read it; change it only through
        OpenSpiel's `apply_action`, which keeps both histories and the memo in step)."""
        return self.held.state

    def current_player(self) -> int:
        # gamehall's CHANCE (-1) and TERMINAL (-4) are OpenSpiel's player ids.
        memo = self.held.memo
        player = memo.get(_PLAYER)
        if player is None:
            player = memo[_PLAYER] = self.held.state.current_player()
        return int(player)

    def _legal_actions(self, player: int) -> list[int]:
        if player != self.current_player():
            return []
        held = self.held
        if player == CHANCE:
            return list(range(len(self._outcomes())))
        return list(held.memoised(_LEGAL, lambda: list(held.state.legal_actions())))

    def _outcomes(self) -> list[tuple[int, float]]:
        held = self.held
        return list(held.memoised(_OUTCOMES, lambda: list(held.state.chance_outcomes())))

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """OpenSpiel's chance actions: outcome i is the engine's i-th outcome at this node."""
        return [(i, p) for i, (_, p) in enumerate(self._outcomes())]

    def engine_action(self, action: int) -> int:
        """The engine's action for an OpenSpiel action here (they differ only at chance)."""
        if self.current_player() == CHANCE:
            outcomes = self._outcomes()
            if not 0 <= action < len(outcomes):
                raise IllegalActionError(f"chance outcome {action} is not possible here")
            return outcomes[action][0]
        return int(action)

    def _apply_action(self, action: int) -> None:
        self.held.state.apply_action(self.engine_action(int(action)))
        self.held.changed()

    def _action_to_string(self, player: int, action: int) -> str:
        try:
            return self.held.state.action_to_string(self.engine_action(int(action)))
        except Exception:  # noqa: BLE001 - OpenSpiel may ask about an action not legal here
            return f"chance outcome {action}" if player == CHANCE else f"action {action}"

    def is_terminal(self) -> bool:
        return self.current_player() == TERMINAL

    def returns(self) -> list[float]:
        return [float(r) for r in self.held.state.returns()]

    def __str__(self) -> str:
        return self.held.text()


_PLAYER = ("player", -1)
_LEGAL = ("legal", -1)
_OUTCOMES = ("outcomes", -1)


class _Held:
    """Holds the engine state so that OpenSpiel's copy and pickle of the Python state go through
    the engine's own `clone()` and `to_json()` rather than a generic deep copy.

    OpenSpiel clones a Python state by making a fresh initial state and replacing its fields, so
    the initial engine state is made only when first read. `memo` keeps what has been computed
    about the position (player, legal actions, observations); clones share it (OpenSpiel's tests
    and bots observe clones again and again), so do all initial states of a game, and applying an
    action starts a new one.
    """

    __slots__ = ("_game", "memo", "state")

    def __init__(self, state: State | None, game: Game | None = None,
                 memo: dict[tuple[str, int], Any] | None = None) -> None:
        if state is not None:
            self.state = state
        self._game = game
        self.memo: dict[tuple[str, int], Any] = {} if memo is None else memo

    def __getattr__(self, name: str) -> Any:
        # Only reached while the `state` slot is empty: make the initial state on first use.
        if name != "state" or self._game is None:
            raise AttributeError(name)
        self.state = self._game.new_initial_state(0)
        return self.state

    def changed(self) -> None:
        """The position moved on: start a new memo (clones keep the old one)."""
        self.memo = {}

    def memoised(self, key: tuple[str, int], make: Callable[[], Any]) -> Any:
        """`make()` for this position, computed once and shared with the position's clones."""
        value = self.memo.get(key)
        if value is None:
            value = self.memo[key] = make()
        return value

    def data(self) -> Any:
        """The engine state's `to_json()`, once per position."""
        return self.memoised(("data", -1), self.state.to_json)

    def text(self) -> str:
        """The position as compact, key-sorted JSON, once per position."""
        return str(self.memoised(("text", -1), lambda: json.dumps(
            self.data(), sort_keys=True, separators=(",", ":"))))

    def __deepcopy__(self, memo: dict[int, Any]) -> _Held:
        return _Held(self.state.clone(), memo=self.memo)

    def __reduce__(self) -> tuple[Any, tuple[dict[str, Any]]]:
        return (_restore, (self.state.to_json(),))


def _restore(data: dict[str, Any]) -> _Held:
    return _Held(state_from_json(data))


class GamehallObserver:
    """OpenSpiel's PyObserver interface over the shared encoder: `tensor`, `dict`, two setters."""

    def __init__(self, enc: Encoder, params: Mapping[str, Any] | None) -> None:
        if params:
            raise ValueError(f"gamehall observers take no parameters, got {dict(params)}")
        self.encoder = enc
        self.tensor = np.zeros(enc.size, np.float32)
        self.dict = enc.views(self.tensor)

    def set_from(self, state: GamehallState, player: int) -> None:
        held, enc = state.held, self.encoder
        if enc.uses_hook:
            tensor = held.memoised(("tensor", player), lambda: enc.tensor(held.state, player))
            self.tensor[:] = tensor.reshape(-1)
        else:
            position = held.memoised(("position", -1),
                                     lambda: enc.position(held.state, held.data()))
            enc.fill(self.tensor, held.state, player, position=position)

    def string_from(self, state: GamehallState, player: int) -> str:
        return state.held.text()


__all__ = [
    "PREFIX",
    "GamehallGame",
    "GamehallObserver",
    "GamehallState",
    "game_info",
    "game_type",
    "load",
    "player_range",
    "register",
    "register_all",
]
