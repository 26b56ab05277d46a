"""`Move`: one entry of a room's record — the action, its notation and its parts as the move
list shows them. Its own module so that the record's shape is read in one place, apart from the
room's rules of play (`rooms.py`), which re-exports it."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from gamehall.core import State


@dataclass(frozen=True)
class Move:
    """One applied action: the seat that played it (None for chance), the integer, the notation
    and its parts (`State.action_parts`, taken in the position it was played in)."""

    seat: int | None
    action: int
    move: str
    parts: dict[str, Any] = field(default_factory=dict, compare=False)
    turn: int = field(default=1, compare=False)
    """The turn this move belongs to (1, 2, ...: `Game.starts_turn`), so move lists show one
    line per turn."""

    @classmethod
    def played(cls, state: State, seat: int | None, action: int,
               previous: Move | None = None) -> Move:
        """The move `action` is in `state`, before it is applied; `previous` is the game's move
        before it (None: this is the first)."""
        turn = 1 if previous is None else previous.turn + int(
            state.game.starts_turn(state, action))
        return cls(seat, action, state.action_to_string(action), state.action_parts(action),
                   turn)

    def to_json(self) -> dict[str, Any]:
        """An entry of the state message's move list: ``{"seat", "move", "turn", **parts}``."""
        return {"seat": self.seat, "move": self.move, "turn": self.turn, **self.parts}
