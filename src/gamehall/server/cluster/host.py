"""What a node of the cluster and its hall say to each other: the hall is the cluster's `Host`
(it keeps the rooms), and a request passed from node to node is answered or refused with the
types below. Its own module so that the node and its presence across nodes both read it."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Protocol

from gamehall.server.table.protocol import Request

PlayerRef = tuple[int, str, bool] | None
"""A player as the nodes pass it to one another: (id, nickname, has an account), or None."""


class NotOwner(Exception):
    """This node does not (or no longer) own the room: the request must go to the owner."""


class Unreachable(Exception):
    """Nobody received the forwarded request (the owner is gone): safe to send it again."""


@dataclass
class Answer:
    """A forwarded request whose caller watches the room: the owner's state event of the commit
    the request makes carries `id` (``"answered"``), which answers the caller (with no replies:
    a change's notice goes to everyone on the room's channel); `folded` says it was published,
    so that no separate answer is sent."""

    id: str
    room: str
    folded: bool = False


class Host(Protocol):
    """What the cluster needs from the hall."""

    async def room_gained(self, room_id: str, fence: int, keep: bool) -> bool:
        """This node now owns the room: load it (unless `keep`: the copy in memory is still
        exactly what is stored), then go on with it (bots, pending chance). False: it cannot."""

    def room_lost(self, room_id: str) -> None:
        """This node no longer owns the room: stop acting on it."""

    async def serve_forwarded(self, room_id: str, player: PlayerRef, req: Request,
                              answer: Answer | None = None) -> list[dict[str, Any]]:
        """Carry out a request another node passed on (raise NotOwner when not the owner); with
        `answer`, the state event of the commit it makes answers the caller (`Answer.folded`)."""

    def presence_changed(self, room_id: str, players: set[int]) -> None:
        """Who is connected to the room changed on another node (`players` came or went)."""

    async def resync(self) -> None:
        """Events may have been lost (Redis went away): catch up from the database."""
