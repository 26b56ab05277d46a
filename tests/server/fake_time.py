"""A time source the test sets, for a real server: ``gamehall serve --plugin
tests.server.fake_time`` with ``GAMEHALL_TEST_TIME=FILE`` makes the hall's clock read the number
in FILE (seconds), so a test moves a real server's clocks without waiting."""

from __future__ import annotations

import os
from pathlib import Path

from gamehall.server.table.clocks import use_time_source

ENV = "GAMEHALL_TEST_TIME"


def set_time(path: Path, seconds: float) -> None:
    """Write the time for the server to read (atomically: it never reads half a number)."""
    tmp = path.with_suffix(".tmp")
    tmp.write_text(repr(seconds))
    os.replace(tmp, path)


def _install() -> None:
    name = os.environ.get(ENV)
    if not name:
        return
    path = Path(name)

    def read() -> float:
        return float(path.read_text())

    use_time_source(read)


_install()
