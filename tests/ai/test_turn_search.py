"""MCTS over whole turns (`ai/turn_search.py`): legal whole turns, plans kept, widening."""

from __future__ import annotations

import math

import pytest

from gamehall.ai import make_bot
from gamehall.ai.turn_search import TurnSearchBot
from gamehall.core import GamehallError, list_games, load_game

pytestmark = pytest.mark.skipif("hau_la" not in list_games(), reason="Hau La is not installed")


def test_plays_whole_turns_legally_to_the_end() -> None:
    state = load_game("hau_la", players=3).new_initial_state(4)
    bots = [TurnSearchBot(seed, simulations=8) for seed in range(3)]
    while not state.is_terminal():
        action = bots[state.current_player()].choose(state)
        assert action in state.legal_actions()
        state.apply_action(action)


def test_a_turn_chosen_is_played_to_its_end() -> None:
    """The first call searches and plays the turn's first action; the next calls of the same
    turn follow the plan: together the actions are one of the listed turns."""
    state = load_game("hau_la").new_initial_state(1)
    moves = set(state.turn_moves())
    bot = TurnSearchBot(3, simulations=20)
    mover = state.current_player()
    played: list[int] = []
    marker = state.table.events[-1]
    while state.table.events[-1] is marker:
        assert state.current_player() == mover
        action = bot.choose(state)
        played.append(action)
        state.apply_action(action)
    assert tuple(played) in moves


def test_a_fresh_bot_in_the_middle_of_a_turn_finishes_it() -> None:
    state = load_game("hau_la").new_initial_state(1)
    first = state.turn_moves()[0]
    state.apply_action(first[0])
    bot = TurnSearchBot(1, simulations=10)
    action = bot.choose(state)
    assert action in state.legal_actions()
    assert any(m[0] == action for m in state.turn_moves())


def test_the_same_seed_chooses_the_same_turn() -> None:
    state = load_game("hau_la", players=2).new_initial_state(7)
    a = TurnSearchBot(5, simulations=30).choose(state)
    b = TurnSearchBot(5, simulations=30).choose(state)
    assert a == b


def test_children_are_widened_with_visits_best_scored_first() -> None:
    state = load_game("hau_la").new_initial_state(2)
    bot = TurnSearchBot(1, simulations=50, widening=(1.0, 0.5))
    root = bot.search(state)
    assert bot.simulations_done == 50
    assert root.n == 50
    assert len(root.children) <= math.ceil((root.n + 1) ** 0.5)
    scores = bot.evaluator.score_turns(state, [c.move for c in root.children])  # type: ignore[attr-defined]
    best = max(bot.evaluator.score_turns(state, state.turn_moves()))  # type: ignore[attr-defined]
    assert scores[0] == best  # the first child expanded is a best-scored turn


def test_turn_search_refuses_games_without_turn_moves() -> None:
    state = load_game("hula").new_initial_state(1)
    with pytest.raises(GamehallError, match="turn_moves"):
        TurnSearchBot(1, simulations=5).choose(state)


def test_spec() -> None:
    bot = make_bot("turns:40", 1)
    assert isinstance(bot, TurnSearchBot) and bot.simulations == 40
    with pytest.raises(GamehallError):
        make_bot("turns:hard", 1)


def test_hau_la_levels_search_whole_turns(monkeypatch: pytest.MonkeyPatch) -> None:
    """`medium` and `hard` in Hau La are searches over whole turns at the level's simulations;
    `easy` stays plain UCT over the steps."""
    from gamehall.ai import levels

    monkeypatch.setitem(levels.LEVEL_SIMULATIONS, "hau_la", {"easy": 2, "medium": 6, "hard": 9})
    state = load_game("hau_la").new_initial_state(1)
    for level, turns in (("easy", False), ("medium", True), ("hard", True)):
        bot = make_bot(f"mcts:{level}", 1)
        assert isinstance(bot, levels.LevelBot)
        action = bot.choose(state)
        assert action in state.legal_actions()
        assert (bot._turns is not None) == turns
        if bot._turns is not None:
            assert bot._turns.simulations_done == (6 if level == "medium" else 9)


def test_other_seats_can_be_followed_on_their_best_scored_turn_only() -> None:
    """With the other seats' widening at alpha 0 (k 1), a node where another seat moves keeps
    one child, its best-scored turn; the root's seat still widens."""
    state = load_game("hau_la", players=3).new_initial_state(2)
    while state.table.phase == "extras":
        state.apply_action(state.legal_actions()[0])
    bot = make_bot("turns:60+o0", 1)
    assert isinstance(bot, TurnSearchBot)
    root = bot.search(state)
    me = root.player
    stack = list(root.children)
    seen = 0
    while stack:
        node = stack.pop()
        if node.player != me and node.proven is None:
            assert len(node.children) <= 1
            seen += 1
        stack.extend(node.children)
    assert seen > 0 and len(root.children) > 1
