"""The pools' catalogue: one quick-pairing pool per (game, options, clock), with its seats and
whether its games are rated. A pool is data, not code: the page learns everything about it from
``GET /api/pools``.

The games are few and rare, so the catalogue is short: one or two clocks per game, and one
correspondence pool (``2d``: two days a move) for those who play slowly. Hau La seats 2, 3 or 4,
so it has one pool per table size (BGA's "play now": one fixed seat count per pool).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cache
from typing import Any

from gamehall.core import game_class


@dataclass(frozen=True)
class Pool:
    """One pool: `id` names it in URLs (``hula-5-3``)."""

    id: str
    game: str
    clock: str
    options: dict[str, Any] = field(default_factory=dict)
    rated: bool = True

    @property
    def seats(self) -> int:
        """The players one table of this pool seats (the game's, with the pool's options)."""
        return _seats(self.game, tuple(sorted(self.options.items())))

    def to_json(self, waiting: int) -> dict[str, Any]:
        """A pool as ``GET /api/pools`` lists it (protocol.md, "Pairing")."""
        return {"id": self.id, "game": self.game, "options": dict(self.options),
                "clock": self.clock, "seats": self.seats, "rated": self.rated,
                "waiting": waiting}


@cache
def _seats(game: str, options: tuple[tuple[str, Any], ...]) -> int:
    """A game's seats with these options (made once: a game may load a board to know)."""
    return int(game_class(game)(**dict(options)).num_players)


def _pool(game: str, clock: str, **options: Any) -> Pool:
    seats = options.get("players")
    name = f"{game}-{seats}p-" if seats else f"{game}-"
    return Pool(name + clock.replace("+", "-"), game, clock, options)


CATALOGUE: tuple[Pool, ...] = (
    _pool("hula", "5+3"),
    _pool("hula", "10+5"),
    _pool("halali", "10+5"),
    _pool("haugaz", "10+5"),
    _pool("hotu_matua", "10+5"),
    _pool("hau_la", "10+5", players=2),
    _pool("hau_la", "10+5", players=3),
    _pool("hau_la", "10+5", players=4),
    _pool("hula", "2d"),
)
"""The hall's pools, in the order the lobby shows them."""

BY_ID = {p.id: p for p in CATALOGUE}


def pool_named(pool_id: str) -> Pool | None:
    return BY_ID.get(pool_id)
