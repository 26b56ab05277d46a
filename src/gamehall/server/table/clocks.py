"""Time controls and game clocks, pure: parsing ``"5+3"``, ``"0.1+0"``, ``"2d"``, and the clock
arithmetic over a time source the hall injects (seconds as a float). Nothing here sleeps or reads
the time itself, so tests drive every clock with numbers.

Rules the hall relies on (docs/protocol.md, "Clocks", says the same for players):
- Only a person's turn runs a clock. A bot's turn, a chance step (drawn at once by the server) and
  the time before the start and after the end cost nobody anything.
- A turn is everything one seat plays before another seat is to move: the steps of a multi-step
  turn (Haugaz, Hotu Matua, Hau La) are one turn, so the increment is added once, and a
  correspondence deadline covers the whole turn.
- ``M+S`` (Fischer): M minutes each, S seconds added when the seat's turn ends.
  ``Nd`` (correspondence): at most N days for each turn; the next turn starts afresh.
"""

from __future__ import annotations

import re
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from decimal import Decimal, InvalidOperation
from typing import Any

from gamehall.core.messages import Message, msg

MAX_MINUTES = Decimal(180)
"""Longest starting time of a ``M+S`` control."""
MAX_INCREMENT = 180
"""Largest increment, in seconds."""
MAX_DAYS = 14
"""Longest correspondence turn, in days."""
LOW_FRACTION = 0.1
"""A clock is low (the page shows it red) under this share of its control's starting time..."""
LOW_MS = 10_000
"""...or under ten seconds, whichever is more."""

_UNTIMED = {"", "none", "off", "untimed", "no", "-"}
_FISCHER = re.compile(r"^(\d{1,3}(?:\.\d{1,2})?)\s*\+\s*(\d{1,3})$", re.ASCII)
_DAYS = re.compile(r"^(\d{1,2})\s*d$", re.ASCII)


class ClockError(ValueError):
    """A time control that cannot be used; `said` is the sentence for people."""

    def __init__(self, said: Message) -> None:
        super().__init__(said.text)
        self.said = said


@dataclass(frozen=True)
class TimeControl:
    """A parsed time control; `text` is its canonical spelling (``"0.1+0"``, ``"2d"``)."""

    text: str
    base_ms: int
    """Each seat's starting time (``M+S``), or the time for each turn (``Nd``)."""
    increment_ms: int = 0
    per_turn: bool = False
    """True for correspondence (``Nd``): the clock restarts at `base_ms` every turn."""

    def low_ms(self) -> int:
        """Below this a clock counts as low."""
        return max(LOW_MS, int(self.base_ms * LOW_FRACTION))


def parse_control(text: str | None) -> TimeControl | None:
    """The time control `text` names; None for an untimed game (null, ``""``, ``"off"``).

    ``M+S``: M minutes (0 < M <= 180, up to two decimals: ``0.1+0`` is six seconds) and S whole
    seconds of increment (0 to 180). ``Nd``: N whole days per turn (1 to 14)."""
    if text is None:
        return None
    if not isinstance(text, str):
        raise ClockError(msg("error.clock.not_text"))
    t = text.strip().lower()
    if t in _UNTIMED:
        return None
    m = _FISCHER.match(t)
    if m:
        try:
            minutes = Decimal(m.group(1))
        except InvalidOperation:  # pragma: no cover - the pattern admits only decimals
            raise ClockError(msg("error.clock.unknown", text=text[:40])) from None
        inc = int(m.group(2))
        if not 0 < minutes <= MAX_MINUTES:
            raise ClockError(msg("error.clock.base", most=int(MAX_MINUTES)))
        if inc > MAX_INCREMENT:
            raise ClockError(msg("error.clock.increment", most=MAX_INCREMENT))
        shown = format(minutes.normalize(), "f")
        return TimeControl(f"{shown}+{inc}", int(minutes * 60_000), inc * 1000)
    m = _DAYS.match(t)
    if m:
        days = int(m.group(1))
        if not 1 <= days <= MAX_DAYS:
            raise ClockError(msg("error.clock.days", most=MAX_DAYS))
        return TimeControl(f"{days}d", days * 86_400_000, 0, per_turn=True)
    raise ClockError(msg("error.clock.unreadable", text=text[:40]))


def _ms(seconds: float) -> int:
    return max(0, round(seconds * 1000))


@dataclass
class Clock:
    """The clocks of one game. `remaining_ms` is exact for every seat except the running one,
    whose time is `remaining_ms[running]` minus what has passed since `since`."""

    control: TimeControl
    remaining_ms: list[int]
    turn: int | None = None
    """The seat whose turn is in progress (a person's or a bot's); None before and after."""
    running: int | None = None
    """The seat whose clock runs: `turn` when a person plays it, else None."""
    since: float | None = None
    """When `running`'s clock started (hall time, seconds)."""
    flagged: list[int] = field(default_factory=list)
    """Seats whose time ran out, in order."""
    berserk_ok: bool = False
    """Whether a seat may go berserk (an arena's game: the tournament director says so)."""
    berserk: list[int] = field(default_factory=list)
    """Seats that went berserk: half their time taken, no increment (lichess's arena)."""

    @classmethod
    def new(cls, control: TimeControl, seats: int) -> Clock:
        return cls(control, [control.base_ms] * seats)

    def copy(self) -> Clock:
        return Clock(self.control, list(self.remaining_ms), self.turn, self.running, self.since,
                     list(self.flagged), self.berserk_ok, list(self.berserk))

    # --- reading ------------------------------------------------------------------------------
    def remaining(self, now: float) -> list[int]:
        """Every seat's time left at `now` (never below zero)."""
        out = list(self.remaining_ms)
        if self.running is not None and self.since is not None:
            out[self.running] = max(0, out[self.running] - _ms(now - self.since))
        return out

    def deadline(self) -> float | None:
        """When the running seat's time runs out (hall time), or None when no clock runs."""
        if self.running is None or self.since is None:
            return None
        return self.since + self.remaining_ms[self.running] / 1000

    def expired(self, now: float) -> bool:
        deadline = self.deadline()
        return deadline is not None and now >= deadline

    def public(self, now: float) -> dict[str, Any]:
        """The ``clock`` object of the state message."""
        out = {"control": self.control.text, "remaining_ms": self.remaining(now),
               "running": self.running, "low_ms": self.control.low_ms()}
        if self.berserk_ok:
            out["berserk"] = list(self.berserk)
        return out

    # --- changing -----------------------------------------------------------------------------
    def advance(self, now: float, to_move: int | None, timed: bool) -> None:
        """Bring the clock up to date after a change: `to_move` is the seat to play now (None at
        the end), `timed` whether a person plays it. When the turn passes to another seat the
        seat that played is charged and gets its increment (or a fresh correspondence turn)."""
        if to_move != self.turn:
            self._end_turn(now, credit=True)
            self.turn = to_move
            if to_move is not None and timed:
                self.running, self.since = to_move, now
            return
        if self.running is not None and not timed:  # the same turn, now played by a bot
            self._end_turn(now, credit=False)
            self.turn = to_move
        elif self.running is None and timed and to_move is not None:
            self.running, self.since = to_move, now

    def go_berserk(self, seat: int) -> None:
        """`seat` goes berserk (check `berserk_ok` first): half its starting time is taken
        from what it has left, and it gets no increment from now on (lichess's arena)."""
        self.remaining_ms[seat] = max(0, self.remaining_ms[seat] - self.control.base_ms // 2)
        self.berserk.append(seat)

    def stop(self, now: float) -> None:
        """The game is over: charge the running seat (no increment) and stop."""
        self._end_turn(now, credit=False)
        self.turn = None

    def flag(self, now: float) -> int:
        """The running seat's time is up (check `expired` first): its clock shows 0 and stops."""
        seat = self.running
        assert seat is not None and self.expired(now)
        self.remaining_ms[seat] = 0
        self.running, self.since = None, None
        self.flagged.append(seat)
        return seat

    def resume(self, now: float, alive_at: float | None) -> None:
        """After a restart: the running seat pays for its turn up to `alive_at` (the last moment
        the previous server is known to have run), never for the downtime after it."""
        if self.running is None or self.since is None:
            return
        paid_until = self.since if alive_at is None else min(now, max(alive_at, self.since))
        self.remaining_ms[self.running] = max(
            0, self.remaining_ms[self.running] - _ms(paid_until - self.since))
        self.since = now

    def _end_turn(self, now: float, credit: bool) -> None:
        seat = self.running
        if seat is None:
            return
        left = self.remaining(now)[seat]
        if credit:
            left = self.control.base_ms if self.control.per_turn else \
                left + (0 if seat in self.berserk else self.control.increment_ms)
        self.remaining_ms[seat] = left
        self.running, self.since = None, None

    # --- storage ------------------------------------------------------------------------------
    def to_json(self) -> dict[str, Any]:
        """What the room row stores (with the control text in its own column)."""
        return {"remaining_ms": list(self.remaining_ms), "turn": self.turn,
                "running": self.running, "since": self.since, "flagged": list(self.flagged),
                **({"berserk_ok": True, "berserk": list(self.berserk)} if self.berserk_ok
                   else {})}

    @classmethod
    def from_json(cls, control: TimeControl, data: dict[str, Any]) -> Clock:
        return cls(control, [int(x) for x in data["remaining_ms"]], data.get("turn"),
                   data.get("running"), data.get("since"),
                   [int(x) for x in data.get("flagged", [])], bool(data.get("berserk_ok")),
                   [int(x) for x in data.get("berserk", [])])


def untimed_public(control: TimeControl | None, seats: int) -> dict[str, Any] | None:
    """The ``clock`` object of a room that has not started (or None when it is untimed)."""
    if control is None:
        return None
    return Clock.new(control, seats).public(0.0)


TimeSource = Callable[[], float]


def wall_time() -> float:
    """The hall's default time source: seconds since the epoch, so stored deadlines mean the
    same after a restart. Tests and simulations install their own with `use_time_source`."""
    return _source[0]()


_source: list[TimeSource] = [time.time]


def use_time_source(source: TimeSource) -> None:
    """Make `wall_time` read `source` (a plug-in loaded by ``gamehall serve --plugin`` may do
    this: the hall's tests drive a real server's clocks with it)."""
    _source[0] = source


def stamp(t: float) -> str:
    """A clock reading as stored (ISO 8601, UTC, milliseconds)."""
    return datetime.fromtimestamp(t, UTC).isoformat(timespec="milliseconds")


def seconds(text: str) -> float:
    """A stored stamp back as a clock reading."""
    return datetime.fromisoformat(text).timestamp()
