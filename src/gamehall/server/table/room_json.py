"""The room's JSON: the `state` message (`snapshot`, and `render` as text made from cached
parts), the lobby's line (`summary`), the seats and the clock. What a room is and how it
changes is `rooms.py`; this module only reads a room (and fills its `RenderCache`).

A seat's `state` text is made of parts cached per revision (the seats, the result), per
position (what everyone sees, the legal moves) and per move (each move's JSON), so that another
seat or another watcher costs only its own few keys.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from gamehall.core import Game, State
from gamehall.core.phrases import beside
from gamehall.server.table.clocks import untimed_public
from gamehall.server.table.hint_rules import hints_allowed
from gamehall.server.table.protocol import dumps

if TYPE_CHECKING:  # rooms.py imports this module to delegate; the room is only read here
    from gamehall.server.table.room import Room


@dataclass
class RenderCache:
    """What a room has rendered, kept with the room: each move's JSON, the current position's
    `PositionJson`, and the seat-independent parts of the head with their (rev, online) key."""

    moves_json: list[str] = field(default_factory=list)
    position: PositionJson | None = None
    head: tuple[tuple[int, frozenset[int]], tuple[str, str, str]] | None = None

    def draft(self) -> RenderCache:
        """A copy for a drafted room: its own move list, the same (immutable) parts."""
        return RenderCache(list(self.moves_json), self.position, self.head)


def _rendered_position(room: Room) -> PositionJson:
    """The JSON of what the current position shows, made once per position."""
    state = room.shown_state()
    pos = room.rendered.position
    if pos is None or pos.state is not state or pos.version != room.version:
        pos = room.rendered.position = PositionJson(state, room.version)
    return pos


def _legal(room: Room) -> list[dict[str, Any]]:
    """Each legal move of the seat to move: its notation and its parts (for a board)."""
    assert room.state is not None
    state = room.state
    return [{"move": text, **state.action_parts(a)} for a, text in state.legal_notation()]


def seats_json(room: Room, online: set[int]) -> list[dict[str, Any]]:
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


def clock_json(room: Room, now: float) -> dict[str, Any] | None:
    """The ``clock`` object at `now` (None in an untimed game)."""
    if room.clock is not None:
        return room.clock.public(now)
    return untimed_public(room.time_control, room.game.num_players)


def render_head(room: Room, seat: int | None, online: set[int]) -> str:
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


def _head_parts(room: Room, online: set[int]) -> tuple[str, str, str]:
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


def moves_text(room: Room, start: int) -> str:
    """The moves from index `start` on, as JSON array items; each move serialised once."""
    if len(room.rendered.moves_json) > len(room.moves):
        room.rendered.moves_json = []
    for m in room.moves[len(room.rendered.moves_json):]:
        room.rendered.moves_json.append(dumps(m.to_json()))
    return ",".join(room.rendered.moves_json[start:])


def render(room: Room, seat: int | None, online: set[int], moves_from: int = 0,
           head: str | None = None, now: float = 0.0,
           absent: dict[str, Any] | None = None) -> str:
    """The `state` message as JSON text, with the moves from `moves_from` on (a client that
    has the earlier ones needs only the rest). The head is the same for every render of one
    revision; the clock and the absence are rendered for `now`."""
    start = max(0, min(moves_from, room.version))
    head = head if head is not None else render_head(room, seat, online)
    live = dumps({"clock": clock_json(room, now), "absent": absent})[1:-1]
    return f'{head},{live},"moves_from":{start},"moves":[{moves_text(room, start)}]}}'


def snapshot(room: Room, seat: int | None, online: set[int], with_moves: bool = True,
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


def summary(room: Room, online: set[int] | None = None, now: float = 0.0) -> dict[str, Any]:
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


class PositionJson:
    """The JSON a room renders of one position (`state` after `version` actions): what a
    spectator sees, serialised once, and the legal moves of the seat to move. A seat's view is
    that with the seat's own keys (`Game.seat_overlay`) put in: the spectator's view is cut
    once around those keys, and each seat serialises only its own values."""

    def __init__(self, state: State, version: int) -> None:
        self.state, self.version = state, version
        self._public: dict[str, Any] | None = None
        self._public_text = ""
        self._cuts: dict[tuple[str, ...], list[str | tuple[str, str]]] = {}
        self._legal: tuple[str, str] | None = None

    def view(self, game: Game, seat: int | None) -> str:
        if self._public is None:
            self._start(game)
        if seat is None:
            return self._public_text
        overlay = game.seat_overlay(self.state, seat)
        if overlay is None:
            return dumps(self.state.view(seat))
        keys = tuple(overlay)
        cut = self._cuts.get(keys)
        if cut is None:
            cut = self._cuts[keys] = _cut(self._public or {}, keys)
        return _fill(cut, overlay)

    def _start(self, game: Game) -> None:
        """Make the spectator's view, and serialise it cut around seat 0's own keys (every
        game names the same keys for every seat), so that it is serialised once in all."""
        public = self._public = self.state.view(None)
        overlay = game.seat_overlay(self.state, 0)
        if overlay is None:
            self._public_text = dumps(public)
            return
        keys = tuple(overlay)
        cut = self._cuts[keys] = _cut(public, keys)
        self._public_text = _fill([item for item in cut if isinstance(item, str)
                                   or item[0] in public], public)

    def legal(self, make: Callable[[], list[dict[str, Any]]]) -> tuple[str, str]:
        """The legal moves' notation and the full entries, as JSON arrays (made by `make`)."""
        if self._legal is None:
            entries = make()
            self._legal = (dumps([e["move"] for e in entries]), dumps(entries))
        return self._legal


def _cut(public: dict[str, Any], keys: tuple[str, ...]) -> list[str | tuple[str, str]]:
    """The members of ``{**public, **overlay}`` in order, for an overlay with `keys`: each run
    of public keys as its serialised text, each overlay key as (key, key's JSON) to be filled
    in (a key the public view lacks goes at the end, where a dict merge puts it)."""
    out: list[str | tuple[str, str]] = []
    run: dict[str, Any] = {}
    for k in [*public, *(k for k in keys if k not in public)]:
        if k in keys:
            if run:
                out.append(dumps(run)[1:-1])
                run = {}
            out.append((k, dumps(k)))
        else:
            run[k] = public[k]
    if run:
        out.append(dumps(run)[1:-1])
    return out


def _fill(cut: list[str | tuple[str, str]], values: dict[str, Any]) -> str:
    """A `_cut` with its keys' values from `values`: the JSON object text."""
    members = [item if isinstance(item, str) else f"{item[1]}:{dumps(values[item[0]])}"
               for item in cut]
    return "{" + ",".join(members) + "}"
