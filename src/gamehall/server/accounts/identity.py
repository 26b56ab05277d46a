"""Who a request comes from: guests and accounts, tokens and how long they live, passwords.

A visitor is a nickname with one or more random tokens (the server stores only their SHA-256).
A guest has no password: their browser's token is all they have. An account is a nickname
with a password (hashed with argon2id, argon2-cffi's RFC 9106 profile by default), so its
owner can sign in from any browser and get a new token there. A token that has not been used
for `TokenPolicy.idle_days` is dead. Tries of a password (a sign-in, or the old password of a
change) are counted by a `SignInLimiter` (the hall's rate limiter) per nickname and per address,
before argon2 runs: past the limit no hash is computed.

Time comes from the hall's clock (seconds, injected), so tests can move it.
"""

from __future__ import annotations

import asyncio
import hashlib
import secrets
from collections.abc import Awaitable, Callable, Coroutine
from dataclasses import dataclass
from typing import Any, Protocol

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError

from gamehall.core.messages import msg
from gamehall.server.storage.interface import AccountRow, TokenOwner
from gamehall.server.table.clocks import stamp
from gamehall.server.table.errors import RoomError, Said

MIN_PASSWORD = 8
MAX_PASSWORD = 200
RECHECK_SECONDS = 60.0
"""How long a node trusts a token it has seen before asking the database again. In a cluster a
sign-out reaches every node at once (revocations.py); this bounds what a node that missed it
(cut off from Redis then) goes on trusting."""


class RateLimited(RoomError):
    """Refused for now; `retry_after` seconds tell when to try again."""

    def __init__(self, retry_after: float, said: Said) -> None:
        super().__init__("rate_limited", said)
        self.retry_after = retry_after


@dataclass(frozen=True)
class Player:
    """An identified visitor. `account` is true once the nickname has a password."""

    id: int
    nickname: str
    account: bool = False


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def new_token() -> str:
    return secrets.token_urlsafe(24)


@dataclass(frozen=True)
class TokenPolicy:
    """How long tokens live: dead after `idle_days` without use; the last use is written down
    at most every `touch_seconds` (so a busy player costs one write an hour, not one a move)."""

    idle_days: float = 30.0

    @property
    def idle_seconds(self) -> float:
        return self.idle_days * 86400.0

    @property
    def touch_seconds(self) -> float:
        return min(3600.0, self.idle_seconds / 100)

    def expired(self, last_used: float, now: float) -> bool:
        return now - last_used > self.idle_seconds

    def needs_touch(self, last_used: float, now: float) -> bool:
        return now - last_used >= self.touch_seconds


class SignInLimiter(Protocol):
    """Counts tries of a password (signing in, and the old password when changing it); the
    hall's rate limiter implements it."""

    async def sign_in_try(self, nickname_key: str, address: str) -> float | None:
        """Count one try of this nickname's password from this address, before the password
        is checked, and in one step with the check of the limit (so that tries raced at once
        are each counted): None if it may go on, else the seconds to wait (not counted)."""


class Passwords:
    """argon2id hashing in worker threads, a few at a time (each hash takes tens of MiB)."""

    def __init__(self, time_cost: int = 3, memory_kib: int = 65536, parallelism: int = 4,
                 concurrent: int = 2) -> None:
        self.hasher = PasswordHasher(time_cost=time_cost, memory_cost=memory_kib,
                                     parallelism=parallelism)
        self._slots = asyncio.Semaphore(concurrent)
        self._dummy: str | None = None

    @staticmethod
    def check_new(password: str) -> None:
        if len(password) < MIN_PASSWORD:
            raise RoomError("weak_password", msg("error.password.short", least=MIN_PASSWORD))
        if len(password) > MAX_PASSWORD:
            raise RoomError("weak_password", msg("error.password.long", most=MAX_PASSWORD))

    async def hash(self, password: str) -> str:
        async with self._slots:
            return await asyncio.to_thread(self.hasher.hash, password)

    async def verify(self, hashed: str | None, password: str) -> bool:
        """True if `password` matches. With no hash (a guest, a bot, nobody) the same work is
        done and False returned, so an answer's time does not tell which it was."""
        if hashed is None:
            if self._dummy is None:
                self._dummy = await self.hash(new_token())
            await self._verify(self._dummy, "not the password")
            return False
        if len(password) > MAX_PASSWORD:
            return False
        return await self._verify(hashed, password)

    async def _verify(self, hashed: str, password: str) -> bool:
        async with self._slots:
            try:
                return bool(await asyncio.to_thread(self.hasher.verify, hashed, password))
            except (VerificationError, InvalidHashError):
                return False

    def needs_rehash(self, hashed: str) -> bool:
        try:
            return self.hasher.check_needs_rehash(hashed)
        except InvalidHashError:
            return True


class AccountStore(Protocol):
    """The storage methods accounts need (gamehall.server.storage.Storage has them)."""

    async def add_player(self, nickname: str, token_hash: str, at: str | None = None) -> int: ...
    async def token_owner(self, token_hash: str) -> TokenOwner | None: ...
    async def add_token(self, player_id: int, token_hash: str, at: str) -> None: ...
    async def touch_token(self, token_hash: str, at: str) -> None: ...
    async def revoke_token(self, token_hash: str) -> None: ...
    async def revoke_tokens(self, player_id: int, keep: str | None = None) -> None: ...
    async def account(self, nickname: str) -> AccountRow | None: ...
    async def set_password(self, player_id: int, password_hash: str) -> None: ...


@dataclass
class _Seen:
    player: Player
    last_used: float
    checked: float
    epoch: float = 0.0


Announce = Callable[[list[str], int | None], Awaitable[None]]
"""Tells the other nodes to forget tokens: these hashes, and every token of this player id."""
Dropped = Callable[[list[str], int | None], Coroutine[Any, Any, None]]
"""Told that tokens may have stopped working (these hashes, the tokens of this player id): what
they hold open is looked at again (`Accounts.on_drop`)."""


class Accounts:
    """Identity for the hall: tokens to players (cached), passwords, signing in and out."""

    def __init__(self, store: AccountStore, clock: Callable[[], float],
                 policy: TokenPolicy | None = None, passwords: Passwords | None = None,
                 limiter: SignInLimiter | None = None, max_seen: int = 20000) -> None:
        self.store, self.clock = store, clock
        self.max_seen = max_seen
        """Tokens kept in memory; past it, those not checked for a minute are forgotten (they
        would be read from storage again anyway)."""
        self.policy = policy or TokenPolicy()
        self.passwords = passwords or Passwords()
        self.limiter = limiter
        self._seen: dict[str, _Seen] = {}
        self.announce: Announce | None = None
        """In a cluster: how a sign-out reaches the other nodes' memories (revocations.py)."""
        self.epoch: Callable[[], float] = lambda: 0.0
        """Tokens remembered under another epoch are read again (in a cluster: since Redis
        came back, as sign-outs published meanwhile were lost)."""
        self._drops = 0
        """Tokens forgotten on another node's word so far: a look-up that was under way then
        may have read a token just signed out, so it is not remembered."""
        self.on_drop: list[Dropped] = []
        """Told of every sign-out, this node's (before it is answered) and every other node's
        (`drop`): the streams and connections a token holds open end with it."""
        self._told: set[asyncio.Task[None]] = set()

    # --- tokens --------------------------------------------------------------------------------
    async def new_guest(self, nickname: str) -> tuple[Player, str]:
        """Store a new visitor with a first token (NicknameTaken if the name is held)."""
        token = new_token()
        pid = await self.store.add_player(nickname, token_hash(token), stamp(self.clock()))
        player = Player(pid, nickname)
        self.remember(token, player)
        return player, token

    def remember(self, token: str, player: Player) -> None:
        now = self.clock()
        self._keep(token_hash(token), _Seen(player, now, now, self.epoch()))

    def _keep(self, key: str, seen: _Seen) -> _Seen:
        if len(self._seen) >= self.max_seen:
            now = self.clock()
            for old in [k for k, s in self._seen.items() if now - s.checked >= RECHECK_SECONDS]:
                del self._seen[old]
        self._seen[key] = seen
        return seen

    async def identify(self, token: str | None) -> Player | None:
        """The player a token belongs to, or None (unknown, revoked, or unused for too long).
        Using a token keeps it alive."""
        if not token or len(token) > 100:
            return None
        key = token_hash(token)
        now = self.clock()
        seen = self._seen.get(key)
        epoch = self.epoch()
        if seen is None or now - seen.checked >= RECHECK_SECONDS or seen.epoch != epoch:
            drops = self._drops
            owner = await self.store.token_owner(key)
            if owner is None:
                self._seen.pop(key, None)
                return None
            player = Player(owner.player_id, owner.nickname, owner.account)
            seen = _Seen(player, owner.last_used, now, epoch)
            if drops == self._drops:
                self._keep(key, seen)
        if self.policy.expired(seen.last_used, now):
            self._seen.pop(key, None)
            await self.store.revoke_token(key)
            return None
        if self.policy.needs_touch(seen.last_used, now):
            await self.store.touch_token(key, stamp(now))
            seen.last_used = now
        return seen.player

    def _forget(self, player_id: int, keep: str | None = None) -> None:
        for key in [k for k, s in self._seen.items() if s.player.id == player_id and k != keep]:
            del self._seen[key]

    def drop(self, keys: list[str], player_id: int | None) -> None:
        """Another node signed these out (token hashes, and every token of `player_id`):
        forget them, so the next use reads the database."""
        self._drops += 1
        for key in keys:
            self._seen.pop(key, None)
        if player_id is not None:
            self._forget(player_id)
        for told in self.on_drop:
            task = asyncio.get_running_loop().create_task(told(keys, player_id))
            self._told.add(task)
            task.add_done_callback(self._told.discard)

    async def alive(self, key: str) -> bool:
        """Whether the token whose hash is `key` still works (read from storage, not memory)."""
        return await self.store.token_owner(key) is not None

    async def _announce(self, keys: list[str], player_id: int | None) -> None:
        """After the database: what the tokens hold open here ends, and the other nodes forget
        what this node just changed (and end what the tokens hold open there)."""
        for told in self.on_drop:
            await told(keys, player_id)
        if self.announce is not None:
            await self.announce(keys, player_id)

    async def logout(self, player: Player, token: str) -> None:
        """End this token (this browser)."""
        self._check_account(player)
        key = token_hash(token)
        self._seen.pop(key, None)
        await self.store.revoke_token(key)
        await self._announce([key], None)

    async def forget_token(self, key: str) -> None:
        """A token (by hash) was deleted from storage (an API token revoked): forget it here
        and on every node, so its next use is refused."""
        self._drops += 1
        self._seen.pop(key, None)
        await self._announce([key], None)

    async def logout_all(self, player: Player) -> None:
        """End every token of the player: every browser is signed out."""
        self._check_account(player)
        self._forget(player.id)
        await self.store.revoke_tokens(player.id)
        await self._announce([], player.id)

    @staticmethod
    def _check_account(player: Player) -> None:
        if not player.account:
            raise RoomError("no_password", msg("error.account.sign_out_guest",
                                               nickname=player.nickname))

    # --- passwords -----------------------------------------------------------------------------
    async def set_password(self, player: Player, token: str, password: str,
                           old_password: str | None, address: str = "unknown") -> Player:
        """Protect the nickname with a password, or change it (the old one is then needed, and
        every other browser is signed out). A try of the old password counts as a sign-in's
        (`_try`: the same allowance, per nickname and address)."""
        self.passwords.check_new(password)
        row = await self.store.account(player.nickname)
        if row is None or row.id != player.id:
            raise RoomError("not_identified", msg("error.account.token_gone"))
        if row.password_hash is not None:
            if old_password is None:
                raise RoomError("bad_login", msg("error.password.old_missing"))
            await self._try(row.nickname.strip().lower(), address)
            if not await self.passwords.verify(row.password_hash, old_password):
                raise RoomError("bad_login", msg("error.password.old_wrong"))
        hashed = await self.passwords.hash(password)
        await self.store.set_password(player.id, hashed)
        keep = token_hash(token)
        if row.password_hash is not None:
            self._forget(player.id, keep=keep)
            await self.store.revoke_tokens(player.id, keep=keep)
        updated = Player(player.id, row.nickname, True)
        await self._announce([], player.id)  # signed out, or now an account: read them again
        self._forget(player.id)
        self.remember(token, updated)
        return updated

    async def _try(self, nickname_key: str, address: str) -> None:
        """Count a try of the nickname's password before it is checked: every try, the right
        one too, so that tries raced at once cannot all pass a count of failures not yet made
        (each would run argon2). Past the limit: `rate_limited`, and no hash is computed."""
        if self.limiter is None:
            return
        wait = await self.limiter.sign_in_try(nickname_key, address)
        if wait is not None:
            raise RateLimited(wait, msg("error.sign_in.too_many", seconds=max(1, round(wait))))

    async def login(self, nickname: str, password: str, address: str) -> tuple[Player, str]:
        """Sign in with nickname and password: a new token for this browser. A wrong pair is
        `bad_login`, too many of them `rate_limited`."""
        key = nickname.strip().lower()
        await self._try(key, address)
        row = await self.store.account(nickname.strip()) if len(key) <= 40 else None
        hashed = row.password_hash if row is not None and row.bot is None else None
        if row is None or not await self.passwords.verify(hashed, password):
            raise RoomError("bad_login", msg("error.sign_in.wrong"))
        assert hashed is not None
        if self.passwords.needs_rehash(hashed):
            await self.store.set_password(row.id, await self.passwords.hash(password))
        token = new_token()
        await self.store.add_token(row.id, token_hash(token), stamp(self.clock()))
        player = Player(row.id, row.nickname, True)
        self.remember(token, player)
        return player, token
