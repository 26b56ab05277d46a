"""What the hall keeps of reviews: one row per (room, level), in storage so that a review
survives a restart and any node of a cluster serves it (migration 0006).

A row is a job and, once done, its result: `queued`, `running` (with its progress, positions
done of total), `done` (the review's JSON, `Review.to_dict`, and each seat's accuracy) or
`failed` (with why). The node that runs a job holds a claim on it until `lease_until` (hall
time, seconds) and renews it while it works; `attempts` counts the claims and fences the
writes: a node whose claim was taken over (it froze, the others saw the claim run out) writes
nothing more. A job whose claim ran out is shown failed and is taken up again when someone asks
for it, or by any node's sweep, at most `MAX_ATTEMPTS` times.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import sqlalchemy as sa
from sqlalchemy.engine import Connection

from gamehall.server.storage.extension import SqlExtension
from gamehall.server.storage.schema import reviews
from gamehall.server.table.clocks import stamp

QUEUED, RUNNING, DONE, FAILED = "queued", "running", "done", "failed"
ACTIVE = (QUEUED, RUNNING)
MAX_ATTEMPTS = 3
"""Claims of one job (a node that died with it, or a worker that failed) before it stays
failed until asked for again."""
INTERRUPTED = "the review was interrupted (its server stopped); ask again to restart it"


@dataclass(frozen=True)
class ReviewJob:
    """One stored review, as a row says it."""

    room: str
    level: str
    simulations: int
    status: str
    done: int
    total: int
    node: str
    lease_until: float
    attempts: int
    error: str | None
    result: dict[str, Any] | None
    accuracy: list[float | None] | None
    created_at: str
    updated_at: str

    @property
    def key(self) -> tuple[str, str]:
        return self.room, self.level

    def stale(self, now: float) -> bool:
        """Waiting or running, but nobody renewed its claim in time: its node died."""
        return self.status in ACTIVE and self.lease_until < now

    def to_json(self, now: float) -> dict[str, Any]:
        """The answer of ``GET /api/rooms/{id}/review`` (protocol.md)."""
        stale = self.stale(now)
        return {"room": self.room, "level": self.level, "simulations": self.simulations,
                "status": FAILED if stale else self.status,
                "done": self.done, "total": self.total,
                "error": INTERRUPTED if stale else self.error,
                "accuracy": self.accuracy, "review": self.result,
                "created_at": self.created_at, "updated_at": self.updated_at}


def _job(row: Any) -> ReviewJob:
    return ReviewJob(row.room_id, row.level, int(row.simulations), row.status, int(row.done),
                     int(row.total), row.node, float(row.lease_until), int(row.attempts),
                     row.error, json.loads(row.result) if row.result else None,
                     json.loads(row.accuracy) if row.accuracy else None, row.created_at,
                     row.updated_at)


@dataclass(frozen=True)
class Limits:
    """The operator's bounds on reviews waiting or running (settings.py)."""

    max_queued: int
    per_player: int


@dataclass(frozen=True)
class Requested:
    """What asking for a review did: the job (None: refused before there was one), the refusal
    (an error code) and whether this node took it (then it must run it)."""

    job: ReviewJob | None
    refused: str | None = None
    taken: bool = False


def _where(room: str, level: str) -> Any:
    return sa.and_(reviews.c.room_id == room, reviews.c.level == level)


def _live(now: float) -> Any:
    return sa.and_(reviews.c.status.in_(ACTIVE), reviews.c.lease_until >= now)


class ReviewStore(SqlExtension):
    """The reviews' storage methods, over the hall's SQL storage (its writer and readers)."""

    async def request(self, room: str, level: str, simulations: int, player_id: int,
                      node: str, now: float, lease: float, limits: Limits) -> Requested:
        """The review of (room, level): the one stored if it is done or still being worked on;
        else, within the limits, a new (or restarted) job this node takes. Checked and written
        in one transaction, so the limits hold against requests at once through any node."""
        def write(conn: Connection) -> Requested:
            row = conn.execute(sa.select(reviews).where(_where(room, level))).first()
            found = _job(row) if row is not None else None
            if found is not None and (found.status == DONE or
                                      (found.status in ACTIVE and not found.stale(now))):
                return Requested(found)
            refused = _over(conn, player_id, now, limits)
            if refused is not None:
                return Requested(found, refused)
            values = {"simulations": simulations, "status": QUEUED, "done": 0, "total": 0,
                      "requested_by": player_id, "node": node, "lease_until": now + lease,
                      "error": None, "result": None, "accuracy": None,
                      "updated_at": stamp(now)}
            if found is None:
                conn.execute(reviews.insert().values(room_id=room, level=level, attempts=1,
                                                     created_at=stamp(now), **values))
            else:
                conn.execute(reviews.update().where(_where(room, level))
                             .values(attempts=found.attempts + 1, **values))
            return Requested(_job(conn.execute(
                sa.select(reviews).where(_where(room, level))).one()), None, True)
        return await self._write(write)

    async def get(self, room: str, level: str | None = None) -> ReviewJob | None:
        """The review of (room, level); without a level the room's latest one."""
        def select(conn: Connection) -> ReviewJob | None:
            q = sa.select(reviews).where(reviews.c.room_id == room)
            if level is not None:
                q = q.where(reviews.c.level == level)
            row = conn.execute(q.order_by(reviews.c.updated_at.desc()).limit(1)).first()
            return _job(row) if row is not None else None
        return await self._read(select)

    async def progress(self, job: ReviewJob, done: int, total: int, now: float,
                       lease: float) -> bool:
        """Note the job's progress and renew its claim; False when the claim is not this
        job's any more (another node took it over: stop)."""
        return await self._update(job, status=RUNNING, done=done, total=total,
                                  lease_until=now + lease, updated_at=stamp(now))

    async def finish(self, job: ReviewJob, review: dict[str, Any], now: float) -> bool:
        accuracy = review.get("accuracy")
        steps = len(review.get("steps") or [])
        return await self._update(job, status=DONE, done=steps, total=steps, error=None,
                                  result=json.dumps(review, separators=(",", ":")),
                                  accuracy=json.dumps(accuracy), updated_at=stamp(now))

    async def fail(self, job: ReviewJob, error: str, now: float) -> bool:
        return await self._update(job, status=FAILED, error=error[:500], updated_at=stamp(now))

    async def _update(self, job: ReviewJob, **values: Any) -> bool:
        """Write `values` into the job's row while its claim is still `job`'s."""
        def write(conn: Connection) -> bool:
            res = conn.execute(reviews.update().where(_where(job.room, job.level))
                               .where(reviews.c.attempts == job.attempts)
                               .where(reviews.c.node == job.node)
                               .where(reviews.c.status.in_(ACTIVE)).values(**values))
            return bool(res.rowcount == 1)
        return await self._write(write)

    async def renew(self, jobs: Sequence[ReviewJob], now: float, lease: float) -> None:
        """Renew the claims of the jobs this node works on (waiting for a worker or running)."""
        def write(conn: Connection) -> None:
            for job in jobs:
                conn.execute(reviews.update().where(_where(job.room, job.level))
                             .where(reviews.c.attempts == job.attempts)
                             .where(reviews.c.node == job.node)
                             .values(lease_until=now + lease))
        if jobs:
            await self._write(write)

    async def take_over(self, node: str, now: float, lease: float,
                        every: bool = False) -> list[ReviewJob]:
        """Claim the jobs whose claim ran out (their node died; with `every`, all that are
        waiting or running: a single hall starting, whose previous process ran them) and
        return them to run here; a job claimed `MAX_ATTEMPTS` times is failed instead."""
        def write(conn: Connection) -> list[ReviewJob]:
            q = sa.select(reviews).where(reviews.c.status.in_(ACTIVE))
            if not every:
                q = q.where(reviews.c.lease_until < now)
            taken = []
            for row in conn.execute(q).all():
                job = _job(row)
                where = _where(job.room, job.level)
                if job.attempts >= MAX_ATTEMPTS:
                    conn.execute(reviews.update().where(where).values(
                        status=FAILED, error=INTERRUPTED, updated_at=stamp(now)))
                    continue
                res = conn.execute(reviews.update().where(where)
                                   .where(reviews.c.attempts == job.attempts)
                                   .values(status=QUEUED, node=node, done=0,
                                           lease_until=now + lease, attempts=job.attempts + 1,
                                           updated_at=stamp(now)))
                if res.rowcount == 1:
                    taken.append(_job(conn.execute(sa.select(reviews).where(where)).one()))
            return taken
        return await self._write(write)

    async def accuracies(self, rooms: Sequence[str]) -> dict[str, list[float | None]]:
        """Each room's per-seat accuracy from its latest finished review (rooms without one
        are left out): for the archive's lines and profiles."""
        def select(conn: Connection) -> dict[str, list[float | None]]:
            out: dict[str, list[float | None]] = {}
            for row in conn.execute(
                    sa.select(reviews.c.room_id, reviews.c.accuracy)
                    .where(reviews.c.room_id.in_(list(rooms)))
                    .where(reviews.c.status == DONE).order_by(reviews.c.updated_at)):
                out[row.room_id] = json.loads(row.accuracy) if row.accuracy else []
            return out
        return await self._read(select) if rooms and self.available else {}


def _over(conn: Connection, player_id: int, now: float, limits: Limits) -> str | None:
    """The limit a new job would break: the hall's queue, or the player's share of it."""
    busy = conn.execute(sa.select(sa.func.count()).select_from(reviews)
                        .where(_live(now))).scalar_one()
    if busy >= limits.max_queued:
        return "review_queue_full"
    mine = conn.execute(sa.select(sa.func.count()).select_from(reviews).where(_live(now))
                        .where(reviews.c.requested_by == player_id)).scalar_one()
    if mine >= limits.per_player:
        return "too_many_reviews"
    return None
