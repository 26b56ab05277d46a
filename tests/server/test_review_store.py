"""The reviews' storage: one job per (room, level), the operator's limits on jobs waiting or
running (the hall's and each visitor's), claims that run out when a node dies (the job is shown
failed, then retried, at most `MAX_ATTEMPTS` times), and writes fenced by the claim. The hall's
time is passed in, so nothing here waits."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

from gamehall.server.reviews.service import STATUS
from gamehall.server.reviews.store import (
    DONE,
    FAILED,
    MAX_ATTEMPTS,
    QUEUED,
    Limits,
    ReviewStore,
)
from gamehall.server.storage import SqlStorage
from gamehall.server.table.room import FINISHED, Room

LEASE = 30.0
OPEN = Limits(max_queued=100, per_player=100)


def _scenario(tmp_path: Path, body: Callable[[ReviewStore, list[int], list[str]],
                                             Awaitable[None]]) -> None:
    async def run() -> None:
        storage = SqlStorage(f"sqlite:///{tmp_path / 'hall.db'}")
        await storage.open()
        try:
            players = [await storage.add_player(n, f"hash-{n}") for n in ("ann", "bob")]
            rooms = []
            for i in range(4):
                room = Room(id=f"room{i}", game_name="testrace", options={"goal": 40},
                            created_by="ann", seed=i)
                room.status = FINISHED
                await storage.save_room(room)
                rooms.append(room.id)
            await body(ReviewStore(storage), players, rooms)
        finally:
            await storage.close()
    asyncio.run(run())


def test_one_review_per_room_and_level_and_the_limits_hold(tmp_path: Path,
                                                           test_games: None) -> None:
    async def body(store: ReviewStore, who: list[int], rooms: list[str]) -> None:
        ann, bob = who
        limits = Limits(max_queued=2, per_player=1)
        first = await store.request(rooms[0], "4", 4, ann, "n1", 0.0, LEASE, limits)
        assert first.taken and first.job is not None and first.job.status == QUEUED
        same = await store.request(rooms[0], "4", 4, bob, "n2", 1.0, LEASE, limits)
        assert not same.taken and same.refused is None and same.job == first.job
        mine = await store.request(rooms[1], "4", 4, ann, "n1", 1.0, LEASE, limits)
        assert mine.refused == "too_many_reviews" and mine.job is None
        other = await store.request(rooms[1], "4", 4, bob, "n1", 1.0, LEASE, limits)
        assert other.taken
        full = await store.request(rooms[2], "4", 4, bob, "n1", 1.0, LEASE,
                                   Limits(max_queued=2, per_player=5))
        assert full.refused == "review_queue_full"
        assert first.job is not None
        assert await store.finish(first.job, {"accuracy": [90.0, None], "steps": [{}]}, 2.0)
        freed = await store.request(rooms[2], "4", 4, ann, "n1", 2.0, LEASE, limits)
        assert freed.taken  # a finished review no longer counts against anyone
        assert await store.accuracies(rooms) == {rooms[0]: [90.0, None]}
        done = await store.get(rooms[0])
        assert done is not None and done.status == DONE and done.result is not None
    _scenario(tmp_path, body)
    assert STATUS["too_many_reviews"] == STATUS["review_queue_full"] == 429
    assert STATUS["game_in_progress"] == 409


def test_a_dead_nodes_review_is_shown_failed_then_taken_up_at_most_a_few_times(
        tmp_path: Path, test_games: None) -> None:
    async def body(store: ReviewStore, who: list[int], rooms: list[str]) -> None:
        ann = who[0]
        got = await store.request(rooms[0], "4", 4, ann, "dead", 0.0, LEASE, OPEN)
        job = got.job
        assert job is not None
        assert await store.progress(job, 3, 10, 5.0, LEASE)  # renewed until 35
        assert await store.take_over("n2", 20.0, LEASE) == []  # still claimed
        late = await store.get(rooms[0])
        assert late is not None
        shown: dict[str, Any] = late.to_json(40.0)
        assert shown["status"] == FAILED and "interrupted" in shown["error"]
        taken = await store.take_over("n2", 40.0, LEASE)
        assert [(t.node, t.attempts, t.status, t.done) for t in taken] == [("n2", 2, QUEUED, 0)]
        assert not await store.progress(job, 4, 10, 41.0, LEASE)  # the dead node's claim
        assert not await store.finish(job, {"accuracy": []}, 41.0)
        again = await store.request(rooms[0], "4", 4, ann, "n3", 100.0, LEASE, OPEN)
        assert again.taken and again.job is not None and again.job.attempts == 3
        last = await store.take_over("n4", 200.0, LEASE)  # claimed MAX_ATTEMPTS times
        assert last == [] and MAX_ATTEMPTS == 3
        stuck = await store.get(rooms[0])
        assert stuck is not None and stuck.status == FAILED
        restarted = await store.request(rooms[0], "4", 4, ann, "n4", 201.0, LEASE, OPEN)
        assert restarted.taken  # asked for again: it runs again
    _scenario(tmp_path, body)


def test_a_single_hall_takes_up_its_previous_process_jobs_at_start(tmp_path: Path,
                                                                    test_games: None) -> None:
    async def body(store: ReviewStore, who: list[int], rooms: list[str]) -> None:
        await store.request(rooms[0], "4", 4, who[0], "hall", 0.0, LEASE, OPEN)
        assert await store.take_over("hall", 1.0, LEASE) == []  # its claim still runs
        taken = await store.take_over("hall", 1.0, LEASE, every=True)
        assert [t.room for t in taken] == [rooms[0]]
        await store.renew(taken, 10.0, LEASE)
        renewed = await store.get(rooms[0])
        assert renewed is not None and renewed.lease_until == 10.0 + LEASE
    _scenario(tmp_path, body)
