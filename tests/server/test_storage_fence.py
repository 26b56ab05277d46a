"""Fencing in storage (SQLite and PostgreSQL): a write carrying a fencing number behind the
room's stored one is refused and leaves nothing behind; claims raise the stored number; the
cluster's migration keeps every room and player of a database written by the previous schema."""

from __future__ import annotations

import asyncio
import random
from collections.abc import Iterator
from pathlib import Path

import pytest
import sqlalchemy as sa
from alembic import command
from alembic.script import ScriptDirectory

from gamehall.server.storage import Fenced, SqlStorage, alembic_config, make_engine, room_row
from gamehall.server.storage.batch import Write, updates_only
from gamehall.server.table.room import Move, Room
from tests.server.games import HOLD
from tests.server.postgres import pg_bin, postgres_cluster

CLUSTER_MIGRATION = "0004"
"""The revision that adds rooms.fence and rooms.revision."""


@pytest.fixture(scope="module")
def pg_url() -> Iterator[str]:
    if pg_bin() is None:
        pytest.skip("PostgreSQL is not installed (apt-get install postgresql; .ci/run does)")
    with postgres_cluster() as url:
        yield url


@pytest.fixture(params=["sqlite", "postgresql"])
def db_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'store.db'}"
    url = request.getfixturevalue("pg_url")
    engine = sa.create_engine(url)
    with engine.begin() as conn:
        conn.execute(sa.text("DROP SCHEMA public CASCADE; CREATE SCHEMA public"))
    engine.dispose()
    return str(url)


def _started(n: int) -> Room:
    room = Room(id=f"fenced{n}", game_name="testrace", options={"goal": 40}, created_by="ann",
                seed=n)
    room.join(1, "ann", None)
    room.set_bot("random", "random bot", None)
    room.start()
    return room


def _play(room: Room, rng: random.Random) -> list[Move]:
    seat = room.to_move()
    assert seat is not None and room.state is not None
    return [room.apply(seat, rng.choice(room.state.legal_actions())),
            *room.resolve_chance(rng)]


def _exactly(room: Room, rng: random.Random, count: int) -> list[Move]:
    """`count` moves and chance outcomes: random ones, a hold (no chance follows) for the last."""
    moves: list[Move] = []
    while len(moves) < count:
        seat = room.to_move()
        assert seat is not None and room.state is not None
        legal = room.state.legal_actions()
        action = HOLD if count - len(moves) == 1 and HOLD in legal else rng.choice(legal)
        moves += [room.apply(seat, action), *room.resolve_chance(rng)]
    assert len(moves) == count
    return moves


async def _save_and_count(store: SqlStorage, room: Room, moves: list[Move],
                          fence: int | None) -> tuple[int, int]:
    """Save the room with its new moves; how much each short path's counter rose."""
    before = store.stats["updates_only"], store.stats["one_statement"]
    await store.save_room(room, moves, fence=fence)
    return (int(store.stats["updates_only"] - before[0]),
            int(store.stats["one_statement"] - before[1]))


def test_a_move_is_one_statement_on_postgresql_whatever_it_carries(
        db_url: str, test_games: None) -> None:
    """On PostgreSQL a change to one stored room is committed in one statement: with no move,
    one move or several (each count its own statement), and the moves land exactly; past
    `ONE_STATEMENT_MOVES` it goes `batch.commit_updates`' way. A write behind the fence changes
    nothing, in one statement or in two, and is refused by the general path."""
    async def scenario() -> None:
        store = SqlStorage(db_url)
        await store.open()
        one = 1 if db_url.startswith("postgresql") else 0
        room, rng = _started(50), random.Random(5)
        assert await _save_and_count(store, room, [], 3) == (0, 0)      # new: the general way
        room.revision = 1
        assert await _save_and_count(store, room, [], 3) == (1, one)    # no move
        most = SqlStorage.ONE_STATEMENT_MOVES
        for count in (1, 3, most, most + 1):
            room.revision += 1
            took = await _save_and_count(store, room, _exactly(room, rng, count), 3)
            assert took == (1, one if count <= most else 0)
        assert await store.claim_room(room.id, 4) == 3
        kept, revision = len(room.moves), room.revision
        for count in (2, most + 1):                                     # one statement, two
            room.revision = revision + 1
            with pytest.raises(Fenced):
                await _save_and_count(store, room, _exactly(room, rng, count), 3)
        back = await store.load_room(room.id)
        assert back is not None and back.revision == revision
        assert back.moves == room.moves[:kept]
        await store.close()

    asyncio.run(scenario())


def test_a_write_behind_the_stored_fence_is_refused(db_url: str, test_games: None) -> None:
    async def scenario() -> None:
        store = SqlStorage(db_url)
        await store.open()
        room, rng = _started(1), random.Random(1)
        room.revision = 1
        await store.save_room(room, fence=1)
        assert await store.room_fence(room.id) == 1
        assert await store.claim_room(room.id, 2) == 1       # another node takes the room
        assert await store.claim_room(room.id, 2) is None    # a second claim with it: no
        assert await store.claim_room("nowhere", 9) is None
        kept = len(room.moves)
        stale = _play(room, rng)
        with pytest.raises(Fenced):
            await store.save_room(room, stale, fence=1)      # the old owner cannot commit
        back = await store.load_room(room.id)
        assert back is not None and len(back.moves) == kept and back.revision == 1
        room2 = back
        room2.revision = 2
        await store.save_room(room2, _play(room2, rng), fence=2)
        again = await store.load_room(room.id)
        assert again is not None and again.revision == 2 and again.moves == room2.moves
        assert await store.room_fence(room.id) == 2
        await store.close()

    asyncio.run(scenario())


def test_one_refused_write_leaves_the_rest_of_its_batch(db_url: str, test_games: None) -> None:
    async def scenario() -> None:
        store = SqlStorage(db_url)
        await store.open()
        rooms = [_started(10 + i) for i in range(6)]
        await asyncio.gather(*(store.save_room(r, fence=5) for r in rooms))
        assert await store.claim_room(rooms[0].id, 6) == 5
        rng = random.Random(3)
        writes = [store.save_room(r, _play(r, rng), fence=5) for r in rooms]  # one group commit
        results = await asyncio.gather(*writes, return_exceptions=True)
        assert isinstance(results[0], Fenced) and results[1:] == [None] * 5
        for r in rooms:
            back = await store.load_room(r.id)
            assert back is not None
            assert len(back.moves) == (0 if r is rooms[0] else len(r.moves))
        await store.close()

    asyncio.run(scenario())


def test_rooms_saved_together_are_refused_together(db_url: str, test_games: None) -> None:
    """A rematch writes two rooms at once: when one of them is fenced out, neither changes."""
    async def scenario() -> None:
        store = SqlStorage(db_url)
        await store.open()
        old, new = _started(30), _started(31)
        await store.save_room(old, fence=3)
        assert await store.claim_room(old.id, 4) == 3
        old.rematch, new.rematch_of = new.id, old.id
        with pytest.raises(Fenced):
            await store.save_rooms([(old, []), (new, [])], [3, 1])
        assert await store.load_room(new.id) is None
        back = await store.load_room(old.id)
        assert back is not None and back.rematch is None
        await store.save_rooms([(old, []), (new, [])], [4, 1])
        back = await store.load_room(old.id)
        assert back is not None and back.rematch == new.id
        assert await store.room_fence(new.id) == 1
        await store.close()

    asyncio.run(scenario())


def test_two_nodes_racing_for_a_room_exactly_one_commits(pg_url: str, test_games: None) -> None:
    """Two storages on one PostgreSQL (two nodes) both claim a room, each with its own fence,
    and load it; then both write a move at once, many times over: only the larger fence's write
    commits, whichever claim reached the database first."""
    engine = sa.create_engine(pg_url)
    with engine.begin() as conn:
        conn.execute(sa.text("DROP SCHEMA public CASCADE; CREATE SCHEMA public"))
    engine.dispose()

    async def scenario() -> None:
        a, b = SqlStorage(pg_url), SqlStorage(pg_url)
        await a.open()
        await b.open()
        for rnd in range(20):
            room = _started(100 + rnd)
            await a.save_room(room, fence=1)
            low, high = (a, b) if rnd % 2 else (b, a)
            rng = random.Random(rnd)
            both_loaded = asyncio.Barrier(2)

            async def take(store: SqlStorage, fence: int, room_id: str, rng: random.Random,
                           both_loaded: asyncio.Barrier) -> list[Move] | None:
                await store.claim_room(room_id, fence)
                mine = await store.load_room(room_id)
                assert mine is not None
                played = _play(mine, rng)
                await both_loaded.wait()
                try:
                    await store.save_room(mine, played, fence=fence)
                except Fenced:
                    return None
                return mine.moves

            lost, won = await asyncio.gather(take(low, 2, room.id, rng, both_loaded),
                                             take(high, 3, room.id, rng, both_loaded))
            assert lost is None and won is not None
            back = await a.load_room(room.id)
            assert back is not None and back.moves == won
        await a.close()
        await b.close()

    asyncio.run(scenario())


def test_the_migration_keeps_rooms_and_players(db_url: str, test_games: None) -> None:
    """A database written by the schema before the cluster's migration upgrades with every row
    intact (rooms at fence 0 and revision 0)."""
    engine = make_engine(db_url)
    cfg = alembic_config()
    before = ScriptDirectory.from_config(cfg).get_revision(CLUSTER_MIGRATION).down_revision
    assert isinstance(before, str)
    with engine.begin() as conn:
        cfg.attributes["connection"] = conn
        command.upgrade(cfg, before)
    room = _started(7)
    moves = room.moves
    with engine.begin() as conn:
        conn.execute(sa.text("INSERT INTO players (nickname, nickname_key, created_at) "
                             "VALUES ('Ann', 'ann', 't')"))
        columns = {c["name"] for c in sa.inspect(conn).get_columns("rooms")}
        assert "fence" not in columns
        values = {k: v for k, v in room_row(room).items() if k in columns}
        conn.execute(sa.text(f"INSERT INTO rooms ({', '.join(values)}) VALUES "
                             f"({', '.join(':' + k for k in values)})"), values)
        for i, m in enumerate(moves):
            conn.execute(sa.text("INSERT INTO actions VALUES (:r, :i, :s, :a, :m)"),
                         {"r": room.id, "i": i, "s": m.seat, "a": m.action, "m": m.move})
    engine.dispose()

    async def scenario() -> None:
        store = SqlStorage(db_url)
        await store.open()
        back = await store.load_room(room.id)
        assert back is not None and back.moves == moves and back.status == "playing"
        assert back.revision == 0 and await store.room_fence(room.id) == 0
        assert await store.account("ann") is not None
        assert await store.claim_room(room.id, 1) == 0
        await store.close()

    asyncio.run(scenario())
    engine = make_engine(db_url)
    with engine.begin() as conn:  # and back down, keeping the room
        cfg.attributes["connection"] = conn
        command.downgrade(cfg, before)
        assert "fence" not in {c["name"] for c in sa.inspect(conn).get_columns("rooms")}
        assert conn.execute(sa.text("SELECT count(*) FROM actions")).scalar() == len(moves)
    engine.dispose()


def test_a_move_commits_by_updates_alone_and_a_stale_one_still_is_refused(
        db_url: str, test_games: None) -> None:
    """A move (the room stored already, the fence current) takes a short path (on PostgreSQL
    one statement on the event loop, `_commit_in_one`; elsewhere `batch.commit_updates`' two); a
    new room, and a write behind the fence, go the general way, which stores the one and
    refuses the other as before."""
    async def scenario() -> None:
        store = SqlStorage(db_url)
        await store.open()
        room, rng = _started(40), random.Random(4)
        await store.save_room(room, fence=7)                 # new: not an update
        assert store.stats["updates_only"] == 0
        moves = _play(room, rng)
        room.revision = 1
        await store.save_room(room, moves, fence=7)
        assert store.stats["updates_only"] == 1
        plain = _started(41)
        await store.save_room(plain)
        plain.revision = 1
        await store.save_room(plain, _play(plain, rng))      # a single node: no fence at all
        assert store.stats["updates_only"] == 2
        assert await store.claim_room(room.id, 8) == 7
        kept = len(room.moves)
        room.revision = 2
        with pytest.raises(Fenced):
            await store.save_room(room, _play(room, rng), fence=7)
        assert store.stats["updates_only"] == 2
        for saved, count, revision in ((room, kept, 1), (plain, len(plain.moves), 1)):
            back = await store.load_room(saved.id)
            assert back is not None and len(back.moves) == count and back.revision == revision
            assert back.moves == saved.moves[:count]
        assert await store.room_fence(room.id) == 8
        await store.close()

    asyncio.run(scenario())


def test_a_batch_writing_a_room_under_two_fences_takes_the_general_path() -> None:
    """The short paths write a room under the fence of its last row in the batch; a batch that
    carries one room under two fences (a claim between them) is left to `batch.commit_general`,
    which checks every write's own."""
    row = {"id": "twofences"}
    old, new = Write(room=row, fence=3), Write(room=row, fence=4)
    assert updates_only([old, old]) and updates_only([new])
    assert not updates_only([old, new])
