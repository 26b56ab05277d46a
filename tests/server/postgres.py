"""A throwaway PostgreSQL cluster for tests: initdb in a temporary folder, started on a free port,
stopped afterwards. Needs Debian's ``postgresql`` package (.ci/run installs it)."""

from __future__ import annotations

import glob
import os
import shutil
import subprocess
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from tests.server.live import free_port


def pg_bin() -> Path | None:
    """The folder with initdb and pg_ctl, or None when PostgreSQL is not installed."""
    found = shutil.which("initdb")
    if found:
        return Path(found).resolve().parent
    versions = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"))
    return Path(versions[-1]).parent if versions else None


def _as_owner(cmd: list[str]) -> list[str]:
    """PostgreSQL refuses to run as root: run it as the `postgres` user then."""
    if os.geteuid() == 0:
        return ["runuser", "-u", "postgres", "--", *cmd]
    return cmd


@contextmanager
def postgres_cluster(fsync: bool = False) -> Iterator[str]:
    """Yield a SQLAlchemy URL for a fresh, empty database (in a folder the server may enter).
    Tests run without fsync; a benchmark asks for it (`fsync`), as in production."""
    bin_dir = pg_bin()
    assert bin_dir is not None
    tmp = Path(tempfile.mkdtemp(prefix="gamehall-pg-"))
    data, sock = tmp / "pgdata", tmp / "pgsock"
    sock.mkdir(parents=True)
    if os.geteuid() == 0:
        shutil.chown(tmp, "postgres")
        shutil.chown(sock, "postgres")
    port = free_port()
    run = {"check": True, "capture_output": True, "timeout": 120}
    subprocess.run(_as_owner([str(bin_dir / "initdb"), "-D", str(data), "-A", "trust",
                              "-U", "gamehall", "--no-sync"]), **run)  # type: ignore[call-overload]
    sync = "on" if fsync else "off"
    opts = f"-p {port} -k {sock} -c listen_addresses=127.0.0.1 -c fsync={sync}"
    subprocess.run(_as_owner([str(bin_dir / "pg_ctl"), "-D", str(data), "-o", opts, "-w",
                              "-l", str(tmp / "pg.log"), "start"]), **run)  # type: ignore[call-overload]
    try:
        yield f"postgresql+psycopg://gamehall@127.0.0.1:{port}/postgres"
    finally:
        subprocess.run(_as_owner([str(bin_dir / "pg_ctl"), "-D", str(data), "-m", "immediate",
                                  "stop"]), check=False, capture_output=True, timeout=60)
        shutil.rmtree(tmp, ignore_errors=True)
