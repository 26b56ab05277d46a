"""The bot API's feature: bot accounts, challenges, and each player's own channel (games
starting and ending, challenges made and settled), which the event stream relays.

Everything a bot does to a room goes through the hall's one write path (`Hall.execute`); what
this feature adds is how a bot gets to a table: a challenge, accepted, creates the room with both
players seated and (when they fill it) starts it, as one commit of a room nobody has seen yet
(`Hall.open_room`). It subscribes to the hall's events (`HallEvents`): games starting and ending
reach the players' streams, a bot account may not join a seat by hand, unanswered challenges
expire with the hall's sweeps. Bot accounts and challenges live in storage (`store.py`), so every
node sees them.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections import Counter
from collections.abc import AsyncIterator
from datetime import UTC, datetime, timedelta
from typing import Any

from redis.asyncio import Redis
from redis.exceptions import LockError

from gamehall.core import GamehallError, game_class
from gamehall.core.messages import Message, msg
from gamehall.core.phrases import beside
from gamehall.server.accounts.identity import Player, RateLimited
from gamehall.server.botapi.store import BotStore, Challenge
from gamehall.server.hall.hall import Hall
from gamehall.server.hall.write_path import SYSTEM_RANDOM
from gamehall.server.table.clocks import stamp
from gamehall.server.table.errors import RoomError
from gamehall.server.table.room import FINISHED, PLAYING, Move, Room
from gamehall.server.table.sentences import joined, reason_of

DECLINE_REASONS = ("generic", "later", "tooFast", "tooSlow", "timeControl", "rated", "casual",
                   "standard", "variant", "noBot", "onlyBot")
"""Why a challenge is declined: lichess's fixed list (a client shows its own words for each)."""

BOT_LOCK_SECONDS = 10.0
"""How long a node may hold a bot's lock in a cluster (counting its games, storing a new one)
before Redis lets it go: a node that died holding it keeps the bot's accepts waiting no
longer."""

MAX_SCOPES_KEPT = 20000
"""Tokens whose scopes a node keeps in memory (past it, it forgets them all and reads again)."""

EXPIRED = "expired"
"""The reason of a challenge the hall canceled because nobody answered it in time."""


NOT_YOURS = {"accept": msg("error.challenge.not_yours_accept"),
             "decline": msg("error.challenge.not_yours_decline"),
             "cancel": msg("error.challenge.not_yours_cancel")}
"""Why a player may not answer a challenge so (`BotApi._pending`)."""


def reason_said(reason: str | None) -> Message | None:
    """The sentence of a declined or expired challenge's reason (None for none): the
    catalogues' ``challenge.reason.<reason>``, lichess's words in English."""
    if reason != EXPIRED and reason not in DECLINE_REASONS:
        return None
    return msg(f"challenge.reason.{reason}")


def reason_text(reason: str | None) -> dict[str, Any]:
    """A challenge's ``reason_text`` (English, null for none) with its ``reason_text_key`` and
    ``reason_text_args`` beside it, the fields a client says it in its language from."""
    said = reason_said(reason)
    if said is None:
        return {"reason_text": None}
    return {"reason_text": said.text, "reason_text_key": said.key, "reason_text_args": {}}


def player_channel(player_id: int) -> str:
    """A player's own pub/sub channel (room ids never hold a ':')."""
    return f"player:{player_id}"


def game_line(room: Room, seat: int) -> dict[str, Any]:
    """The ``game`` of a gameStart or gameFinish event, for the player at `seat`."""
    line: dict[str, Any] = {
        "id": room.id, "game": room.game_name, "title": room.game.title,
        "options": room.game.shown_options(), "seat": seat,
        "seat_name": room.game.seat_names[seat], "players": room.game.num_players,
        "seats": [{"name": name, "player": occ.nickname if occ else None,
                   "bot_account": bool(occ and occ.bot_account), "bot": occ.bot if occ else None}
                  for name, occ in zip(room.game.seat_names, room.seats, strict=True)],
        "rated": room.rated_now, "clock": room.time_control.text if room.time_control
        else None, "status": room.status}
    if room.status == FINISHED:
        line.update(result=room.result, **beside("outcome", room.outcome_message),
                    ended_by=room.ended_by)
    return line


class BotApi:
    """Bot accounts, challenges, and the events each player's stream is told."""

    def __init__(self, hall: Hall) -> None:
        self.hall = hall
        self.storage, self.pubsub, self.settings = hall.storage, hall.pubsub, hall.settings
        self.clock = hall.clock
        self.bot_store = BotStore(hall.storage)
        self._bot_ids: set[int] = set()
        self._bot_locks: dict[int, asyncio.Lock] = {}
        self._bot_waiting: Counter[int] = Counter()
        self._redis = Redis.from_url(self.settings.redis_url) if self.settings.redis_url \
            else None
        """A cluster's Redis, where a bot's lock is held for every node (`_opening`)."""
        self._scopes: dict[str, tuple[str, ...] | None] = {}
        """Tokens' scopes read so far, by hash: a token's scopes never change (a revoked token
        is refused before its scopes are asked)."""
        hall.events.on_game_changed(self._announce_game)
        hall.events.check_join(self._refuse_bot_accounts)
        hall.events.add_sweep(self.expire_challenges)

    def _check_bot_api(self) -> None:
        if not self.bot_store.available:
            raise RoomError("storage_error", msg("error.bot_api.unavailable"))

    # --- the players' channels -----------------------------------------------------------------
    async def tell_player(self, player_id: int, message: dict[str, Any]) -> None:
        """One event for the player's event streams, on every node."""
        await self.pubsub.publish(player_channel(player_id), {"event": "player",
                                                              "message": message})

    async def _announce_game(self, room: Room) -> None:
        """A game started or ended: each person at the table is told (their event stream)."""
        kind = "gameStart" if room.status == PLAYING else "gameFinish"
        for seat, occ in enumerate(room.seats):
            if occ is not None and occ.player_id is not None:
                await self.tell_player(occ.player_id, {"type": kind,
                                                       "game": game_line(room, seat)})

    # --- bot accounts --------------------------------------------------------------------------
    async def is_bot_account(self, player_id: int) -> bool:
        """Whether the player is a bot account (for good, so a yes is remembered)."""
        if player_id in self._bot_ids:
            return True
        if not self.bot_store.available:
            return False
        if await self.bot_store.bot_games(player_id) is not None:
            self._bot_ids.add(player_id)
            return True
        return False

    async def token_scopes(self, key: str) -> tuple[str, ...] | None:
        """The scopes of the API token whose hash is `key`; None for a browser's session token
        (and for every token where the storage keeps no API tokens)."""
        if key in self._scopes:
            return self._scopes[key]
        if not self.bot_store.available:
            return None
        found = await self.bot_store.token_scopes(key)
        if len(self._scopes) >= MAX_SCOPES_KEPT:
            self._scopes.clear()
        self._scopes[key] = found
        return found

    async def _refuse_bot_accounts(self, player: Player) -> None:
        """A bot account plays the games it is challenged to, never a seat taken by hand."""
        if await self.is_bot_account(player.id):
            raise RoomError("bot_account", msg("error.bot_account.join"))

    @staticmethod
    def _check_games(games: list[str]) -> list[str]:
        out = []
        for name in games:
            try:
                out.append(game_class(name).name)
            except GamehallError as exc:
                raise RoomError("bad_game", msg("error.game.unknown",
                                                reason=reason_of(exc))) from None
        if not out:
            raise RoomError("bad_game", msg("error.bot_api.no_games"))
        return sorted(set(out))

    async def upgrade_to_bot(self, player: Player, games: list[str]) -> list[str]:
        """Make an account a bot account, for good: only before it has played or sat down."""
        self._check_bot_api()
        if not player.account:
            raise RoomError("no_password", msg("error.bot_api.guest"))
        checked = self._check_games(games)
        refusal = await self.bot_store.upgrade(player.id, checked, stamp(self.clock()))
        if refusal == "already_bot":
            raise RoomError("already_bot", msg("error.bot_api.already",
                                               nickname=player.nickname))
        if refusal is not None:
            raise RoomError("has_played", msg("error.bot_api.has_played",
                                              nickname=player.nickname))
        return checked

    async def set_bot_games(self, player: Player, games: list[str]) -> list[str]:
        checked = self._check_games(games)
        await self.bot_store.set_games(player.id, checked)
        return checked

    # --- challenges ----------------------------------------------------------------------------
    async def make_challenge(self, player: Player, nickname: str, game: str,
                             options: dict[str, Any], clock: str | None, rated: bool | None,
                             seat: int | None) -> Challenge:
        """A challenge from `player` to `nickname`, checked as a room would be; one of the two
        is a bot account (people meet people in rooms)."""
        self._check_bot_api()
        dest = await self.storage.account(nickname[:40]) if len(nickname) <= 40 else None
        if dest is None or dest.bot is not None:
            raise RoomError("unknown_player", msg("error.challenge.nobody",
                                                  nickname=nickname[:40]))
        if dest.id == player.id:
            raise RoomError("challenge_refused", msg("error.challenge.yourself"))
        room = self._with_clock(self.hall.build_room(player.nickname, game, options, rated,
                                                     clock))
        if seat is not None and not 0 <= seat < room.game.num_players:
            raise RoomError("no_such_seat", msg("error.challenge.seat", game=room.game.title,
                                                most=room.game.num_players - 1))
        dest_games = await self.bot_store.bot_games(dest.id)
        mine = await self.is_bot_account(player.id)
        if dest_games is None and not mine:
            raise RoomError("challenge_refused", msg("error.challenge.person",
                                                     nickname=dest.nickname))
        if dest_games is not None and room.game_name not in dest_games:
            raise RoomError("challenge_refused", msg("error.challenge.other_games",
                                                     nickname=dest.nickname,
                                                     games=joined(dest_games), game=game))
        for bot_id in (dest.id if dest_games is not None else None, player.id if mine else None):
            if bot_id is not None:
                await self._check_open_games(bot_id)
        made = await self.bot_store.add_challenge(
            player.id, dest.id, room.game_name, dict(room.options),
            room.time_control.text if room.time_control else None, rated, seat,
            stamp(self.clock()), self.settings.max_challenges,
            self.settings.max_challenges_per_bot if dest_games is not None else None)
        if made == "made":
            raise RoomError("too_many_challenges", msg("error.challenge.too_many",
                                                       count=self.settings.max_challenges))
        if isinstance(made, str):
            raise RoomError("too_many_challenges", msg(
                "error.challenge.bot_full", nickname=dest.nickname,
                count=self.settings.max_challenges_per_bot))
        for pid in (made.challenger_id, made.dest_id):
            await self.tell_player(pid, {"type": "challenge", "challenge": made.to_json()})
        return made

    def _with_clock(self, room: Room) -> Room:
        """Every game of a challenge has a clock (as every bot game on lichess): one asked
        for untimed gets `Settings.bot_game_clock` (days per move), so a bot that stays
        connected and never moves loses on time instead of holding the game for ever."""
        if room.time_control is None:
            room.set_clock(self.settings.bot_game_clock)
        return room

    async def _check_open_games(self, bot_id: int) -> None:
        open_now = len(await self.bot_store.open_rooms(bot_id))
        if open_now >= self.settings.max_bot_games:
            raise RoomError("too_many_games", msg("error.challenge.bot_busy", count=open_now))

    async def _pending(self, cid: str, player: Player, side: str) -> Challenge:
        """The challenge `player` answers as its `side` (``dest`` accepts and declines, the
        ``challenger`` cancels), while it is pending. Whose it is comes first: another player's
        is 403 ``not_your_challenge`` whatever its status, as reading it is."""
        self._check_bot_api()
        found = await self.bot_store.challenge(cid)
        if found is None:
            raise RoomError("unknown_challenge", msg("error.challenge.unknown", id=cid[:16]))
        if (found.dest_id if side != "cancel" else found.challenger_id) != player.id:
            raise RoomError("not_your_challenge", NOT_YOURS[side])
        if found.status != "created":
            raise RoomError("challenge_settled", msg("error.challenge.settled_as",
                                                     status=found.status))
        return found

    async def accept_challenge(self, player: Player, cid: str) -> Room:
        """The challenged accepts: the room is made with both seated (and started when they
        fill it), stored before anyone sees it. A bot's games are counted and its new room
        stored under the bot's lock (`_opening`), so that accepts raced at once cannot all pass
        one count of its open games (`--max-bot-games`)."""
        found = await self._pending(cid, player, "accept")
        bots = sorted(bot_id for bot_id, is_bot in zip((found.challenger_id, found.dest_id),
                                                       found.bots, strict=True) if is_bot)
        async with contextlib.AsyncExitStack() as held:
            for bot_id in bots:
                await held.enter_async_context(self._opening(bot_id))
            for bot_id in bots:
                await self._check_open_games(bot_id)
            live, room = await self._open_accepted(found, cid)
        settled = {**found.to_json(), "status": "accepted", "room": room.id}
        await self.tell_player(found.challenger_id, {"type": "challengeAccepted",
                                                     "challenge": settled})
        await self.hall.play_on(live)
        return live

    @contextlib.asynccontextmanager
    async def bots_opening(self, player_ids: list[int]) -> AsyncIterator[None]:
        """For a feature that opens a game (a seek accepted): hold the locks of the bot
        accounts among `player_ids` and refuse (`too_many_games`) one that has
        `--max-bot-games` open, while the new game is stored."""
        bots = sorted({pid for pid in player_ids if await self.is_bot_account(pid)})
        async with contextlib.AsyncExitStack() as held:
            for bot_id in bots:
                await held.enter_async_context(self._opening(bot_id))
            for bot_id in bots:
                await self._check_open_games(bot_id)
            yield

    @contextlib.asynccontextmanager
    async def _opening(self, bot_id: int) -> AsyncIterator[None]:
        """Hold the bot's lock while its open games are counted and a new one stored: this
        node's (dropped once nobody holds or waits for it), and in a cluster the same lock in
        Redis for every node (it expires after `BOT_LOCK_SECONDS`, should its node die)."""
        lock = self._bot_locks.setdefault(bot_id, asyncio.Lock())
        self._bot_waiting[bot_id] += 1
        try:
            async with lock:
                if self._redis is None:
                    yield
                else:
                    shared = self._redis.lock(f"gamehall:bot-games:{bot_id}",
                                              timeout=BOT_LOCK_SECONDS,
                                              blocking_timeout=BOT_LOCK_SECONDS)
                    if not await shared.acquire():
                        raise RateLimited(1.0, msg("error.challenge.bot_accepting"))
                    try:
                        yield
                    finally:
                        with contextlib.suppress(LockError):  # expired meanwhile: gone anyway
                            await shared.release()
        finally:
            self._bot_waiting[bot_id] -= 1
            if self._bot_waiting[bot_id] <= 0:
                del self._bot_waiting[bot_id]
                self._bot_locks.pop(bot_id, None)

    async def close(self) -> None:
        """Let go of the cluster's Redis connections."""
        if self._redis is not None:
            await self._redis.aclose()

    async def _open_accepted(self, found: Challenge, cid: str) -> tuple[Room, Room]:
        """Settle the challenge as accepted and store its room (the live room, and the room
        as built)."""
        room = self._with_clock(self.hall.build_room(found.challenger, found.game,
                                                     found.options, found.rated, found.clock))
        n = room.game.num_players
        first = found.seat if found.seat is not None else SYSTEM_RANDOM.randrange(n)
        accounts = await self.storage.accounts_among([found.challenger_id, found.dest_id])
        room.join(found.challenger_id, found.challenger, first,
                  account=found.challenger_id in accounts, bot_account=found.bots[0],
                  challenged=True)
        room.join(found.dest_id, found.dest, (first + 1) % n,
                  account=found.dest_id in accounts, bot_account=found.bots[1], challenged=True)
        moves: list[Move] = []
        if all(occ is not None for occ in room.seats):
            room.start()
            moves = room.resolve_chance(SYSTEM_RANDOM)
            room.settle_clock(self.clock())
        if not await self.bot_store.settle(cid, "accepted"):
            raise RoomError("challenge_settled", msg("error.challenge.settled"))
        live = await self.hall.open_room(room, moves)
        await self.bot_store.set_room(cid, room.id)
        return live, room

    async def decline_challenge(self, player: Player, cid: str, reason: str) -> Challenge:
        found = await self._pending(cid, player, "decline")
        if reason not in DECLINE_REASONS:
            raise RoomError("bad_reason", msg("error.challenge.reasons",
                                              reasons=", ".join(DECLINE_REASONS)))
        if not await self.bot_store.settle(cid, "declined", reason):
            raise RoomError("challenge_settled", msg("error.challenge.settled"))
        settled = {**found.to_json(), "status": "declined", "reason": reason,
                   **reason_text(reason)}
        for pid in (found.challenger_id, found.dest_id):
            await self.tell_player(pid, {"type": "challengeDeclined", "challenge": settled})
        return found

    async def cancel_challenge(self, player: Player, cid: str) -> Challenge:
        found = await self._pending(cid, player, "cancel")
        if not await self.bot_store.settle(cid, "canceled"):
            raise RoomError("challenge_settled", msg("error.challenge.settled"))
        settled = {**found.to_json(), "status": "canceled"}
        for pid in (found.challenger_id, found.dest_id):
            await self.tell_player(pid, {"type": "challengeCanceled", "challenge": settled})
        return found

    async def expire_challenges(self, at: float | None = None) -> list[str]:
        """Cancel every challenge left pending for `challenge_seconds` (by the hall's clock, or
        `at`), reason ``expired``, and tell both sides; return their ids. Settling is one
        conditional write, so when every node of a cluster sweeps, one of them wins each
        challenge and only the winner tells (an answer given meanwhile wins instead)."""
        if not self.bot_store.available:
            return []
        moment = datetime.fromtimestamp(self.clock() if at is None else at, UTC)
        before = stamp((moment - timedelta(seconds=self.settings.challenge_seconds))
                       .timestamp())
        expired = []
        for found in await self.bot_store.stale(before, 1000):
            if not await self.bot_store.settle(found.id, "canceled", EXPIRED):
                continue
            expired.append(found.id)
            settled = {**found.to_json(), "status": "canceled", "reason": EXPIRED,
                       "reason_text": reason_text(EXPIRED)}
            for pid in (found.challenger_id, found.dest_id):
                await self.tell_player(pid, {"type": "challengeCanceled",
                                             "challenge": settled})
        return expired
