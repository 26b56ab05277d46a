"""Who is connected to each room on the other nodes of a cluster: each node writes its own
part in a Redis hash per room (`presence:{room}`) and announces it on the room's channel; the
owner also shares the room's absence (`absent:{room}`) for the nodes that read the room without
keeping it. A node's part is dropped only when that node has ended (docs/cluster.md, "What a
node that does not own a room knows of it")."""

from __future__ import annotations

import asyncio
import itertools
import json
from collections import Counter
from collections.abc import Callable
from typing import Any

from redis.exceptions import RedisError

from gamehall.server.cluster.host import Host
from gamehall.server.pubsub.redis_pubsub import RedisPubSub

ABSENCE_KEEP = 86400
"""Seconds an owner's absence object stays in Redis without being written again."""
EMPTY = '{"players":[],"watchers":{}}'
"""A node's presence in a room it has no connection to (its entry is deleted, not written)."""
SLOW_PRESENCE = 30.0
"""Seconds a node not alive but still subscribed keeps its players' presence (a frozen node's
connections serve nobody; after this its players count as gone)."""


class PresenceAcrossNodes:
    """Who is connected to which room on the other nodes of a cluster, and this node's own
    connections told to them (a part of `cluster.Cluster`, handed its pub/sub, its holder name,
    its Redis key maker, and views of the live nodes and of the host it serves)."""

    def __init__(self, pubsub: RedisPubSub, holder: str, key: Callable[[str], str],
                 live: Callable[[], set[str]], host: Callable[[], Host | None]) -> None:
        self.pubsub, self.holder, self._key = pubsub, holder, key
        self._live, self._host = live, host
        self._presence: dict[str, dict[str, tuple[set[int], Counter[str]]]] = {}
        self._heard_at: dict[str, dict[str, int]] = {}
        """Room -> node -> when (`_seq`) its last presence event came: a hash read that began
        before it returns older news for that node, however the replies are ordered."""
        self._seq = itertools.count(1)
        self._slow: dict[str, float] = {}
        """Holders whose heartbeat ran out but whose process still listens (a late node, not an
        ended one) -> since when: their players are still connected, so their presence stays."""
        self._desired: dict[str, str] = {}
        """Rooms with connections on this node now or a moment ago -> the presence JSON the
        other nodes should have (`set_presence`), until it is written."""
        self._mine: dict[str, str] = {}
        """Rooms whose presence this node has written to Redis (not empty) -> that JSON."""
        self._unwritten: set[str] = set()
        """Rooms whose last write failed (Redis trouble): written again at the next scan."""
        self._writing: dict[str, asyncio.Lock] = {}
        """One write at a time per room, so Redis and the events end with the latest news."""

    async def settle(self, candidates: set[str], now: float) -> None:
        """Drop the presence of the nodes not alive whose process has ended: their node channel
        has no subscriber (Redis closed their connections), or they stayed silent for
        `SLOW_PRESENCE` seconds. A node whose heartbeat only ran late (a busy machine) still
        holds its players' connections: judging them gone made players look disconnected for a
        moment, and an absent player claimable although connected."""
        if not candidates:
            return
        order = sorted(candidates)
        counts: Any = await self.pubsub.redis.pubsub_numsub(
            *[self.pubsub.node_channel(m) for m in order])
        ended = set()
        for m, (_, listeners) in zip(order, counts, strict=True):
            since = self._slow.setdefault(m, now)
            if int(listeners) == 0 or now - since >= SLOW_PRESENCE:
                ended.add(m)
                del self._slow[m]
        for room_id, nodes in self._presence.items():
            if ended & set(nodes):
                left: set[int] = set()
                for g in ended:
                    left |= nodes.pop(g, (set(), Counter()))[0]
                if (host := self._host()) is not None:
                    host.presence_changed(room_id, left)

    async def set_presence(self, room_id: str, players: set[int],
                           watchers: Counter[str]) -> None:
        """Tell the other nodes who is connected to the room here (returns once written)."""
        self._desired[room_id] = json.dumps({"players": sorted(players),
                                             "watchers": dict(watchers)}, separators=(",", ":"))
        await self._write_presence(room_id)

    async def _write_presence(self, room_id: str) -> None:
        """Write the room's desired presence if Redis does not have it yet, then announce it.
        Writes of one room go one at a time: two at once could reach Redis (and the others)
        in either order and leave the older news standing. A failed write is tried again at
        the next scan (it was lost before, until the next change)."""
        lock = self._writing.setdefault(room_id, asyncio.Lock())
        async with lock:
            data = self._desired.get(room_id)
            if data is None or (self._mine.get(room_id, EMPTY) == data
                                and room_id not in self._unwritten):
                self._desired.pop(room_id, None)
                return
            key = self._key(f"presence:{room_id}")
            try:
                if data != EMPTY:
                    await self.pubsub.redis.hset(key, self.holder, data)
                else:
                    await self.pubsub.redis.hdel(key, self.holder)
            except (RedisError, OSError):
                self._unwritten.add(room_id)
                return
            self._unwritten.discard(room_id)
            if data != EMPTY:
                self._mine[room_id] = data
            else:
                self._mine.pop(room_id, None)
            if self._desired.get(room_id) == data:
                del self._desired[room_id]
            await self.pubsub.publish_remote(room_id, {"event": "presence", "node": self.holder,
                                                       "data": data})

    async def rewrite_presence(self, rooms: set[str] | None = None) -> None:
        """Write again what Redis may lack: the rooms whose write failed, or (`rooms`) these,
        after Redis came back empty."""
        for room_id in rooms or set():
            self._desired.setdefault(room_id, self._mine.get(room_id, EMPTY))
            self._unwritten.add(room_id)
        for room_id in list(self._unwritten):
            self._desired.setdefault(room_id, self._mine.get(room_id, EMPTY))
            await self._write_presence(room_id)

    def expect_presence(self, room_id: str) -> None:
        """Start keeping the room's presence before subscribing to its channel: an event that
        arrives before the hash is read (`load_presence`) is kept, not dropped for want of a
        room to note it in (a player connected then looked disconnected for the whole game)."""
        self._presence.setdefault(room_id, {})
        self._heard_at.setdefault(room_id, {})

    async def load_presence(self, room_id: str) -> None:
        """Read who is connected to the room on the other nodes (when starting to hold it);
        a node whose presence event came in meanwhile keeps that newer news."""
        self.expect_presence(room_id)
        began = next(self._seq)
        try:
            got = await self.pubsub.redis.hgetall(self._key(f"presence:{room_id}"))
            found = {str(k): str(v) for k, v in got.items()}
            present = await self._present(found)
        except (RedisError, OSError):
            return
        nodes, heard = self._presence.get(room_id), self._heard_at.get(room_id, {})
        if nodes is None:  # forgotten meanwhile
            return
        for node in present - {self.holder}:
            if heard.get(node, 0) < began:
                nodes[node] = parse_presence(found[node])

    async def _present(self, found: dict[str, str]) -> set[str]:
        """The nodes of a presence hash whose players count as connected: alive or only late
        at this node's last look, or (a node this node has not seen yet: it started a moment
        ago, before its first look) with a heartbeat in Redis now. A node that has ended left
        its entries behind; they count for nothing."""
        known = {n for n in found if n in self._live() or n in self._slow}
        others = sorted(set(found) - known)
        if not others:
            return known
        beats = await self.pubsub.redis.mget([self._key(f"alive:{n}") for n in others])
        return known | {n for n, beat in zip(others, beats, strict=True) if beat is not None}

    async def read_presence(self, room_id: str) -> tuple[set[int], dict[str, Any] | None]:
        """For a room this node does not keep: the players connected on every node, and the
        owner's absence object (`share_absence`), read from Redis."""
        pipe = self.pubsub.redis.pipeline(transaction=False)
        pipe.hgetall(self._key(f"presence:{room_id}"))
        pipe.get(self._key(f"absent:{room_id}"))
        found, absent = await pipe.execute()
        players: set[int] = set()
        for node in await self._present(found):
            players |= parse_presence(str(found[node]))[0]
        try:
            away = json.loads(absent) if absent else None
        except (TypeError, ValueError):
            away = None
        return players, away if isinstance(away, dict) else None

    async def share_absence(self, room_id: str, away: dict[str, Any] | None) -> None:
        """The owner's absence object for the room (None: nobody may be claimed against), for
        the nodes that read the room without keeping it."""
        key = self._key(f"absent:{room_id}")
        if away is None:
            await self.pubsub.redis.delete(key)
        else:
            await self.pubsub.redis.set(key, json.dumps(away), ex=ABSENCE_KEEP)

    async def reload(self, came: set[str]) -> None:
        """Nodes that joined (or were judged dead and came back) may have players in rooms held
        here; their presence events went out before this node listened, so read the hashes."""
        for room_id, nodes in list(self._presence.items()):
            before = {n: nodes[n][0] for n in came if n in nodes}
            await self.load_presence(room_id)
            changed: set[int] = set()
            for n in came:
                changed |= before.get(n, set()) ^ nodes.get(n, (set(), Counter()))[0]
            if changed and (host := self._host()) is not None:
                host.presence_changed(room_id, changed)

    def note_presence(self, room_id: str, node: str, data: str) -> set[int] | None:
        """Another node's presence event: the players who came or went there (None: the room
        is not held here)."""
        nodes = self._presence.get(room_id)
        if nodes is None:
            return None
        self._heard_at.setdefault(room_id, {})[node] = next(self._seq)
        before = nodes.get(node, (set(), Counter()))[0]
        nodes[node] = parse_presence(data)
        return before ^ nodes[node][0]

    def slow_nodes(self) -> set[str]:
        """Nodes whose heartbeat ran out but whose process still listens."""
        return set(self._slow)

    def back(self, node: str) -> None:
        """A late node's heartbeat came again: it is alive, not slow."""
        self._slow.pop(node, None)

    def rooms_written(self) -> set[str]:
        """Rooms whose presence this node has written to Redis."""
        return set(self._mine)

    def rooms_kept(self) -> list[str]:
        """Rooms whose presence on the other nodes this node keeps."""
        return list(self._presence)

    def forget_presence(self, room_id: str) -> None:
        self._presence.pop(room_id, None)
        self._heard_at.pop(room_id, None)
        if room_id not in self._mine and room_id not in self._desired:
            self._writing.pop(room_id, None)

    def remote_players(self, room_id: str) -> set[int]:
        out: set[int] = set()
        for players, _ in self._presence.get(room_id, {}).values():
            out |= players
        return out

    def remote_watchers(self, room_id: str) -> Counter[str]:
        out: Counter[str] = Counter()
        for _, watchers in self._presence.get(room_id, {}).values():
            out.update(watchers)
        return out


def parse_presence(data: str) -> tuple[set[int], Counter[str]]:
    try:
        parsed = json.loads(data)
        return set(parsed.get("players", ())), Counter(parsed.get("watchers", {}))
    except (TypeError, ValueError, AttributeError):
        return set(), Counter()
