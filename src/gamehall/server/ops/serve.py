"""`gamehall serve`: resolve the database, print where things are, run uvicorn."""

from __future__ import annotations

import contextlib
import gc
import importlib
import json
import logging
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from gamehall.core import GamehallError
from gamehall.server.ops.settings import Settings
from gamehall.server.storage import SQLITE_SYNC, sqlite_url
from gamehall.server.table.clocks import ClockError, parse_control

DEFAULT_DB = "gamehall.db"

GC_THRESHOLDS = (7000, 10, 1000)
"""The cycle collector's thresholds for a serving process (Python's are 700, 10, 10). A hall's
objects mostly live long (rooms, their positions and moves, each connection's coroutines):
with 1,000 rooms a node holds some 300,000 of them, and a full collection walks them all in
0.3-1 s of CPU, during which the node answers nobody. At the defaults a full collection came
every minute or so per node and set the p99 latency (benchmarks/README.md, "Hall on three
nodes"). Here full collections come a hundred times fewer allocations apart (cycles that
survive the young generations are still reclaimed, later), and the young generations are ten
times larger: fewer objects that were only in flight are kept, and in the benchmark the
collector used 7 ms of CPU a second per node instead of 21 (18 with only the full threshold
raised). The young collections themselves come on a timer as well (`collector.collect_young`):
in a steady state Python's count of allocations barely reaches the first threshold. Each tick
collects the middle generation too, and so counts once towards the third threshold: 1,000
ticks are four minutes, as 100 middle collections were before the ticks."""


def database_url(db: str | None) -> str:
    """A SQLAlchemy URL: given as one, or a SQLite file path (default ./gamehall.db)."""
    if db is None:
        return sqlite_url(Path.cwd() / DEFAULT_DB)
    if "://" in db:
        return db
    return sqlite_url(Path(db))


STARTUP_FAILURE = 3
"""The exit status of a server whose start failed (uvicorn's own)."""


def serve(host: str, port: int, db: str | None, settings: Settings, log_level: str = "info",
          say: object = print, log_json: bool = False) -> None:
    """Run the hall until interrupted."""
    import uvicorn

    from gamehall.server.api.app import WEB_DIR, create_app

    url = check(port, db, settings, log_level)
    log_level = log_level.lower()
    setup_logging(log_level, log_json)
    app = create_app(url, settings)
    shown = host if ":" not in host else f"[{host}]"
    page = "/" if (WEB_DIR / "index.html").is_file() else "/docs"
    assert callable(say)
    say(f"database: {_safe(url)}")
    if settings.redis_url:
        say(f"cluster node {settings.node}, redis {_safe(settings.redis_url)}")
    say(f"open http://{shown}:{port}{page}")
    tune_gc()
    config = uvicorn.Config(app, host=host, port=port, log_level=log_level,
                            log_config=None if log_json else uvicorn.config.LOGGING_CONFIG,
                            ws_max_size=max(2**20, 4 * settings.max_message_bytes),
                            ws_per_message_deflate=False, timeout_graceful_shutdown=5)
    server = stopping(uvicorn.Server, app.state.bot_door.end_streams)(config)
    with contextlib.suppress(KeyboardInterrupt):  # Ctrl-C: a stop like any other (as
        server.run()                               # uvicorn.run treats it)
    if not server.started:  # the start failed (the database, Redis): a failure to the
        sys.exit(STARTUP_FAILURE)  # service manager, which starts it again


def stopping(server: type[Any], first: Callable[[], None]) -> type[Any]:
    """uvicorn's Server that calls `first` when it begins to stop: the bot API's streams end
    then (they never end by themselves), so the stop waits for no open stream. WebSockets
    need nothing: uvicorn closes them (1012, the page reconnects)."""

    class Stopping(server):
        async def shutdown(self, sockets: Any = None) -> None:
            first()
            await super().shutdown(sockets)

    return Stopping


def tune_gc() -> None:
    """Set the collector's thresholds for serving (`GC_THRESHOLDS`)."""
    gc.set_threshold(*GC_THRESHOLDS)


class JsonFormatter(logging.Formatter):
    """One JSON object per record: time, level, logger, message (and the traceback, if any)."""

    def format(self, record: logging.LogRecord) -> str:
        out = {"time": self.formatTime(record, "%Y-%m-%dT%H:%M:%S") + f".{int(record.msecs):03d}",
               "level": record.levelname.lower(), "logger": record.name,
               "message": record.getMessage()}
        if record.exc_info:
            out["exception"] = self.formatException(record.exc_info)
        return json.dumps(out, ensure_ascii=False)


def setup_logging(level: str, as_json: bool = False) -> None:
    handler = logging.StreamHandler()
    handler.setFormatter(JsonFormatter() if as_json else logging.Formatter(
        "%(asctime)s %(levelname)s %(name)s: %(message)s"))
    logging.basicConfig(level=getattr(logging, level.upper(), logging.INFO), handlers=[handler],
                        force=True)
    logging.getLogger("alembic.runtime.plugins").setLevel(logging.WARNING)


LOG_LEVELS = ("critical", "error", "warning", "info", "debug", "trace")


def check(port: int, db: str | None, settings: Settings, log_level: str) -> str:
    """Refuse bad flags before anything starts, each with one sentence (GamehallError); load the
    plug-ins; return the database URL, checked to open."""
    if not 1 <= port <= 65535:
        raise GamehallError(f"--port is a number from 1 to 65535, not {port}")
    if log_level.lower() not in LOG_LEVELS:
        raise GamehallError(f"--log-level is one of {', '.join(LOG_LEVELS)}, not {log_level!r}")
    if settings.sqlite_sync not in SQLITE_SYNC:
        raise GamehallError(f"--sqlite-sync is one of {', '.join(SQLITE_SYNC)}, "
                            f"not {settings.sqlite_sync!r}")
    _check_rates(settings)
    if settings.redis_url and not settings.redis_url.startswith(("redis://", "rediss://",
                                                                  "unix://")):
        raise GamehallError(f"--redis is a URL like redis://HOST:PORT/0, not "
                            f"{_safe(settings.redis_url)!r}")
    try:
        bot_clock = parse_control(settings.bot_game_clock)
    except ClockError:
        bot_clock = None
    if bot_clock is None:
        raise GamehallError(f"--bot-game-clock is a clock such as 1d or 5+3, not "
                            f"{settings.bot_game_clock!r}")
    if settings.lease_ms < 300:
        raise GamehallError(f"--lease-ms is at least 300, not {settings.lease_ms}")
    for name in settings.plugins:
        try:
            importlib.import_module(name)
        except Exception as exc:  # a plug-in's own failure, whatever it is, is one line too
            raise GamehallError(f"--plugin {name}: cannot import it "
                                f"({type(exc).__name__}: {exc})") from None
    url = database_url(db)
    _check_database(url)
    return url


def _check_rates(settings: Settings) -> None:
    """The rate flags (``--session-rate 30/minute`` …) are rates the `limits` library reads."""
    from gamehall.server.api.door import BotDoor, Door
    from gamehall.server.engines.hints import HINT_LEVELS
    from gamehall.server.ops.limiter import Limiter, Rule

    try:
        Door(settings, Limiter())
        BotDoor(settings, Limiter())
        Rule("hint", settings.hint_rate, ()).item  # noqa: B018 - parsing is the check
    except ValueError as exc:
        raise GamehallError(str(exc)) from None
    if settings.hint_level not in HINT_LEVELS:
        raise GamehallError(f"--hint-level is one of {', '.join(HINT_LEVELS)}, not "
                            f"{settings.hint_level!r}")


def _check_database(url: str) -> None:
    """The URL names a database kind whose driver is installed, and it opens."""
    import sqlalchemy as sa

    try:
        parsed = sa.engine.make_url(url)
        parsed.get_dialect().import_dbapi()
    except sa.exc.NoSuchModuleError:  # (an ArgumentError too)
        raise GamehallError(f"--db: no database kind {url.partition(':')[0]!r} "
                            "(sqlite or postgresql+psycopg)") from None
    except sa.exc.ArgumentError:
        raise GamehallError(f"--db: {_safe(url)} is neither a database URL nor a file "
                            "path") from None
    except ImportError as exc:
        if url.startswith("postgresql"):
            raise GamehallError("--db: the PostgreSQL driver is not installed: "
                                'pip install "gamehall[postgres]"') from None
        raise GamehallError(f"--db: the driver for {parsed.drivername} is not installed "
                            f"({exc})") from None
    if parsed.get_backend_name() == "sqlite" and parsed.database not in (None, "", ":memory:"):
        folder = Path(parsed.database).expanduser().parent
        if not folder.is_dir():
            raise GamehallError(f"--db: the folder {folder} does not exist")
    engine = sa.create_engine(parsed)
    try:
        with engine.connect():
            pass
    except sa.exc.SQLAlchemyError as exc:
        reason = str(getattr(exc, "orig", None) or exc).strip().splitlines()[0]
        raise GamehallError(f"--db: cannot open {_safe(url)}: {reason}") from None
    finally:
        engine.dispose()


def _safe(url: str) -> str:
    """The URL without its password."""
    head, at, tail = url.rpartition("@")
    if not at or "://" not in head:
        return url
    scheme, _, cred = head.partition("://")
    user = cred.split(":", 1)[0]
    return f"{scheme}://{user}:***@{tail}"
