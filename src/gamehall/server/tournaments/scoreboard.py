"""A stored tournament's standings: its entries and finished games read as `standings` wants
them, the same for the page, the API and the director's final places."""

from __future__ import annotations

from gamehall.server.tournaments.standings import Entrant, Played, Standing, standings
from gamehall.server.tournaments.store import CREATED, DONE, Entry, TGame, Tournament


def scored(t: Tournament, entries: list[Entry], games: list[TGame]) -> list[Standing]:
    """The standings from the games done (an arena's in the order they ended); before the
    start, those who withdrew are not listed."""
    shown = [e for e in entries if not (e.withdrawn and t.status == CREATED)]
    entrants = [Entrant(e.player_id, e.nickname, e.rating, e.withdrawn) for e in shown]
    known = {e.id for e in entrants}
    done = sorted(
        (g for g in games if g.status == DONE and not g.bye and g.result),
        key=lambda g: (g.ended_at or 0.0, g.round, g.table_no),
    )
    played = [
        Played(g.players, g.result or (), g.moves, g.berserk)
        for g in done
        if set(g.players) <= known
    ]
    byes = [g.players[0] for g in games if g.bye and g.players[0] in known]
    return standings(t.system, entrants, played, byes)
