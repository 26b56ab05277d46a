"""What the pairing tells: the lobby's channel (pools' counts, seeks as they change) and a
player's own channel (their pairing), on every node through the hall's pub/sub.

- ``LOBBY`` carries ``{"event": "lobby", "message": {"type": "pools", "pools": [...]}}`` each
  time a pool's count changes, and ``{"type": "seek", "seek": {...}}`` each time a seek is
  posted, taken, accepted, re-opened or cancelled (its ``status`` says which). The lobby's
  WebSocket relays the messages as they are (protocol.md, "Pairing").
- A paired player's channel (`player_channel`, the bot API's event stream reads it too) gets
  ``{"event": "pairing", "message": {"type": "paired", "entry", "pool", "room"}}``; a bot
  account's stream shows its game's ``gameStart`` instead (the bot API announces every game
  that starts).
"""

from __future__ import annotations

import contextlib
import logging
from typing import Any

from gamehall.server.botapi.service import player_channel
from gamehall.server.pubsub.in_process import PubSub

log = logging.getLogger("gamehall.server")

LOBBY = "lobby:pairing"
"""The channel of the lobby's pairing news (room ids never hold a ':')."""


async def tell_lobby(pubsub: PubSub, message: dict[str, Any]) -> None:
    """One message for every lobby, on every node; never fails the change it tells of."""
    with contextlib.suppress(Exception):
        await pubsub.publish(LOBBY, {"event": "lobby", "message": message})


async def tell_paired(pubsub: PubSub, player_id: int, message: dict[str, Any]) -> None:
    """A player's pairing, on their own channel (every node's connections of theirs)."""
    try:
        await pubsub.publish(player_channel(player_id), {"event": "pairing",
                                                         "message": message})
    except Exception:
        log.warning("could not tell player %s of their pairing", player_id, exc_info=True)
