"""`RoomError`: the one refusal type of the hall's operations, with a stable code for programs
and a sentence for people. Its own module so that accounts, boards, bots and the rules page can
refuse without importing the room (`rooms.py`)."""

from __future__ import annotations


class RoomError(Exception):
    """A refused room operation: `code` for programs, the text for people."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
