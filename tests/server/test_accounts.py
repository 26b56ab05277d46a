"""Accounts on a real storage with a clock the test moves: tokens die after disuse and live on
while used, passwords are argon2 hashes, signing out ends one token or all of them, changing
the password signs out every other browser, and failed sign-ins go to the limiter."""

from __future__ import annotations

import asyncio
from collections import Counter
from collections.abc import Awaitable, Callable
from pathlib import Path

import pytest

from gamehall.server.accounts.identity import (
    RECHECK_SECONDS,
    Accounts,
    Passwords,
    RateLimited,
    TokenPolicy,
    token_hash,
)
from gamehall.server.storage import SqlStorage
from gamehall.server.storage.interface import TokenOwner
from gamehall.server.table.errors import RoomError

DAY = 86400.0


class Clock:
    def __init__(self) -> None:
        self.t = 1_800_000_000.0

    def __call__(self) -> float:
        return self.t


class Limiter:
    """Blocks a nickname after `allowed` tries (from any address); counts the tries let on."""

    def __init__(self, allowed: int) -> None:
        self.allowed = allowed
        self.failures: Counter[tuple[str, str]] = Counter()

    async def sign_in_try(self, nickname_key: str, address: str) -> float | None:
        n = sum(c for (k, _), c in self.failures.items() if k == nickname_key)
        if n >= self.allowed:
            return 30.0
        self.failures[(nickname_key, address)] += 1
        return None


def _run(tmp_path: Path, body: Callable[[Accounts, Clock, SqlStorage], Awaitable[None]],
         limiter: Limiter | None = None) -> None:
    async def scenario() -> None:
        store = SqlStorage(f"sqlite:///{tmp_path / 'a.db'}")
        await store.open()
        clock = Clock()
        accounts = Accounts(store, clock, TokenPolicy(idle_days=30),
                            Passwords(time_cost=1, memory_kib=8192, parallelism=1), limiter)
        try:
            await body(accounts, clock, store)
        finally:
            await store.close()

    asyncio.run(scenario())


def test_a_token_dies_after_thirty_days_unused_and_lives_while_used(tmp_path: Path) -> None:
    async def body(acc: Accounts, clock: Clock, store: SqlStorage) -> None:
        ann, token = await acc.new_guest("ann")
        busy, busy_token = await acc.new_guest("busy")
        for _ in range(40):  # busy plays every day for 40 days; ann is away
            clock.t += DAY
            assert await acc.identify(busy_token) == busy
        assert await acc.identify(token) is None
        assert await store.token_owner(token_hash(token)) is None  # removed, not just refused
        owner = await store.token_owner(token_hash(busy_token))
        assert owner is not None and clock.t - owner.last_used < 3600

    _run(tmp_path, body)


def test_use_is_written_down_at_most_hourly(tmp_path: Path) -> None:
    async def body(acc: Accounts, clock: Clock, store: SqlStorage) -> None:
        _, token = await acc.new_guest("ann")
        writes = store.stats["writes"]
        for _ in range(100):  # a move every ten seconds for a quarter of an hour
            clock.t += 10
            assert await acc.identify(token) is not None
        assert store.stats["writes"] == writes
        clock.t += 3600
        await acc.identify(token)
        assert store.stats["writes"] == writes + 1

    _run(tmp_path, body)


def test_a_password_lets_the_owner_sign_in_anywhere(tmp_path: Path) -> None:
    async def body(acc: Accounts, clock: Clock, store: SqlStorage) -> None:
        ann, first = await acc.new_guest("Ann")
        assert ann.account is False
        with pytest.raises(RoomError) as short:
            await acc.set_password(ann, first, "short", None)
        assert short.value.code == "weak_password"
        ann = await acc.set_password(ann, first, "correct horse", None)
        assert ann.account is True and (await acc.identify(first)) == ann
        row = await store.account("ann")
        assert row is not None and row.password_hash is not None
        assert row.password_hash.startswith("$argon2id$") and "correct" not in row.password_hash
        for pair in (("ann", "wrong password"), ("nobody", "correct horse"), ("", "")):
            with pytest.raises(RoomError) as bad:
                await acc.login(*pair, address="1.2.3.4")
            assert bad.value.code == "bad_login"
        player, second = await acc.login("ANN", "correct horse", address="1.2.3.4")
        assert player == ann and second != first
        assert await acc.identify(second) == ann and await acc.identify(first) == ann

    _run(tmp_path, body)


def test_a_guest_cannot_be_signed_into_and_cannot_sign_out(tmp_path: Path) -> None:
    async def body(acc: Accounts, clock: Clock, store: SqlStorage) -> None:
        guest, token = await acc.new_guest("guest")
        with pytest.raises(RoomError) as bad:
            await acc.login("guest", "", address="a")
        assert bad.value.code == "bad_login"
        with pytest.raises(RoomError) as refused:
            await acc.logout(guest, token)
        assert refused.value.code == "no_password"
        assert await acc.identify(token) == guest

    _run(tmp_path, body)


def test_sign_out_ends_one_browser_and_sign_out_everywhere_ends_all(tmp_path: Path) -> None:
    async def body(acc: Accounts, clock: Clock, store: SqlStorage) -> None:
        ann, home = await acc.new_guest("ann")
        ann = await acc.set_password(ann, home, "correct horse", None)
        _, work = await acc.login("ann", "correct horse", "w")
        _, phone = await acc.login("ann", "correct horse", "p")
        await acc.logout(ann, work)
        assert await acc.identify(work) is None
        assert await acc.identify(home) == ann and await acc.identify(phone) == ann
        await acc.logout_all(ann)
        for token in (home, phone):
            assert await acc.identify(token) is None

    _run(tmp_path, body)


def test_another_nodes_revocation_is_seen_within_a_minute(tmp_path: Path) -> None:
    async def body(acc: Accounts, clock: Clock, store: SqlStorage) -> None:
        ann, token = await acc.new_guest("ann")
        await store.revoke_tokens(ann.id)  # as another node would: only the database knows
        assert await acc.identify(token) == ann  # trusted from this node's memory a while
        clock.t += RECHECK_SECONDS
        assert await acc.identify(token) is None

    _run(tmp_path, body)


def test_a_sign_out_another_node_announces_is_forgotten_at_once(tmp_path: Path) -> None:
    """In a cluster a sign-out elsewhere comes as `drop` (revocations.py); after a Redis outage,
    when such messages may have been lost, a new `epoch` has every token read again."""
    async def body(acc: Accounts, clock: Clock, store: SqlStorage) -> None:
        ann, one = await acc.new_guest("ann")
        bob, two = await acc.new_guest("bob")
        carol, three = await acc.new_guest("carol")
        for player in (ann, bob, carol):
            await store.revoke_tokens(player.id)  # as another node would, then it says so:
        acc.drop([token_hash(one)], None)
        acc.drop([], bob.id)
        assert await acc.identify(one) is None and await acc.identify(two) is None
        assert await acc.identify(three) == carol  # its drop was lost: trusted a while
        acc.epoch = lambda: 1.0  # the subscriber came back from an outage
        assert await acc.identify(three) is None

        dora, four = await acc.new_guest("dora")
        acc._seen.clear()
        read = store.token_owner

        async def signed_out_meanwhile(key: str) -> TokenOwner | None:
            owner = await read(key)  # the look-up is under way when dora signs out elsewhere
            await store.revoke_tokens(dora.id)
            acc.drop([key], None)
            return owner

        store.token_owner = signed_out_meanwhile  # type: ignore[method-assign]
        assert await acc.identify(four) == dora  # as read, but not remembered
        store.token_owner = read  # type: ignore[method-assign]
        assert await acc.identify(four) is None

    _run(tmp_path, body)


def test_changing_the_password_needs_the_old_one_and_signs_out_other_browsers(
        tmp_path: Path) -> None:
    async def body(acc: Accounts, clock: Clock, store: SqlStorage) -> None:
        ann, here = await acc.new_guest("ann")
        ann = await acc.set_password(ann, here, "correct horse", None)
        _, there = await acc.login("ann", "correct horse", "x")
        for old in (None, "not it at all"):
            with pytest.raises(RoomError) as refused:
                await acc.set_password(ann, here, "battery staple", old)
            assert refused.value.code == "bad_login"
        await acc.set_password(ann, here, "battery staple", "correct horse")
        assert await acc.identify(here) == ann and await acc.identify(there) is None
        with pytest.raises(RoomError):
            await acc.login("ann", "correct horse", "x")
        assert (await acc.login("ann", "battery staple", "x"))[0] == ann

    _run(tmp_path, body)


def test_failed_sign_ins_are_limited_and_even_the_right_password_then_waits(
        tmp_path: Path) -> None:
    limiter = Limiter(allowed=3)

    async def body(acc: Accounts, clock: Clock, store: SqlStorage) -> None:
        ann, token = await acc.new_guest("ann")
        await acc.set_password(ann, token, "correct horse", None)
        for n in range(3):
            with pytest.raises(RoomError) as bad:
                await acc.login("Ann", f"guess {n}", address=f"10.0.0.{n}")
            assert bad.value.code == "bad_login"
        with pytest.raises(RateLimited) as limited:
            await acc.login("ann", "correct horse", address="10.0.0.9")
        assert limited.value.code == "rate_limited" and limited.value.retry_after == 30.0
        assert sum(limiter.failures.values()) == 3  # the refused attempt was not even tried
        with pytest.raises(RoomError) as other:  # other nicknames are not blocked by ann's
            await acc.login("bob", "whatever!", address="10.0.0.9")
        assert other.value.code == "bad_login"

    _run(tmp_path, body, limiter)


def test_old_hashes_are_upgraded_when_their_owner_signs_in(tmp_path: Path) -> None:
    async def body(acc: Accounts, clock: Clock, store: SqlStorage) -> None:
        ann, token = await acc.new_guest("ann")
        weak = Passwords(time_cost=1, memory_kib=8192, parallelism=1)
        await store.set_password(ann.id, await weak.hash("correct horse"))
        acc.passwords = Passwords(time_cost=2, memory_kib=8192, parallelism=1)
        await acc.login("ann", "correct horse", "x")
        row = await store.account("ann")
        assert row is not None and row.password_hash is not None and ",t=2," in row.password_hash

    _run(tmp_path, body)


def test_through_http_a_sign_in_unused_for_a_month_is_over(tmp_path: Path) -> None:
    from fastapi.testclient import TestClient

    from gamehall.server.api.app import create_app
    from gamehall.server.ops.settings import Settings

    clock = Clock()
    settings = Settings(argon2_time_cost=1, argon2_memory_kib=8192, token_idle_days=30)
    app = create_app(f"sqlite:///{tmp_path / 'h.db'}", settings, web_dir=tmp_path, clock=clock)
    with TestClient(app) as client:
        token = client.post("/api/session", json={"nickname": "ann"}).json()["token"]
        headers = {"X-Gamehall-Token": token}
        assert client.post("/api/account/password", json={"password": "correct horse"},
                           headers=headers).status_code == 200
        clock.t += 29 * DAY
        assert client.get("/api/session", headers=headers).status_code == 200
        clock.t += 29 * DAY  # 29 days after its last use: still alive
        assert client.get("/api/session", headers=headers).json()["account"] is True
        clock.t += 31 * DAY
        gone = client.get("/api/session", headers=headers)
        assert gone.status_code == 401 and gone.json()["code"] == "not_identified"
        back = client.post("/api/login", json={"nickname": "ann", "password": "correct horse"})
        assert back.status_code == 200 and back.json()["token"] != token


def test_the_halls_sign_in_limits_count_pairs_nicknames_and_addresses() -> None:
    from gamehall.server.ops.limiter import Limiter, SignInLimits

    limits = SignInLimits(Limiter())

    async def scenario() -> None:
        for _ in range(5):
            assert await limits.sign_in_blocked("ann", "10.0.0.1") is None
            await limits.sign_in_failed("ann", "10.0.0.1")
        wait = await limits.sign_in_blocked("ann", "10.0.0.1")
        assert wait is not None and 1 <= wait <= 60  # the per-minute rule for this pair
        assert await limits.sign_in_blocked("ann", "10.0.0.2") is None  # ann from elsewhere
        assert await limits.sign_in_blocked("bob", "10.0.0.1") is None  # another nickname
        for n in range(45):  # spraying: 50 failures from one address over many nicknames
            await limits.sign_in_failed(f"user{n}", "10.0.0.1")
        assert await limits.sign_in_blocked("carol", "10.0.0.1") is not None
        for n in range(100):  # one nickname from everywhere: a hundred an hour
            await limits.sign_in_failed("dora", f"172.16.{n // 250}.{n % 250}")
        assert await limits.sign_in_blocked("dora", "192.168.1.1") is not None

    asyncio.run(scenario())


def test_tokens_in_memory_stay_bounded(tmp_path: Path) -> None:
    async def body(acc: Accounts, clock: Clock, store: SqlStorage) -> None:
        acc.max_seen = 10
        tokens = []
        for n in range(30):
            tokens.append((await acc.new_guest(f"p{n}"))[1])
            clock.t += RECHECK_SECONDS
        assert len(acc._seen) <= 10
        for n, token in enumerate(tokens):  # the forgotten ones are read back from storage
            player = await acc.identify(token)
            assert player is not None and player.nickname == f"p{n}"

    _run(tmp_path, body)
