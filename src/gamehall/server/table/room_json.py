"""The room's JSON: the `state` message (`snapshot`, and `render` as text made from cached
parts), the lobby's line (`summary`), the seats and the clock. What a room is and how it
changes is `rooms.py`; this module only reads a room (and fills its `RenderCache`).

A seat's `state` text is made of parts cached per revision (the seats, the result), per
position (what everyone sees, the legal moves) and per move (each move's JSON), so that another
seat or another watcher costs only its own few keys.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from gamehall.core.phrases import beside
from gamehall.server.table.clocks import untimed_public
from gamehall.server.table.hint_rules import hints_allowed
from gamehall.server.table.protocol import dumps
from gamehall.server.table.render_cache import PositionJson

if TYPE_CHECKING:  # the room (room.py) delegates to this module; only its facts are read here
    from gamehall.server.table.room_facts import RoomFacts


def _rendered_position(room: RoomFacts) -> PositionJson:
    """The JSON of what the current position shows, made once per position."""
    state = room.shown_state()
    pos = room.rendered.position
    if pos is None or pos.state is not state or pos.version != room.version:
        pos = room.rendered.position = PositionJson(state, room.version)
    return pos


def _legal(room: RoomFacts) -> list[dict[str, Any]]:
    """Each legal move of the seat to move: its notation and its parts (for a board)."""
    assert room.state is not None
    state = room.state
    return [{"move": text, **state.action_parts(a)} for a, text in state.legal_notation()]


def seats_json(room: RoomFacts, online: set[int]) -> list[dict[str, Any]]:
    """Each seat: its name, who holds it, whether they are here, out, or asking a rematch."""
    out = []
    for i, name in enumerate(room.game.seat_names):
        occ = room.seats[i]
        out.append({
            "index": i,
            "name": name,
            "name_key": room.game.seat_key(name),
            "player": occ.nickname if occ else None,
            "bot": occ.bot if occ else None,
            "bot_account": bool(occ and occ.bot_account),
            "challenged": bool(occ and occ.challenged),
            "connected": bool(occ and (occ.bot is not None or occ.out is not None
                                       or occ.player_id in online)),
            "out": occ.out if occ else None,
            "rematch": bool(occ and occ.rematch),
        })
    return out


def clock_json(room: RoomFacts, now: float) -> dict[str, Any] | None:
    """The ``clock`` object at `now` (None in an untimed game)."""
    if room.clock is not None:
        return room.clock.public(now)
    return untimed_public(room.time_control, room.game.num_players)


def render_head(room: RoomFacts, seat: int | None, online: set[int]) -> str:
    """`snapshot` as JSON text without the move list and its closing brace (see `render`).

    Text for text the same as serialising `snapshot(seat, online, with_moves=False)`, but
    built from parts made once per revision (the seats, the result) and once per position
    (what everyone sees of it, the legal moves), so that another seat costs only its own
    few keys."""
    before, middle, after = _head_parts(room, online)
    pos = _rendered_position(room)
    if seat is not None and seat == room.to_move() and room.state is not None:
        legal_moves, legal = pos.legal(lambda: _legal(room))
    else:
        legal_moves = legal = "[]"
    hints = "true" if hints_allowed(room, seat) else "false"
    return (f'{before},"seat":{dumps(seat)},"hints":{hints},{middle},'
            f'"legal_moves":{legal_moves},"legal":{legal},"view":{pos.view(room.game, seat)},'
            f'{after}')


def _head_parts(room: RoomFacts, online: set[int]) -> tuple[str, str, str]:
    """The seat-independent parts of the head: before the seat, between the seat and the
    legal moves, after the view."""
    key = (room.rev, frozenset(online))
    if room.rendered.head is not None and room.rendered.head[0] == key:
        return room.rendered.head[1]
    whole = snapshot(room, None, online, with_moves=False, seat_parts=False)
    before = {k: whole[k] for k in _BEFORE_SEAT}
    middle = {k: whole[k] for k in _BEFORE_LEGAL}
    after = {k: v for k, v in whole.items() if k not in before and k not in middle}
    parts = (dumps(before)[:-1], dumps(middle)[1:-1], dumps(after)[1:-1])
    room.rendered.head = (key, parts)
    return parts


def moves_text(room: RoomFacts, start: int) -> str:
    """The moves from index `start` on, as JSON array items; each move serialised once."""
    if len(room.rendered.moves_json) > len(room.moves):
        room.rendered.moves_json = []
    for m in room.moves[len(room.rendered.moves_json):]:
        room.rendered.moves_json.append(dumps(m.to_json()))
    return ",".join(room.rendered.moves_json[start:])


def render(room: RoomFacts, seat: int | None, online: set[int], moves_from: int = 0,
           head: str | None = None, now: float = 0.0,
           absent: dict[str, Any] | None = None) -> str:
    """The `state` message as JSON text, with the moves from `moves_from` on (a client that
    has the earlier ones needs only the rest). The head is the same for every render of one
    revision; the clock and the absence are rendered for `now`."""
    start = max(0, min(moves_from, room.version))
    head = head if head is not None else render_head(room, seat, online)
    live = dumps({"clock": clock_json(room, now), "absent": absent})[1:-1]
    return f'{head},{live},"moves_from":{start},"moves":[{moves_text(room, start)}]}}'


def snapshot(room: RoomFacts, seat: int | None, online: set[int], with_moves: bool = True,
             now: float = 0.0, absent: dict[str, Any] | None = None,
             seat_parts: bool = True) -> dict[str, Any]:
    """The `state` message for a client holding `seat` (None: spectator). Without the moves
    it is the cached head of `render`, so it leaves out the clock and absence as well;
    without `seat_parts`, the seat, the legal moves and the view too (see `render_head`)."""
    to_move = room.to_move()
    legal: list[dict[str, Any]] = []
    if seat_parts and seat is not None and to_move == seat and room.state is not None:
        legal = _legal(room)
    out = {
        "type": "state",
        "room": room.id,
        "game": room.game_name,
        "title": room.game.title,
        "options": room.game.shown_options(),
        "status": room.status,
        "version": room.version,
        "seat": seat,
        "hints": hints_allowed(room, seat),
        "seats": seats_json(room, online),
        "to_move": to_move,
        "legal_moves": [entry["move"] for entry in legal],
        "legal": legal,
        "view": room.view(seat) if seat_parts else None,
        "result": room.result,
        **beside("outcome", room.outcome_message),
        "scores": room.scores(),
        "ended_by": room.ended_by,
        "rated": room.rated_now,
        "rating_changes": room.rating_changes,
        "rematch_of": room.rematch_of,
        "rematch": room.rematch,
        **({"clock": clock_json(room, now), "absent": absent,
            "moves_from": 0, "moves": [m.to_json() for m in room.moves]}
           if with_moves else {}),
    }
    if not seat_parts:
        for key in _SEAT_KEYS:
            del out[key]
    return out


def summary(room: RoomFacts, online: set[int] | None = None, now: float = 0.0) -> dict[str, Any]:
    """The lobby's line for this room (its clock as at `now`)."""
    return {
        "id": room.id,
        "game": room.game_name,
        "title": room.game.title,
        "options": room.game.shown_options(),
        "status": room.status,
        "version": max(room.version, room.stored_version),
        "seats": seats_json(room, online or set()),
        "created_by": room.created_by,
        "created_at": room.created_at,
        **beside("outcome", room.outcome_message),
        "rated": room.rated_now,
        "ended_at": room.ended_at,
        "clock": clock_json(room, now),
        "rematch_of": room.rematch_of,
        "rematch": room.rematch,
    }


_BEFORE_SEAT = ("type", "room", "game", "title", "options", "status", "version")
_BEFORE_LEGAL = ("seats", "to_move")
"""The keys of a `state` head before the seat, and between the seat and the legal moves."""
_SEAT_KEYS = ("seat", "hints", "legal_moves", "legal", "view")
"""The keys of a `state` head that depend on the seat (`render_head` renders them apart)."""


