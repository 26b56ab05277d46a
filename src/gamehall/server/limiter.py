"""Rate limits on what clients repeat, kept by the `limits` library (moving windows, in memory
in one process; a cluster would pass a shared storage URI such as ``redis://…``).

One `Limiter` per hall; each kind of limited thing is a set of named rules over some keys. The
first user is signing in: failed attempts are counted per nickname and address, per nickname,
and per address, so guessing one account's password, spraying one password over many accounts,
and locking an account from far away are all slow.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cached_property

from limits import RateLimitItem, parse, storage, strategies


@dataclass(frozen=True)
class Rule:
    """At most `limit` (limits' notation, e.g. ``5/minute``) per value of the keys it names."""

    name: str
    limit: str
    keys: tuple[str, ...]

    @cached_property
    def item(self) -> RateLimitItem:
        """The parsed limit (parsed once: some rules are checked on every message)."""
        return parse(self.limit)


class SweptMemoryStorage(storage.MemoryStorage):
    """limits' memory storage, its old entries swept once a second rather than 10 ms after
    every hit. The library's sweep walks every key (one per visitor) in a thread of its own;
    after every hit, with a thousand visitors, that cost the hall more CPU per move than the
    move itself. Sweeping is only clean-up: a moving window reads the entries' times, so the
    limits are the same."""

    SWEEP_SECONDS = 1.0

    def _MemoryStorage__schedule_expiry(self) -> None:  # noqa: N802 - the library's hook
        """Replaces the library's private scheduler (name-mangled: called from its methods)."""
        if not self.timer.is_alive():
            sweep = self._MemoryStorage__expire_events  # type: ignore[attr-defined]
            self.timer = threading.Timer(self.SWEEP_SECONDS, sweep)
            self.timer.daemon = True
            self.timer.start()


class Limiter:
    """Counts hits per rule and keys; tells how long until a rule allows another one."""

    def __init__(self, storage_uri: str = "memory://") -> None:
        self._storage = (SweptMemoryStorage() if storage_uri == "memory://"
                         else storage.storage_from_string(storage_uri))
        self._window = strategies.MovingWindowRateLimiter(self._storage)

    def blocked(self, rules: Sequence[Rule], values: dict[str, str]) -> float | None:
        """Seconds until every rule allows one more hit for these values, or None if all do."""
        waits = []
        for rule in rules:
            ids = [values[k] for k in rule.keys]
            if not self._window.test(rule.item, rule.name, *ids):
                stats = self._window.get_window_stats(rule.item, rule.name, *ids)
                waits.append(max(1.0, stats.reset_time - time.time()))
        return max(waits) if waits else None

    def hit(self, rules: Sequence[Rule], values: dict[str, str]) -> None:
        for rule in rules:
            self._window.hit(rule.item, rule.name, *[values[k] for k in rule.keys])

    def allow(self, rules: Sequence[Rule], values: dict[str, str]) -> bool:
        """Count one hit under every rule that still allows one (`blocked` and `hit` in one
        step, for what is limited on every try rather than on failures); True if all did."""
        ok = True
        for rule in rules:
            ok = self._window.hit(rule.item, rule.name, *[values[k] for k in rule.keys]) and ok
        return ok


SIGN_IN_RULES = (
    Rule("sign-in:pair:minute", "5/minute", ("nickname", "address")),
    Rule("sign-in:pair:hour", "20/hour", ("nickname", "address")),
    Rule("sign-in:nickname", "100/hour", ("nickname",)),
    Rule("sign-in:address", "50/hour", ("address",)),
)
"""Failed sign-ins allowed before every attempt waits (see protocol.md, failed sign-ins)."""


class SignInLimits:
    """The hall's `SignInLimiter`: failed sign-ins under `SIGN_IN_RULES`."""

    def __init__(self, limiter: Limiter, rules: Sequence[Rule] = SIGN_IN_RULES) -> None:
        self.limiter, self.rules = limiter, tuple(rules)

    def sign_in_blocked(self, nickname_key: str, address: str) -> float | None:
        return self.limiter.blocked(self.rules, {"nickname": nickname_key, "address": address})

    def sign_in_failed(self, nickname_key: str, address: str) -> None:
        self.limiter.hit(self.rules, {"nickname": nickname_key, "address": address})
