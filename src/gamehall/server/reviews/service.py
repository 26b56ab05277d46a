"""Reviews of finished games in the hall: asking for one, reading it, and running the jobs.

- Only a finished game is reviewed (`game_in_progress` otherwise): a review must never help a
  player while they play. The worker gets the room's public record (`replay.game_record`: no
  seed; every chance outcome is an action of it, public once drawn), nothing more.
- One review per (room, level): asking again answers the one waiting, running or done.
- The work runs in worker processes of their own (`ReviewPool`, reviewworker.py: the bots'
  machinery, at a lower CPU priority), so a review never delays a bot's move in a live game.
- Bounds, all the operator's (settings.py): the simulations per position a client may ask for
  (`review_max_simulations`), reviews waiting or running in the whole hall
  (`review_max_queued`) and per visitor (`review_per_player`), the workers
  (`review_workers`), a review's longest run (`review_max_seconds`).
- Everything lives in storage (review_store.py): progress, result, accuracy; so a restart
  keeps them and any node serves them. The node running a job renews its claim every third of
  `review_lease_seconds`; a job whose claim ran out (its node died) is shown failed, and taken
  up again by the next node's sweep or request (a single hall takes up its own at start).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import re
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from gamehall.ai.review import review_budget
from gamehall.core import GamehallError
from gamehall.core.messages import msg
from gamehall.server.engines.pool import BotPool, _Job, _Worker
from gamehall.server.ops.settings import Settings
from gamehall.server.reviews.store import Limits, ReviewJob, ReviewStore
from gamehall.server.table.errors import RoomError
from gamehall.server.table.replay import game_record
from gamehall.server.table.room import FINISHED, Room
from gamehall.server.table.sentences import reason_of

if TYPE_CHECKING:
    from gamehall.server.hall.hall import Hall, Player

log = logging.getLogger("gamehall.server")

Progress = Callable[[int, int], Awaitable[bool]]
"""Told (positions done, total) as a review goes; False: give the review up."""

REFUSALS = {
    "review_queue_full": "error.review.queue_full",
    "too_many_reviews": "error.review.too_many",
}
"""The catalogue keys of the store's refusals, by code."""
STATUS = {"game_in_progress": 409, "bad_level": 400, "no_review": 404,
          "reviews_unavailable": 503, "review_queue_full": 429, "too_many_reviews": 429}
"""HTTP statuses of the reviews' refusals (app.py's table takes them)."""


@dataclass(eq=False)
class _ReviewJob(_Job):
    progress: Progress | None = None


class ReviewPool(BotPool):
    """Worker processes for reviews: the bots' pool (start on demand, restart after a crash,
    kill past the deadline) running reviewworker.py, one review a worker at a time."""

    WORKER = "gamehall.server.reviews.worker"
    LINE_LIMIT = 2**25

    def __init__(self, workers: int, plugins: tuple[str, ...], max_seconds: float) -> None:
        super().__init__(workers, plugins)
        self.max_seconds = max_seconds

    async def review(self, key: str, job: dict[str, Any],
                     progress: Progress) -> dict[str, Any] | None:
        """Run one review: the worker's final reply (``review`` or ``error``), or None when it
        was given up (by `progress`, or the pool closing)."""
        line = json.dumps(job, separators=(",", ":")).encode() + b"\n"
        queued = _ReviewJob(key, line, asyncio.get_running_loop().create_future(),
                            progress=progress)
        answer = await self._submit(key, queued)
        return answer if isinstance(answer, dict) else None

    async def _run(self, worker: _Worker, job: _Job) -> None:
        """Feed the worker the job, relay its progress, until its last line or the deadline."""
        proc = worker.proc
        assert proc.stdin is not None and proc.stdout is not None
        assert isinstance(job, _ReviewJob) and job.progress is not None
        job.worker = worker
        self.stats.jobs += 1
        loop = asyncio.get_running_loop()
        deadline = loop.time() + self.max_seconds
        answer: dict[str, Any] | None = None
        try:
            proc.stdin.write(job.line)
            await proc.stdin.drain()
            while answer is None:
                reply = await asyncio.wait_for(proc.stdout.readline(),
                                               max(0.01, deadline - loop.time()))
                data = json.loads(reply) if reply else {"error": "the review worker died"}
                if not isinstance(data, dict):
                    raise ValueError("a review worker's line is not an object")
                if "progress" not in data:
                    answer = data
                elif not await job.progress(*data["progress"]):
                    break  # given up: the worker is killed below
            if answer is None or not reply:
                worker.kill()
        except TimeoutError:
            self.stats.timeouts += 1
            worker.kill()
            answer = {"error": f"the review ran past {self.max_seconds:g} s and was stopped"}
        except (OSError, ValueError, TypeError):
            log.exception("review worker failed")
            worker.kill()
            answer = {"error": "the review worker failed"}
        finally:
            job.worker = None
        if not job.done.done():
            job.done.set_result(answer)


class _Lost(Exception):
    """Another node took the job over: this one stops working on it."""


class Reviews:
    """The hall's reviews (see the module's docstring); `start` and `stop` with the hall."""

    def __init__(self, hall: Hall, settings: Settings) -> None:
        self.hall = hall
        self.settings = settings
        self.store = ReviewStore(hall.storage)
        self.pool = ReviewPool(settings.review_workers, settings.plugins,
                               settings.review_max_seconds)
        self.node = hall.cluster.node if hall.cluster is not None else "hall"
        self.limits = Limits(settings.review_max_queued, settings.review_per_player)
        self.lease = settings.review_lease_seconds
        self._jobs: dict[tuple[str, str], ReviewJob] = {}
        """The jobs this node works on (waiting for a worker or running): claims to renew."""
        self._tasks: dict[tuple[str, str], asyncio.Task[None]] = {}
        self._sweeper: asyncio.Task[None] | None = None

    async def start(self) -> None:
        """Take up the jobs a previous process left (a single hall: all of them; a cluster's
        node: those whose claim ran out), then renew and sweep now and then."""
        if not self.store.available:
            return
        every = self.hall.cluster is None
        for job in await self.store.take_over(self.node, self.hall.clock(), self.lease, every):
            self._launch(job)
        self._sweeper = asyncio.create_task(self._sweep_loop(), name="gamehall-reviews")

    async def stop(self) -> None:
        """Stop working (the jobs' claims run out; a later start takes them up again)."""
        tasks = [t for t in (self._sweeper, *self._tasks.values()) if t is not None]
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        await self.pool.close()

    def budget(self, level: str | None, game: str) -> tuple[str, int]:
        """The level a review is stored under and its simulations per position, within the
        operator's ceiling (`bad_level` past it; the default level is capped at it)."""
        word = re.sub(r"^0+(?=\d)", "", (level or self.settings.review_level).strip().lower())
        try:
            asked = review_budget(word, game)
        except GamehallError as exc:
            raise RoomError("bad_level", msg("error.review.bad_level",
                                             reason=reason_of(exc))) from None
        simulations, ceiling = asked.simulations, self.settings.review_max_simulations
        if simulations > ceiling:
            if level is not None:
                raise RoomError("bad_level", msg("error.review.simulations", most=ceiling))
            simulations = ceiling  # the default level, capped: its suffixes (RAVE) kept
            word = f"{ceiling}{asked.extras().suffix()}"
        if len(word) > 32:
            raise RoomError("bad_level", msg("error.review.level"))
        return word, simulations

    async def request(self, room: Room, player: Player, level: str | None) -> dict[str, Any]:
        """Ask for the review of a finished game (see the module's docstring)."""
        self._check_available()
        if room.status != FINISHED:
            raise RoomError("game_in_progress", msg("error.review.in_progress"))
        word, simulations = self.budget(level, room.game_name)
        now = self.hall.clock()
        got = await self.store.request(room.id, word, simulations, player.id, self.node, now,
                                       self.lease, self.limits)
        if got.refused is not None:
            raise RoomError(got.refused, msg(REFUSALS[got.refused]))
        assert got.job is not None
        if got.taken:
            self._launch(got.job)
        return got.job.to_json(now)

    async def status(self, room: Room, level: str | None) -> dict[str, Any]:
        """The stored review of (room, level), or the room's latest; `no_review` if none."""
        self._check_available()
        word = self.budget(level, room.game_name)[0] if level is not None else None
        job = await self.store.get(room.id, word)
        if job is None:
            raise RoomError("no_review", msg("error.review.none"))
        return job.to_json(self.hall.clock())

    def health(self) -> dict[str, Any]:
        """For /api/health: the reviews this node works on, its review workers' figures."""
        stats = self.pool.stats
        return {"working": len(self._jobs), "waiting_for_worker": self.pool.queued,
                "run": stats.jobs, "timeouts": stats.timeouts,
                "worker_restarts": stats.restarts}

    async def accuracies(self, rooms: list[str]) -> dict[str, list[float | None]]:
        return await self.store.accuracies(rooms)

    def _check_available(self) -> None:
        if not self.store.available:
            raise RoomError("reviews_unavailable", msg("error.review.unavailable"))

    def _launch(self, job: ReviewJob) -> None:
        old = self._tasks.pop(job.key, None)
        if old is not None:
            old.cancel()
        self._jobs[job.key] = job
        self._tasks[job.key] = asyncio.create_task(self._run(job),
                                                   name=f"review-{job.room}-{job.level}")

    async def _run(self, job: ReviewJob) -> None:
        """Run one job this node took, and store what came of it."""
        clock = self.hall.clock
        try:
            room = await self.hall.get_room(job.room)
            if room.status != FINISHED:
                raise RoomError("game_in_progress", msg("error.review.not_over"))
            search = review_budget(job.level, room.game_name)

            lost = [False]

            async def progress(done: int, total: int) -> bool:
                mine = await self.store.progress(job, int(done), int(total), clock(),
                                                 self.lease)
                if mine:
                    await self._tell(job, "running", int(done), int(total))
                lost[0] = not mine
                return mine

            reply = await self.pool.review(
                "|".join(job.key), {"record": game_record(room), "simulations": job.simulations,
                                    "seed": 0, "widening": search.widening,
                                    "rave": search.rave}, progress)
            if reply is None and lost[0]:
                raise _Lost
            if reply is None:
                reply = {"error": "no review worker could start"}
            if isinstance(reply.get("review"), dict):
                if await self.store.finish(job, reply["review"], clock()):
                    await self._tell(job, "done")
            else:
                await self._fail(job, str(reply.get("error") or "the review failed"))
        except (_Lost, asyncio.CancelledError):
            pass  # another node has it, or the hall stops: its claim runs out
        except (RoomError, GamehallError) as exc:
            await self._fail(job, exc.message if isinstance(exc, RoomError) else str(exc))
        except Exception:
            log.exception("review of room %s failed", job.room)
            await self._fail(job, "the review failed")
        finally:
            if self._jobs.get(job.key) is job:
                del self._jobs[job.key]
                self._tasks.pop(job.key, None)

    async def _fail(self, job: ReviewJob, error: str) -> None:
        with contextlib.suppress(Exception):
            if await self.store.fail(job, error, self.hall.clock()):
                await self._tell(job, "failed")

    async def _tell(self, job: ReviewJob, status: str, done: int = 0, total: int = 0) -> None:
        """Tell the room's watchers (every node's) how the review goes: a `review` message
        (protocol.md); the result itself is read with GET. Never fails the review."""
        message = {"type": "review", "room": job.room, "level": job.level, "status": status,
                   "done": done, "total": total}
        with contextlib.suppress(Exception):
            await self.hall.pubsub.publish(job.room, {"event": "message", "message": message})

    async def _sweep_loop(self) -> None:
        """Every third of the lease: renew this node's claims, take up jobs whose claim ran
        out (a node that died with them)."""
        while True:
            await asyncio.sleep(self.lease / 3)
            try:
                now = self.hall.clock()
                await self.store.renew(list(self._jobs.values()), now, self.lease)
                for job in await self.store.take_over(self.node, now, self.lease):
                    self._launch(job)
            except Exception:
                log.exception("could not renew or take up reviews")
