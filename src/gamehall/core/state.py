"""`State`: one position of a game, and the only way to change it (`apply_action`)."""

from __future__ import annotations

import copy
import random
from abc import ABC, abstractmethod
from typing import TYPE_CHECKING, Any

from gamehall.core.errors import IllegalActionError, NotationError
from gamehall.core.players import CHANCE, TERMINAL

if TYPE_CHECKING:
    from gamehall.core.game import Game


class State(ABC):
    """A position: whose turn, what may be done, and what happened to get here.

    Subclasses implement the abstract methods; `_apply` may assume the action is legal, because
    `apply_action` checks legality first and raises `IllegalActionError` without changing anything.
    """

    def __init__(self, game: Game, seed: int | None = None) -> None:
        self.game = game
        self._history: list[int] = []
        self.rng = random.Random(seed)
        """The state's own generator: chance is drawn from it, server-side only."""

    # --- to implement --------------------------------------------------------------------------
    @abstractmethod
    def current_player(self) -> int:
        """The seat to move, or CHANCE, or TERMINAL."""

    @abstractmethod
    def legal_actions(self) -> list[int]:
        """Sorted, unique legal actions (the outcomes at a chance node; [] when terminal)."""

    @abstractmethod
    def _apply(self, action: int) -> None:
        """Apply a legal action (already checked)."""

    @abstractmethod
    def returns(self) -> list[float]:
        """Each seat's result; all zeros before the end."""

    @abstractmethod
    def action_to_string(self, action: int) -> str:
        """The action in the game's notation, as seen from this state."""

    @abstractmethod
    def to_json(self) -> dict[str, Any]:
        """The whole public position as JSON-ready data (with "game" and "options" keys)."""

    def action_parts(self, action: int) -> dict[str, Any]:
        """The legal `action` taken apart for clients, so that a board never parses notation:
        ``{"kind": "move", "from": "c3", "to": "c5"}``. Flat, JSON scalars only, and only what
        the notation says or the position shows everyone (docs/protocol.md lists the shared
        names). The default names no parts: a client then has only the notation."""
        return {}

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """(action, probability) pairs at a chance node, sorted by action; [] elsewhere."""
        return []

    def view(self, seat: int | None) -> dict[str, Any]:
        """What `seat` may see (None: a spectator), as JSON-ready data."""
        return self.to_json()

    def outcome_text(self) -> str:
        """One line saying how the game ended, for people."""
        names = self.game.seat_names
        r = self.returns()
        best = max(r)
        winners = [names[i] for i, v in enumerate(r) if v == best]
        if len(winners) == len(names):
            return "draw"
        return f"{' and '.join(winners)} win{'s' if len(winners) == 1 else ''}"

    # --- shared behaviour ----------------------------------------------------------------------
    def apply_action(self, action: int) -> None:
        """Apply `action`, or raise IllegalActionError and leave the state as it was."""
        if not self.is_legal(action):
            raise IllegalActionError(self.explain_illegal(action))
        self._apply(action)
        self._history.append(action)

    def is_legal(self, action: int) -> bool:
        return isinstance(action, int) and action in self.legal_actions()

    def explain_illegal(self, action: object) -> str:
        """Why `action` cannot be played now, in words."""
        if self.is_terminal():
            return "the game is over"
        if not isinstance(action, int) or isinstance(action, bool):
            return f"an action is a whole number, not {action!r}"
        return f"action {action} is not legal here"

    def string_to_action(self, text: str) -> int:
        """Read a move in the game's notation (case and spaces ignored); NotationError if none."""
        wanted = normalise_notation(text)
        if not wanted:
            raise NotationError("type a move")
        if self.is_terminal():
            raise NotationError("the game is over")
        for action in self.legal_actions():
            if normalise_notation(self.action_to_string(action)) == wanted:
                return action
        raise NotationError(f"{text.strip()} is not a legal move here")

    def is_terminal(self) -> bool:
        return self.current_player() == TERMINAL

    def is_chance_node(self) -> bool:
        return self.current_player() == CHANCE

    def history(self) -> list[int]:
        """Every action applied since the initial state, chance outcomes included."""
        return list(self._history)

    def sample_chance(self, rng: random.Random | None = None) -> int:
        """Draw a chance outcome with its probability, from `rng` or the state's own generator."""
        outcomes = self.chance_outcomes()
        if not outcomes:
            raise IllegalActionError("this is not a chance node")
        actions = [a for a, _ in outcomes]
        weights = [p for _, p in outcomes]
        return (rng or self.rng).choices(actions, weights=weights)[0]

    def clone(self) -> State:
        """An independent copy (override with something faster where it matters)."""
        return copy.deepcopy(self)

    def __eq__(self, other: object) -> bool:
        return (
            isinstance(other, State)
            and self.game == other.game
            and self.to_json() == other.to_json()
        )

    __hash__ = None  # type: ignore[assignment]  # states are mutable

    def __str__(self) -> str:
        return self.game.render_text(self, None)


def normalise_notation(text: str) -> str:
    """Notation is case-insensitive and ignores white space."""
    return "".join(text.split()).lower()
