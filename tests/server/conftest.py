"""Fixtures: the test games, and real servers on free loopback ports."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.server.live import Server, running


@pytest.fixture(scope="session")
def test_games() -> None:
    """Register the small test games in this process (the servers load them as a plug-in)."""
    import tests.server.games  # noqa: F401


def _server(tmp: Path, *extra: str) -> Iterator[Server]:
    with running(Server(f"sqlite:///{tmp / 'hall.db'}", tmp / "server.log", *extra)) as server:
        yield server


@pytest.fixture(scope="session")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """The hall most tests share (rate limit raised: tests send quickly; bots move at once)."""
    yield from _server(tmp_path_factory.mktemp("hall"), "--rate", "5000", "--burst", "5000")


@pytest.fixture(scope="session")
def plain_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """A hall with the default limits whose bots wait 50 ms a move (the crash test restarts it)."""
    yield from _server(tmp_path_factory.mktemp("plain"), "--bot-delay", "0.05")
