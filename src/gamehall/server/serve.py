"""`gamehall serve`: resolve the database, print where things are, run uvicorn."""

from __future__ import annotations

import importlib
import json
import logging
from pathlib import Path

from gamehall.core import GamehallError
from gamehall.server.hall import Settings
from gamehall.server.storage import SQLITE_SYNC, sqlite_url

DEFAULT_DB = "gamehall.db"


def database_url(db: str | None) -> str:
    """A SQLAlchemy URL: given as one, or a SQLite file path (default ./gamehall.db)."""
    if db is None:
        return sqlite_url(Path.cwd() / DEFAULT_DB)
    if "://" in db:
        return db
    return sqlite_url(Path(db))


def serve(host: str, port: int, db: str | None, settings: Settings, log_level: str = "info",
          say: object = print, log_json: bool = False) -> None:
    """Run the hall until interrupted."""
    import uvicorn

    from gamehall.server.app import WEB_DIR, create_app

    if settings.sqlite_sync not in SQLITE_SYNC:
        raise GamehallError(f"--sqlite-sync is one of {', '.join(SQLITE_SYNC)}")
    if settings.redis_url and "://" not in settings.redis_url:
        raise GamehallError("--redis is a URL: redis://HOST:PORT/0")
    if settings.lease_ms < 300:
        raise GamehallError("--lease-ms is at least 300")
    for name in settings.plugins:
        importlib.import_module(name)
    url = database_url(db)
    setup_logging(log_level, log_json)
    app = create_app(url, settings)
    shown = host if ":" not in host else f"[{host}]"
    page = "/" if (WEB_DIR / "index.html").is_file() else "/docs"
    assert callable(say)
    say(f"database: {_safe(url)}")
    if settings.redis_url:
        say(f"cluster node {settings.node}, redis {_safe(settings.redis_url)}")
    say(f"open http://{shown}:{port}{page}")
    uvicorn.run(app, host=host, port=port, log_level=log_level,
                log_config=None if log_json else uvicorn.config.LOGGING_CONFIG,
                ws_max_size=max(2**20, 4 * settings.max_message_bytes),
                ws_per_message_deflate=False, timeout_graceful_shutdown=5)


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


def _safe(url: str) -> str:
    """The URL without its password."""
    head, at, tail = url.rpartition("@")
    if not at or "://" not in head:
        return url
    scheme, _, cred = head.partition("://")
    user = cred.split(":", 1)[0]
    return f"{scheme}://{user}:***@{tail}"
