"""The requests that change a table, one small dataclass each, read from a validated `Request`.

The protocol's `Request` is what a client sent (a type and its fields, checked by
`protocol.parse_request`); a change is what the hall's write path does with it. Typed, so that
the write path dispatches on the class (`WritePath.APPLY`) and each handler reads named fields.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from gamehall.server.table.protocol import Request, SeatRef


@dataclass(frozen=True)
class PlayMove:
    """Play `move` (the game's notation) at the room's `version`."""

    move: str
    version: int


@dataclass(frozen=True)
class PlayTurn:
    """Play the steps `moves` (notation, in order) of one turn at the room's `version`, all or
    none: a step refused refuses the turn, and nothing changes."""

    moves: tuple[str, ...]
    version: int


@dataclass(frozen=True)
class Join:
    """Sit down: at `seat`, or at the first free seat."""

    seat: SeatRef | None = None


@dataclass(frozen=True)
class Leave:
    """Stand up from one's seat (or take a house bot off `seat`)."""

    seat: SeatRef | None = None


@dataclass(frozen=True)
class Spectate:
    """Stand up and watch (nothing to do for someone not seated)."""


@dataclass(frozen=True)
class SeatBot:
    """Seat a house bot of `level` at `seat` (or hand it an absent player's seat)."""

    level: str | None = None
    seat: SeatRef | None = None


@dataclass(frozen=True)
class SetClock:
    """Set the time control (`control` None: untimed)."""

    control: str | None = None


@dataclass(frozen=True)
class SetOption:
    """Set one game option before the start."""

    key: str
    value: str | int | bool


@dataclass(frozen=True)
class SetRated:
    """Say whether the game counts for the ratings."""

    value: bool


@dataclass(frozen=True)
class Start:
    """Start the game."""


@dataclass(frozen=True)
class Resign:
    """Give the game up."""


@dataclass(frozen=True)
class Berserk:
    """Halve one's clock for a bonus point (an arena's game, before one's first move)."""


@dataclass(frozen=True)
class Claim:
    """Claim against the absent player to move."""


@dataclass(frozen=True)
class Rematch:
    """Ask for (or agree to) the same game again."""


Change = (PlayMove | PlayTurn | Join | Leave | Spectate | SeatBot | SetClock | SetOption
          | SetRated | Start | Resign | Berserk | Claim | Rematch)

MANAGING: tuple[type, ...] = (SetOption, SeatBot, Start, SetRated, SetClock)
"""Changes that set up the table: only for the people at it (`WritePath._check_may_manage`)."""

_READ: dict[str, Callable[[dict[str, Any]], Change]] = {
    "move": lambda a: PlayMove(a["move"], a["version"]),
    "turn": lambda a: PlayTurn(tuple(a["moves"]), a["version"]),
    "join": lambda a: Join(a.get("seat")),
    "leave": lambda a: Leave(a.get("seat")),
    "spectate": lambda a: Spectate(),
    "bot": lambda a: SeatBot(a.get("level"), a.get("seat")),
    "clock": lambda a: SetClock(a.get("control")),
    "option": lambda a: SetOption(a["key"], a["value"]),
    "rated": lambda a: SetRated(a["value"]),
    "start": lambda a: Start(),
    "resign": lambda a: Resign(),
    "berserk": lambda a: Berserk(),
    "claim": lambda a: Claim(),
    "rematch": lambda a: Rematch(),
}


def change_of(req: Request) -> Change | None:
    """The change `req` asks for; None for a request that changes no table (a question such as
    ``who`` or ``rated`` without a value, chat, a hint)."""
    if req.kind == "rated" and "value" not in req.args:
        return None
    read = _READ.get(req.kind)
    return read(req.args) if read is not None else None
