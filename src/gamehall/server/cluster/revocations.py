"""Signing out in a cluster: every node forgets the token before the sign-out is answered.

Each node keeps the tokens it has read in memory for a while (accounts.RECHECK_SECONDS), so that
a player's every move does not read the database. A sign-out (one token, every token of a
player, or a password set or changed) is stored first; then the node publishes it on the hall's
Redis channel, every node (itself included) forgets those tokens and says so on the same
channel, and the node answers its client once every node that got the message has said so (or
after `ACK_WAIT` seconds, for a node that hangs). The next request with the token, on any node,
reads the database and is refused.

A node cut off from Redis misses such messages: when its subscriber connection is back, it reads
every token again (`Accounts.epoch`). If Redis fails during the sign-out, the sign-out stands
(it is stored) and the other nodes notice within RECHECK_SECONDS at most; it is logged.
"""

from __future__ import annotations

import asyncio
import itertools
import logging
from typing import Any

from redis.exceptions import RedisError

from gamehall.server.accounts.identity import RECHECK_SECONDS, Accounts
from gamehall.server.pubsub.redis_pubsub import RedisPubSub

log = logging.getLogger("gamehall.server")

ACK_WAIT = 1.0
"""Seconds a sign-out waits for the other nodes to say they forgot the tokens."""


class Revocations:
    """This node's part: announce its sign-outs, act on (and acknowledge) everyone's."""

    def __init__(self, pubsub: RedisPubSub, accounts: Accounts) -> None:
        self.pubsub, self.accounts = pubsub, accounts
        self._ids = itertools.count(1)
        self._waiting: dict[int, tuple[asyncio.Event, list[int]]] = {}
        """Sign-outs of this node waiting for acknowledgements -> (all in, [still to come])."""
        self._tasks: set[asyncio.Task[None]] = set()
        pubsub.on_broadcast = self.received
        accounts.announce = self.announce
        accounts.epoch = lambda: pubsub.up_since

    async def announce(self, keys: list[str], player_id: int | None) -> None:
        """Tell every node to forget these token hashes (and every token of `player_id`);
        return once each has, or after ACK_WAIT. Never raises for Redis: logged instead."""
        call = next(self._ids)
        done, left = asyncio.Event(), [0]
        self._waiting[call] = (done, left)
        try:
            got = await self.pubsub.broadcast({"t": "drop", "from": self.pubsub.origin,
                                               "id": call, "keys": keys, "player": player_id})
            left[0] += got  # acknowledgements that came before the count are negative
            if left[0] > 0:
                await asyncio.wait_for(done.wait(), ACK_WAIT)
        except TimeoutError:
            log.warning("a sign-out: %d node(s) did not confirm within %.1f s", left[0],
                        ACK_WAIT)
        except (RedisError, OSError) as exc:
            log.warning("a sign-out could not be published (%s); other nodes notice it within "
                        "%.0f s", exc, RECHECK_SECONDS)
        finally:
            self._waiting.pop(call, None)

    def received(self, msg: dict[str, Any]) -> None:
        """A message on the hall's channel: a sign-out to act on, or an acknowledgement."""
        kind = msg.get("t")
        if kind == "drop":
            keys = [str(k) for k in msg.get("keys") or ()]
            player = msg.get("player")
            self.accounts.drop(keys, int(player) if player is not None else None)
            self._ack(str(msg.get("from")), msg.get("id"))
        elif kind == "dropped" and msg.get("to") == self.pubsub.origin:
            waiting = self._waiting.get(int(msg.get("id") or 0))
            if waiting is not None:
                done, left = waiting
                left[0] -= 1
                if left[0] == 0:
                    done.set()

    def _ack(self, to: str, call: Any) -> None:
        task = asyncio.get_running_loop().create_task(self._send_ack(to, call))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _send_ack(self, to: str, call: Any) -> None:
        try:
            await self.pubsub.broadcast({"t": "dropped", "to": to, "id": call})
        except (RedisError, OSError) as exc:
            log.warning("could not confirm a sign-out to %s: %s", to, exc)
