"""The online hall: rooms, seats, chat commands, bots, storage and pub/sub behind an ASGI app.

Start it with `gamehall serve`; the protocol is described in protocol.md (beside
this file), which the hall serves at /api/protocol.
"""

from gamehall.server.app import create_app
from gamehall.server.hall import Hall, Settings

__all__ = ["Hall", "Settings", "create_app"]
