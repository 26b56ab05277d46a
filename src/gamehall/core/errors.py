"""The errors gamehall raises, each with a message a player can read."""

from __future__ import annotations

from gamehall.core.messages import Message


class GamehallError(Exception):
    """Base of every error gamehall raises on purpose.

    Raised with plain English text, or with a `Message` so that the hall can quote the refusal
    in each client's language: then ``str(exc)`` is still the English text and ``exc.said`` the
    message (None for plain text)."""

    said: Message | None

    def __init__(self, *args: object) -> None:
        said = args[0] if len(args) == 1 and isinstance(args[0], Message) else None
        super().__init__(*((said.text,) if said is not None else args))
        self.said = said


class IllegalActionError(GamehallError):
    """An action that is not legal in the current state (the state is left unchanged)."""


class NotationError(IllegalActionError):
    """A move written in notation that cannot be read, or names no legal move."""


class InvalidOptionError(GamehallError):
    """A game option that does not exist or has a value out of range."""


class UnknownGameError(GamehallError):
    """A game name that no installed package registers."""


class StateFormatError(GamehallError):
    """A JSON state that does not describe a valid position of the game."""


class RecordError(GamehallError):
    """A game record that is malformed or does not replay to what it claims."""
