"""The tournament director: starts tournaments on time, opens their games as rooms, reads their
results, pairs the next round (or, in an arena, whoever is waiting), ends games of no-shows and
finishes each tournament with its places.

One node directs a tournament at a time: in a cluster it holds the tournament's lease in Redis
(`cluster.leases.Leases`, under keys of their own), renewed at every look; another node takes
over once it lapses. Nothing a director knows lives only in its memory: every step reads the
tournament from storage and writes what it decided there, a round's pairing as one
transaction keyed by (tournament, round) that a second director cannot repeat
(`TournamentStore.pair`), each room under an id chosen with its pairing (so it is opened once),
each result read from the room's stored row. A takeover in the middle of anything redoes only
what was not stored.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections import Counter, defaultdict
from collections.abc import Sequence
from fractions import Fraction

from gamehall.server.accounts.identity import Player
from gamehall.server.cluster.leases import Leases
from gamehall.server.hall.hall import Hall
from gamehall.server.hall.write_path import SYSTEM_RANDOM
from gamehall.server.ops.settings import Settings
from gamehall.server.table import protocol as proto
from gamehall.server.table.clocks import parse_control
from gamehall.server.table.errors import RoomError
from gamehall.server.table.room import FINISHED as ROOM_FINISHED
from gamehall.server.table.room import PLAYING as ROOM_PLAYING
from gamehall.server.table.room import Room
from gamehall.server.tournaments import round_robin
from gamehall.server.tournaments.arena_pairing import Waiting, pair_arena, table_arena
from gamehall.server.tournaments.scoreboard import scored
from gamehall.server.tournaments.scoring import place_points
from gamehall.server.tournaments.standings import ARENA, SWISS
from gamehall.server.tournaments.store import (
    CREATED,
    DONE,
    FINISHED,
    OPEN,
    PLAYING,
    RUNNING,
    Entry,
    TGame,
    Tournament,
    TournamentStore,
)
from gamehall.server.tournaments.swiss_pairing import (
    BLACK,
    WHITE,
    SwissPlayer,
    pair_swiss,
    pair_tables,
)

log = logging.getLogger(__name__)

LATER = "later"
"""A round robin's game of a round not begun yet (live round robins play round by round)."""
NO_SHOWS_OUT = 2
"""No-shows after which a player is withdrawn."""
LEASE_PREFIX = "gamehall:tournament-"


def arena_wait(clock: str | None) -> float:
    """How long a player waits in an arena before being paired unless everyone is waiting
    (lichess: clamp(clock / 10 + 6, 15, 50) s, the clock as base + 40 increments)."""
    control = parse_control(clock)
    if control is None:
        return 15.0
    length = (
        control.base_ms / 1000 * (40 if control.per_turn else 1) + 40 * control.increment_ms / 1000
    )
    return min(50.0, max(15.0, length / 10 + 6))


def arena_queue(
    t: Tournament, entries: list[Entry], games: list[TGame], now: float
) -> tuple[list[Entry], float]:
    """Who waits for an arena pairing, and when they are paired: at once when everyone waits,
    else once the longest waiting has waited `arena_wait` (the page shows both, so a small
    arena never pairs slowly for no visible reason)."""
    busy = {p for g in games if g.status in (OPEN, PLAYING) for p in g.players}
    active = [e for e in entries if not e.withdrawn]
    waiting = [e for e in active if e.player_id not in busy]
    last_end: dict[int, float] = {}
    for g in sorted(games, key=lambda g: (g.round, g.table_no)):
        if not g.bye:
            for p in g.players:
                last_end[p] = g.ended_at or now
    if len(waiting) < (2 if t.seats == 2 else 3):
        return waiting, now
    if len(waiting) == len(active):
        return waiting, now
    since = min(last_end.get(e.player_id, t.started_at or now) for e in waiting)
    return waiting, since + arena_wait(t.clock)


def room_id(t: Tournament, round_no: int, table: int) -> str:
    return f"{t.id}-{round_no}-{table}"


class Director:
    """Runs every tournament this node holds the lease of, a look every `tournament_tick`."""

    def __init__(self, hall: Hall, store: TournamentStore, settings: Settings) -> None:
        self.hall, self.store, self.settings = hall, store, settings
        self._task: asyncio.Task[None] | None = None
        self._wake = asyncio.Event()
        self._held: set[str] = set()
        cluster = hall.cluster
        self.leases = (
            None
            if cluster is None
            else Leases(cluster.pubsub.redis, cluster.holder, settings.lease_ms, LEASE_PREFIX)
        )
        self.paired: Counter[tuple[str, int]] = Counter()
        """Rounds this node paired (what a cluster test reads in the log)."""

    def start(self) -> None:
        self._task = asyncio.create_task(self._loop(), name="gamehall-tournaments")

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._task
        if self.leases is not None and self._held:
            with contextlib.suppress(Exception):
                await self.leases.release(sorted(self._held))

    def wake(self) -> None:
        self._wake.set()

    async def game_changed(self, room: Room) -> None:
        """A game ended (or began): if it is a tournament's, look now rather than at the tick."""
        if "-" in room.id:
            self.wake()

    async def _loop(self) -> None:
        while True:
            with contextlib.suppress(asyncio.TimeoutError):
                await asyncio.wait_for(self._wake.wait(), self.settings.tournament_tick)
            self._wake.clear()
            try:
                await self.look()
            except Exception:
                log.exception("the tournament director failed")

    async def look(self) -> None:
        """One look at every tournament not finished that this node directs."""
        for t in await self.store.unfinished():
            if not await self._hold(t.id):
                continue
            try:
                await self.step(t)
            except Exception:
                log.exception("tournament %s failed", t.id)

    async def _hold(self, tid: str) -> bool:
        """Whether this node directs `tid` now (always on a single node)."""
        if self.leases is None:
            return True
        if tid in self._held:
            if (await self.leases.renew([tid]))[0]:
                return True
            self._held.discard(tid)
        if await self.leases.acquire(tid) is not None:
            self._held.add(tid)
            return True
        return False

    # --- one tournament ----------------------------------------------------------------------
    async def step(self, t: Tournament) -> None:
        now = self.hall.clock()
        if t.status == CREATED:
            if now >= t.starts_at:
                await self.begin(t)
            return
        entries = await self.store.entries(t.id)
        games = await self._sync(t, entries, await self.store.games(t.id))
        if t.system == ARENA:
            await self._arena(t, entries, games, now)
        elif t.system == SWISS:
            await self._swiss(t, entries, games)
        else:
            await self._round_robin(t, entries, games)

    async def begin(self, t: Tournament) -> None:
        """Start `t` (finish it at once with fewer players than one table)."""
        entries = [e for e in await self.store.entries(t.id) if not e.withdrawn]
        now = self.hall.clock()
        if len(entries) < max(2, 3 if t.seats > 2 and t.system in (SWISS, ARENA) else t.seats):
            await self.store.set_status(t.id, CREATED, FINISHED, started_at=now, ended_at=now)
            return
        if await self.store.set_status(t.id, CREATED, RUNNING, started_at=now):
            self.wake()

    async def _sync(self, t: Tournament, entries: list[Entry], games: list[TGame]) -> list[TGame]:
        """Open the rooms paired and not made yet, store the results of games that ended, end
        the games of no-shows; the games as they are now."""
        names = {e.player_id: e.nickname for e in entries}
        for g in games:
            if g.status == OPEN:
                await self._open(t, g, names)
        playing = [g for g in games if g.status in (OPEN, PLAYING)]
        ends = await self.store.room_ends([g.room_id for g in playing])
        now = self.hall.clock()
        over = t.ends_at is not None and now >= t.ends_at  # an arena's games no longer count
        changed = False
        for g in playing:
            end = ends.get(g.room_id)
            late = (
                over
                and t.ends_at is not None
                and (end is None or end.ended_at is None or end.ended_at >= t.ends_at)
            )
            if late:  # an arena's game that ended after the arena did: it does not count
                changed |= await self.store.set_game(g.room_id, g.status, "void")
            elif end is not None and end.status == ROOM_FINISHED and end.result is not None:
                changed |= await self.store.set_game(
                    g.room_id, PLAYING, DONE, result=end.result, moves=end.version, ended_at=now
                )
            elif end is not None and end.status == ROOM_PLAYING and not over:
                await self._no_shows(t, g, names, now)
        return await self.store.games(t.id) if changed or playing else games

    async def _open(self, t: Tournament, g: TGame, names: dict[int, str]) -> None:
        """Make the room of a game paired, seated and started, stored before anyone sees it
        (once: its id was chosen with the pairing), and tell the players."""
        now = self.hall.clock()
        if await self.hall.storage.load_room(g.room_id) is None:
            options = dict(t.options)
            if "players" in options:  # a game whose seats are an option (Hau La)
                options["players"] = len(g.players)
            room = self.hall.build_room(t.name[:40], t.game, options, t.rated, t.clock)
            room.id = g.room_id
            accounts = await self.hall.storage.accounts_among(list(g.players))
            for seat, pid in enumerate(g.players):
                room.join(
                    pid,
                    names.get(pid, "?"),
                    seat,
                    account=pid in accounts,
                    bot_account=await self.store.is_bot_account(pid),
                    challenged=True,
                )
            room.start()
            if t.system == ARENA and room.clock is not None and not room.clock.control.per_turn:
                room.clock.berserk_ok = True  # a seat may go berserk (the room action)
            moves = room.resolve_chance(SYSTEM_RANDOM)
            room.settle_clock(now)
            try:
                live = await self.hall.open_room(room, moves)
            except Exception:
                if await self.hall.storage.load_room(g.room_id) is None:
                    raise
            else:
                await self.hall.play_on(live)
        await self.store.set_game(g.room_id, OPEN, PLAYING, started_at=now)

    async def _no_shows(self, t: Tournament, g: TGame, names: dict[int, str], now: float) -> None:
        """A live game whose player to move has made no move `tournament_no_show_seconds`
        after it began: that player resigns it (a no-show), and two no-shows withdraw them."""
        control = parse_control(t.clock)
        if (
            control is None
            or control.per_turn
            or g.started_at is None
            or now - g.started_at < self.settings.tournament_no_show_seconds
        ):
            return
        room = await self.hall.get_room(g.room_id)
        if room.status != ROOM_PLAYING or room.state is None:
            return
        seat = room.state.current_player()
        if not 0 <= seat < len(g.players) or any(m.seat == seat for m in room.moves):
            return
        pid = g.players[seat]
        try:
            await self.hall.execute(
                room, Player(pid, names.get(pid, "?")), proto.parse_request({"type": "resign"})
            )
        except RoomError:
            return
        await self.store.no_show(t.id, pid, NO_SHOWS_OUT)

    async def _pair(
        self,
        t: Tournament,
        round_no: int,
        tables: Sequence[tuple[int, ...]],
        byes: list[int],
        status: str = OPEN,
        table_from: int = 1,
    ) -> bool:
        now = self.hall.clock()
        games = [
            TGame(room_id(t, round_no, i), round_no, i, table, False, status, None, 0, None, None)
            for i, table in enumerate(tables, table_from)
        ]
        games += [
            TGame(f"{t.id}-{round_no}-bye{pid}", round_no, 0, (pid,), True, DONE, None, 0, now, now)
            for pid in byes
        ]
        if not await self.store.pair(t.id, round_no, games, now):
            return False
        self.paired[(t.id, round_no)] += 1
        log.info(
            "tournament %s: round %d paired (%d tables, %d byes)",
            t.id,
            round_no,
            len(tables),
            len(byes),
        )
        self.wake()
        return True

    async def _finish(self, t: Tournament, entries: list[Entry], games: list[TGame]) -> None:
        table = scored(t, entries, games)
        await self.store.set_places(t.id, {s.player.id: s.rank for s in table})
        await self.store.set_status(t.id, RUNNING, FINISHED, ended_at=self.hall.clock())

    # --- the systems -------------------------------------------------------------------------
    async def _arena(
        self, t: Tournament, entries: list[Entry], games: list[TGame], now: float
    ) -> None:
        if t.ends_at is not None and now >= t.ends_at:
            await self._finish(t, entries, games)
            return
        active = [e for e in entries if not e.withdrawn]
        waiting, pair_at = arena_queue(t, entries, games, now)
        if len(waiting) < (2 if t.seats == 2 else 3) or now < pair_at:
            return  # more may finish soon: pair once someone has waited long enough
        last_opp: dict[int, int] = {}
        firsts: Counter[int] = Counter()
        for g in sorted(games, key=lambda g: (g.round, g.table_no)):
            if not g.bye:
                firsts[g.players[0]] += 1
                for p in g.players:
                    last_opp[p] = next(q for q in g.players if q != p)  # (two at a table)
        ranks = {s.player.id: s.rank for s in scored(t, entries, games)}
        alone = len(active) == 2
        pool = [
            Waiting(
                e.player_id,
                ranks.get(e.player_id, len(active)),
                e.rating,
                None if alone else last_opp.get(e.player_id),
            )
            for e in waiting
        ]
        if t.seats > 2:  # tables of 3–4 (Hau La): by rank, points by place
            tables = table_arena(pool, t.seats, firsts)
            if tables:
                await self._pair(t, t.round + 1, tables, [])
            return
        pairs = [p for p in pair_arena(pool) if alone or last_opp.get(p[0]) != p[1]]
        if not pairs:
            return
        tables = [(a, b) if firsts[a] <= firsts[b] else (b, a) for a, b in pairs]
        await self._pair(t, t.round + 1, tables, [])

    async def _swiss(self, t: Tournament, entries: list[Entry], games: list[TGame]) -> None:
        if any(g.status != DONE for g in games if g.round == t.round):
            return
        if t.round >= (t.rounds or 0):
            await self._finish(t, entries, games)
            return
        active = [e for e in entries if not e.withdrawn]
        players = swiss_players(entries, games, active, t.round)
        if t.seats == 2:
            paired = pair_swiss(players, t.round + 1, t.rounds or 1)
        else:
            paired = pair_tables(players, t.seats)
        await self._pair(t, t.round + 1, paired.tables, paired.byes)

    async def _round_robin(self, t: Tournament, entries: list[Entry], games: list[TGame]) -> None:
        active = [e for e in entries if not e.withdrawn]
        if t.round == 0:
            by_rating = [
                e.player_id for e in sorted(active, key=lambda e: (-e.rating, e.joined_at))
            ]
            plan = round_robin.schedule(by_rating, t.seats)
            control = parse_control(t.clock)
            correspondence = control is not None and control.per_turn
            tables = [(r, table) for r, tables_r in enumerate(plan, 1) for table in tables_r]
            now = self.hall.clock()
            rows = [
                TGame(
                    room_id(t, r, i),
                    r,
                    i,
                    table,
                    False,
                    OPEN if correspondence or r == 1 else LATER,
                    None,
                    0,
                    None,
                    None,
                )
                for i, (r, table) in enumerate(tables, 1)
            ]
            if await self.store.pair(t.id, 1, rows, now):
                self.paired[(t.id, 1)] += 1
                self.wake()
            return
        gone = {e.player_id for e in entries if e.withdrawn}
        for g in games:
            if g.status == LATER and set(g.players) & gone:
                await self.store.set_game(g.room_id, LATER, "void")
        if any(g.status in (OPEN, PLAYING) for g in games):
            return
        later = sorted({g.round for g in games if g.status == LATER})
        if not later:
            await self._finish(t, entries, games)
            return
        for g in games:
            if g.round == later[0] and g.status == LATER:
                await self.store.set_game(g.room_id, LATER, OPEN)
        await self.store.set_round(t.id, later[0])
        self.wake()


def swiss_players(
    entries: list[Entry], games: list[TGame], active: list[Entry], rounds_done: int
) -> list[SwissPlayer]:
    """The players as the Swiss pairing sees them, from the games so far: points, the seat of
    each round (white first), floats (up or down to a player with more or fewer points), byes,
    opponents met and first seats."""
    score: dict[int, Fraction] = defaultdict(Fraction)
    colours: dict[int, list[str | None]] = defaultdict(list)
    floats: dict[int, list[str]] = defaultdict(list)
    byes: Counter[int] = Counter()
    met: dict[int, set[int]] = defaultdict(set)
    firsts: Counter[int] = Counter()
    for r in range(1, rounds_done + 1):
        before = dict(score)
        for g in (g for g in games if g.round == r):
            if g.bye:
                p = g.players[0]
                byes[p] += 1
                colours[p].append(None)
                floats[p].append("down")
                score[p] += 1
                continue
            firsts[g.players[0]] += 1
            for seat, p in enumerate(g.players):
                others = [q for q in g.players if q != p]
                met[p] |= set(others)
                colours[p].append((WHITE if seat == 0 else BLACK) if len(g.players) == 2 else None)
                mine, theirs = (
                    before.get(p, Fraction(0)),
                    max(before.get(q, Fraction(0)) for q in others),
                )
                floats[p].append("up" if theirs > mine else "down" if theirs < mine else "none")
                if g.result is not None:
                    score[p] += place_points(g.result, seat)
    return [
        SwissPlayer(
            e.player_id,
            score[e.player_id],
            e.rating,
            start,
            tuple(colours[e.player_id]),
            tuple(floats[e.player_id]),
            byes[e.player_id],
            frozenset(met[e.player_id]),
            firsts[e.player_id],
        )
        for start, e in enumerate(entries, 1)
        if e in active
    ]
