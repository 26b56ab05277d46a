"""`State`: one position of a game, and the only way to change it (`apply_action`)."""

from __future__ import annotations

import copy
import random
from abc import ABC, abstractmethod
from typing import TYPE_CHECKING, Any, TypeVar

from gamehall.core.errors import IllegalActionError, NotationError
from gamehall.core.players import CHANCE, TERMINAL

if TYPE_CHECKING:
    from gamehall.core.game import Game
    from gamehall.core.messages import Message


S = TypeVar("S", bound="State")


class State(ABC):
    """A position: whose turn, what may be done, and what happened to get here.

    Subclasses implement the abstract methods; `_apply` may assume the action is legal, because
    `apply_action` checks it first (an `int`, not a bool, that `_is_legal` accepts) and raises
    `IllegalActionError` without changing anything. The JSON form, the views, the outcome line
    and the reasons for refusals come from the game (`Game.state_to_json` and its neighbours),
    so the rules module of a game never imports its presentation.
    """

    def __init__(self, game: Game, seed: int | None = None) -> None:
        self.game = game
        self._history: list[int] = []
        self._seed = seed
        self._rng: random.Random | None = None
        self._notation_cache: tuple[int, tuple[tuple[int, str], ...], dict[str, int]] | None = None
        """(history length, (action, notation) pairs, normalised notation -> action) of the
        position it was made for."""

    @property
    def rng(self) -> random.Random:
        """The state's own generator, seeded with the state's seed: chance is drawn from it,
        server-side only. Made on first use (most states never draw: bots' scratch copies)."""
        rng = self._rng
        if rng is None:
            rng = self._rng = random.Random(self._seed)
        return rng

    @rng.setter
    def rng(self, value: random.Random) -> None:
        self._rng = value

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

    def _is_legal(self, action: int) -> bool:
        """Whether the int `action` is legal now (override with a faster test where it helps)."""
        return action in self.legal_actions()

    def seat_colours(self) -> tuple[str, ...]:
        """Each seat's colour at this position, as the board draws it (CSS ``#rrggbb``): the
        game's by seat name (`Game.colour_of_seat`). A game whose seats change colours in play
        (Hula's swap, Haugaz's side choice, Halali!'s second game of a match) overrides it, so
        a review's graph of a swapped game colours each seat as its stones were."""
        return tuple(self.game.colour_of_seat(name, i)
                     for i, name in enumerate(self.game.seat_names))

    def action_parts(self, action: int) -> dict[str, Any]:
        """The legal `action` taken apart for clients, so that a board never parses notation:
        ``{"kind": "move", "from": "c3", "to": "c5"}``. Flat, JSON scalars only, and only what
        the notation says or the position shows everyone (docs/protocol.md lists the shared
        names). The default names no parts: a client then has only the notation."""
        return {}

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """(action, probability) pairs at a chance node, sorted by action; [] elsewhere."""
        return []

    # --- what the game package presents (see `Game`) ------------------------------------------
    def to_json(self) -> dict[str, Any]:
        """The whole public position as JSON-ready data (with "game" and "options" keys)."""
        return self.game.state_to_json(self)

    def view(self, seat: int | None) -> dict[str, Any]:
        """What `seat` may see (None: a spectator), as JSON-ready data."""
        return self.game.state_view(self, seat)

    def outcome_message(self) -> Message:
        """How the game ended, as a sentence with a key (each client says it in its language)."""
        return self.game.outcome_message(self)

    def outcome_text(self) -> str:
        """One line saying how the game ended, in English (`outcome_message`'s text)."""
        return self.game.outcome_text(self)

    # --- shared behaviour ----------------------------------------------------------------------
    def apply_action(self, action: int) -> None:
        """Apply `action`, or raise IllegalActionError and leave the state as it was."""
        if type(action) is not int:
            if isinstance(action, bool) or not isinstance(action, int):
                raise IllegalActionError(self.illegal_reason(action))
            action = int(action)
        if not self._is_legal(action):
            raise IllegalActionError(self.illegal_reason(action))
        self._apply(action)
        self._history.append(action)

    def is_legal(self, action: object) -> bool:
        """True when `action` may be applied now: an int (a bool is none) that is legal here."""
        if type(action) is not int:
            if isinstance(action, bool) or not isinstance(action, int):
                return False
            action = int(action)
        return self._is_legal(action)

    def explain_illegal(self, action: object) -> str:
        """Why `action` cannot be played now, in English words (`illegal_reason`'s text)."""
        return str(self.illegal_reason(action))

    def illegal_reason(self, action: object) -> Message | str:
        """Why `action` cannot be played now: the game's reason once it is an action number in
        range (`Game.explain_illegal`, a `Message` the hall can say in any language), else a
        plain English line."""
        if self.is_terminal():
            return "the game is over"
        if isinstance(action, bool) or not isinstance(action, int):
            return f"an action is a whole number, not {action!r}"
        if not 0 <= action < self.game.num_distinct_actions:
            return f"there is no action {action}"
        return self.game.explain_illegal(self, int(action))

    def string_to_action(self, text: str) -> int:
        """Read a move in the game's notation (case and spaces ignored); NotationError if none.

        The notation of every legal action is looked up (`notation_index`); anything else goes
        to `Game.read_move`, which accepts other spellings or says why the move is refused.
        """
        wanted = normalise_notation(text)
        if not wanted:
            raise NotationError("type a move")
        if self.is_terminal():
            raise NotationError("the game is over")
        found = self.notation_index().get(wanted)
        if found is not None:
            return found
        return self.game.read_move(self, text)

    def legal_notation(self) -> tuple[tuple[int, str], ...]:
        """Every legal action with its notation, in `legal_actions` order; made once per
        position and shared by what reads it (the hall's legal-move list, move lookup, views).

        Cached with the history's length as key (every applied action changes it); a clone made
        by `_clone_base` shares the cache, which is immutable, until either side moves on."""
        return self._notations()[1]

    def notation_index(self) -> dict[str, int]:
        """Every legal action by its normalised notation (the cache of `legal_notation`)."""
        return self._notations()[2]

    def _notations(self) -> tuple[int, tuple[tuple[int, str], ...], dict[str, int]]:
        key = len(self._history)
        cached = self._notation_cache
        if cached is None or cached[0] != key:
            pairs = tuple((a, self.action_to_string(a)) for a in self.legal_actions())
            index = {normalise_notation(text): a for a, text in pairs}
            cached = self._notation_cache = (key, pairs, index)
        return cached

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
        """An independent copy (games override it with `_clone_base` and their own lists)."""
        return copy.deepcopy(self)

    def _clone_base(self: S) -> S:
        """The start of a fast `clone`: a new state sharing every attribute, but with its own
        history and generator. The caller copies the mutable parts of its own position."""
        new = object.__new__(type(self))
        # One setattr per attribute, in the source's order, keeps the copy's attributes in
        # CPython's compact per-class layout; `new.__dict__.update(...)` made the copy a plain
        # dict, and every attribute read of it ~20% slower (the Hula loop: 0.9 -> 1.1 us a move).
        for name, value in self.__dict__.items():
            setattr(new, name, value)
        new._history = self._history[:]
        rng = self._rng
        if rng is not None:
            new._rng = type(rng)()
            new._rng.setstate(rng.getstate())
        return new

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
