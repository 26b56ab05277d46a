"""`gamehall serve` whose storage commits can be held open and then failed, for tests.

    python -m tests.server.gated serve --port N --db URL [every other `gamehall serve` flag]

It runs the real command line and the real app; only the storage is wrapped, and three routes
let the test drive it (they are put in front of every other route):

- ``POST /_gate/hold``: from now on every `save_room` waits at the gate;
- ``GET /_gate``: ``{"held": n}``, how many commits wait there now;
- ``POST /_gate/release?fail=true|false``: open the gate; the waiting commits fail (nothing is
  written) or go through.
"""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from fastapi import FastAPI
from fastapi.routing import APIRoute

import gamehall.server.api.app as app_module
from gamehall.server.ops.settings import Settings
from gamehall.server.storage import SqlStorage
from gamehall.server.table.room import Move, Room


class InjectedFailure(Exception):
    """The storage failure a test asked for."""


class GatedStorage(SqlStorage):
    """SQL storage with a gate in front of `save_room`."""

    def __init__(self, url: str, sqlite_sync: str = "normal") -> None:
        super().__init__(url, sqlite_sync=sqlite_sync)
        self.holding = False
        self.held = 0
        self._gate: asyncio.Future[bool] | None = None

    async def save_room(self, room: Room, new_moves: Sequence[Move] = (),
                        finished: bool = False,
                        fence: int | None = None) -> list[dict[str, Any]] | None:
        if self.holding and self._gate is not None:
            self.held += 1
            try:
                fail = await asyncio.shield(self._gate)
            finally:
                self.held -= 1
            if fail:
                raise InjectedFailure("the test failed this commit")
        return await super().save_room(room, new_moves, finished, fence)

    def hold(self) -> None:
        self.holding = True
        if self._gate is None or self._gate.done():
            self._gate = asyncio.get_running_loop().create_future()

    def release(self, fail: bool) -> None:
        self.holding = False
        if self._gate is not None and not self._gate.done():
            self._gate.set_result(fail)


_original_create_app = app_module.create_app


def gated_create_app(db_url: str, settings: Settings | None = None, storage: Any = None,
                     pubsub: Any = None, web_dir: Path = app_module.WEB_DIR,
                     **more: Any) -> FastAPI:
    store = GatedStorage(db_url, sqlite_sync=(settings or Settings()).sqlite_sync)
    app = _original_create_app(db_url, settings, storage=store, pubsub=pubsub, web_dir=web_dir,
                               **more)

    async def hold() -> dict[str, int]:
        store.hold()
        return {"held": store.held}

    async def held() -> dict[str, int]:
        return {"held": store.held}

    async def release(fail: bool) -> dict[str, int]:
        store.release(fail)
        return {"held": store.held}

    routes = [APIRoute("/_gate/hold", hold, methods=["POST"]),
              APIRoute("/_gate", held, methods=["GET"]),
              APIRoute("/_gate/release", release, methods=["POST"])]
    app.router.routes[:0] = routes
    return app


def main() -> None:
    import tests.server.games  # noqa: F401  (the test games, in this process too)

    app_module.create_app = gated_create_app  # serve() looks it up when it runs
    from gamehall.cli import main as cli_main

    cli_main()


if __name__ == "__main__":
    main()
