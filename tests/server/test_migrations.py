"""Upgrading a database the previous release wrote (tests/server/data/release-0001.sql, its
dump, made by make_release_db.py with that release's code): every room, move, chat line and
player is there afterwards, every old token still signs its player in, and finished games enter
the archive. On SQLite (the file itself) and on PostgreSQL (the same rows under the old schema)."""

from __future__ import annotations

import asyncio
import json
import sqlite3
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa
from alembic import command
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from alembic.script import ScriptDirectory

from gamehall.server.accounts.identity import token_hash
from gamehall.server.storage import (
    SqlStorage,
    alembic_config,
    make_engine,
    metadata,
    upgrade_schema,
)
from gamehall.server.storage.schema import UPGRADE_LOCK
from tests.server.postgres import pg_bin, postgres_cluster

DATA = Path(__file__).with_name("data")
RELEASE_SQL = DATA / "release-0001.sql"
TOKENS: dict[str, str] = json.loads((DATA / "release-0001.json").read_text())["tokens"]
TABLES = ("players", "rooms", "actions", "chat")


def _release_db(path: Path) -> Path:
    """The release's database file, rebuilt from its dump."""
    conn = sqlite3.connect(path)
    conn.executescript(RELEASE_SQL.read_text())
    conn.close()
    return path


def _release_rows() -> dict[str, list[dict[str, Any]]]:
    conn = sqlite3.connect(":memory:")
    conn.executescript(RELEASE_SQL.read_text())
    conn.row_factory = sqlite3.Row
    rows = {t: [dict(r) for r in conn.execute(f"SELECT * FROM {t} ORDER BY 1, 2")]
            for t in TABLES}
    conn.close()
    return rows


@pytest.fixture(params=["sqlite", "postgresql"])
def old_db(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    """A database holding the release's rows under the release's schema (0001)."""
    if request.param == "sqlite":
        yield f"sqlite:///{_release_db(tmp_path / 'hall.db')}"
        return
    if pg_bin() is None:
        pytest.skip("PostgreSQL is not installed (apt-get install postgresql; .ci/run does)")
    with postgres_cluster() as url:
        engine = make_engine(url)
        upgrade_schema(engine, "0001")
        with engine.begin() as conn:
            for table, rows in _release_rows().items():
                if rows:
                    conn.execute(sa.table(table, *(sa.column(c) for c in rows[0])).insert(), rows)
            for table in ("players", "chat"):  # rows came with their ids: move the sequences on
                conn.execute(sa.text(f"SELECT setval(pg_get_serial_sequence('{table}', 'id'), "
                                     f"(SELECT max(id) FROM {table}))"))
        engine.dispose()
        yield url


def _head() -> str:
    head = ScriptDirectory.from_config(alembic_config()).get_current_head()
    assert head is not None
    return head


def test_the_upgrade_keeps_every_room_player_and_token(old_db: str, test_games: None) -> None:
    before = _release_rows()

    async def scenario() -> dict[str, Any]:
        store = SqlStorage(old_db)
        await store.open()
        try:
            seen: dict[str, Any] = {"rooms": {}, "owners": {}}
            for row in before["rooms"]:
                room = await store.load_room(row["id"])
                assert room is not None, row["id"]
                seen["rooms"][row["id"]] = room
            for name, token in TOKENS.items():
                seen["owners"][name] = await store.token_owner(token_hash(token))
            seen["bob"], _ = await store.finished_games(None, "bob", None, 10)
            seen["hula"], _ = await store.finished_games("hula", None, None, 10)
            seen["bot"] = await store.profile("random bot", 10)
            seen["chat"] = {r["id"]: await store.recent_chat(r["id"], 50) for r in before["rooms"]}
            seen["active"] = sorted(await store.active_room_ids())
            return seen
        finally:
            await store.close()

    seen = asyncio.run(scenario())
    moves: dict[str, list[str]] = {}
    for a in before["actions"]:
        moves.setdefault(a["room_id"], []).append(a["move"])
    for row in before["rooms"]:
        room = seen["rooms"][row["id"]]
        assert (room.game_name, room.status, room.seed, room.ended_by, room.outcome) == \
            (row["game"], row["status"], row["seed"], row["ended_by"], row["outcome"])
        assert [o.to_json() if o else None for o in room.seats] == \
            json.loads(row["seats"])
        assert [m.move for m in room.moves] == moves.get(row["id"], [])
        assert room.rated is (None if row["status"] == "waiting" else False)
        assert (room.ended_at is not None) == (row["status"] == "finished")
        lines = [(c.sender, c.text) for c in seen["chat"][row["id"]]]
        assert lines == [(c["sender"], c["text"]) for c in before["chat"]
                         if c["room_id"] == row["id"]]
    assert seen["active"] == sorted(r["id"] for r in before["rooms"] if r["status"] != "finished")
    ids = {p["nickname"]: p["id"] for p in before["players"]}
    for name in TOKENS:
        owner = seen["owners"][name]
        assert owner is not None and (owner.player_id, owner.nickname) == (ids[name], name)
        assert owner.account is False
    finished = {r["id"] for r in before["rooms"] if r["status"] == "finished"}
    assert {g["room"] for g in seen["bob"]} == finished  # bob played both finished games
    assert [g["game"] for g in seen["hula"]] == ["hula"]
    assert seen["bot"]["bot"] == "random" and len(seen["bot"]["recent"]) == 1

    engine = make_engine(old_db)
    with engine.connect() as conn:
        diff = compare_metadata(MigrationContext.configure(conn), metadata)
        version = conn.execute(sa.text("SELECT version_num FROM alembic_version")).scalar()
    engine.dispose()
    assert diff == [] and version == _head()


def test_a_downgrade_gives_each_player_back_their_token(tmp_path: Path) -> None:
    """The way back exists too: down to 0001 and up again loses no player or token."""
    engine = make_engine(f"sqlite:///{_release_db(tmp_path / 'hall.db')}")
    upgrade_schema(engine)
    cfg = alembic_config()
    with engine.begin() as conn:
        cfg.attributes["connection"] = conn
        command.downgrade(cfg, "0001")
    with engine.connect() as conn:
        back = {r.nickname: r.token_hash for r in conn.execute(
            sa.text("SELECT nickname, token_hash FROM players"))}
    assert back == {name: token_hash(t) for name, t in TOKENS.items()}
    upgrade_schema(engine)
    with engine.connect() as conn:
        assert conn.execute(sa.text("SELECT count(*) FROM tokens")).scalar() == len(TOKENS)
    engine.dispose()




def _waiting_on_upgrade_lock(conn: sa.Connection) -> int:
    """How many sessions wait for the upgrade lock (pg_locks splits a bigint key in two)."""
    return int(conn.execute(sa.text(
        "SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND NOT granted "
        "AND classid = :hi AND objid = :lo AND objsubid = 1"),
        {"hi": UPGRADE_LOCK >> 32, "lo": UPGRADE_LOCK & 0xFFFFFFFF}).scalar_one())


def test_concurrent_upgrades_wait_for_one_another_on_postgresql() -> None:
    """Two processes upgrade a fresh database at once (two nodes starting): while someone holds
    the upgrade lock both wait, before they touch the schema; let go, one creates it and the
    other then finds it current. Neither fails, and the schema is created once, at the head.
    (Processes, as nodes are: Alembic's `context` is one per process, so two threads of one
    process cannot run migrations at once at all.)"""
    if pg_bin() is None:
        pytest.skip("PostgreSQL is not installed (apt-get install postgresql; .ci/run does)")
    with postgres_cluster() as url:
        engine = make_engine(url)
        code = ("import sys; from gamehall.server.storage import make_engine, upgrade_schema; "
                "upgrade_schema(make_engine(sys.argv[1]))")
        holder, watcher = engine.connect(), engine.connect()
        procs: list[subprocess.Popen[bytes]] = []
        try:
            with holder.begin():
                holder.execute(sa.text("SELECT pg_advisory_xact_lock(:key)"),
                               {"key": UPGRADE_LOCK})
                procs = [subprocess.Popen([sys.executable, "-c", code, url],
                                          stderr=subprocess.PIPE) for _ in range(2)]
                while any(p.poll() is None for p in procs) and \
                        _waiting_on_upgrade_lock(watcher) < len(procs):
                    watcher.rollback()  # a fresh look at pg_locks each time
                assert _waiting_on_upgrade_lock(watcher) == len(procs), \
                    [p.communicate()[1].decode()[-2000:] for p in procs]
                watcher.rollback()
                assert not sa.inspect(watcher).has_table("alembic_version")
            # the holder's transaction ended: the lock is free
            outcomes = [(p.wait(120), p.communicate()[1].decode()[-2000:]) for p in procs]
            assert [rc for rc, _ in outcomes] == [0, 0], outcomes
            watcher.rollback()
            versions = watcher.execute(sa.text("SELECT version_num FROM alembic_version"))
            assert [v for (v,) in versions] == [_head()]
            assert compare_metadata(MigrationContext.configure(watcher), metadata) == []
        finally:
            for p in procs:
                if p.poll() is None:
                    p.kill()
                    p.wait()
            holder.close()
            watcher.close()
            engine.dispose()
