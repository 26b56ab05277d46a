"""The fixed reference search ``uct:N``: plain UCT, exactly N simulations, pinned moves."""

from __future__ import annotations

import random

import pytest

from gamehall.ai import MCTSBot, UCTBot, make_bot, register_evaluator
from gamehall.ai.evaluators import RandomRollout, _registered
from gamehall.core import GamehallError, load_game
from tests.ai.clock import FakeClock
from tests.ai.test_mcts import SlowEvaluator, pig, play_out, race, ttt

PINNED = {
    "t_pig": [1, 3, 1, 5, 0, 1, 4, 1, 5, 1, 5, 0, 1, 2, 1, 2, 1, 7, 1, 3, 1, 3, 0],
    "t_tictactoe": [6, 4, 0, 5, 3],
}
"""Games between ``uct:60`` seeds 1 and 2 (chance from random.Random(3)): the moves this search
made when it was fixed. If this fails, the reference changed: restore it, never re-pin."""


def test_spec_parses_to_plain_uct() -> None:
    bot = make_bot("uct:250", 1)
    assert isinstance(bot, UCTBot)
    assert (bot.simulations, bot.seconds, bot.uct_c, bot.solve, bot.reuse) == \
        (250, None, 1.0, False, False)
    assert isinstance(bot._evaluator, RandomRollout) and bot._evaluator.rollouts == 1
    for spec in ("uct", "uct:hard", "uct:HARD"):
        default = make_bot(spec, 1)
        assert isinstance(default, UCTBot) and default.at_hard
    assert not make_bot("uct:250", 1).at_hard  # type: ignore[attr-defined]
    for spec in ("uct:0", "uct:easy", "uct:1.5s", "uct:-3", "uct:ten"):
        with pytest.raises(GamehallError, match="uct:N"):
            make_bot(spec, 1)


@pytest.mark.parametrize("name", sorted(PINNED))
def test_same_seed_same_moves_and_pinned(name: str) -> None:
    def run(seed: int) -> list[int]:
        game = load_game(name)
        bots = [UCTBot(seed + s, simulations=60) for s in range(2)]
        return play_out(game.new_initial_state(7), bots, random.Random(3)).history()

    assert run(1) == run(1) == PINNED[name]
    assert run(1) != run(2) or run(1) != run(5)


def test_exactly_n_simulations_whatever_the_clock() -> None:
    # a clock that moves on a minute a reading: a time cap would stop at once; uct:N does not
    for n in (1, 37, 400):
        bot = UCTBot(3, simulations=n)
        bot.clock = FakeClock(60.0)
        root = bot.search(pig([3, 5], 4))
        assert bot.stats.simulations == root.n == n


def test_no_tree_reuse_and_no_solver() -> None:
    bot = UCTBot(2, simulations=300)
    state = ttt("x...o....", 0)
    state.apply_action(bot.choose(state))
    state.apply_action(MCTSBot(1, simulations=50).choose(state))
    bot.choose(state)
    assert bot.stats.reused_visits == 0 and not bot.stats.solved
    # a solver would stop at once on a position proven in one; plain UCT spends its budget
    bot = UCTBot(2, simulations=100)
    bot.choose(ttt("xx.oo....", 0))
    assert bot.stats.simulations == 100 and not bot.stats.solved


def test_no_game_evaluator() -> None:
    slow = SlowEvaluator(FakeClock(0.0))
    register_evaluator("t_race", lambda game: slow)
    try:
        UCTBot(1, simulations=20).choose(race(0, 0, 3))
        assert slow.calls == 0
    finally:
        _registered.pop("t_race")


def test_takes_a_won_move() -> None:
    for seed in range(5):
        assert UCTBot(seed, simulations=50).choose(ttt("xx.oo....", 0)) == 2
    for players in (2, 3, 4):
        for mover in range(players):
            assert UCTBot(mover, simulations=40).choose(race(8, mover, players)) == 2


def test_uct_hard_runs_hards_simulations_in_each_game() -> None:
    """The reference at equal simulations: `uct:hard` searches what `mcts:hard` searches in the
    game it plays (a listed game's budget, else the default), the same search otherwise."""
    from gamehall.ai.levels import DEFAULT_SIMULATIONS, LEVEL_SIMULATIONS

    LEVEL_SIMULATIONS["t_tictactoe"] = {"easy": 7, "medium": 11, "hard": 17}
    try:
        ref, hard = make_bot("uct:hard", 4), make_bot("mcts:hard", 4)
        for state in (load_game("t_tictactoe").new_initial_state(), pig([3, 5], 4)):
            ref.choose(state)
            hard.choose(state)
            assert ref.stats.simulations == hard.stats.simulations  # type: ignore[attr-defined]
        assert ref.stats.simulations == DEFAULT_SIMULATIONS["hard"]  # type: ignore[attr-defined]
        ref.choose(load_game("t_tictactoe").new_initial_state())
        assert ref.stats.simulations == 17  # type: ignore[attr-defined]
    finally:
        del LEVEL_SIMULATIONS["t_tictactoe"]


def test_cpu_spec_parses_to_a_cpu_budget_on_the_process_clock(
        monkeypatch: pytest.MonkeyPatch) -> None:
    import time

    from gamehall.ai import reference, uct_cpu_seconds

    bot = make_bot("uct:cpu0.25", 1)
    assert isinstance(bot, UCTBot)
    assert (bot.simulations, bot.seconds, bot.cpu_seconds, bot.at_hard) == \
        (None, 0.25, 0.25, False)
    assert bot.clock is time.process_time and isinstance(bot._evaluator, RandomRollout)
    assert (bot.uct_c, bot.solve, bot.reuse) == (1.0, False, False)
    assert uct_cpu_seconds("cpu2") == 2.0 and uct_cpu_seconds("cpu.5") == 0.5
    assert uct_cpu_seconds("hard") is None and uct_cpu_seconds(None) is None
    for spec in ("uct:cpu", "uct:cpu0", "uct:cpu-1", "uct:cpux", "uct:cpu1s"):
        with pytest.raises(GamehallError, match="uct:cpuX"):
            make_bot(spec, 1)
    clock = FakeClock(0.001)
    monkeypatch.setattr(reference, "CPU_CLOCK", clock)
    assert make_bot("uct:cpu1", 1).clock is clock  # type: ignore[attr-defined]


def test_cpu_budget_is_spent_on_the_process_clock_and_scales_the_search() -> None:
    """The budget is read on the injected clock (no real time): a clock that moves 1 ms a
    reading gives a fixed number of simulations, more for a larger budget, the same for the
    same seed, and never past the budget by more than one simulation's readings."""
    def simulations(seconds: float, seed: int = 3) -> tuple[int, int]:
        bot = UCTBot(seed, cpu_seconds=seconds)
        bot.clock = FakeClock(0.001)
        action = bot.choose(pig([3, 5], 4))
        return bot.stats.simulations, action

    small, large = simulations(0.05), simulations(0.5)
    assert 0 < small[0] < large[0]
    assert simulations(0.5) == large
    bot = UCTBot(3, cpu_seconds=0.2)
    bot.clock = FakeClock(0.001)
    bot.choose(pig([3, 5], 4))
    assert bot.stats.seconds <= 0.2 + 0.01


def test_a_cpu_budgeted_rollout_is_never_cut_short() -> None:
    """A rollout has no wall deadline under a CPU budget (a loaded machine's wall clock runs
    ahead of CPU): every simulation started is finished and counted."""
    bot = UCTBot(2, cpu_seconds=0.05)
    assert bot._playout_deadline(123.0) is None
    assert UCTBot(2, simulations=10)._playout_deadline(123.0) == 123.0  # a wall cap stays
    bot.clock = FakeClock(0.001)
    root = bot.search(ttt("x...o....", 0), deadline=bot.clock() + 0.05)
    assert root.n == bot.stats.simulations > 0
