"""The arguments the hall's sentences borrow from below it: a game's refusal (`reason_of`), a
seat's name (`seat_arg`), a finished game's outcome (`outcome_arg`), and lists (`joined`).

Each is the one place its argument is built, so that when the games and the room say these
as `Message`s too (keys in the games' catalogues), the hall's sentences nest them and a client
says the whole sentence in its language; until then the argument is the English text."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from gamehall.core.messages import Arg, Message, msg


def reason_of(exc: BaseException, limit: int | None = None) -> Arg:
    """A lower layer's refusal (a game's illegal move, an unknown bot level) quoted in the
    hall's sentence: nested when it carries a `Message` (its ``said``), else its English text
    (cut to `limit` characters)."""
    said = getattr(exc, "said", None)
    return said if isinstance(said, Message) else str(exc)[:limit]


def seat_arg(game: Any, seat: int) -> Arg:
    """A seat's name in a sentence: the game's label for it, nested as ``game.seat`` so that a
    client says the fixed seat names (north, humans, red …) in its language."""
    return msg("game.seat", seat=str(game.seat_names[seat]))


def outcome_arg(room: Any) -> Arg:
    """A finished game's outcome sentence in another sentence ("ann claimed the game: …"):
    the room's message when it has one (`outcome_message`), else its English text."""
    said = getattr(room, "outcome_message", None)
    return said if isinstance(said, Message) else str(room.outcome or "")


def joined(items: Sequence[Arg], separator: str = "comma") -> Arg:
    """`items` as one argument: ``a, b, c`` (`separator` ``"comma"``) or ``a; b; c``
    (``"semicolon"``), a chain of ``list.<separator>`` messages so that each item may itself be
    a message in the client's language. An empty list is the empty text."""
    if not items:
        return ""
    out: Arg = items[-1]
    for item in reversed(items[:-1]):
        out = msg(f"list.{separator}", first=item, rest=out)
    return out
