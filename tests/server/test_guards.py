"""The hall's door in process: origins, rate rules, connection counts, tokens kept out of logs."""

from __future__ import annotations

import asyncio
import logging

import pytest

from gamehall.server.api.guards import (
    ConnectionCounts,
    NoTokensInLog,
    RateLimits,
    RateSettings,
    origin_allowed,
    per_window,
    rules,
)
from gamehall.server.ops.limiter import Limiter, Rule, SweptMemoryStorage


def test_origins_the_halls_own_the_allowed_ones_and_none() -> None:
    allowed = frozenset({"https://friend.example"})
    host = "hall.example:8000"
    assert origin_allowed(None, host, allowed)
    assert origin_allowed("http://hall.example:8000", host, allowed)
    assert origin_allowed("HTTPS://Friend.Example/", host, allowed)
    assert origin_allowed("https://hall.example", "hall.example", allowed)
    assert origin_allowed("https://hall.example", "hall.example:443", allowed)
    for bad in ("https://evil.example", "http://hall.example:8001", "null", "hall.example:8000",
                "http://hall.example:8000.evil.example"):
        assert not origin_allowed(bad, host, allowed), bad
    assert origin_allowed("https://any.example", host, frozenset({"*"}))


def test_rates_in_the_limits_notation() -> None:
    assert per_window(20, 40) == "40 per 2 seconds"
    assert per_window(5000, 5000) == "5000 per 1 seconds"
    assert per_window(15, 40) == "40 per 3 seconds"  # never more than `rate` on average
    assert [r.limit for r in rules("s", "10/minute;200/day", ("address",), "--x")] == \
        ["10 per 1 minute", "200 per 1 day"]
    for bad in ("", "often", "10 a minute"):
        with pytest.raises(ValueError, match="--session-rate"):
            rules("s", bad, ("address",), "--session-rate")


def test_message_limits_count_the_visitor_and_the_address() -> None:
    limits = RateLimits(Limiter(), RateSettings(rate=1, burst=3, address_factor=2,
                                                session_rate="2/minute", room_rate="1/minute",
                                                room_address_rate="5/minute", flood_strikes=2))

    async def scenario() -> None:
        assert [await limits.allow_message("p1", "a") for _ in range(4)] == [True] * 3 + [False]
        assert [await limits.allow_message("p2", "a") for _ in range(3)] == [True, True, False], \
            "the address's six are spent"
        assert await limits.allow_message("p3", "b")
        assert [await limits.strike("c1") for _ in range(3)] == [True, True, False]
        assert await limits.session_wait("a") is None and await limits.session_wait("a") is None
        wait = await limits.session_wait("a")
        assert wait is not None and 1 <= wait <= 60
        assert await limits.room_wait("p1", "a") is None
        assert await limits.room_wait("p1", "a") is not None
        assert await limits.room_wait("p2", "a") is None

    asyncio.run(scenario())


def test_connections_are_counted_per_visitor_and_address() -> None:
    counts = ConnectionCounts(per_visitor=2, per_address=3)
    assert counts.open("p1", "a") is None and counts.open("p1", "a") is None
    assert "per visitor" in str(counts.open("p1", "a") or "")
    assert counts.open("a:a", "a") is None
    assert "one address" in str(counts.open("p2", "a") or "")
    assert "per visitor" in str(counts.move("a:a", "p1") or "")
    counts.close("p1", "a")
    assert counts.move("a:a", "p1") is None
    assert counts.open("p2", "a") is None


def test_a_token_in_a_url_is_blanked_in_the_access_log() -> None:
    record = logging.LogRecord("uvicorn.access", logging.INFO, "", 0, '%s - "%s %s" %d',
                               ("1.2.3.4", "GET", "/api/x?a=1&token=SECRET&b=2", 200), None)
    assert NoTokensInLog().filter(record)
    assert "SECRET" not in record.getMessage() and "token=***&b=2" in record.getMessage()


def test_the_limiters_memory_is_swept_once_a_second_with_the_same_limits() -> None:
    """The library calls the hall's scheduler for its clean-up (a version that renamed its hook
    would sweep 10 ms after every hit again: costly with many visitors)."""
    limiter = Limiter()
    swept = limiter._storage
    assert isinstance(swept, SweptMemoryStorage)
    swept.timer.join()  # the library's first sweep, started with the storage
    rule = (Rule("t", "3/minute", ("k",)),)

    async def scenario() -> None:
        assert [await limiter.allow(rule, {"k": "a"}) for _ in range(4)] == \
            [True, True, True, False]
        assert await limiter.allow(rule, {"k": "b"})
        assert swept.timer.interval == SweptMemoryStorage.SWEEP_SECONDS
        assert await limiter.blocked(rule, {"k": "a"}) is not None

    asyncio.run(scenario())
