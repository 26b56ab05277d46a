"""Four small games written against the contract, to test the adapters on every kind of game.

- ``toy_nim``: deterministic, 2 players, zero-sum, provides its own observation tensor;
- ``toy_pig``: chance nodes (a die), multi-step turns, an unbounded int option;
- ``toy_claim``: 2–4 players through a ``players`` option, constant-sum (winners share 1);
- ``toy_pairs``: two actions per turn, general-sum, a string option with choices.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

import numpy as np

from gamehall.core import CHANCE, TERMINAL, Game, Option, State, StateFormatError


class _ToyState(State):
    """Shared plumbing: every field of a toy state is JSON-ready and listed in FIELDS."""

    FIELDS: ClassVar[tuple[str, ...]] = ()

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {"game": self.game.name, "options": dict(self.game.options)}
        for name in self.FIELDS:
            value = getattr(self, name)
            data[name] = list(value) if isinstance(value, list) else value
        return data

    def load(self, data: Mapping[str, Any]) -> _ToyState:
        self.game.check_json_header(data)
        try:
            for name in self.FIELDS:
                value = data[name]
                setattr(self, name, list(value) if isinstance(value, list) else value)
        except KeyError as exc:
            raise StateFormatError(f"missing {exc}") from exc
        return self

    def clone(self) -> _ToyState:
        other = type(self).__new__(type(self))
        other.__dict__.update(self.__dict__)
        for name in self.FIELDS:
            value = getattr(self, name)
            if isinstance(value, list):
                setattr(other, name, list(value))
        other._history = list(self._history)
        other.rng = self.rng.__class__()
        other.rng.setstate(self.rng.getstate())
        return other


def _two_player_returns(winner: int | None, over: bool) -> list[float]:
    if not over or winner is None:
        return [0.0, 0.0]
    return [1.0 if s == winner else -1.0 for s in (0, 1)]


# --- toy_nim -------------------------------------------------------------------------------------

class NimState(_ToyState):
    FIELDS = ("pile", "to_move", "winner")

    def __init__(self, game: Nim, seed: int | None = None) -> None:
        super().__init__(game, seed)
        self.pile: int = int(game.options["stones"])
        self.to_move = 0
        self.winner: int | None = None

    def current_player(self) -> int:
        return TERMINAL if self.winner is not None else self.to_move

    def legal_actions(self) -> list[int]:
        if self.winner is not None:
            return []
        return list(range(min(int(self.game.options["take"]), self.pile)))

    def _apply(self, action: int) -> None:
        self.pile -= action + 1
        if self.pile == 0:
            self.winner = self.to_move
        else:
            self.to_move = 1 - self.to_move

    def returns(self) -> list[float]:
        return _two_player_returns(self.winner, self.winner is not None)

    def action_to_string(self, action: int) -> str:
        return f"take{action + 1}"

    def observation_tensor(self, seat: int) -> np.ndarray:
        out = np.zeros(self.game.observation_shape, np.float32)  # type: ignore[attr-defined]
        out[0, self.pile] = 1.0
        out[1, 0] = float(self.to_move == seat and self.winner is None)
        return out


class Nim(Game):
    name = "toy_nim"
    title = "Toy Nim"
    OPTIONS = (Option("stones", int, 12, "stones in the pile", min=3, max=40),
               Option("take", int, 3, "most stones one move takes", min=1, max=5))

    @property
    def seat_names(self) -> tuple[str, ...]:
        return ("first", "second")

    @property
    def num_distinct_actions(self) -> int:
        return int(self.options["take"])

    @property
    def max_game_length(self) -> int:
        return int(self.options["stones"])

    @property
    def observation_shape(self) -> tuple[int, ...]:
        return (2, int(self.options["stones"]) + 1)

    def new_initial_state(self, seed: int | None = None) -> NimState:
        return NimState(self, seed)

    def state_from_json(self, data: Mapping[str, Any]) -> State:
        return NimState(self).load(data)


# --- toy_pig -------------------------------------------------------------------------------------

ROLL, HOLD, FACE = 0, 1, 2  # FACE + k - 1 is the die showing k


class PigState(_ToyState):
    FIELDS = ("scores", "turn_total", "to_move", "turns", "rolling", "over")

    def __init__(self, game: Pig, seed: int | None = None) -> None:
        super().__init__(game, seed)
        self.scores = [0, 0]
        self.turn_total = 0
        self.to_move = 0
        self.turns = 0
        self.rolling = False
        self.over = False

    def current_player(self) -> int:
        if self.over:
            return TERMINAL
        return CHANCE if self.rolling else self.to_move

    def legal_actions(self) -> list[int]:
        if self.over:
            return []
        return list(range(FACE, FACE + 6)) if self.rolling else [ROLL, HOLD]

    def chance_outcomes(self) -> list[tuple[int, float]]:
        return [(FACE + k, 1 / 6) for k in range(6)] if self.rolling and not self.over else []

    def _apply(self, action: int) -> None:
        if action == ROLL:
            self.rolling = True
            return
        if action == HOLD:
            self._end_turn()
            return
        self.rolling = False
        face = action - FACE + 1
        if face == 1:
            self.turn_total = 0
            self._end_turn()
            return
        self.turn_total += face
        if self.scores[self.to_move] + self.turn_total >= int(self.game.options["target"]):
            self.scores[self.to_move] += self.turn_total
            self.over = True

    def _end_turn(self) -> None:
        self.scores[self.to_move] += self.turn_total
        self.turn_total = 0
        self.turns += 1
        if self.turns >= int(self.game.options["turn_limit"]):
            self.over = True
        else:
            self.to_move = 1 - self.to_move

    def returns(self) -> list[float]:
        if not self.over or self.scores[0] == self.scores[1]:
            return [0.0, 0.0]
        return _two_player_returns(0 if self.scores[0] > self.scores[1] else 1, True)

    def action_to_string(self, action: int) -> str:
        if action == ROLL:
            return "roll"
        if action == HOLD:
            return "hold"
        return f"die{action - FACE + 1}"


class Pig(Game):
    name = "toy_pig"
    title = "Toy Pig"
    has_chance = True
    OPTIONS = (Option("target", int, 20, "score that wins at once", min=6, max=100),
               Option("turn_limit", int, 30, "turns before the higher score wins", min=2))

    @property
    def seat_names(self) -> tuple[str, ...]:
        return ("first", "second")

    @property
    def num_distinct_actions(self) -> int:
        return FACE + 6

    @property
    def max_chance_outcomes(self) -> int:
        return 6

    @property
    def max_game_length(self) -> int:
        rolls = int(self.options["target"]) // 2 + 2
        return int(self.options["turn_limit"]) * (2 * rolls + 1)

    def new_initial_state(self, seed: int | None = None) -> PigState:
        return PigState(self, seed)

    def state_from_json(self, data: Mapping[str, Any]) -> State:
        return PigState(self).load(data)


# --- toy_claim -----------------------------------------------------------------------------------

class ClaimState(_ToyState):
    FIELDS = ("owner", "to_move")

    def __init__(self, game: Claim, seed: int | None = None) -> None:
        super().__init__(game, seed)
        self.owner: list[int | None] = [None] * int(game.options["cells"])
        self.to_move = 0

    def current_player(self) -> int:
        return TERMINAL if None not in self.owner else self.to_move

    def legal_actions(self) -> list[int]:
        return [i for i, o in enumerate(self.owner) if o is None]

    def _apply(self, action: int) -> None:
        self.owner[action] = self.to_move
        self.to_move = (self.to_move + 1) % self.game.num_players

    def returns(self) -> list[float]:
        n = self.game.num_players
        if None in self.owner:
            return [0.0] * n
        scores = [0] * n
        for i, o in enumerate(self.owner):
            scores[o] += i % 3 + 1  # type: ignore[index]
        best = max(scores)
        winners = scores.count(best)
        return [1.0 / winners if s == best else 0.0 for s in scores]

    def action_to_string(self, action: int) -> str:
        return f"c{action}"


class Claim(Game):
    name = "toy_claim"
    title = "Toy Claim"
    OPTIONS = (Option("players", int, 3, "number of players", min=2, max=4),
               Option("cells", int, 9, "cells to claim", min=4, max=20))
    min_utility = 0.0
    max_utility = 1.0
    utility_sum = 1.0

    @property
    def seat_names(self) -> tuple[str, ...]:
        return ("red", "green", "blue", "yellow")[: int(self.options["players"])]

    @property
    def num_distinct_actions(self) -> int:
        return int(self.options["cells"])

    @property
    def max_game_length(self) -> int:
        return int(self.options["cells"])

    def new_initial_state(self, seed: int | None = None) -> ClaimState:
        return ClaimState(self, seed)

    def state_from_json(self, data: Mapping[str, Any]) -> State:
        return ClaimState(self).load(data)


# --- toy_pairs -----------------------------------------------------------------------------------

DIGITS = 5


class PairsState(_ToyState):
    FIELDS = ("scores", "to_move", "first_digit", "turns")

    def __init__(self, game: Pairs, seed: int | None = None) -> None:
        super().__init__(game, seed)
        self.scores = [0, 0]
        self.to_move = 0
        self.first_digit: int | None = None
        self.turns = 0

    def _over(self) -> bool:
        return self.turns >= 2 * int(self.game.options["rounds"])

    def current_player(self) -> int:
        return TERMINAL if self._over() else self.to_move

    def legal_actions(self) -> list[int]:
        if self._over():
            return []
        return [d for d in range(DIGITS) if d != self.first_digit]

    def _apply(self, action: int) -> None:
        if self.first_digit is None:
            self.first_digit = action
            return
        pair = (self.first_digit, action)
        self.scores[self.to_move] += sum(pair) if self.game.options["scoring"] == "sum" else max(
            pair)
        self.first_digit = None
        self.turns += 1
        self.to_move = 1 - self.to_move

    def returns(self) -> list[float]:
        if not self._over():
            return [0.0, 0.0]
        best = (2 * DIGITS - 3 if self.game.options["scoring"] == "sum" else DIGITS - 1)
        most = best * int(self.game.options["rounds"])
        return [s / most for s in self.scores]

    def action_to_string(self, action: int) -> str:
        return f"{'then' if self.first_digit is not None else 'pick'}{action}"


class Pairs(Game):
    name = "toy_pairs"
    title = "Toy Pairs"
    OPTIONS = (Option("rounds", int, 4, "turns per player", min=1, max=10),
               Option("scoring", str, "sum", "what a pair scores", choices=("sum", "max")))
    min_utility = 0.0
    max_utility = 1.0
    utility_sum = None

    @property
    def seat_names(self) -> tuple[str, ...]:
        return ("first", "second")

    @property
    def num_distinct_actions(self) -> int:
        return DIGITS

    @property
    def max_game_length(self) -> int:
        return 4 * int(self.options["rounds"])

    def new_initial_state(self, seed: int | None = None) -> PairsState:
        return PairsState(self, seed)

    def state_from_json(self, data: Mapping[str, Any]) -> State:
        return PairsState(self).load(data)


TOYS: tuple[type[Game], ...] = (Nim, Pig, Claim, Pairs)


class LyingNim(Nim):
    """Nim that under-states its game length: OpenSpiel's checks must catch it through the
    adapter (used to test that failures are reported, never registered with the real toys)."""

    name = "toy_lying_nim"

    @property
    def max_game_length(self) -> int:
        return 2
