"""Fixtures: the test games, and real servers on free loopback ports."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.server.live import Server


@pytest.fixture(scope="session")
def test_games() -> None:
    """Register the small test games in this process (the servers load them as a plug-in)."""
    import tests.server.games  # noqa: F401


def _server(tmp: Path, *extra: str) -> Iterator[Server]:
    server = Server(f"sqlite:///{tmp / 'hall.db'}", tmp / "server.log", *extra)
    server.start()
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """One hall shared by a test module (rate limit raised: tests send quickly)."""
    yield from _server(tmp_path_factory.mktemp("hall"), "--rate", "5000", "--burst", "5000")


@pytest.fixture
def fresh_server(tmp_path: Path) -> Iterator[Server]:
    """A hall of one's own (for crash tests and default limits)."""
    yield from _server(tmp_path)
