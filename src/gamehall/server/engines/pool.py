"""Server-side bots: levels by name within the operator's limits, and worker processes that think
so that the hall never waits for them.

A bot gets the position as `State.to_json()` (which by the game contract holds no hidden
information) and returns an action. The random bot answers in microseconds and runs in the event
loop; every other bot runs in a worker process (botworker.py) under three rules:

- a bot spec a client may choose stays within the operator's limits (`BotLimits`);
- every job has a deadline: the worker is told the time cap, and a worker still busy at the
  deadline is killed and replaced (a running job cannot be cancelled any other way);
- a room has at most one job at a time, and jobs are served first come, first served, so one
  room's bots delay another room's by at most one job each (at most `BotLimits.deadline`).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import os
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from gamehall.ai import (
    TurnSearchBot,
    bot_kinds,
    make_bot,
    parse_level,
    parse_uct,
    uct_cpu_seconds,
)
from gamehall.ai.levels import max_hard_simulations
from gamehall.core import GamehallError, State
from gamehall.core.messages import msg
from gamehall.server.table.errors import RoomError
from gamehall.server.table.levels import LEVELS
from gamehall.server.table.sentences import reason_of

log = logging.getLogger("gamehall.server")

DEADLINE_MARGIN = 1.0
"""Seconds a job may run past `BotLimits.max_seconds` (reading the position, starting the bot)
before its worker is killed."""
READY_TIMEOUT = 120.0
"""Seconds a new worker may take to start (imports on a busy machine)."""


@dataclass(frozen=True)
class BotLimits:
    """The operator's ceilings on what a client may ask a bot to spend per move."""

    max_seconds: float = 3.0
    max_simulations: int = 20000

    @property
    def deadline(self) -> float:
        """Seconds after which a job is cut off and its worker killed."""
        return self.max_seconds + DEADLINE_MARGIN


def bot_levels() -> list[str]:
    """The levels players may choose (`/bot LEVEL`, the page's menu), weakest first."""
    return ["random", *LEVELS] if "mcts" in bot_kinds() else ["random"]


def default_level() -> str:
    """The level `/bot` seats when none is named; the page's menu starts on the same one."""
    return "medium" if "mcts" in bot_kinds() else "random"


def bot_spec(level: str | None, limits: BotLimits | None = None) -> str:
    """The `make_bot` spec for a level the players typed: random, easy, medium, hard, or a spec;
    RoomError ``bad_bot`` for an unknown one or one past the operator's limits."""
    has_mcts = "mcts" in bot_kinds()
    word = (level or default_level()).strip().lower()
    if word in LEVELS:
        if not has_mcts:
            raise RoomError("bad_bot", msg("error.bot.random_only"))
        word = f"mcts:{word}"
    try:
        bot = make_bot(word, 0)
    except GamehallError as exc:
        raise RoomError("bad_bot", msg("error.bot.bad", reason=reason_of(exc),
                                       levels=", ".join(LEVELS))) from None
    kind, _, budget = word.partition(":")
    if kind == "mcts":
        check_budget(budget or None, limits or BotLimits())
    elif kind == "uct" and uct_cpu_seconds(budget or None) is not None:
        check_budget(f"{uct_cpu_seconds(budget)}s", limits or BotLimits())  # seconds of CPU
    elif kind == "uct":  # the fixed reference: a number of simulations, no time of its own
        simulations = parse_uct(budget or None)
        if simulations is None:  # uct:hard: hard's budget in the game played, at most this
            simulations = max_hard_simulations()
        check_budget(str(simulations), limits or BotLimits())
    elif isinstance(bot, TurnSearchBot) and bot.simulations is not None:  # turns:N, rollout:N
        check_budget(str(bot.simulations), limits or BotLimits())
    return word


def check_budget(level: str | None, limits: BotLimits) -> None:
    """RoomError ``bad_bot`` when an MCTS level asks for more than the limits allow."""
    budget = parse_level(level)
    if budget.seconds is not None and budget.seconds > limits.max_seconds:
        raise RoomError("bad_bot", msg("error.bot.seconds", most=limits.max_seconds))
    if budget.simulations is not None and budget.simulations > limits.max_simulations:
        raise RoomError("bad_bot", msg("error.bot.simulations", most=limits.max_simulations))


@dataclass(eq=False)
class _Job:
    room: str
    line: bytes
    """The job as the worker reads it (one JSON line)."""
    done: asyncio.Future[Any]
    """The answer: an action (or None) for a bot's move; a review pool's final reply."""
    worker: _Worker | None = None
    """The worker running it, once one does."""


@dataclass(eq=False)
class _Worker:
    proc: asyncio.subprocess.Process
    dead: bool = False
    """Killed (or found dead): it takes no more jobs."""

    def kill(self) -> None:
        self.dead = True
        if self.proc.returncode is None:
            with contextlib.suppress(ProcessLookupError):
                self.proc.kill()


@dataclass
class PoolStats:
    """Figures for /api/health."""

    jobs: int = 0
    timeouts: int = 0
    """Jobs cut off at their deadline (their worker was killed)."""
    restarts: int = 0
    """Workers started in place of one that was killed or died."""
    started: int = 0


class BotPool:
    """Worker processes for thinking bots (started on first use), fed from one queue."""

    WORKER = "gamehall.server.engines.worker"
    """The module each worker process runs (a review pool runs its own)."""
    LINE_LIMIT = 2**16
    """The longest answer line a worker may write (a review's is far longer than a move's)."""

    def __init__(self, workers: int, plugins: Sequence[str] = (),
                 limits: BotLimits | None = None) -> None:
        self.workers = max(1, workers)
        self.plugins = tuple(plugins)
        self.limits = limits or BotLimits()
        self.stats = PoolStats()
        self._queue: asyncio.Queue[_Job] | None = None
        self._slots: list[asyncio.Task[None]] = []
        self._live: set[_Worker] = set()
        self._by_room: dict[str, _Job] = {}

    @property
    def queued(self) -> int:
        """Jobs waiting for a worker."""
        return sum(1 for j in self._by_room.values() if j.worker is None)

    async def choose(self, spec: str, state: State, seed: int, room: str = "") -> int | None:
        """The bot's action for `state`, or None when the bot failed or ran out of time (the
        hall then plays a random legal move). The state is read before the first await, so it
        may change after. A room's newer job replaces its older one, which answers None."""
        if spec == "random":
            try:
                return make_bot(spec, seed).choose(state)
            except Exception:
                log.exception("bot %s failed", spec)
                return None
        job = _Job(room, self._line(spec, state, seed),
                   asyncio.get_running_loop().create_future())
        old = self._by_room.get(room)
        if old is not None:
            self._drop(old)
        answer = await self._submit(room, job)
        return answer if isinstance(answer, int) else None

    async def _submit(self, key: str, job: _Job) -> object:
        """Queue `job` as `key`'s and wait for its answer; it leaves the queue and its worker
        either way (answered, replaced, cancelled or timed out)."""
        self._by_room[key] = job
        self._start_slots().put_nowait(job)
        try:
            return await job.done
        finally:
            if self._by_room.get(key) is job:
                del self._by_room[key]
            self._drop(job)

    def _line(self, spec: str, state: State, seed: int) -> bytes:
        job = {"spec": spec, "state": state.to_json(), "seed": seed,
               "seconds": self.limits.max_seconds}
        return json.dumps(job, separators=(",", ":")).encode() + b"\n"

    def _drop(self, job: _Job) -> None:
        """Give up a job: it answers None; a worker still thinking on it is killed."""
        if not job.done.done():
            job.done.set_result(None)
        if job.worker is not None:
            job.worker.kill()

    def _start_slots(self) -> asyncio.Queue[_Job]:
        if self._queue is None:
            self._queue = asyncio.Queue()
            self._slots = [asyncio.create_task(self._slot(), name=f"bot-worker-{i}")
                           for i in range(self.workers)]
        return self._queue

    async def _slot(self) -> None:
        """One worker's life: take jobs one at a time, starting its process when a job comes
        and none runs (so an idle hall starts none), and a new one after a kill or a crash."""
        assert self._queue is not None
        backoff = 1.0
        worker: _Worker | None = None
        try:
            while True:
                job = await self._queue.get()
                if job.done.done():
                    continue  # replaced or given up while it waited
                if worker is None or worker.dead or worker.proc.returncode is not None:
                    if worker is not None:
                        await self._reap(worker)
                        self.stats.restarts += 1
                    worker = await self._spawn()
                    if worker is None:  # it could not start: this job fails, not waits
                        self._drop(job)
                        await asyncio.sleep(backoff)
                        backoff = min(30.0, backoff * 2)
                        continue
                    backoff = 1.0
                if not job.done.done():
                    await self._run(worker, job)
        finally:
            if worker is not None:
                await self._reap(worker)

    async def _reap(self, worker: _Worker) -> None:
        worker.kill()
        self._live.discard(worker)
        with contextlib.suppress(Exception):
            await worker.proc.wait()

    async def _spawn(self) -> _Worker | None:
        self.stats.started += 1
        try:
            proc = await asyncio.create_subprocess_exec(
                sys.executable, "-m", self.WORKER, str(os.getpid()),
                *self.plugins, stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE,
                limit=self.LINE_LIMIT)
        except OSError:
            log.exception("could not start a bot worker")
            return None
        worker = _Worker(proc)
        self._live.add(worker)
        assert proc.stdout is not None
        try:
            ready = await asyncio.wait_for(proc.stdout.readline(), READY_TIMEOUT)
        except TimeoutError:
            ready = b""
        if ready.strip() != b"ready":
            log.error("a bot worker did not start (exit code %s)", proc.returncode)
            worker.kill()
            self._live.discard(worker)
            await proc.wait()
            return None
        return worker

    async def _run(self, worker: _Worker, job: _Job) -> None:
        """Run `job` on `worker` until its answer or its deadline (then the worker is killed)."""
        proc = worker.proc
        assert proc.stdin is not None and proc.stdout is not None
        job.worker = worker
        self.stats.jobs += 1
        answer: int | None = None
        try:
            proc.stdin.write(job.line)
            await proc.stdin.drain()
            reply = await asyncio.wait_for(proc.stdout.readline(), self.limits.deadline)
            data: Any = json.loads(reply) if reply else {"error": "the worker died"}
            if isinstance(data, dict) and isinstance(data.get("action"), int):
                answer = data["action"]
            elif job.done.done():
                pass  # given up while it ran (its worker was killed): nothing to report
            else:
                log.error("bot job of room %s failed: %s", job.room,
                          data.get("error") if isinstance(data, dict) else data)
                if not reply:
                    worker.kill()
        except TimeoutError:
            self.stats.timeouts += 1
            log.warning("bot job of room %s ran past its deadline (%.1f s): worker killed",
                        job.room, self.limits.deadline)
            worker.kill()
        except (OSError, ValueError):
            log.exception("bot worker failed")
            worker.kill()
        finally:
            job.worker = None
        if not job.done.done():
            job.done.set_result(answer)

    async def close(self) -> None:
        for task in self._slots:
            task.cancel()
        for worker in list(self._live):
            worker.kill()
        for task in self._slots:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        self._slots = []
        self._queue = None
        for job in list(self._by_room.values()):
            self._drop(job)
