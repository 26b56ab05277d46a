"""A room as a stored row and back: what the writer commits, what a load rebuilds from, and what
the owner of a room sends the other nodes of a cluster with each commit."""

from __future__ import annotations

import json
import logging
from collections.abc import Callable, Sequence
from types import SimpleNamespace
from typing import Any

from gamehall.core.messages import Message, catalogue, msg
from gamehall.server.table.clocks import Clock, ClockError, parse_control, stamp, wall_time
from gamehall.server.table.room import Move, Occupant, Room

log = logging.getLogger("gamehall.server")


def now_stamp(clock: Callable[[], float] = wall_time) -> str:
    """Now, as stored, by `clock` (the storage's: the hall's time source, so a waiting room's
    `updated_at` and the hall's idle cut-off in `Hall.expire_idle_rooms` read one clock)."""
    return stamp(clock())


def room_values(room: Room, clock: Callable[[], float] = wall_time) -> dict[str, Any]:
    """The room's row, serialised now (the commit happens later, on the writer thread)."""
    return {
        "id": room.id,
        "game": room.game_name,
        "options": json.dumps(room.options),
        "status": room.status,
        "seed": room.seed,
        "seats": json.dumps([o.to_json() if o else None for o in room.seats]),
        "version": room.version,
        "result": json.dumps(room.result) if room.result is not None else None,
        "outcome": room.outcome,
        "outcome_message": stored_message(room.outcome_message),
        "ended_by": room.ended_by,
        "created_by": room.created_by,
        "created_at": room.created_at,
        "updated_at": now_stamp(clock),
        "revision": room.revision,
        "clock": room.time_control.text if room.time_control else None,
        "clock_state": json.dumps(room.clock.to_json()) if room.clock else None,
        "rematch_of": room.rematch_of,
        "rematch": room.rematch,
        "rated": room.rated,
        "ended_at": room.ended_at,
    }


def room_row(room: Room) -> dict[str, Any]:
    """The room's stored row (column values, JSON-ready): what the owner of a room sends the
    other nodes of a cluster with each commit."""
    return room_values(room)


def room_from_values(values: dict[str, Any]) -> Room:
    """A room without its moves from `room_row` values."""
    return room_from_row(SimpleNamespace(**values))


def action_rows(room: Room, new_moves: Sequence[Move]) -> list[dict[str, Any]]:
    """The action rows of the room's last `len(new_moves)` moves."""
    first = room.version - len(new_moves)
    return [{"room_id": room.id, "idx": first + i, "seat": m.seat, "action": m.action,
             "move": m.move} for i, m in enumerate(new_moves)]


def stored_message(message: Message | None) -> str | None:
    """A message as its column holds it: ``{"key", "args"}`` as JSON."""
    return json.dumps(message.to_json()) if message is not None else None


def outcome_of(row: Any) -> Message | None:
    """A stored room's outcome: its message, or for a row stored before messages had keys (or
    whose key this server's catalogue lacks) its English text as it is."""
    stored = getattr(row, "outcome_message", None)
    if stored:
        try:
            message = Message.from_json(json.loads(stored))
            if message.key in catalogue("en"):
                return message
        except (ValueError, KeyError, TypeError, AttributeError):
            log.error("a stored outcome message is unreadable: %r", stored)
    return msg("game.outcome.verbatim", text=row.outcome) if row.outcome else None


def room_from_row(row: Any) -> Room:
    """A room without its moves from a `rooms` row (an unknown clock is logged: untimed)."""
    seats = [Occupant.from_json(s) if s else None for s in json.loads(row.seats)]
    room = Room(id=row.id, game_name=row.game, options=json.loads(row.options),
                created_by=row.created_by, seed=int(row.seed), seats=seats, status=row.status,
                result=json.loads(row.result) if row.result else None,
                outcome_message=outcome_of(row),
                ended_by=row.ended_by, created_at=row.created_at,
                rematch_of=row.rematch_of, rematch=row.rematch, rated=row.rated,
                ended_at=row.ended_at)
    room.stored_version = int(row.version)
    room.revision = int(row.revision)
    try:
        room.time_control = parse_control(row.clock)
    except ClockError:
        log.error("room %s has an unknown clock %r: untimed", row.id, row.clock)
    if room.time_control is not None and row.clock_state:
        room.clock = Clock.from_json(room.time_control, json.loads(row.clock_state))
    return room
