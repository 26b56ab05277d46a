"""A tiny game for testing core machinery without a real game: race to a target with a die.

Two seats take turns: `roll` (then a chance node: 1..3) adds to the mover's total, or `stop`
ends the game; the higher total wins, reaching `target` wins at once.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

from gamehall.core import CHANCE, TERMINAL, Game, Option, State, StateFormatError

ROLL, STOP = 0, 1
DIE = (2, 3, 4)  # chance actions 2..4 add 1..3


class ToyGame(Game):
    name: ClassVar[str] = "toy"
    title: ClassVar[str] = "Toy race"
    OPTIONS = (Option("target", int, 5, "total that wins at once", min=2, max=20),)
    has_chance = True

    @property
    def seat_names(self) -> tuple[str, ...]:
        return ("a", "b")

    @property
    def num_distinct_actions(self) -> int:
        return 5

    @property
    def max_game_length(self) -> int:
        return 4 * int(self.options["target"]) + 2

    @property
    def max_chance_outcomes(self) -> int:
        return 3

    def new_initial_state(self, seed: int | None = None) -> ToyState:
        return ToyState(self, seed)

    def state_from_json(self, data: Mapping[str, Any]) -> ToyState:
        self.check_json_header(data)
        state = ToyState(self)
        try:
            state.totals = [int(x) for x in data["totals"]]
            state.to_move = int(data["to_move"])
            state.rolling = bool(data["rolling"])
            state.stopped = bool(data["stopped"])
        except (KeyError, TypeError, ValueError) as exc:
            raise StateFormatError(f"bad toy state: {exc}") from exc
        return state


class ToyState(State):
    def __init__(self, game: ToyGame, seed: int | None = None) -> None:
        super().__init__(game, seed)
        self.totals = [0, 0]
        self.to_move = 0
        self.rolling = False
        self.stopped = False

    def _over(self) -> bool:
        return self.stopped or max(self.totals) >= int(self.game.options["target"])

    def current_player(self) -> int:
        if self._over():
            return TERMINAL
        return CHANCE if self.rolling else self.to_move

    def legal_actions(self) -> list[int]:
        if self._over():
            return []
        return list(DIE) if self.rolling else [ROLL, STOP]

    def chance_outcomes(self) -> list[tuple[int, float]]:
        return [(a, 1 / 3) for a in DIE] if self.rolling and not self._over() else []

    def _apply(self, action: int) -> None:
        if self.rolling:
            self.totals[self.to_move] += action - 1
            self.rolling = False
            self.to_move = 1 - self.to_move
        elif action == ROLL:
            self.rolling = True
        else:
            self.stopped = True

    def returns(self) -> list[float]:
        if not self._over() or self.totals[0] == self.totals[1]:
            return [0.0, 0.0]
        return [1.0, -1.0] if self.totals[0] > self.totals[1] else [-1.0, 1.0]

    def action_to_string(self, action: int) -> str:
        if action in DIE:
            return f"+{action - 1}"
        return "roll" if action == ROLL else "stop"

    def to_json(self) -> dict[str, Any]:
        return {"game": "toy", "options": dict(self.game.options), "totals": list(self.totals),
                "to_move": self.to_move, "rolling": self.rolling, "stopped": self.stopped}
