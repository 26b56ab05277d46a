"""Fixtures for the cluster tests: Debian's redis-server on a free port (as deploy/topology.py
starts it), a throwaway PostgreSQL cluster (tests/server/postgres.py), and the whole topology."""

from __future__ import annotations

import contextlib
import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest
import sqlalchemy as sa

from deploy.topology import RedisServer, Topology
from tests.cluster.helpers import NODE_ENV
from tests.server.live import running
from tests.server.postgres import pg_bin, postgres_cluster


def _need(exe: str, package: str) -> None:
    if shutil.which(exe) is None and not Path(f"/usr/sbin/{exe}").exists():
        pytest.skip(f"{exe} is not installed (apt-get install {package}; .ci/run does)")


@pytest.fixture()
def redis_server(tmp_path: Path) -> Iterator[RedisServer]:
    _need("redis-server", "redis-server")
    with running(RedisServer(tmp_path)) as server:
        yield server


@pytest.fixture(scope="module")
def pg_url() -> Iterator[str]:
    if pg_bin() is None:
        pytest.skip("PostgreSQL is not installed (apt-get install postgresql; .ci/run does)")
    with postgres_cluster() as url:
        yield url


@contextlib.contextmanager
def fresh_topology(pg_url: str, folder: Path, nodes: int, env: dict[str, str],
                   kind: type[Topology] = Topology) -> Iterator[Topology]:
    """deploy/topology.py's cluster (or a test's `kind` of it) on a clean database (emptied
    first), stopped after."""
    _need("redis-server", "redis-server")
    _need("nginx", "nginx")
    engine = sa.create_engine(pg_url)
    with engine.begin() as conn:  # a clean database for each module
        conn.execute(sa.text("DROP SCHEMA public CASCADE; CREATE SCHEMA public"))
    engine.dispose()
    with running(kind(pg_url, nodes, folder=folder, env=env)) as topo:
        yield topo


@pytest.fixture(scope="module")
def topology(pg_url: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Topology]:
    """Three nodes on one throwaway PostgreSQL, Redis and nginx: deploy/topology.py, exactly
    as an operator starts it (the test games loaded; see tests/cluster/helpers.NODE_ENV)."""
    with fresh_topology(pg_url, tmp_path_factory.mktemp("cluster"), 3, NODE_ENV) as topo:
        yield topo
