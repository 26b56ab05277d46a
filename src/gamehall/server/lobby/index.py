"""The lobby's lines as a node holds them: sections (rooms, pools, seeks) of lines by key, each
with the revision it was made at, so that changes arriving late or twice (from other nodes, over
Redis) never bring an older line back. Pure: no I/O, no clock of its own."""

from __future__ import annotations

import copy
import json
from collections import OrderedDict
from dataclasses import dataclass, field
from typing import Any

SECTIONS = ("rooms", "pools", "seeks")
"""What the lobby shows; a change names its section."""
FINISHED_KEPT = 50
"""Closed lines a section keeps (the most recent): finished rooms, whose replays stay a click
away, and seeks taken (whose poster's page follows them to the room)."""
IN_PLACE = frozenset({"pools"})
"""Sections whose lines keep their place when they change (the pools, in the catalogue's order:
a tile does not move when its count does)."""
CLOSED = {"rooms": ("status", ("finished",)), "seeks": ("status", ("accepted", "playing"))}
"""Which lines of a section are closed: a field and its closed values."""
GONE_KEPT = 20000
"""Keys remembered as gone for good, so that a late change cannot bring them back."""

Line = dict[str, Any]


@dataclass(frozen=True)
class Put:
    """A line as it is now (`rev` orders the lines of one key; None: always newer)."""

    section: str
    key: str
    rev: int | None
    at: float
    """When the line was made (the hall's clock): a running clock in it is counted from then."""
    line: Line
    text: str = field(default="", compare=False, repr=False)
    """The line as JSON, encoded once (a snapshot of 10,000 lines joins them)."""

    def __post_init__(self) -> None:
        if not self.text:
            object.__setattr__(self, "text", dumps(self.line))

    def wire(self) -> list[Any]:
        return [self.section, self.key, self.rev, self.at, self.line]

    @classmethod
    def from_wire(cls, item: list[Any]) -> Put:
        section, key, rev, at, line = item
        return cls(str(section), str(key), None if rev is None else int(rev), float(at), dict(line))


@dataclass(frozen=True)
class Gone:
    """A line that is no more (`rev` None: for good, it never comes back)."""

    section: str
    key: str
    rev: int | None = None

    def wire(self) -> list[Any]:
        return [self.section, self.key, self.rev]

    @classmethod
    def from_wire(cls, item: list[Any]) -> Gone:
        section, key, rev = item
        return cls(str(section), str(key), None if rev is None else int(rev))


@dataclass
class Change:
    """What changed at once: lines put and lines gone (the lobby's diff)."""

    puts: list[Put]
    gones: list[Gone]

    def __bool__(self) -> bool:
        return bool(self.puts or self.gones)

    def wire(self) -> dict[str, Any]:
        return {"put": [p.wire() for p in self.puts], "gone": [g.wire() for g in self.gones]}

    @classmethod
    def from_wire(cls, data: dict[str, Any]) -> Change:
        return cls(
            [Put.from_wire(p) for p in data.get("put") or ()],
            [Gone.from_wire(g) for g in data.get("gone") or ()],
        )


class LobbyIndex:
    """The lines of every section, oldest change first (a change moves its line to the end)."""

    def __init__(self, finished_kept: int = FINISHED_KEPT) -> None:
        self.finished_kept = finished_kept
        self.sections: dict[str, OrderedDict[str, Put]] = {s: OrderedDict() for s in SECTIONS}
        self._closed: OrderedDict[tuple[str, str], None] = OrderedDict()
        self._gone: OrderedDict[tuple[str, str], int | None] = OrderedDict()

    def __len__(self) -> int:
        return sum(len(lines) for lines in self.sections.values())

    def apply(self, change: Change) -> Change:
        """Take `change` in; return what it changed (stale or repeated parts left out, finished
        rooms beyond `finished_kept` gone)."""
        done = Change([], [])
        for gone in change.gones:
            if self._drop(gone):
                done.gones.append(gone)
        for put in change.puts:
            if self._put(put):
                done.puts.append(put)
        done.gones.extend(self._evict_closed())
        return done

    def _put(self, put: Put) -> bool:
        lines = self.sections.get(put.section)
        if lines is None:
            return False
        key = (put.section, put.key)
        if key in self._gone:
            dead = self._gone[key]
            if dead is None or (put.rev is not None and put.rev <= dead):
                return False
            del self._gone[key]
        old = lines.get(put.key)
        if old is not None and old.rev is not None and put.rev is not None and put.rev < old.rev:
            return False
        if old is not None and old.rev == put.rev and old.line == put.line:
            return False
        if put.section not in IN_PLACE:
            lines.pop(put.key, None)
        lines[put.key] = put
        self._closed.pop(key, None)
        if closed(put):
            self._closed[key] = None
        return True

    def _drop(self, gone: Gone) -> bool:
        lines = self.sections.get(gone.section)
        if lines is None:
            return False
        old = lines.get(gone.key)
        if old is not None and gone.rev is not None and old.rev is not None and old.rev > gone.rev:
            return False
        key = (gone.section, gone.key)
        if gone.section == "rooms" or gone.rev is not None:  # a seek may open again
            self._gone[key] = gone.rev
            self._gone.move_to_end(key)
            while len(self._gone) > GONE_KEPT:
                self._gone.popitem(last=False)
        self._closed.pop(key, None)
        return lines.pop(gone.key, None) is not None

    def _evict_closed(self) -> list[Gone]:
        """The oldest closed lines beyond `finished_kept` (per section) leave the lobby."""
        out = []
        for section in CLOSED:
            keys = [k for s, k in self._closed if s == section]
            for key in keys[: max(0, len(keys) - self.finished_kept)]:
                del self._closed[(section, key)]
                put = self.sections[section].pop(key, None)
                out.append(Gone(section, key, put.rev if put is not None else None))
        return out

    def snapshot_text(self, now: float) -> str:
        """The snapshot message as JSON (``{"type": "lobby", section: [line…]…}``), from the
        lines' own texts: only a line with a running clock is encoded again."""
        parts = []
        for section, lines in self.sections.items():
            texts = ",".join(text_at(put, now) for put in reversed(lines.values()))
            parts.append(f'"{section}":[{texts}]')
        return '{"type":"lobby",' + ",".join(parts) + "}"

    def snapshot(self, now: float) -> dict[str, list[Line]]:
        """Every line, newest change first, clocks as at `now`."""
        return {
            section: [as_at(put, now) for put in reversed(lines.values())]
            for section, lines in self.sections.items()
        }


def closed(put: Put) -> bool:
    """Whether a line is closed (`CLOSED`): kept a while, then gone."""
    field, values = CLOSED.get(put.section, ("", ()))
    return put.line.get(field) in values


def dumps(data: Any) -> str:
    return json.dumps(data, separators=(",", ":"))


def text_at(put: Put, now: float) -> str:
    """`as_at` as JSON: the line's own text unless its clock runs."""
    line = as_at(put, now)
    return put.text if line is put.line else dumps(line)


def as_at(put: Put, now: float) -> Line:
    """The line with its running clock counted down from when it was made to `now`."""
    clock = put.line.get("clock")
    if not isinstance(clock, dict) or clock.get("running") is None or now <= put.at:
        return put.line
    line = dict(put.line)
    line["clock"] = clock = copy.deepcopy(clock)
    seat = clock["running"]
    left = clock["remaining_ms"]
    if isinstance(seat, int) and 0 <= seat < len(left):
        left[seat] = max(0, round(left[seat] - (now - put.at) * 1000))
    return line


def client_change(change: Change, now: float) -> dict[str, Any]:
    """A change as the page gets it: ``{"type": "lobby_change", "put": {section: [line…]},
    "gone": {section: [key…]}}`` (sections without news left out)."""
    put: dict[str, list[Line]] = {}
    for p in change.puts:
        put.setdefault(p.section, []).append(as_at(p, now))
    gone: dict[str, list[str]] = {}
    for g in change.gones:
        gone.setdefault(g.section, []).append(g.key)
    return {"type": "lobby_change", "put": put, "gone": gone}
