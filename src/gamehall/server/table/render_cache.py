"""What a room has rendered, kept with the room so that a state is serialised once per change:
each move's JSON, and the position's JSON — the spectator's view serialised once and cut around
the keys each seat sees of its own (`PositionJson`). Read and filled by `room_json`."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from gamehall.core import Game, State
from gamehall.server.table.protocol import dumps


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
