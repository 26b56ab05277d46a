"""`RoomError`: the one refusal type of the hall's operations, with a stable code for programs
and a sentence for people. Its own module so that accounts, boards, bots and the rules page can
refuse without importing the room (`rooms.py`).

The sentence is a `Message` (a catalogue key and its arguments, English text made from the
English catalogue), so that every client can say it in its own language; `Said` also admits a
plain text for a sentence that has no key yet (the client then shows the English)."""

from __future__ import annotations

from typing import Any

from gamehall.core.messages import Message

Said = Message | str
"""A sentence for people: a `Message`, or (only where no key exists yet) plain English text."""


def text_of(said: Said) -> str:
    """The English text of `said`."""
    return said.text if isinstance(said, Message) else said


def said_json(said: Said) -> dict[str, Any]:
    """``{"key", "args"}`` of `said` to put beside its English text (nothing for plain text)."""
    return said.to_json() if isinstance(said, Message) else {}


def said_from(data: dict[str, Any], text: str) -> Said:
    """The sentence a message carried (``key``/``args`` beside `text`, as `said_json` wrote
    them), or the text alone when it carried no key (another node's reply, a stored line)."""
    key = data.get("key")
    return Message.from_json(data) if isinstance(key, str) else text


class RoomError(Exception):
    """A refused room operation: `code` for programs, the text for people (`message`, English)
    and the sentence itself (`said`: key and arguments, for other languages)."""

    def __init__(self, code: str, said: Said) -> None:
        super().__init__(text_of(said))
        self.code = code
        self.said = said
        self.message = text_of(said)
