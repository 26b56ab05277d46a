"""Fixtures for the cluster tests: Debian's redis-server on a free port (as deploy/topology.py
starts it), and a throwaway PostgreSQL cluster (tests/server/postgres.py)."""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest

from deploy.topology import RedisServer
from tests.server.postgres import pg_bin, postgres_cluster


def _need(exe: str, package: str) -> None:
    if shutil.which(exe) is None and not Path(f"/usr/sbin/{exe}").exists():
        pytest.skip(f"{exe} is not installed (apt-get install {package}; .ci/run does)")


@pytest.fixture()
def redis_server(tmp_path: Path) -> Iterator[RedisServer]:
    _need("redis-server", "redis-server")
    server = RedisServer(tmp_path)
    server.start()
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture(scope="module")
def pg_url() -> Iterator[str]:
    if pg_bin() is None:
        pytest.skip("PostgreSQL is not installed (apt-get install postgresql; .ci/run does)")
    with postgres_cluster() as url:
        yield url
