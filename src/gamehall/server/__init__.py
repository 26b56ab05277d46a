"""The online hall: rooms, seats, chat commands, bots, storage and pub/sub behind an ASGI app.

Start it with `gamehall serve`; the protocol is described in protocol.md (beside
this file), which the hall serves at /api/protocol.

The names below are imported when first used, so that a process that needs one small module of
the package (a bot worker: `gamehall.server.engines.worker`) does not load the web framework too.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from gamehall.server.api.app import create_app
    from gamehall.server.hall.hall import Hall
    from gamehall.server.ops.settings import Settings

__all__ = ["Hall", "Settings", "create_app"]


def __getattr__(name: str) -> Any:
    if name == "create_app":
        from gamehall.server.api.app import create_app

        return create_app
    if name == "Hall":
        from gamehall.server.hall.hall import Hall

        return Hall
    if name == "Settings":
        from gamehall.server.ops.settings import Settings

        return Settings
    raise AttributeError(f"module 'gamehall.server' has no attribute {name!r}")
