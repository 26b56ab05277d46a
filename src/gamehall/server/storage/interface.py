"""What the hall stores and how it may fail: the `Storage` interface, its errors, a chat line.

Durability rule: `save_room` returns only once the room and its new moves are committed, so the
hall can broadcast afterwards and a crash loses nothing a client has seen.

Fencing (the cluster): a node that owns a room passes its lease's fencing number with every write
of it; the row keeps the largest number that claimed or wrote it, and a write carrying a smaller
one is refused (`Fenced`), so a node that lost its lease can never commit.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from gamehall.server.table.room import Move, Room


@dataclass(frozen=True)
class TokenOwner:
    """What storage knows about a token: whose it is and when it was last used (seconds)."""

    player_id: int
    nickname: str
    account: bool
    last_used: float


@dataclass(frozen=True)
class AccountRow:
    """A player as sign-in needs it."""

    id: int
    nickname: str
    password_hash: str | None
    bot: str | None



class NicknameTaken(Exception):
    """The nickname belongs to another visitor."""


class Fenced(Exception):
    """A write refused because another node has claimed the room with a larger fencing number."""

    def __init__(self, room_id: str, mine: int, stored: int) -> None:
        super().__init__(f"room {room_id}: fence {mine} is behind the stored fence {stored}")
        self.room_id, self.mine, self.stored = room_id, mine, stored


class UnknownPlayer(Exception):
    """No player has that nickname."""


@dataclass(frozen=True)
class ChatLine:
    sender: str
    text: str
    at: str


class Storage(ABC):
    """What the hall stores: visitors, rooms with their moves, chat."""

    @abstractmethod
    async def open(self) -> None:
        """Connect, and create or upgrade the schema."""

    @abstractmethod
    async def close(self) -> None: ...

    @abstractmethod
    async def add_player(self, nickname: str, token_hash: str, at: str | None = None) -> int:
        """Store a new visitor with a first token; NicknameTaken if another has that nickname
        (any case)."""

    async def player_by_token(self, token_hash: str) -> tuple[int, str] | None:
        """(player id, nickname) for a token's hash."""
        owner = await self.token_owner(token_hash)
        return (owner.player_id, owner.nickname) if owner is not None else None

    @abstractmethod
    async def token_owner(self, token_hash: str) -> TokenOwner | None:
        """Whose token it is and when it was last used."""

    @abstractmethod
    async def add_token(self, player_id: int, token_hash: str, at: str) -> None: ...

    @abstractmethod
    async def touch_token(self, token_hash: str, at: str) -> None:
        """Note that the token was used at `at` (it lives on)."""

    @abstractmethod
    async def revoke_token(self, token_hash: str) -> None: ...

    @abstractmethod
    async def revoke_tokens(self, player_id: int, keep: str | None = None) -> None:
        """End every token of the player except `keep`."""

    @abstractmethod
    async def account(self, nickname: str) -> AccountRow | None:
        """The player with this nickname (any case), with their password hash."""

    @abstractmethod
    async def set_password(self, player_id: int, password_hash: str) -> None: ...

    @abstractmethod
    async def accounts_among(self, player_ids: Sequence[int]) -> set[int]:
        """Those of `player_ids` whose nickname has a password."""

    @abstractmethod
    async def save_room(self, room: Room, new_moves: Sequence[Move] = (),
                        finished: bool = False,
                        fence: int | None = None) -> list[dict[str, Any]] | None:
        """Commit the room's current metadata and append `new_moves` to its move list.

        With `finished` (the commit that ends the game) the same transaction records who played
        it and, for a rated game, every seat's new rating; the rating changes are returned
        (None for a casual game).

        With a `fence`, the write is refused (`Fenced`) when the stored fence is larger, and
        the stored fence becomes `fence` otherwise."""

    @abstractmethod
    async def claim_room(self, room_id: str, fence: int) -> int | None:
        """Raise the room's stored fence to `fence`: from then on no write with a smaller one
        commits. Returns the fence it replaced (whoever wrote last), or None when the room is
        unknown or already claimed with `fence` or more."""

    @abstractmethod
    async def room_fence(self, room_id: str) -> int | None:
        """The room's stored fence (None: no such room)."""

    async def save_rooms(self, rooms: Sequence[tuple[Room, Sequence[Move]]],
                         fences: Sequence[int | None] = ()) -> None:
        """Commit several rooms with their new moves together (a rematch: the new room and the
        old one that now points to it), each with its fence (as `save_room`). Storages that can
        should do it in one transaction."""
        for (room, moves), fence in zip(rooms, list(fences) or [None] * len(rooms), strict=True):
            await self.save_room(room, moves, fence=fence)

    async def mark_alive(self, at: float) -> None:  # noqa: B027 - optional for test storages
        """Note that the hall was running at hall time `at` (its clocks' last sign of life)."""

    async def last_alive(self) -> float | None:
        """The latest `mark_alive` time, or None (then a restart charges no running clock)."""
        return None

    @abstractmethod
    async def add_chat(self, room_id: str, line: ChatLine, keep: int | None = None) -> None:
        """Store a chat line; with `keep`, only the room's newest `keep` lines stay stored."""

    @abstractmethod
    async def recent_chat(self, room_id: str, limit: int) -> list[ChatLine]: ...

    @abstractmethod
    async def load_room(self, room_id: str) -> Room | None:
        """The room rebuilt from storage (its game replayed move by move), or None."""

    @abstractmethod
    async def active_room_ids(self, include_waiting: bool = True) -> list[str]:
        """Rooms playing (and waiting, unless told not to), to load at start-up."""

    @abstractmethod
    async def idle_waiting(self, before: str, limit: int) -> list[str]:
        """Waiting rooms last changed before the time stamp `before` (oldest first)."""

    @abstractmethod
    async def drop_waiting(self, room_id: str, before: str, fence: int | None = None) -> bool:
        """Delete the room (and its chat) if it is still waiting and unchanged since before
        `before` (and, with a `fence`, its stored fence is at most that); True if deleted."""

    @abstractmethod
    async def count_waiting(self, created_by: str) -> int:
        """How many rooms `created_by` created are waiting for players."""

    @abstractmethod
    async def list_rooms(self, status: str | None, limit: int) -> list[Room]:
        """The most recently changed rooms, without their moves (for the lobby)."""

    @abstractmethod
    async def profile(self, nickname: str, recent: int) -> dict[str, Any] | None:
        """A player's ratings per game and their latest finished games, or None."""

    @abstractmethod
    async def leaderboard(self, game: str, limit: int, offset: int) -> list[dict[str, Any]]:
        """Rated players of a game, best first (by the conservative estimate)."""

    @abstractmethod
    async def openings(self, game: str, limit: int, depth: int) -> list[dict[str, Any]]:
        """The newest `limit` finished games of `game` with a result: options, seats, result
        and their first `depth` actions (``[action, notation]``), for the opening explorer."""

    @abstractmethod
    async def finished_games(self, game: str | None, player: str | None, before: str | None,
                             limit: int) -> tuple[list[dict[str, Any]], str | None]:
        """Finished games, newest first, of one game and/or one player (by nickname), from the
        cursor `before` on; with the cursor of the next page (None on the last). Raises
        UnknownPlayer for a nickname nobody has."""
