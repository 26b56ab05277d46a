"""The WebSocket protocol: validating what clients send, and building what the server sends.

Every client message is a JSON object with a ``type``; each type has a fixed set of fields with
fixed JSON types. Anything else is refused with a `ProtocolError` whose code a program can test
and whose message a person can read. protocol.md (beside this file, served at
/api/protocol) describes every message.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from typing import Any

import orjson

from gamehall.core.messages import msg
from gamehall.core.options import is_file_data
from gamehall.server.table.errors import Said, said_json, text_of

PROTOCOL_VERSION = 1

# Error codes: stable strings that clients may switch on.
BAD_JSON = "bad_json"
BAD_MESSAGE = "bad_message"
UNKNOWN_TYPE = "unknown_type"
TOO_LARGE = "too_large"
RATE_LIMITED = "rate_limited"
BINARY = "binary_not_supported"
NOT_IDENTIFIED = "not_identified"
UNKNOWN_COMMAND = "unknown_command"

MAX_TEXT = 500
"""Longest chat line (characters)."""
MAX_FIELD = 200
"""Longest value of any other text field (moves, seat names, option values)."""
MAX_OPTION_DATA = 1 << 20
"""Longest option value that is a file's data (a board's JSON); the hall's own cap is smaller."""
MAX_REF = 64
"""Longest client-chosen ``id`` echoed back in replies."""
MAX_STEPS = 64
"""Most steps a ``turn`` (or its ``preview``) may list: more than any game's turn has."""


class ProtocolError(Exception):
    """A refused client message: `code` for programs, the text for people (`message`, English)
    and the sentence itself (`said`: key and arguments, for other languages)."""

    def __init__(self, code: str, said: Said, ref: str | int | None = None) -> None:
        super().__init__(text_of(said))
        self.code = code
        self.said = said
        self.message = text_of(said)
        self.ref = ref


SeatRef = str | int
"""A seat: its index (JSON integer, from 0) or its name (text, any case)."""


class TypedSeat(int):
    """A seat index read from a chat command, where people type seats counting from 1.

    It is the index (from 0) like any other; it only remembers how it was typed, so that an
    error can quote the number the person typed."""

    def typed(self) -> int:
        return int(self) + 1

# field name -> (accepted JSON types, required)
_Fields = dict[str, tuple[tuple[type, ...], bool]]
_SEAT: tuple[tuple[type, ...], bool] = ((str, int), False)

REQUESTS: dict[str, _Fields] = {
    "chat": {"text": ((str,), True)},
    "move": {"move": ((str,), True), "version": ((int,), True)},
    "turn": {"moves": ((list,), True), "version": ((int,), True)},
    "preview": {"moves": ((list,), True), "version": ((int,), True)},
    "join": {"seat": _SEAT},
    "leave": {"seat": _SEAT},
    "spectate": {},
    "start": {},
    "bot": {"level": ((str,), False), "seat": _SEAT},
    "option": {"key": ((str,), True), "value": ((str, int, bool), True)},
    "resign": {},
    "berserk": {},
    "clock": {"control": ((str,), False)},
    "claim": {},
    "rematch": {},
    "rated": {"value": ((bool,), False)},
    "hint": {"seat": _SEAT, "version": ((int,), False), "level": ((str,), False)},
    "who": {},
    "help": {},
    "sync": {},
    "ping": {},
    "identify": {"token": ((str,), True)},
}
"""Every client message type and its fields (``id`` is accepted on all of them)."""


@dataclass(frozen=True)
class Request:
    """One validated client request: a message type with its fields."""

    kind: str
    args: dict[str, Any] = field(default_factory=dict)
    ref: str | int | None = None


def parse_message(raw: str | bytes, max_bytes: int) -> Request:
    """Validate one WebSocket text frame; raise ProtocolError for anything malformed."""
    if isinstance(raw, bytes):
        raise ProtocolError(BINARY, msg("error.protocol.binary"))
    if len(raw) > max_bytes or len(raw.encode("utf-8", "surrogatepass")) > max_bytes:
        raise ProtocolError(TOO_LARGE, msg("error.protocol.too_large", limit=max_bytes))
    try:
        data = json.loads(raw)
    except (ValueError, RecursionError):
        raise ProtocolError(BAD_JSON, msg("error.protocol.bad_json")) from None
    return parse_request(data)


def parse_request(data: object) -> Request:
    """Validate a decoded JSON value as a request (shared by WebSocket and HTTP)."""
    if not isinstance(data, dict):
        raise ProtocolError(BAD_MESSAGE, msg("error.protocol.not_object"))
    ref = _ref(data.get("id"))
    kind = data.get("type")
    if not isinstance(kind, str):
        raise ProtocolError(BAD_MESSAGE, msg("error.protocol.no_type"), ref)
    spec = REQUESTS.get(kind)
    if spec is None:
        known = ", ".join(REQUESTS)
        raise ProtocolError(UNKNOWN_TYPE, msg("error.protocol.unknown_type", kind=kind[:40],
                                                 known=known), ref)
    return Request(kind, check_fields(kind, spec, data, ref), ref)


def check_fields(kind: str, spec: _Fields, data: dict[str, Any],
                 ref: str | int | None = None) -> dict[str, Any]:
    """The declared fields of `data`, type-checked; unknown fields are ignored."""
    args: dict[str, Any] = {}
    for name, (types, required) in spec.items():
        if name not in data or data[name] is None:
            if required:
                raise ProtocolError(BAD_MESSAGE, msg("error.protocol.field_missing", kind=kind,
                                                      name=name), ref)
            continue
        value = data[name]
        if isinstance(value, bool) and bool not in types:
            value = None  # JSON true/false is not a number here
        if value is None or not isinstance(value, types):
            want = "_".join(_JSON_NAMES[t] for t in types)
            raise ProtocolError(BAD_MESSAGE, msg("error.protocol.field_type", name=name,
                                                 kind=kind, want=want), ref)
        limit = MAX_TEXT if name == "text" else MAX_FIELD
        if (kind, name) == ("option", "value") and is_file_data(value):
            limit = MAX_OPTION_DATA
        if isinstance(value, str) and len(value) > limit:
            raise ProtocolError(BAD_MESSAGE, msg("error.protocol.too_long", name=name,
                                                 limit=limit), ref)
        if isinstance(value, str) and not_text(value):
            raise ProtocolError(BAD_MESSAGE, msg("error.protocol.not_text", name=name), ref)
        if isinstance(value, int) and not isinstance(value, bool) and abs(value) > 2**53:
            raise ProtocolError(BAD_MESSAGE, msg("error.protocol.out_of_range", name=name), ref)
        if isinstance(value, list):
            value = _steps(kind, name, value, ref)
        args[name] = value
    return args


def _steps(kind: str, name: str, value: list[Any], ref: str | int | None) -> list[str]:
    """A list of moves in notation (a turn's steps): 1 to `MAX_STEPS` texts, each a field."""
    if not 1 <= len(value) <= MAX_STEPS:
        raise ProtocolError(BAD_MESSAGE, msg("error.protocol.steps", name=name, kind=kind,
                                             limit=MAX_STEPS), ref)
    for item in value:
        if not isinstance(item, str):
            raise ProtocolError(BAD_MESSAGE, msg("error.protocol.field_type", name=name,
                                                 kind=kind, want="list"), ref)
        if len(item) > MAX_FIELD:
            raise ProtocolError(BAD_MESSAGE, msg("error.protocol.too_long", name=name,
                                                 limit=MAX_FIELD), ref)
        if not_text(item):
            raise ProtocolError(BAD_MESSAGE, msg("error.protocol.not_text", name=name), ref)
    return list(value)


_JSON_NAMES = {str: "text", int: "number", bool: "bool", list: "list"}
"""The JSON types by the names that error.protocol.field_type selects its words with."""


def _ref(value: object) -> str | int | None:
    """The client's ``id`` if it is a short text or a whole number, else None."""
    if isinstance(value, bool):
        return None
    if isinstance(value, int) and abs(value) <= 2**53:
        return value
    if isinstance(value, str) and len(value) <= MAX_REF:
        if not_text(value):
            raise ProtocolError(BAD_MESSAGE, msg("error.protocol.not_text", name="id"))
        return value
    return None


_SURROGATE = re.compile("[\ud800-\udfff]")


def not_text(value: str) -> bool:
    """True for a string no UTF-8 text can hold (a lone surrogate, from JSON's ``\\ud800``)."""
    return not value.isascii() and _SURROGATE.search(value) is not None


# --- server messages ------------------------------------------------------------------------
def error(code: str, said: Said, ref: str | int | None = None) -> dict[str, Any]:
    """An ``error``: the code, the English ``message`` and beside it the sentence's ``key`` and
    ``args`` (protocol.md, "Sentences in any language"). Also the body of every HTTP error."""
    out: dict[str, Any] = {"type": "error", "code": code, "message": text_of(said),
                           **said_json(said)}
    if ref is not None:
        out["id"] = ref
    return out


def info(said: Said, ref: str | int | None = None) -> dict[str, Any]:
    """An ``info`` line (a command's answer, the hall's notice of a change): English ``text``
    with the sentence's ``key`` and ``args`` beside it."""
    out: dict[str, Any] = {"type": "info", "text": text_of(said), **said_json(said)}
    if ref is not None:
        out["id"] = ref
    return out


def chat(sender: str, text: str, at: str) -> dict[str, Any]:
    return {"type": "chat", "from": sender, "text": text, "at": at}


def dumps(value: Any) -> str:
    """Compact JSON text as sent on the wire (UTF-8, not ASCII-escaped; keys that are not
    strings are written as strings, as the standard library does). orjson, not `json`: the hall
    serialises a state message for every seat of every move, and the standard encoder was about
    a sixth of a busy hall's CPU. A string holding a lone surrogate raises TypeError."""
    return orjson.dumps(value, option=orjson.OPT_NON_STR_KEYS).decode()

