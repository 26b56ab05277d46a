"""Storage on SQLite and PostgreSQL through the same SQLAlchemy code: migrations, durability
semantics, group commit, and a whole game through a real server on PostgreSQL."""

from __future__ import annotations

import asyncio
import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from alembic.script import ScriptDirectory

from gamehall.server.storage import (
    ChatLine,
    NicknameTaken,
    SqlStorage,
    alembic_config,
    make_engine,
    metadata,
)
from gamehall.server.storage.loopdb import LoopConnection
from gamehall.server.table.room import Room
from tests.server.live import Client, Server, play_random
from tests.server.postgres import pg_bin, postgres_cluster


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
    with engine.begin() as conn:  # a clean database for each test
        conn.execute(sa.text("DROP SCHEMA public CASCADE; CREATE SCHEMA public"))
    engine.dispose()
    return str(url)


def _room(n: int) -> Room:
    return Room(id=f"room{n}", game_name="testrace", options={"goal": 40}, created_by="ann",
                seed=2**62 + n)


def test_migrations_build_exactly_the_schema_the_code_uses(db_url: str, test_games: None) -> None:
    async def scenario() -> None:
        store = SqlStorage(db_url)
        await store.open()
        await store.close()
        store = SqlStorage(db_url)  # a second start finds the schema up to date
        await store.open()
        await store.close()

    asyncio.run(scenario())
    engine = make_engine(db_url)
    with engine.connect() as conn:
        diff = compare_metadata(MigrationContext.configure(conn), metadata)
        version = conn.execute(sa.text("SELECT version_num FROM alembic_version")).scalar()
    engine.dispose()
    assert diff == [] and version == _head()


def _head() -> str:
    head = ScriptDirectory.from_config(alembic_config()).get_current_head()
    assert head is not None
    return head


def test_a_database_of_the_first_schema_is_upgraded_with_every_room_and_player(
        db_url: str, test_games: None) -> None:
    """A hall stored by the schema before clocks (revision 0001) opens with everything intact:
    its rooms are untimed and link no rematch."""
    from alembic import command

    engine = make_engine(db_url)
    cfg = alembic_config()
    with engine.begin() as conn:
        cfg.attributes["connection"] = conn
        command.upgrade(cfg, "0001")
        conn.execute(sa.text(
            "INSERT INTO players (nickname, nickname_key, token_hash, created_at) "
            "VALUES ('Old', 'old', 'oldhash', 't')"))
        conn.execute(sa.text(
            "INSERT INTO rooms (id, game, options, status, seed, seats, version, created_by, "
            "created_at, updated_at) VALUES ('old1', 'testline', '{\"size\": 3, \"misere\": "
            "false}', 'playing', 5, '[{\"nickname\": \"Old\", \"player_id\": 1, \"bot\": "
            "null}, {\"nickname\": \"random bot\", \"player_id\": null, \"bot\": "
            "\"random\"}]', 1, 'Old', 't', 't')"))
        conn.execute(sa.text("INSERT INTO actions (room_id, idx, seat, action, move) "
                             "VALUES ('old1', 0, 0, 4, 'b2')"))
    engine.dispose()

    async def scenario() -> None:
        store = SqlStorage(db_url)
        await store.open()
        assert await store.player_by_token("oldhash") == (1, "Old")
        room = await store.load_room("old1")
        assert room is not None and room.status == "playing" and room.version == 1
        assert [m.move for m in room.moves] == ["b2"] and room.seats[0] is not None
        assert room.time_control is None and room.clock is None and room.rematch is None
        assert await store.active_room_ids() == ["old1"]
        assert await store.last_alive() is None
        await store.close()

    asyncio.run(scenario())


def test_clocks_rematch_links_and_the_last_sign_of_life_round_trip(
        db_url: str, test_games: None) -> None:
    async def scenario() -> None:
        store = SqlStorage(db_url)
        await store.open()
        old, new = _room(1), _room(2)
        old.set_clock("0.5+2")
        old.join(1, "Ann", None)
        old.set_bot("random", "random bot", None)
        old.start()
        old.settle_clock(1000.0)
        old.rematch, new.rematch_of = new.id, old.id
        await store.save_rooms([(old, []), (new, [])])
        back = await store.load_room(old.id)
        assert back is not None and back.clock == old.clock and back.clock is not None
        assert back.time_control == old.time_control and back.rematch == new.id
        assert back.clock.deadline() == 1030.0
        linked = await store.load_room(new.id)
        assert linked is not None and linked.rematch_of == old.id and linked.clock is None
        await store.mark_alive(1234.5)
        await store.mark_alive(1240.25)
        assert await store.last_alive() == 1240.25
        await store.close()

    asyncio.run(scenario())


def test_rooms_moves_chat_and_players_round_trip(db_url: str, test_games: None) -> None:
    async def scenario() -> None:
        store = SqlStorage(db_url)
        await store.open()
        pid = await store.add_player("Ann", "h1")
        with pytest.raises(NicknameTaken):
            await store.add_player("ANN", "h2")
        assert await store.player_by_token("h1") == (pid, "Ann")
        rooms = [_room(i) for i in range(30)]
        await asyncio.gather(*(store.save_room(r) for r in rooms))
        rng = random.Random(2)
        saves = []
        for r in rooms:  # many rooms' moves committed concurrently (one group commit)
            r.join(pid, "Ann", None)
            r.set_bot("random", "random bot", None)
            r.start()
            moves = []
            for _ in range(3):
                seat = r.to_move()
                assert seat is not None and r.state is not None
                moves.append(r.apply(seat, rng.choice(r.state.legal_actions())))
                moves += r.resolve_chance(rng)
            saves.append(store.save_room(r, moves))
        await asyncio.gather(*saves, store.add_chat("room3", ChatLine("Ann", "hi", "t")))
        for r in rooms:
            back = await store.load_room(r.id)
            assert back is not None and back.moves == r.moves and back.seed == r.seed
            assert back.snapshot(0, set()) == r.snapshot(0, set())
        assert sorted(await store.active_room_ids()) == sorted(r.id for r in rooms)
        assert [c.text for c in await store.recent_chat("room3", 10)] == ["hi"]
        assert len(await store.list_rooms("playing", 5)) == 5
        assert await store.load_room("nope") is None
        await store.close()

    asyncio.run(scenario())


def test_a_broken_writer_connection_costs_a_retry_and_no_write(db_url: str,
                                                                test_games: None) -> None:
    """The writer keeps its connections between commits (no checkout and ping per commit): the
    writer thread's, and on PostgreSQL the event loop's own, in autocommit, for a move's
    one-statement commit. When they break (the database restarted, the server ended the
    sessions) the write is retried on new ones and lands."""
    async def scenario() -> None:
        store = SqlStorage(db_url)
        await store.open()
        postgresql = db_url.startswith("postgresql")
        room = _room(1)
        await store.save_room(room)                  # a new room: the writer thread
        await store.save_room(room)                  # a stored one: on PostgreSQL, the loop
        writer, here = store._writer, _loop_connection(store)
        assert writer is not None and (here is not None) == postgresql
        await store.save_room(room)
        assert store._writer is writer and _loop_connection(store) is here  # kept
        raw = writer.connection.dbapi_connection
        assert raw is not None
        if postgresql:                               # the server ends the writer's sessions
            engine = sa.create_engine(db_url)
            with engine.begin() as conn:
                for pid in (raw.info.backend_pid, here.info.backend_pid):  # type: ignore
                    conn.execute(sa.text("SELECT pg_terminate_backend(:pid)"), {"pid": pid})
            engine.dispose()
        else:
            raw.close()
        room.join(1, "ann", None)
        await store.save_room(room)                  # fails once, retried on new connections
        assert store._writer is not writer and _loop_connection(store) is None
        back = await store.load_room(room.id)
        assert back is not None and back.seats[0] is not None
        await store.save_room(room)                  # the loop's connection is opened again
        assert (_loop_connection(store) is not None) == postgresql
        assert here is None or _loop_connection(store) is not here
        await store.close()

    asyncio.run(scenario())


def _loop_connection(store: SqlStorage, reads: bool = False) -> Any:
    """The psycopg connection the event loop keeps for commits (or token look-ups), or None."""
    here = store._reads_here if reads else store._here
    return None if here is None else here.connection


def test_a_token_look_up_answers_through_a_broken_connection(db_url: str,
                                                             test_games: None) -> None:
    """On PostgreSQL the event loop looks tokens up on a connection of its own; when the
    server ends it, that look-up is made by a reader thread, and the next opens a new one."""
    async def scenario() -> None:
        store = SqlStorage(db_url)
        await store.open()
        pid = await store.add_player("tokenann", "hash-1", "2026-12-02T00:00:00Z")
        found = await store.token_owner("hash-1")
        assert found is not None and (found.player_id, found.nickname) == (pid, "tokenann")
        assert not found.account and await store.token_owner("hash-2") is None
        here = _loop_connection(store, reads=True)
        assert (here is not None) == db_url.startswith("postgresql")
        if here is not None:
            engine = sa.create_engine(db_url)
            with engine.begin() as conn:
                conn.execute(sa.text("SELECT pg_terminate_backend(:pid)"),
                             {"pid": here.info.backend_pid})
            engine.dispose()
            again = await store.token_owner("hash-1")   # by a reader thread
            assert again == found and _loop_connection(store, reads=True) is None
            assert await store.token_owner("hash-1") == found
            assert _loop_connection(store, reads=True) not in (None, here)
        await store.close()

    asyncio.run(scenario())


def test_the_loops_connection_is_opened_once_and_a_failure_closes_only_its_own(
        pg_url: str) -> None:
    """Many look-ups at once open one connection; a statement that fails closes the connection
    it ran on, not the one another task has opened since; after `close` nothing runs."""
    async def scenario() -> None:
        engine = sa.create_engine(pg_url)
        here = LoopConnection(engine)
        cursors = await asyncio.gather(*(here.execute("SELECT %(n)s::int", {"n": n})
                                         for n in range(20)))
        assert [(await c.fetchone())[0] for c in cursors] == list(range(20))
        first = here.connection
        assert first is not None and all(c.connection is first for c in cursors)
        with pytest.raises(Exception, match="division by zero"):
            await here.execute("SELECT 1 / 0", None)  # closed: the next opens a new one
        assert here.connection is None and first.closed
        await here.execute("SELECT 1", None)
        second = here.connection
        assert second is not None and second is not first
        await here._drop(first)  # a task late with the old one leaves the new one alone
        assert here.connection is second and not second.closed
        await here.close()
        assert second.closed
        with pytest.raises(RuntimeError, match="closed"):
            await here.execute("SELECT 1", None)
        engine.dispose()

    asyncio.run(scenario())


def test_a_broken_reader_connection_costs_a_retry_and_the_read_answers(
        db_url: str, test_games: None) -> None:
    """Each reader thread keeps one connection, in autocommit (no checkout, ping or rollback
    per read); when those break, a read is tried again on a new connection and answers."""
    async def scenario() -> None:
        store = SqlStorage(db_url)
        await store.open()
        room = _room(2)
        await store.save_room(room)
        await asyncio.gather(*(store.load_room(room.id) for _ in range(8)))
        kept = list(store._reader_conns)
        assert kept and len(kept) <= 2                   # one per reader thread, kept
        await asyncio.gather(*(store.load_room(room.id) for _ in range(8)))
        assert all(c in store._reader_conns for c in kept)  # kept, read after read
        assert len(store._reader_conns) <= 2
        kept = list(store._reader_conns)
        raws = [c.connection.dbapi_connection for c in kept]
        if db_url.startswith("postgresql"):              # the server ends the readers' sessions
            engine = sa.create_engine(db_url)
            with engine.begin() as conn:
                for raw in raws:
                    conn.execute(sa.text("SELECT pg_terminate_backend(:pid)"),
                                 {"pid": raw.info.backend_pid})  # type: ignore[union-attr]
            engine.dispose()
        else:
            for raw in raws:
                assert raw is not None
                raw.close()
        backs = await asyncio.gather(*(store.list_rooms(None, 5) for _ in range(8)))
        assert all([b.id for b in back] == [room.id] for back in backs)
        assert any(c not in kept for c in store._reader_conns)  # a broken one was replaced
        await store.close()

    asyncio.run(scenario())


def test_a_whole_game_through_a_server_on_postgresql(pg_url: str, tmp_path: Path) -> None:
    server = Server(pg_url, tmp_path / "server.log", "--rate", "1000", "--burst", "1000")
    server.start()
    try:
        ann, bob = server.session("pgann"), server.session("pgbob")
        room = server.create_room(ann, "testrace")

        async def scenario() -> dict[str, object]:
            a, b = await Client.open(server, room, ann), await Client.open(server, room, bob)
            for c in (a, b):
                await c.command("/join")
                await c.wait(lambda m: m["type"] == "state" and m["seat"] is not None)
            await a.command("/start")
            await a.wait(lambda m: m["type"] == "state" and m["status"] == "playing")
            final = await play_random({0: a, 1: b}, random.Random(8))
            await a.close()
            await b.close()
            return final

        final = asyncio.run(scenario())
        server.kill9()
        server.start()
        rec = server.record(room)
        assert [m["move"] for m in rec["actions"]] == [m["move"] for m in final["moves"]]  # type: ignore[attr-defined]
        assert rec["status"] == "finished"
    finally:
        server.stop()


def test_lookups_of_text_no_player_can_have_find_nothing(db_url: str) -> None:
    """A NUL in a nickname or archive cursor (PostgreSQL refuses it in text) matches nobody."""
    from gamehall.server.storage import UnknownPlayer

    async def scenario() -> None:
        store = SqlStorage(db_url)
        await store.open()
        assert await store.account("ann\x00") is None
        assert await store.profile("\x00", 5) is None
        with pytest.raises(UnknownPlayer):
            await store.finished_games(None, "a\x00", None, 5)
        assert await store.finished_games(None, None, "\x00~x", 5) == ([], None)
        await store.close()

    asyncio.run(scenario())
