"""The bot pool in process: budgets within limits, deadlines, one job per room, order served."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from gamehall.core import load_game
from gamehall.server.engines.pool import BotLimits, BotPool, bot_spec
from gamehall.server.table.errors import RoomError

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(autouse=True)
def _games(test_games: None, monkeypatch: pytest.MonkeyPatch) -> None:
    """The workers import the test games as a plug-in from the project's root."""
    monkeypatch.chdir(ROOT)
    monkeypatch.setenv("PYTHONPATH", str(ROOT))


def test_a_bot_spec_stays_within_the_limits() -> None:
    limits = BotLimits(max_seconds=2.0, max_simulations=1000)
    assert bot_spec("hard", limits) == "mcts:hard"
    assert bot_spec("mcts:1000", limits) == "mcts:1000"
    assert bot_spec("mcts:2s", limits) == "mcts:2s"
    for level in ("mcts:1001", "mcts:2.5s", "mcts:100000000000"):
        with pytest.raises(RoomError) as info:
            bot_spec(level, limits)
        assert info.value.code == "bad_bot" and "at most" in info.value.message
    with pytest.raises(RoomError):
        bot_spec("hard", BotLimits(max_seconds=1.0))


def test_the_reference_bot_stays_within_the_limits() -> None:
    limits = BotLimits(max_seconds=2.0, max_simulations=1000)
    assert bot_spec("uct:1000", limits) == "uct:1000"
    # uct (uct:hard) costs hard's budget of the game played: at most the largest of them
    from gamehall.ai.levels import max_hard_simulations

    roomy = BotLimits(max_seconds=2.0, max_simulations=max_hard_simulations())
    assert bot_spec("uct", roomy) == "uct" and bot_spec("uct:hard", roomy) == "uct:hard"
    with pytest.raises(RoomError):
        bot_spec("uct:hard", BotLimits(max_simulations=max_hard_simulations() - 1))
    for spec, small in (("uct:1001", limits), ("uct", BotLimits(max_simulations=999))):
        with pytest.raises(RoomError) as info:
            bot_spec(spec, small)
        assert info.value.code == "bad_bot" and "at most" in info.value.message
    with pytest.raises(RoomError) as info:
        bot_spec("uct:fast", limits)
    assert info.value.code == "bad_bot"
    # the searches over whole turns are held to the limits' simulations too
    assert bot_spec("rollout:40", limits) == "rollout:40"
    for spec in ("turns:1001", "rollout:1001"):
        with pytest.raises(RoomError) as info:
            bot_spec(spec, limits)
        assert info.value.code == "bad_bot" and "at most" in info.value.message
    # uct:cpuX asks for X seconds (of CPU) a move: held to the limits' seconds
    assert bot_spec("uct:cpu2", limits) == "uct:cpu2"
    with pytest.raises(RoomError) as info:
        bot_spec("uct:cpu2.5", limits)
    assert info.value.code == "bad_bot" and "at most" in info.value.message
    # the worker caps the thinking time of every MCTS-family bot to the limits' seconds
    from gamehall.ai import MCTSBot, make_bot

    assert isinstance(make_bot("uct:10", 0), MCTSBot)


def test_a_job_past_its_deadline_is_cut_off_and_the_worker_replaced() -> None:
    async def scenario() -> None:
        pool = BotPool(1, ("tests.server.games",), BotLimits(max_seconds=0.2))
        state = load_game("testline").new_initial_state()
        try:
            assert await pool.choose("testthink:100", state, 1, "a") is None
            assert pool.stats.timeouts == 1
            assert await pool.choose("testthink:0", state, 2, "a") in state.legal_actions()
            assert pool.stats.restarts == 1 and pool.stats.jobs == 2
        finally:
            await pool.close()

    asyncio.run(scenario())


def test_a_room_has_one_job_and_rooms_are_served_in_turn() -> None:
    async def scenario() -> None:
        pool = BotPool(1, ("tests.server.games",), BotLimits(max_seconds=30))
        state = load_game("testline").new_initial_state()
        done: list[str] = []

        async def ask(spec: str, room: str, tag: str) -> int | None:
            action = await pool.choose(spec, state, 1, room)
            done.append(tag)
            return action

        try:
            first = asyncio.create_task(ask("testthink:30", "a", "a1"))
            await asyncio.sleep(0)
            while pool.queued:  # until the worker has it
                await asyncio.sleep(0.01)
            others = [asyncio.create_task(ask("testthink:0", "b", "b1")),
                      asyncio.create_task(ask("testthink:0", "c", "c1"))]
            await asyncio.sleep(0)
            again = asyncio.create_task(ask("testthink:0", "a", "a2"))  # replaces a1
            assert await first is None, "the older job of a room answers nothing"
            results = [await t for t in (*others, again)]
            assert all(r in state.legal_actions() for r in results)
            assert done == ["a1", "b1", "c1", "a2"], "first come, first served"
            assert pool.stats.timeouts == 0 and pool.stats.restarts == 1
        finally:
            await pool.close()

    asyncio.run(scenario())
