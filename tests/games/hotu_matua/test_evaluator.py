"""The MCTS evaluator shipped with Hotu Matua: in range, no side effects, deterministic, and it
prefers the side that owns more pearls or whose fleet is closer to one."""

from __future__ import annotations

import random

import pytest

from gamehall.ai.evaluators import default_evaluator
from gamehall.core import CHANCE, GamehallError, load_game
from gamehall.games.hotu_matua.evaluator import HotuMatuaEvaluator, pearl_steps
from gamehall.games.hotu_matua.rules import HotuMatuaState


def positions(seed: int, count: int) -> list[HotuMatuaState]:
    """Positions along a random game (chance and decisions alike)."""
    game = load_game("hotu_matua", turn_limit=60)
    state = game.new_initial_state(seed=seed)
    rng = random.Random(seed)
    out: list[HotuMatuaState] = []
    while not state.is_terminal() and len(out) < count:
        copy = state.clone()
        assert isinstance(copy, HotuMatuaState)
        out.append(copy)
        if state.current_player() == CHANCE:
            state.apply_action(state.sample_chance(rng))
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    return out


def test_is_the_default_evaluator_of_the_game() -> None:
    assert isinstance(default_evaluator(load_game("hotu_matua")), HotuMatuaEvaluator)


@pytest.mark.parametrize("seed", [1, 2])
def test_values_in_range_constant_sum_no_side_effects_deterministic(seed: int) -> None:
    game = load_game("hotu_matua", turn_limit=60)
    ev = HotuMatuaEvaluator(game)
    for state in positions(seed, 300):
        before = state.to_json(), state.history()
        value = ev.evaluate(state, random.Random(0))
        assert value is not None
        assert len(value) == 2 and -1.0 <= value[0] <= 1.0 and value[0] + value[1] == 0.0
        assert (state.to_json(), state.history()) == before
        assert ev.evaluate(state, random.Random(99)) == value


def test_more_pearls_and_a_closer_fleet_are_better() -> None:
    game = load_game("hotu_matua")
    ev = HotuMatuaEvaluator(game)
    state = game.new_initial_state(seed=1)
    assert isinstance(state, HotuMatuaState)
    start = ev.evaluate(state, random.Random(0))
    assert start is not None and start[0] == 0.0  # the board is symmetric under a half turn
    ahead = state.clone()
    ahead.owned = [1, 0]
    ahead.pearls = ahead.pearls[1:]
    value = ev.evaluate(ahead, random.Random(0))
    assert value is not None and value[0] > 0.3
    closer = state.clone()
    table = pearl_steps(state.board)
    pearl = 0
    free = [f for f in range(state.board.num_fields)
            if table[pearl][f] == 0 and f not in state.ships]
    assert len(free) >= 4
    closer.ships[:4] = free[:4]
    assert ev.fleet_steps(closer, 0) < ev.fleet_steps(state, 0)
    value = ev.evaluate(closer, random.Random(0))
    assert value is not None and value[0] > 0.0


def test_pearl_steps_are_zero_next_to_the_pearl_and_grow_one_a_step() -> None:
    board = load_game("hotu_matua").new_initial_state().board  # type: ignore[attr-defined]
    table = pearl_steps(board)
    for i, pearl in enumerate(board.pearls):
        row = table[i]
        assert all(row[f] == 0 for f in board.neighbours(pearl) if f not in board.pearls)
        for f in range(board.num_fields):
            if f in board.pearls or row[f] >= board.num_fields:
                continue
            if row[f] > 0:
                assert min(row[g] for g in board.neighbours(f)) == row[f] - 1


def test_refuses_other_games_and_bad_weights() -> None:
    game = load_game("hotu_matua")
    with pytest.raises(GamehallError):
        HotuMatuaEvaluator(game, scale=0.0)
    with pytest.raises(GamehallError):
        HotuMatuaEvaluator(game).evaluate(load_game("hula").new_initial_state(), random.Random(0))


def test_a_taken_pearls_field_is_open_sea() -> None:
    """Issue 42: once a pearl is taken its field is ordinary sea (README, rules), so a ship on
    it, or a path through it, counts its real steps; the table had kept it blocked, so at 1–1 a
    fleet beside the last pearls read 59 steps instead of a handful and its side lost all hope."""
    game = load_game("hotu_matua")
    ev = HotuMatuaEvaluator(game)
    state = game.new_initial_state(seed=1)
    assert isinstance(state, HotuMatuaState)
    board = state.board
    taken, left = board.pearls[0], list(board.pearls[1:])
    state.owned = [1, 1]
    state.pearls = left[1:]  # two gone, three left: 1–1
    ship = state.ships[0]
    state.ships[0] = taken  # north's first ship sails over the taken pearl's field
    assert ship != taken
    steps = ev.fleet_steps(state, 0)
    assert steps < board.num_fields, steps  # was 55 for that ship alone
    value = ev.evaluate(state, random.Random(0))
    assert value is not None and value[0] > -0.5  # was about -1: a fleet taken for lost
    # each ship's distance is a true shortest path through open sea: one step from a neighbour
    table = pearl_steps(board, tuple(state.pearls))
    for i, _pearl in enumerate(state.pearls):
        row = table[i]
        assert row[taken] < board.num_fields
        assert row[taken] == min(row[g] for g in board.neighbours(taken)) + 1 or row[taken] == 0
