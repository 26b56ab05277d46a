"""Pieces of sentences the games' messages share: a seat named in a sentence, and a list of
names joined by "and" or commas. Each is a nested `Message`, so a client says it in its own
language and can tell a seat from other words (the page puts the player's name in its place)."""

from __future__ import annotations

from collections.abc import Sequence

from gamehall.core.messages import Arg, Message, msg


def seat(label: str) -> Message:
    """Seat `label` (``first``, ``north``, ``red``…) in a sentence: a client may say the
    player's name who sits there, or the seat's name in its language."""
    return msg("game.seat", seat=label)


def and_list(items: Sequence[Arg]) -> Arg:
    """``a and b and c``: the items joined one by one, so a one-item list is the item."""
    if not items:
        raise ValueError("an empty list has no words")
    out = items[0]
    for item in items[1:]:
        out = msg("game.and", first=out, last=item)
    return out


def comma_list(items: Sequence[Arg]) -> Arg:
    """``a, b, c``: the items joined by commas (an empty list says nothing)."""
    if not items:
        return ""
    out = items[0]
    for item in items[1:]:
        out = msg("game.comma", first=out, last=item)
    return out


def beside(field: str, message: Message | None) -> dict[str, object]:
    """``{field, field_key, field_args}``: the English text with its key and arguments beside
    it, as the page's ``say(obj, field)`` reads them (all None for no message)."""
    if message is None:
        return {field: None, f"{field}_key": None, f"{field}_args": None}
    return {field: message.text, f"{field}_key": message.key,
            f"{field}_args": message.to_json()["args"]}
