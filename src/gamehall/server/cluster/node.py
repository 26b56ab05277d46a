"""This node's part in a cluster of halls: which rooms it owns, taking over rooms nobody holds,
and passing requests for the other rooms to their owners.

- Every unfinished room has one owner, the node holding its lease (leases.py). Only the owner
  changes a room, and each of its commits carries the lease's fencing number, which PostgreSQL
  checks (storage.Fenced), so a node that lost a lease while paused can never commit.
- A node renews its leases (and its heartbeat) a few times per lease period, from a thread of
  its own: a busy event loop does not lose them (a loop stalled for `LOOP_STALL` seconds does:
  such a node serves nobody, so it must not keep its rooms). Every node looks
  at the others' heartbeats twice a second; when one has died (or unheld rooms were found last
  time, or every few seconds anyway: after a Redis restart nobody may have died) it looks for
  unfinished rooms whose lease nobody holds, and takes them: at once when it is the room's
  preferred node among the live ones (rendezvous hashing, which spreads a dead node's rooms
  evenly), after a short grace otherwise.
- Taking a room: raise the fencing number in Redis (never below the stored one), claim the room
  in PostgreSQL with it (from then on the old owner's commits are refused), then load the room
  from PostgreSQL. Nothing the old owner committed is lost; nothing it did not commit was ever
  acknowledged.
- A request for a room owned elsewhere is passed to the owner over Redis (the owner's node
  channel) and answered the same way, or, when the caller watches the room and the request
  commits a change, by the room's own state event (`Answer`: one publication less per move);
  see docs/cluster.md for why requests move rather than rooms. A request that certainly did
  not arrive (nobody listening, or the owner says it no longer owns the room) is tried again
  with the new owner; one that may have arrived is never sent twice (the caller gets
  `room_unavailable`).
- Presence (who is connected to a room, on any node) is a Redis hash per room plus an event.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import logging
import secrets
import threading
import time
import zlib
from collections import Counter
from collections.abc import Awaitable, Callable
from typing import Any

from redis.exceptions import RedisError

from gamehall.core import messages
from gamehall.server.cluster.host import Answer, Host, NotOwner, PlayerRef, Unreachable
from gamehall.server.cluster.leases import Leases, Renewer
from gamehall.server.cluster.presence import PresenceAcrossNodes
from gamehall.server.pubsub.redis_pubsub import RedisPubSub
from gamehall.server.storage import Coalescer, Storage
from gamehall.server.table.errors import RoomError, said_from, said_json
from gamehall.server.table.protocol import ProtocolError, Request, TypedSeat

log = logging.getLogger("gamehall.server")

LOOP_STALL = 10.0
"""Seconds without a sign of the event loop after which the lease thread stops renewing."""
BEAT = 0.5
"""Seconds between a node's heartbeats (written by its lease thread)."""
SILENT_BEATS = 3
"""Heartbeats a node must have missed, its channel without a subscriber, to be judged ended."""
RENEWALS = 6
"""Renewals per lease period: a node that does not run for up to 5/6 of it keeps its leases."""
SLOW_SCAN = 2.0
"""Seconds a scan (the look at the heartbeats, then the takeover of unheld rooms) may take
before the node says so: meanwhile it judges others, and takes rooms, late."""
FORWARD_CHECK = 0.25
"""How often a node waiting for a forwarded request's answer checks that the owner lives."""

def encode_request(req: Request) -> dict[str, Any]:
    args = {k: ({"typed_seat": int(v)} if isinstance(v, TypedSeat) else v)
            for k, v in req.args.items()}
    return {"kind": req.kind, "args": args, "ref": req.ref}


def decode_request(data: dict[str, Any]) -> Request:
    args = {k: (TypedSeat(v["typed_seat"]) if isinstance(v, dict) else v)
            for k, v in data["args"].items()}
    return Request(str(data["kind"]), args, data.get("ref"))


def preferred(room_id: str, nodes: set[str]) -> str:
    """The live node that takes an unheld room first (rendezvous hashing: stable and even)."""
    return max(nodes, key=lambda n: (zlib.crc32(f"{room_id}|{n}".encode()), n))


class Cluster:
    """Leases, takeover and forwarding for one node. `node` is the operator's name for it; the
    holder name in Redis adds a random part, so a restarted node is a new holder."""

    def __init__(self, pubsub: RedisPubSub, storage: Storage, node: str, lease_ms: int = 10_000,
                 forward_timeout: float = 30.0) -> None:
        self.pubsub, self.storage, self.node = pubsub, storage, node
        self.holder = pubsub.origin
        self.lease_ms = lease_ms
        self.forward_timeout = forward_timeout
        """The longest a forwarded request waits for its answer while its owner lives (an owner
        judged dead, by its heartbeat, is given up on at once)."""
        self.handover_wait = 5.0
        """How long a request waits, beyond a lease period, for a room changing hands."""
        self.leases = Leases(pubsub.redis, self.holder, lease_ms, pubsub.prefix)
        self.owned: dict[str, int] = {}
        """Rooms this node owns, with the fencing number of its lease."""
        self.live: set[str] = {self.holder}
        """The holders of the nodes alive at the last look."""
        self.looked_at = 0.0
        """When (monotonic) the last look at the heartbeats had read them (`live` is as of then)."""
        self.gone: set[str] = set()
        """Holders judged dead (their heartbeat ran out) and not seen again since."""
        self.host: Host | None = None
        self.scan_seconds = 0.5
        """How often the node looks at the other nodes' heartbeats."""
        self.full_scan_seconds = 5.0
        """How often it also looks for unheld rooms while no node has died (after a death, or
        while unheld rooms are left, at every look)."""
        self.grace_seconds = 1.0
        self._hot_until = 0.0
        self._last_full = 0.0
        self._unheld: dict[str, float] = {}
        self.steady_seconds = 2.0
        """How long this node's own subscriber must have been up before it judges others by
        theirs (after a Redis restart every node resubscribes within moments)."""
        self._holders: dict[str, str] = {}
        """The owner last seen for rooms this node passes requests to (saves a look-up each)."""
        self._acquiring: dict[str, asyncio.Task[bool]] = {}
        self._holder_now: Coalescer[str, str] = Coalescer(self._holders_of)
        """Who holds a room's lease now: look-ups asked for together (a crowd of requests for
        rooms whose owner died) share one MGET."""
        self._calls: dict[str, asyncio.Future[dict[str, Any]]] = {}
        self._ids = itertools.count(1)
        self._tasks: list[asyncio.Task[None]] = []
        self._keeper: threading.Thread | None = None
        self._stop_keeping = threading.Event()
        self._pulse_at = time.monotonic()
        """When the event loop last showed it runs (the lease thread reads it)."""
        self._serving: set[asyncio.Task[None]] = set()
        self.presence = PresenceAcrossNodes(pubsub, self.holder, self._key, lambda: self.live,
                                            lambda: self.host)
        """Who is connected to which room on the other nodes (its own part)."""
        self.changes: Counter[str] = Counter()
        """Lease changes since start (acquired, lost, released), for health and metrics."""
        self.on_change: Callable[[str], None] = lambda _kind: None
        self.after_reconnect: list[Callable[[], Awaitable[None]]] = []
        """Features that catch up after Redis is back (the lobby reads its lines again)."""

    @staticmethod
    def new_holder(node: str) -> str:
        return f"{node}:{secrets.token_hex(4)}"

    # --- keys ----------------------------------------------------------------------------------
    def _key(self, name: str) -> str:
        return f"{self.pubsub.prefix}{name}"

    # --- life cycle ----------------------------------------------------------------------------
    async def start(self, host: Host) -> None:
        self.host = host
        self.pubsub.on_direct = self._on_direct
        self.pubsub.on_answered = self._on_answered
        self.pubsub.on_reconnect = self._reconnected
        self.pubsub.on_down = self._answers_lost
        await self._heartbeat()
        try:  # so that health lists the other nodes from its first answer
            await self._look()
        except (RedisError, OSError):
            pass  # the first scan looks again
        except Exception:
            log.exception("first look at the cluster failed")
        self._stop_keeping.clear()
        self._keeper = threading.Thread(target=self._keep, args=(asyncio.get_running_loop(),),
                                        name="gamehall-leases", daemon=True)
        self._keeper.start()
        self._tasks = [asyncio.create_task(self._pulse_loop(), name="gamehall-loop-pulse"),
                       asyncio.create_task(self._scan_loop(), name="gamehall-room-scan")]

    async def stop(self) -> None:
        """Hand every room back at once (the others take them without waiting for the leases
        to run out) and leave the cluster."""
        self._stop_keeping.set()
        if self._keeper is not None:
            await asyncio.to_thread(self._keeper.join, 10)
        for task in [*self._tasks, *self._acquiring.values(), *self._serving]:
            task.cancel()
        for task in [*self._tasks, *self._acquiring.values(), *self._serving]:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        owned, self.owned = list(self.owned), {}
        with contextlib.suppress(RedisError, OSError):
            await self.leases.release(owned)
            await self.pubsub.redis.delete(self._key(f"alive:{self.holder}"))
            await self.pubsub.redis.srem(self._key("nodes"), self.holder)
            for room in self.presence.rooms_written():
                await self.pubsub.redis.hdel(self._key(f"presence:{room}"), self.holder)
        self._note("released", len(owned))

    def _note(self, kind: str, n: int = 1) -> None:
        if n:
            self.changes[kind] += n
            for _ in range(n):
                self.on_change(kind)

    # --- ownership -----------------------------------------------------------------------------
    def fence(self, room_id: str) -> int | None:
        """This node's fencing number for the room, or None when it does not own it."""
        return self.owned.get(room_id)

    async def owner(self, room_id: str) -> str | None:
        """Who owns the room now (this node's holder name when it does), taking it when
        nobody holds it; None when the room cannot be taken (unknown, or being taken)."""
        if room_id in self.owned and room_id not in self._acquiring:
            return self.holder
        known = self._holders.get(room_id)
        if known is not None:
            return known
        holder = await self._holder_now.get(room_id)
        if holder is None and preferred(room_id, self.live) != self.holder:
            # let the room's preferred node, or its owner coming back from a Redis restart,
            # take it first: fewer changes of hands
            deadline = time.monotonic() + self.grace_seconds
            while holder is None and time.monotonic() < deadline:
                await asyncio.sleep(0.1)
                holder = await self._holder_now.get(room_id)
        if holder is None or holder == self.holder:
            if await self.acquire(room_id):
                return self.holder
            holder = await self._holder_now.get(room_id)
        if holder is None or holder == self.holder:
            return None
        self._holders[room_id] = holder
        return holder

    async def _holders_of(self, room_ids: list[str]) -> dict[str, str]:
        found = await self.leases.holders(room_ids)
        return {r: h for r, h in zip(room_ids, found, strict=True) if h is not None}

    def forget_owner(self, room_id: str) -> None:
        """The owner last seen for the room is no longer right (or the room is not held here)."""
        self._holders.pop(room_id, None)

    async def acquire(self, room_id: str) -> bool:
        """Take the room (or confirm this node holds it); one attempt at a time per room."""
        task = self._acquiring.get(room_id)
        if task is None:
            task = self._acquiring[room_id] = asyncio.create_task(self._acquire(room_id))
            task.add_done_callback(lambda _t: self._acquiring.pop(room_id, None))
        return await asyncio.shield(task)

    async def _acquire(self, room_id: str) -> bool:
        assert self.host is not None
        floor = await self.storage.room_fence(room_id)
        if floor is None:
            return False
        fence = await self.leases.acquire(room_id, floor)
        if fence is None:
            holder = await self._holder_now.get(room_id)
            return holder == self.holder and room_id in self.owned
        replaced = await self.storage.claim_room(room_id, fence)
        if replaced is None:  # someone claimed it with a larger number meanwhile
            await self.leases.release([room_id])
            if room_id in self.owned:
                self._lose(room_id)
            return False
        old = self.owned.get(room_id)
        self.owned[room_id] = fence
        self._unheld.pop(room_id, None)
        self._holders.pop(room_id, None)
        try:
            ok = await self.host.room_gained(room_id, fence, keep=old is not None
                                             and replaced == old)
        except Exception:
            log.exception("could not take room %s", room_id)
            ok = False
        if not ok:
            self.owned.pop(room_id, None)
            await self.leases.release([room_id])
            return False
        if old is None:
            self._note("acquired")
        return True

    async def create(self, room_id: str) -> int:
        """The fencing number for a room this node is about to create (and then owns)."""
        try:
            fence = await self.leases.acquire(room_id, 0)
        except (RedisError, OSError):
            raise RoomError("room_unavailable", messages.msg("error.room.redis_down")) from None
        if fence is None:
            raise RoomError("storage_error", messages.msg("error.room.name_taken"))
        self.owned[room_id] = fence
        self._note("acquired")
        return fence

    def lost(self, room_id: str) -> None:
        """A commit was refused for its fence: another node has the room."""
        if room_id in self.owned:
            self._lose(room_id)

    def _lose(self, room_id: str) -> None:
        self.owned.pop(room_id, None)
        self._note("lost")
        if self.host is not None:
            self.host.room_lost(room_id)

    async def release(self, room_id: str) -> None:
        """Give a room up (a finished room nobody watches)."""
        if self.owned.pop(room_id, None) is not None:
            with contextlib.suppress(RedisError, OSError):
                await self.leases.release([room_id])
            self._note("released")

    # --- keeping leases ------------------------------------------------------------------------
    async def _heartbeat(self) -> None:
        pipe = self.pubsub.redis.pipeline(transaction=False)
        pipe.set(self._key(f"alive:{self.holder}"), self.node, px=self.lease_ms)
        pipe.sadd(self._key("nodes"), self.holder)
        await pipe.execute()

    async def _pulse_loop(self) -> None:
        while True:
            self._pulse_at = time.monotonic()
            await asyncio.sleep(0.25)

    def _keep(self, loop: asyncio.AbstractEventLoop) -> None:
        """The lease thread: heartbeat and renewals `RENEWALS` times per lease period, whatever the
        event loop is busy with; what it finds lost is handled on the loop (`_renewed`)."""
        renewer = Renewer(self.pubsub.url, self.holder, self.lease_ms, self.pubsub.prefix)
        failing = stalled = False
        every = self.lease_ms / 1000 / RENEWALS
        last = renewed = time.monotonic()
        try:
            while not self._stop_keeping.wait(min(BEAT, every)):
                late, last = time.monotonic() - last - min(BEAT, every), time.monotonic()
                if late > every:  # the process itself did not run (an overloaded machine)
                    log.warning("lease renewal %.1f s late", late)
                if time.monotonic() - self._pulse_at > LOOP_STALL:
                    if not stalled:
                        log.warning("the event loop has not run for %.0f s: leases are let go",
                                    LOOP_STALL)
                    stalled = True
                    continue
                stalled = False
                renewing = time.monotonic() - renewed >= every - BEAT / 2
                # one C-level copy, atomic under the GIL
                owned = list(self.owned.items()) if renewing else []
                try:
                    kept = renewer.beat_and_renew(self.node, [r for r, _ in owned])
                    renewed = time.monotonic() if renewing else renewed
                except (RedisError, OSError) as exc:
                    if not failing:  # Redis is down: nobody can take a room meanwhile, go on
                        log.warning("cannot renew leases: %s", exc)
                    failing = True
                    continue
                failing = False
                if not owned:
                    continue
                try:
                    loop.call_soon_threadsafe(self._renewed, owned, kept)
                except RuntimeError:  # the loop is closed: the node is stopping
                    return
        finally:
            renewer.close()

    async def _renew_once(self) -> None:
        owned = list(self.owned.items())
        self._renewed(owned, await self.leases.renew([r for r, _ in owned]))

    def _renewed(self, owned: list[tuple[str, int]], kept: list[bool]) -> None:
        """Renewal results: a lease not kept (and not changed meanwhile) is taken again or
        given up (`_retake`)."""
        for (room_id, fence), ok in zip(owned, kept, strict=True):
            if not ok and self.owned.get(room_id) == fence and room_id not in self._acquiring:
                asyncio.get_running_loop().create_task(self._retake(room_id))

    async def _retake(self, room_id: str) -> None:
        """The lease is no longer ours: take it again if nobody holds it (Redis forgot it),
        else the room is lost."""
        try:
            if await self.acquire(room_id):
                return
        except (RedisError, OSError):
            return  # try again at the next renewal
        if room_id in self.owned and room_id not in self._acquiring:
            self._lose(room_id)

    # --- taking unheld rooms -------------------------------------------------------------------
    async def _scan_loop(self) -> None:
        while True:
            await asyncio.sleep(self.scan_seconds)
            began = time.monotonic()
            try:
                await self._scan_once()
            except (RedisError, OSError):
                pass  # the renewals report Redis trouble
            except Exception:
                log.exception("room scan failed")
            took = time.monotonic() - began
            if took > SLOW_SCAN:
                log.warning("a scan of the cluster took %.1f s", took)

    async def _scan_once(self) -> None:
        gone = await self._look()
        if gone is None:
            return
        now = time.monotonic()
        await self.presence.settle(gone | (self.presence.slow_nodes() - self.live), now)
        await self.presence.rewrite_presence()
        if now < self._hot_until or self._unheld or now - self._last_full >= self.full_scan_seconds:
            self._last_full = now
            await self._take_unheld(self.live, now)

    async def _look(self) -> set[str] | None:
        """Which nodes are alive, by their heartbeats (`live`); the ones gone since the last
        look, or None when Redis forgot the nodes (a restart: nobody is judged meanwhile). A
        node learns of another at its first look after the other's start: at most
        `scan_seconds` later (its own first look is in `start`)."""
        redis = self.pubsub.redis
        members = sorted(str(m) for m in await redis.smembers(self._key("nodes")))
        if self.holder not in members:  # Redis forgot the nodes (a restart): they come back
            await self._heartbeat()     # within a renewal; judge nobody dead meanwhile
            return None
        alive = await redis.mget([self._key(f"alive:{m}") for m in members]) if members else []
        ended = await self._ended([m for m, a in zip(members, alive, strict=True)
                                   if a is not None and m != self.holder])
        if ended:
            alive = [None if m in ended else a for m, a in zip(members, alive, strict=True)]
        live = {m for m, a in zip(members, alive, strict=True) if a is not None} | {self.holder}
        self.looked_at = time.monotonic()
        dead = set(members) - live
        if dead:
            self.gone |= dead
            await redis.srem(self._key("nodes"), *dead)
        now = time.monotonic()
        gone = self.live - live
        if live != self.live:
            if gone:  # its leases run out about now: look until they have
                self._hot_until = now + self.lease_ms / 1000 + 2 * self.scan_seconds
            came = live - self.live
            self.live = live
            self.gone = (self.gone | gone) - came
            self._holders = {r: h for r, h in self._holders.items() if h not in gone}
            for m in came:
                self.presence.back(m)
            if came:  # back from a pause judged as death: its presence was dropped, read it again
                await self.presence.reload(came)
        return gone


    async def _ended(self, others: list[str]) -> set[str]:
        """Nodes whose heartbeat has not run out yet but whose process has ended (kill -9, a
        crash): Redis closed their connections, so their node channel has no subscriber, and
        they missed `SILENT_BEATS` heartbeats. Their heartbeat and leases are deleted at once
        rather than left to run out, so the failover does not wait for a lease period. A live
        node whose subscriber is reconnecting still beats (its lease thread does), and a frozen
        one (SIGSTOP) keeps its connections: neither is judged here (the frozen one's leases run
        out). Judging wrongly would still be safe: the fencing numbers refuse the commits of a
        node whose room another has claimed. Nobody is judged while this node's own subscriber
        has just come back (after a Redis restart every node resubscribes)."""
        steady = self.pubsub.up and time.monotonic() - self.pubsub.up_since >= self.steady_seconds
        if not others or not steady:
            return set()
        redis = self.pubsub.redis
        counts: Any = await redis.pubsub_numsub(*[self.pubsub.node_channel(m) for m in others])
        silent = [m for m, (_, n) in zip(others, counts, strict=True) if int(n) == 0]
        if not silent:
            return set()
        pipe = redis.pipeline(transaction=False)
        for m in silent:
            pipe.pttl(self._key(f"alive:{m}"))
        left: Any = await pipe.execute()
        quiet = self.lease_ms - SILENT_BEATS * BEAT * 1000  # its time to live once it missed them
        ended = {m for m, ms in zip(silent, left, strict=True) if 0 <= int(ms) < quiet}
        if not ended:
            return set()
        await redis.delete(*[self._key(f"alive:{m}") for m in ended])
        active = await self.storage.active_room_ids()
        holders = await self.leases.holders(active)
        for m in sorted(ended):
            freed = await self.leases.release_of(
                m, [r for r, h in zip(active, holders, strict=True) if h == m])
            log.warning("node %s has no connection to Redis: judged ended, %d of its leases "
                        "freed", m, freed)
        return ended

    async def _take_unheld(self, live: set[str], now: float) -> None:
        active = await self.storage.active_room_ids()
        holders = await self.leases.holders(active)
        seen = set()
        for room_id, holder in zip(active, holders, strict=True):
            if holder is not None or room_id in self.owned or room_id in self._acquiring:
                continue
            seen.add(room_id)
            first = self._unheld.setdefault(room_id, now)
            # after a death its preferred node takes a room at once; otherwise the lease may
            # only have lapsed (its owner ran late): the owner gets the grace to take it back
            at_once = now < self._hot_until and preferred(room_id, live) == self.holder
            if at_once or now - first >= self.grace_seconds:
                task = asyncio.get_running_loop().create_task(self._take(room_id))
                self._serving.add(task)
                task.add_done_callback(self._serving.discard)
        self._unheld = {r: t for r, t in self._unheld.items() if r in seen}

    async def _take(self, room_id: str) -> None:
        with contextlib.suppress(RedisError, OSError):
            await self.acquire(room_id)

    # --- forwarding ----------------------------------------------------------------------------
    async def forward(self, holder: str, room_id: str, player: PlayerRef,
                      req: Request) -> list[dict[str, Any]]:
        """Have the owner carry out the request; its replies, or its refusal raised here."""
        if not self.pubsub.up:  # the answer could not reach this node: wait until it can
            raise Unreachable(holder)
        call_id = f"{self.holder}/{next(self._ids)}"
        fut: asyncio.Future[dict[str, Any]] = asyncio.get_running_loop().create_future()
        self._calls[call_id] = fut
        # the room's events reach this node: its commit's state event may answer (kept
        # subscribed until then)
        watching = self.pubsub.hold(room_id)
        message = {"t": "call", "id": call_id, "from": self.holder, "room": room_id,
                   "player": list(player) if player else None, "req": encode_request(req),
                   "deadline": time.time() + self.forward_timeout, "w": watching}
        limit = time.monotonic() + self.forward_timeout
        try:
            try:
                if await self.pubsub.send(holder, message) == 0:
                    raise Unreachable(holder)
            except (RedisError, OSError):
                raise Unreachable(holder) from None
            while True:  # a busy owner is waited for; one judged dead is not
                try:
                    reply = await asyncio.wait_for(asyncio.shield(fut), FORWARD_CHECK)
                    break
                except TimeoutError:
                    if holder in self.gone or time.monotonic() > limit:
                        raise RoomError("room_unavailable",
                                        messages.msg("error.room.owner_silent")) from None
        finally:
            self._calls.pop(call_id, None)
            if watching:
                self.pubsub.unwatch(room_id)
        if reply.get("moved"):
            raise NotOwner(room_id)
        if reply.get("lost"):
            raise RoomError("room_unavailable", messages.msg("error.room.owner_lost"))
        error = reply.get("error")
        if error:
            kind, code, text, ref, *said = error  # said: an older node's reply has none
            sentence = said_from(said[0] if said else {}, text)
            raise ProtocolError(code, sentence, ref) if kind == "protocol" \
                else RoomError(code, sentence)
        return list(reply.get("replies") or [])

    def _answers_lost(self) -> None:
        """The subscriber connection broke: answers to requests in flight may be lost, so their
        callers are told now rather than after the timeout."""
        for fut in self._calls.values():
            if not fut.done():
                fut.set_result({"lost": True})

    def _on_answered(self, call_ids: list[str]) -> None:
        """A room's state event answered requests of this node (the commit they made)."""
        for call_id in call_ids:
            fut = self._calls.get(str(call_id))
            if fut is not None and not fut.done():
                fut.set_result({"t": "reply", "id": call_id, "replies": []})

    def _on_direct(self, msg: dict[str, Any]) -> None:
        if msg.get("t") == "reply":
            fut = self._calls.get(str(msg.get("id")))
            if fut is not None and not fut.done():
                fut.set_result(msg)
        elif msg.get("t") == "call":
            task = asyncio.get_running_loop().create_task(self._serve(msg))
            self._serving.add(task)
            task.add_done_callback(self._serving.discard)

    async def _serve(self, msg: dict[str, Any]) -> None:
        assert self.host is not None
        if time.time() > float(msg["deadline"]):
            return  # the caller has given up (this node was paused): doing it now would surprise
        reply: dict[str, Any] = {"t": "reply", "id": msg["id"]}
        player = msg.get("player")
        answer = Answer(str(msg["id"]), str(msg["room"])) if msg.get("w") else None
        try:
            reply["replies"] = await self.host.serve_forwarded(
                str(msg["room"]),
                (int(player[0]), str(player[1]), bool(player[2])) if player else None,
                decode_request(msg["req"]), answer)
            if answer is not None and answer.folded:
                return  # the commit's state event answered it
        except NotOwner:
            reply["moved"] = True
        except ProtocolError as exc:
            reply["error"] = ["protocol", exc.code, exc.message, exc.ref, said_json(exc.said)]
        except RoomError as exc:
            reply["error"] = ["room", exc.code, exc.message, None, said_json(exc.said)]
        except Exception:
            log.exception("forwarded request failed")
            failed = messages.msg("error.server")
            reply["error"] = ["room", "server_error", failed.text, None, failed.to_json()]
        with contextlib.suppress(RedisError, OSError):
            await self.pubsub.send(str(msg["from"]), reply)


    async def _reconnected(self) -> None:
        """Redis is back (maybe empty): take this node's leases again before anyone else needs
        the rooms, write its presence again, then catch up."""
        with contextlib.suppress(RedisError, OSError):
            await self._renew_once()
        await self.presence.rewrite_presence(self.presence.rooms_written())
        for room_id in self.presence.rooms_kept():
            await self.presence.load_presence(room_id)
        if self.host is not None:
            await self.host.resync()
        for catch_up in self.after_reconnect:
            try:
                await catch_up()
            except Exception:
                log.exception("catching up after Redis came back failed")

    def health(self) -> dict[str, Any]:
        return {"node": self.node, "holder": self.holder, "rooms_owned": sorted(self.owned),
                "nodes_alive": sorted(self.live),
                "looked_s_ago": round(time.monotonic() - self.looked_at, 3) if self.looked_at
                else None, "lease_ms": self.lease_ms,
                "lease_changes": dict(self.changes), "redis_connected": self.pubsub.up}


