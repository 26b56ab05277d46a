"""Nodes started together, as a service manager starts them: three `gamehall serve` processes
launched in the same instant on one PostgreSQL database, fresh or at an older schema. Every one
comes up (none dies because another is creating or upgrading the schema), and the schema ends at
the head revision, created once. deploy/topology.py starts nodes one at a time, which hid this."""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from pathlib import Path

import httpx
import sqlalchemy as sa
from alembic.script import ScriptDirectory

from deploy.topology import Node, RedisServer
from gamehall.server.storage import alembic_config, make_engine, upgrade_schema
from tests.cluster.helpers import NODE_ENV, node

NODES = 3


def _empty(pg_url: str, revision: str | None = None) -> None:
    """A database with nothing in it, or the schema of `revision` (an older release's)."""
    engine = make_engine(pg_url)
    with engine.begin() as conn:
        conn.execute(sa.text("DROP SCHEMA public CASCADE; CREATE SCHEMA public"))
    if revision is not None:
        upgrade_schema(engine, revision)
    engine.dispose()


def _version(pg_url: str) -> list[str]:
    engine = make_engine(pg_url)
    with engine.connect() as conn:
        rows = [str(r[0]) for r in conn.execute(sa.text("SELECT version_num FROM alembic_version"))]
    engine.dispose()
    return rows


@contextlib.contextmanager
def launched_together(pg_url: str, redis: RedisServer, folder: Path) -> Iterator[list[Node]]:
    """`NODES` nodes launched one right after another (no waiting between), then each waited
    for; all stopped after the block however it ends."""
    nodes = [Node(f"n{i + 1}", folder, pg_url, redis.url, NODE_ENV) for i in range(NODES)]
    try:
        for n in nodes:
            n.launch()
        for n in nodes:
            n.wait_up()
        yield nodes
    finally:
        for n in nodes:
            n.stop()


def _every_node_serves(nodes: list[Node]) -> None:
    for n in nodes:
        assert n.alive(), n.log.read_text()[-3000:]
        r = httpx.get(f"{n.http}/api/health", timeout=30)
        assert r.status_code == 200, r.text
        assert node(n).session(f"player-{n.name}")  # a write on every node's database


def _head() -> str:
    head = ScriptDirectory.from_config(alembic_config()).get_current_head()
    assert head is not None
    return head


def test_three_nodes_started_at_once_on_a_fresh_database(
        pg_url: str, redis_server: RedisServer, tmp_path: Path) -> None:
    _empty(pg_url)
    with launched_together(pg_url, redis_server, tmp_path) as nodes:
        _every_node_serves(nodes)
    assert _version(pg_url) == [_head()]


def test_three_nodes_started_at_once_upgrade_an_older_schema(
        pg_url: str, redis_server: RedisServer, tmp_path: Path) -> None:
    _empty(pg_url, "0002")
    assert _version(pg_url) == ["0002"]
    with launched_together(pg_url, redis_server, tmp_path) as nodes:
        _every_node_serves(nodes)
    assert _version(pg_url) == [_head()]
