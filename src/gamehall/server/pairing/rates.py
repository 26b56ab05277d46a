"""How often one player, and one address, may join pools and post or accept seeks: rates
in the `limits` notation counted by the hall's `Limiter` (in a cluster, one count in Redis for
every node). What one may hold at once (one entry, a few seeks) is the stores' to check."""

from __future__ import annotations

from limits import parse_many

from gamehall.core.messages import msg
from gamehall.server.accounts.identity import RateLimited
from gamehall.server.ops.limiter import Limiter, Rule


def rate_rules(name: str, text: str, key: str) -> tuple[Rule, ...]:
    """One rule per rate of `text` (``30/minute``, ``5/second;100/hour``), counting `key`."""
    return tuple(Rule(f"{name}:{i}", str(item), (key,))
                 for i, item in enumerate(parse_many(text)))


class PairingRates:
    """Joins, seeks and accepts per player (``--pairing-rate``) and per address
    (``--pairing-address-rate``), one count for all three."""

    def __init__(self, limiter: Limiter, per_player: str, per_address: str) -> None:
        self.limiter = limiter
        self.rules = (rate_rules("pairing", per_player, "player")
                      + rate_rules("pairing-address", per_address, "address"))

    async def count(self, player_id: int, address: str) -> None:
        """Count one try; `RateLimited` (429) past either rate."""
        values = {"player": f"p{player_id}", "address": address}
        if await self.limiter.allow(self.rules, values):
            return
        wait = await self.limiter.blocked(self.rules, values) or 1.0
        raise RateLimited(wait, msg("error.rate.requests", seconds=max(1, round(wait))))
