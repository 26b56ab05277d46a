"""Small games that exercise the search: tic-tac-toe (2 players, draws), a race for 2–4 players,
Pig (dice as chance nodes, turns of several rolls) and multi-step Nim (a turn is several takes,
then "stop"). Registered only inside the AI tests (see ``conftest.py``).
"""

from __future__ import annotations

import copy
import random
from collections.abc import Mapping
from typing import Any, ClassVar, cast

from gamehall.core import CHANCE, TERMINAL, Game, Option, State, StateFormatError


class _Toy(Game):
    """Shared JSON plumbing: states hold a plain dict of fields."""

    FIELDS: ClassVar[tuple[str, ...]] = ()

    def state_from_json(self, data: Mapping[str, Any]) -> State:
        self.check_json_header(data)
        state = self.new_initial_state()
        try:
            for key in self.FIELDS:
                value = data[key]
                setattr(state, key, list(value) if isinstance(value, list) else value)
        except KeyError as exc:
            raise StateFormatError(f"missing {exc}") from exc
        return state


class _ToyState(State):
    def clone(self) -> State:
        new = copy.copy(self)
        new._history = list(self._history)
        new.rng = random.Random()
        new.rng.setstate(self.rng.getstate())
        for key in self.game.FIELDS:  # type: ignore[attr-defined]
            value = getattr(self, key)
            if isinstance(value, list):
                setattr(new, key, list(value))
        return new

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"game": self.game.name, "options": dict(self.game.options)}
        for key in self.game.FIELDS:  # type: ignore[attr-defined]
            value = getattr(self, key)
            out[key] = list(value) if isinstance(value, list) else value
        return out


# --- tic-tac-toe ------------------------------------------------------------------------------
LINES = [(0, 1, 2), (3, 4, 5), (6, 7, 8), (0, 3, 6), (1, 4, 7), (2, 5, 8), (0, 4, 8), (2, 4, 6)]


class TicTacToe(_Toy):
    name = "t_tictactoe"
    title = "Tic-tac-toe"
    FIELDS = ("board", "to_move")

    @property
    def seat_names(self) -> tuple[str, ...]:
        return ("x", "o")

    @property
    def num_distinct_actions(self) -> int:
        return 9

    @property
    def max_game_length(self) -> int:
        return 9

    def new_initial_state(self, seed: int | None = None) -> State:
        return TicTacToeState(self, seed)


class TicTacToeState(_ToyState):
    def __init__(self, game: Game, seed: int | None = None) -> None:
        super().__init__(game, seed)
        self.board = "." * 9
        self.to_move = 0

    def winner(self) -> int | None:
        for a, b, c in LINES:
            if self.board[a] != "." and self.board[a] == self.board[b] == self.board[c]:
                return "xo".index(self.board[a])
        return None

    def current_player(self) -> int:
        if self.winner() is not None or "." not in self.board:
            return TERMINAL
        return self.to_move

    def legal_actions(self) -> list[int]:
        if self.current_player() == TERMINAL:
            return []
        return [i for i, c in enumerate(self.board) if c == "."]

    def _apply(self, action: int) -> None:
        self.board = self.board[:action] + "xo"[self.to_move] + self.board[action + 1:]
        self.to_move = 1 - self.to_move

    def returns(self) -> list[float]:
        w = self.winner()
        return [0.0, 0.0] if w is None else [1.0 if w == 0 else -1.0, 1.0 if w == 1 else -1.0]

    def action_to_string(self, action: int) -> str:
        return "abc"[action % 3] + str(action // 3 + 1)


class FastTicTacToe(TicTacToe):
    """Tic-tac-toe whose states offer the engine fast path ``random_playout(rng)``."""

    name = "t_tictactoe_fast"
    playouts = 0

    def new_initial_state(self, seed: int | None = None) -> State:
        return FastTicTacToeState(self, seed)


class FastTicTacToeState(TicTacToeState):
    def random_playout(self, rng: random.Random) -> int:
        FastTicTacToe.playouts += 1
        moves = 0
        while self.current_player() != TERMINAL:
            self.apply_action(rng.choice(self.legal_actions()))
            moves += 1
        return moves


# --- race to a target, 2-4 players --------------------------------------------------------------
class Race(_Toy):
    """Players in turn add 1 or 2 to a running total; who reaches the target wins."""

    name = "t_race"
    title = "Race"
    OPTIONS = (Option("players", int, 3, min=2, max=4), Option("target", int, 10, min=2, max=50))
    FIELDS = ("total", "to_move")
    min_utility = 0.0
    max_utility = 1.0
    utility_sum = 1.0

    @property
    def seat_names(self) -> tuple[str, ...]:
        return tuple(f"p{i + 1}" for i in range(int(self.options["players"])))

    @property
    def num_distinct_actions(self) -> int:
        return 3

    @property
    def max_game_length(self) -> int:
        return int(self.options["target"])

    def new_initial_state(self, seed: int | None = None) -> State:
        return RaceState(self, seed)


class RaceState(_ToyState):
    def __init__(self, game: Game, seed: int | None = None) -> None:
        super().__init__(game, seed)
        self.total = 0
        self.to_move = 0

    @property
    def target(self) -> int:
        return int(self.game.options["target"])

    def current_player(self) -> int:
        return TERMINAL if self.total >= self.target else self.to_move

    def legal_actions(self) -> list[int]:
        if self.total >= self.target:
            return []
        return [a for a in (1, 2) if self.total + a <= self.target]

    def _apply(self, action: int) -> None:
        self.total += action
        if self.total < self.target:
            self.to_move = (self.to_move + 1) % self.game.num_players

    def returns(self) -> list[float]:
        out = [0.0] * self.game.num_players
        if self.total >= self.target:
            out[self.to_move] = 1.0
        return out

    def action_to_string(self, action: int) -> str:
        return f"+{action}"


# --- Pig: dice and turns of several actions ---------------------------------------------------
HOLD, ROLL = 0, 1
FACE = 2  # chance actions 2..7 are the faces 1..6


class Pig(_Toy):
    """Roll a die as often as you like; a 1 loses the turn's points; hold to bank them."""

    name = "t_pig"
    title = "Pig"
    has_chance = True
    OPTIONS = (Option("target", int, 15, min=5, max=100), Option("limit", int, 200, min=10),
               Option("loaded", bool, False, doc="a 1 comes up half the time"))
    FIELDS = ("scores", "turn_total", "to_move", "rolling", "moves")

    @property
    def seat_names(self) -> tuple[str, ...]:
        return ("first", "second")

    @property
    def num_distinct_actions(self) -> int:
        return FACE + 6

    @property
    def max_game_length(self) -> int:
        return int(self.options["limit"])

    @property
    def max_chance_outcomes(self) -> int:
        return 6

    def new_initial_state(self, seed: int | None = None) -> State:
        return PigState(self, seed)


class PigState(_ToyState):
    def __init__(self, game: Game, seed: int | None = None) -> None:
        super().__init__(game, seed)
        self.scores = [0, 0]
        self.turn_total = 0
        self.to_move = 0
        self.rolling = False
        self.moves = 0

    def _over(self) -> bool:
        return (max(self.scores) >= int(self.game.options["target"])
                or self.moves >= int(self.game.options["limit"]))

    def current_player(self) -> int:
        if self._over():
            return TERMINAL
        return CHANCE if self.rolling else self.to_move

    def legal_actions(self) -> list[int]:
        player = self.current_player()
        if player == TERMINAL:
            return []
        if player == CHANCE:
            return list(range(FACE, FACE + 6))
        return [HOLD, ROLL] if self.turn_total > 0 else [ROLL]

    def chance_outcomes(self) -> list[tuple[int, float]]:
        if self.current_player() != CHANCE:
            return []
        if self.game.options["loaded"]:
            return [(FACE, 0.5)] + [(a, 0.1) for a in range(FACE + 1, FACE + 6)]
        return [(a, 1 / 6) for a in range(FACE, FACE + 6)]

    def _apply(self, action: int) -> None:
        self.moves += 1
        if action == ROLL:
            self.rolling = True
        elif action == HOLD:
            self.scores[self.to_move] += self.turn_total
            self._next()
        else:
            self.rolling = False
            face = action - FACE + 1
            if face == 1:
                self._next()
            else:
                self.turn_total += face

    def _next(self) -> None:
        self.turn_total = 0
        self.to_move = 1 - self.to_move

    def returns(self) -> list[float]:
        if not self._over() or self.scores[0] == self.scores[1]:
            return [0.0, 0.0]
        return [1.0, -1.0] if self.scores[0] > self.scores[1] else [-1.0, 1.0]

    def action_to_string(self, action: int) -> str:
        return {HOLD: "hold", ROLL: "roll"}.get(action, f"die{action - FACE + 1}")


# --- multi-step Nim: take stones one at a time, then stop --------------------------------------
TAKE, STOP = 0, 1


class StepNim(_Toy):
    """A turn takes 1-3 stones one action at a time, then "stop"; who takes the last stone wins."""

    name = "t_nim"
    title = "Step Nim"
    OPTIONS = (Option("heap", int, 9, min=1, max=40),)
    FIELDS = ("heap", "taken", "to_move")

    @property
    def seat_names(self) -> tuple[str, ...]:
        return ("first", "second")

    @property
    def num_distinct_actions(self) -> int:
        return 2

    @property
    def max_game_length(self) -> int:
        return 2 * int(self.options["heap"])

    def new_initial_state(self, seed: int | None = None) -> State:
        return StepNimState(self, seed)

    def starts_turn(self, state: State, action: int) -> bool:
        """A turn is the takes and the stop of one seat: it starts where nothing is taken yet."""
        return cast(StepNimState, state).taken == 0


class StepNimState(_ToyState):
    def __init__(self, game: Game, seed: int | None = None) -> None:
        super().__init__(game, seed)
        self.heap = int(game.options["heap"])
        self.taken = 0
        self.to_move = 0

    def current_player(self) -> int:
        return TERMINAL if self.heap == 0 else self.to_move

    def legal_actions(self) -> list[int]:
        if self.heap == 0:
            return []
        out = [TAKE] if self.taken < 3 else []
        return out + ([STOP] if self.taken > 0 else [])

    def _apply(self, action: int) -> None:
        if action == TAKE:
            self.heap -= 1
            self.taken += 1
        else:
            self.taken = 0
            self.to_move = 1 - self.to_move

    def returns(self) -> list[float]:
        if self.heap:
            return [0.0, 0.0]
        return [1.0, -1.0] if self.to_move == 0 else [-1.0, 1.0]

    def action_to_string(self, action: int) -> str:
        return "take" if action == TAKE else "stop"


TOY_GAMES: list[type[Game]] = [TicTacToe, FastTicTacToe, Race, Pig, StepNim]
