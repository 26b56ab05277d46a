"""`gamehall serve`: resolve the database, print where things are, run uvicorn."""

from __future__ import annotations

import importlib
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
          say: object = print) -> None:
    """Run the hall until interrupted."""
    import uvicorn

    from gamehall.server.app import WEB_DIR, Door, create_app
    from gamehall.server.limiter import Limiter

    if settings.sqlite_sync not in SQLITE_SYNC:
        raise GamehallError(f"--sqlite-sync is one of {', '.join(SQLITE_SYNC)}")
    try:
        Door(settings, Limiter())  # the rate flags parse
    except ValueError as exc:
        raise GamehallError(str(exc)) from None
    for name in settings.plugins:
        importlib.import_module(name)
    url = database_url(db)
    logging.basicConfig(level=getattr(logging, log_level.upper(), logging.INFO),
                        format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    logging.getLogger("alembic.runtime.plugins").setLevel(logging.WARNING)
    app = create_app(url, settings)
    shown = host if ":" not in host else f"[{host}]"
    page = "/" if (WEB_DIR / "index.html").is_file() else "/docs"
    assert callable(say)
    say(f"database: {_safe(url)}")
    say(f"open http://{shown}:{port}{page}")
    uvicorn.run(app, host=host, port=port, log_level=log_level,
                ws_max_size=max(2**20, 4 * settings.max_message_bytes),
                ws_per_message_deflate=False, timeout_graceful_shutdown=5)


def _safe(url: str) -> str:
    """The URL without its password."""
    head, at, tail = url.rpartition("@")
    if not at or "://" not in head:
        return url
    scheme, _, cred = head.partition("://")
    user = cred.split(":", 1)[0]
    return f"{scheme}://{user}:***@{tail}"
