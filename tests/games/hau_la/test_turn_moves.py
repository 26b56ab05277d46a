"""Whole placements as moves (`HauLaState.turn_moves`) and their scores (`score_turns`)."""

from __future__ import annotations

import math
import random

import pytest

from gamehall.core import TurnMoves, TurnScorer, load_game
from gamehall.games.hau_la.evaluator import HauLaEvaluator
from gamehall.games.hau_la.rules import HauLaState
from gamehall.games.hau_la.turns import HANDOVER, OVER, PLACE


def leaves(state: HauLaState) -> list[tuple[int, ...]]:
    """Every action sequence that finishes the turn under way, found by trying every legal
    action at every step (a turn ends when the table logs its outcome, or the game ends)."""
    marker = state.table.events[-1] if state.table.events else None
    out: list[tuple[int, ...]] = []

    def walk(s: HauLaState, seq: list[int]) -> None:
        last = s.table.events[-1] if s.table.events else None
        if seq and (last is not marker or s.is_terminal()):
            out.append(tuple(seq))
            return
        for action in s.legal_actions():
            after = s.clone()
            after.apply_action(action)
            walk(after, [*seq, action])

    walk(state, [])
    return out


@pytest.mark.parametrize("players", [2, 3, 4])
def test_turn_moves_are_every_way_to_finish_the_turn(players: int) -> None:
    """Over seeded random games: the listed turns are exactly the leaves of the step tree,
    in the middle of a placement too."""
    game = load_game("hau_la", players=players)
    rng = random.Random(players)
    state = game.new_initial_state(1)
    assert isinstance(state, HauLaState) and isinstance(state, TurnMoves)
    checked = 0
    while not state.is_terminal():
        moves = state.turn_moves()
        assert moves and len(set(moves)) == len(moves)
        if len(moves) <= 300 and rng.random() < 0.4:
            assert sorted(leaves(state)) == sorted(moves)
            checked += 1
        move = rng.choice(moves)
        if len(move) > 1 and rng.random() < 0.5:  # half-way through a placement too
            state.apply_action(move[0])
            rest = state.turn_moves()
            assert sorted(rest) == sorted(m[1:] for m in moves if m[0] == move[0])
            move = move[1:]
        for action in move:
            assert action in state.legal_actions()
            state.apply_action(action)
    assert checked >= 3


def test_turn_scores_are_the_values_after_the_turn() -> None:
    """A turn's score is the evaluator's value of the position right after it, for its mover
    (a touching turn: the culprit's height less the penalty, while the piece is handed over)."""
    evaluator = HauLaEvaluator(load_game("hau_la"))
    assert isinstance(evaluator, TurnScorer)
    rng = random.Random(5)
    compared = 0
    for players in (2, 3, 4):
        state = load_game("hau_la", players=players).new_initial_state(2)
        assert isinstance(state, HauLaState)
        while not state.is_terminal():
            moves = state.turn_moves()
            if state.table.phase == PLACE:
                seat = state.table.placer
                scores = evaluator.score_turns(state, moves)
                for i in rng.sample(range(len(moves)), min(6, len(moves))):
                    after = state.clone()
                    for action in moves[i]:
                        after.apply_action(action)
                    t = after.table
                    if t.phase == OVER or (t.culprit == seat and t.phase != HANDOVER):
                        continue  # the game ended, or the hand-over fitted nowhere
                    value = evaluator.evaluate(after, random.Random(0))
                    assert value is not None
                    assert math.isclose(scores[i], value[seat], abs_tol=1e-9)
                    compared += 1
            for action in rng.choice(moves):
                state.apply_action(action)
    assert compared > 50


def test_turn_scores_follow_the_order_of_the_moves_given() -> None:
    state = load_game("hau_la").new_initial_state(3)
    assert isinstance(state, HauLaState)
    evaluator = HauLaEvaluator(state.game)
    moves = state.turn_moves()
    scores = evaluator.score_turns(state, moves)
    reversed_scores = evaluator.score_turns(state, moves[::-1])
    assert list(reversed_scores) == list(scores)[::-1]


@pytest.mark.parametrize("players", [2, 4])
def test_listed_turns_are_those_of_the_same_position_read_afresh(players: int) -> None:
    """The list kept with a position (asked before and after each action, clones included) is
    the one a state read back from JSON, with nothing kept, lists."""
    game = load_game("hau_la", players=players)
    rng = random.Random(10 + players)
    state = game.new_initial_state(3)
    assert isinstance(state, HauLaState)
    while not state.is_terminal():
        kept = state.turn_moves()
        fresh = game.state_from_json(state.to_json())
        assert isinstance(fresh, HauLaState)
        assert fresh.turn_moves() == kept
        clone = state.clone()
        action = rng.choice(state.legal_actions())
        state.apply_action(action)
        assert clone.turn_moves() == kept  # the clone did not move
