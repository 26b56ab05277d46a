"""Whole turns judged by greedy playouts (`ai/turn_rollout.py`, ``rollout:N``)."""

from __future__ import annotations

import pytest

from gamehall.ai import make_bot
from gamehall.ai.evaluators import default_evaluator
from gamehall.ai.turn_rollout import TurnRolloutBot
from gamehall.core import CHANCE, GamehallError, State, list_games, load_game
from tests.ai.clock import FakeClock

pytestmark = pytest.mark.skipif("hau_la" not in list_games(), reason="Hau La is not installed")


def greedy_winner(state: State) -> int:
    """Who wins when every seat takes its best-scored turn from `state` to the end (the first
    of equal scores, as the bot's playouts with epsilon 0 and no ties drawn)."""
    state = state.clone()
    scorer = default_evaluator(state.game)
    while not state.is_terminal():
        assert state.current_player() != CHANCE
        moves = state.turn_moves()
        scores = scorer.score_turns(state, moves)
        best = max(scores)
        for action in moves[list(scores).index(best)]:
            state.apply_action(action)
    return max(range(state.game.num_players), key=lambda s: state.returns()[s])


def test_plays_whole_turns_legally_to_the_end() -> None:
    state = load_game("hau_la", players=4).new_initial_state(4)
    bots = [TurnRolloutBot(seed, simulations=4, width=3) for seed in range(4)]
    while not state.is_terminal():
        action = bots[state.current_player()].choose(state)
        assert action in state.legal_actions()
        state.apply_action(action)


def test_each_candidate_is_the_best_scored_and_valued_by_its_playout() -> None:
    """With epsilon 0 and one playout per candidate, the candidates are the `width` best-scored
    turns, each worth 1 exactly when every seat playing greedily after it makes the mover win."""
    state = load_game("hau_la", players=4).new_initial_state(6)
    scorer = default_evaluator(state.game)
    moves = state.turn_moves()
    scores = scorer.score_turns(state, moves)
    bot = TurnRolloutBot(2, simulations=5, width=5, epsilon=0.0)
    root = bot.search(state)
    assert len(root.children) == 5 and all(c.n == 1 for c in root.children)
    chosen = [scores[moves.index(c.move)] for c in root.children]
    assert chosen == sorted(chosen, reverse=True) and chosen[0] == max(scores)
    assert min(chosen) >= sorted(scores, reverse=True)[4]
    mover = state.current_player()
    for child in root.children:
        after = state.clone()
        for action in child.move:
            after.apply_action(action)
        assert child.w == (1.0 if greedy_winner(after) == mover else 0.0)


def test_the_budget_goes_to_the_winning_candidates_and_the_most_played_is_chosen() -> None:
    state = load_game("hau_la", players=3).new_initial_state(5)
    bot = TurnRolloutBot(1, simulations=60, width=6)
    root = bot.search(state)
    assert sum(c.n for c in root.children) == root.n == bot.simulations_done == 60
    assert bot.best_move(root) == max(root.children, key=lambda c: (c.n, c.q)).move
    again = TurnRolloutBot(1, simulations=60, width=6).choose(state)
    assert again == TurnRolloutBot(1, simulations=60, width=6).choose(state)


def test_a_time_budget_is_read_on_the_bots_clock() -> None:
    state = load_game("hau_la", players=2).new_initial_state(3)
    bot = TurnRolloutBot(1, simulations=None, seconds=0.05, width=4)
    bot.clock = FakeClock(0.01)
    bot.choose(state)
    assert 1 <= bot.simulations_done <= 5


def test_spec() -> None:
    bot = make_bot("rollout:30+w8+e0.1", 1)
    assert isinstance(bot, TurnRolloutBot)
    assert (bot.simulations, bot.width, bot.epsilon) == (30, 8, 0.1)
    default = make_bot("rollout", 1)
    assert isinstance(default, TurnRolloutBot) and default.simulations == 48
    for spec in ("rollout:0", "rollout:ten", "rollout:5+e2", "rollout:5+w0"):
        with pytest.raises(GamehallError):
            make_bot(spec, 1)


def test_hau_la_hard_at_four_players_judges_turns_by_playouts(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Hau La's `hard` at 4 players plays out its candidate turns (`LEVEL_ROLLOUT`); at 2 and
    3 players, and `medium` at 4, it searches whole turns as before."""
    from gamehall.ai import levels
    from gamehall.ai.turn_search import TurnSearchBot

    monkeypatch.setitem(levels.LEVEL_ROLLOUT, "hau_la", {4: {"hard": 7}})
    monkeypatch.setitem(levels.LEVEL_SIMULATIONS, "hau_la", {"easy": 2, "medium": 6, "hard": 9})
    for players, level, rollout in ((4, "hard", True), (4, "medium", False), (2, "hard", False)):
        state = load_game("hau_la", players=players).new_initial_state(1)
        bot = make_bot(f"mcts:{level}", 1)
        assert isinstance(bot, levels.LevelBot)
        assert bot.choose(state) in state.legal_actions()
        assert isinstance(bot._turns, TurnRolloutBot) == rollout
        assert isinstance(bot._turns, TurnSearchBot)
        assert bot._turns.simulations_done == (7 if rollout else 6 if level == "medium" else 9)
