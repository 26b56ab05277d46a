"""Chat commands (``/join``, ``/start``, …): read a typed line into the same `Request` as the
equivalent WebSocket message, so both go through one code path in the hall.

In typed commands a seat is a name (``/join beasts``) or a number counted from 1 (``/join 2``);
in JSON messages a seat is a name or an index counted from 0.
"""

from __future__ import annotations

from gamehall.core.messages import Message, msg
from gamehall.server.table.levels import is_bot_word
from gamehall.server.table.protocol import (
    BAD_MESSAGE,
    MAX_FIELD,
    UNKNOWN_COMMAND,
    ProtocolError,
    Request,
    SeatRef,
    TypedSeat,
)

_NO_ARGS = {"spectate", "start", "resign", "claim", "rematch", "who", "help"}


def help_text() -> Message:
    """The answer to ``/help``: every command, one a line (the catalogues hold the table, so
    that each language lines up its own words)."""
    return msg("info.help")


def parse_command(line: str, ref: str | int | None = None) -> Request:
    """The request a typed command stands for; ProtocolError for an unknown or malformed one."""
    words = line.strip()[1:].split()
    if not words:
        raise ProtocolError(UNKNOWN_COMMAND, msg("error.command.empty"), ref)
    name, args = words[0].lower(), words[1:]
    if name in _NO_ARGS:
        return Request(name, {}, ref)
    if name in ("join", "leave"):
        return Request(name, _seat_arg(args, name, ref), ref)
    if name == "bot":
        return _bot(args, ref)
    if name == "option":
        return _option(line, args, ref)
    if name == "clock":
        if not args:
            return Request("clocks", {}, ref)
        control = " ".join(args)
        if len(control) > MAX_FIELD:
            raise ProtocolError(BAD_MESSAGE, msg("error.command.clock_too_long"), ref)
        return Request("clock", {"control": control}, ref)
    if name == "rated":
        return _rated(args, ref)
    raise ProtocolError(UNKNOWN_COMMAND, msg("error.command.unknown", name=name[:30]), ref)


MAX_SEAT_DIGITS = 4
"""A typed seat number has at most this many digits: longer ones are read as a name (no seat
has one), so no reply ever carries a number a JSON reader cannot hold."""


def _seat(word: str) -> SeatRef:
    """A typed seat: its number counted from 1 (ASCII digits only: ``str.isdigit`` also takes
    "²" and other scripts' digits) or else its name."""
    if word.isascii() and word.isdigit() and len(word) <= MAX_SEAT_DIGITS:
        return TypedSeat(int(word) - 1)
    return word


def _seat_arg(args: list[str], name: str, ref: str | int | None) -> dict[str, SeatRef]:
    if len(args) > 1:
        raise ProtocolError(BAD_MESSAGE, msg("error.command.one_seat", name=name), ref)
    return {"seat": _seat(args[0])} if args else {}


def _bot(args: list[str], ref: str | int | None) -> Request:
    if len(args) > 2:
        raise ProtocolError(BAD_MESSAGE, msg("error.command.bot_args"), ref)
    out: dict[str, SeatRef] = {}
    for word in args:
        if "level" not in out and is_bot_word(word):
            out["level"] = word
        elif "seat" not in out:
            out["seat"] = _seat(word)
        else:
            raise ProtocolError(BAD_MESSAGE, msg("error.command.bot_args"), ref)
    return Request("bot", out, ref)


_SWITCH = {"on": True, "yes": True, "true": True, "off": False, "no": False, "false": False}


def _rated(args: list[str], ref: str | int | None) -> Request:
    if not args:
        return Request("rated", {}, ref)
    value = _SWITCH.get(args[0].lower()) if len(args) == 1 else None
    if value is None:
        raise ProtocolError(BAD_MESSAGE, msg("error.command.rated_args"), ref)
    return Request("rated", {"value": value}, ref)


def _option(line: str, args: list[str], ref: str | int | None) -> Request:
    if not args:
        return Request("options", {}, ref)
    rest = line.strip()[len("/option"):].strip()
    key, sep, value = rest.partition("=")
    if not sep:
        key, _, value = rest.partition(" ")
    key, value = key.strip(), value.strip()
    if not key or not value:
        raise ProtocolError(BAD_MESSAGE, msg("error.command.option_args"), ref)
    if len(key) > MAX_FIELD or len(value) > MAX_FIELD:
        raise ProtocolError(BAD_MESSAGE, msg("error.command.option_too_long"), ref)
    return Request("option", {"key": key, "value": value}, ref)
