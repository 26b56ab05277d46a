"""Chat commands (``/join``, ``/start``, …): read a typed line into the same `Request` as the
equivalent WebSocket message, so both go through one code path in the hall.

In typed commands a seat is a name (``/join beasts``) or a number counted from 1 (``/join 2``);
in JSON messages a seat is a name or an index counted from 0.
"""

from __future__ import annotations

from gamehall.server.bots import is_bot_word
from gamehall.server.protocol import (
    BAD_MESSAGE,
    MAX_FIELD,
    UNKNOWN_COMMAND,
    ProtocolError,
    Request,
    SeatRef,
    TypedSeat,
)

HELP: tuple[tuple[str, str], ...] = (
    ("/join [seat]", "take a seat (the first free one if none is named)"),
    ("/leave [seat]", "give up your seat (in a running game: resign); with a seat named, "
                      "remove a bot before the start"),
    ("/spectate", "watch instead of playing (gives up your seat)"),
    ("/start", "start the game once every seat is filled"),
    ("/bot [level] [seat]", "seat a server bot: random, easy, medium or hard"),
    ("/option key=value", "change a game option before the start (/option alone lists them)"),
    ("/clock [control]", "choose the clock before the start: 5+3 (minutes + seconds a move), "
                         "0.5+0, 2d (days a move) or off; alone: the clocks now"),
    ("/resign", "give up the game"),
    ("/claim", "win against a player who has been away too long (untimed games)"),
    ("/rematch", "after the end: play again, seats moved on by one, once every player asks"),
    ("/rated [on|off]", "make the game rated or casual before the start (alone: which it is)"),
    ("/who", "who sits where, and who watches"),
    ("/help", "this list"),
)

_NO_ARGS = {"spectate", "start", "resign", "claim", "rematch", "who", "help"}


def help_text() -> str:
    width = max(len(c) for c, _ in HELP)
    return "\n".join(f"{c.ljust(width)}  {what}" for c, what in HELP)


def parse_command(line: str, ref: str | int | None = None) -> Request:
    """The request a typed command stands for; ProtocolError for an unknown or malformed one."""
    words = line.strip()[1:].split()
    if not words:
        raise ProtocolError(UNKNOWN_COMMAND, "type a command after / (see /help)", ref)
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
            raise ProtocolError(BAD_MESSAGE, "that clock is too long", ref)
        return Request("clock", {"control": control}, ref)
    if name == "rated":
        return _rated(args, ref)
    raise ProtocolError(UNKNOWN_COMMAND, f"no command /{name[:30]} (see /help)", ref)


def _seat(word: str) -> SeatRef:
    return TypedSeat(int(word) - 1) if word.isdigit() else word


def _seat_arg(args: list[str], name: str, ref: str | int | None) -> dict[str, SeatRef]:
    if len(args) > 1:
        raise ProtocolError(BAD_MESSAGE, f"/{name} takes at most one seat", ref)
    return {"seat": _seat(args[0])} if args else {}


def _bot(args: list[str], ref: str | int | None) -> Request:
    if len(args) > 2:
        raise ProtocolError(BAD_MESSAGE, "/bot takes a level and a seat, both optional", ref)
    out: dict[str, SeatRef] = {}
    for word in args:
        if "level" not in out and is_bot_word(word):
            out["level"] = word
        elif "seat" not in out:
            out["seat"] = _seat(word)
        else:
            raise ProtocolError(BAD_MESSAGE, "/bot takes a level and a seat, both optional", ref)
    return Request("bot", out, ref)


_SWITCH = {"on": True, "yes": True, "true": True, "off": False, "no": False, "false": False}


def _rated(args: list[str], ref: str | int | None) -> Request:
    if not args:
        return Request("rated", {}, ref)
    value = _SWITCH.get(args[0].lower()) if len(args) == 1 else None
    if value is None:
        raise ProtocolError(BAD_MESSAGE, "write /rated on or /rated off", ref)
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
        raise ProtocolError(BAD_MESSAGE, "write /option key=value", ref)
    if len(key) > MAX_FIELD or len(value) > MAX_FIELD:
        raise ProtocolError(BAD_MESSAGE, "that option is too long", ref)
    return Request("option", {"key": key, "value": value}, ref)
