"""The Halali! leaf evaluator: captures at hand, exits in the end phase, signs and the end."""

from __future__ import annotations

import random

from gamehall.games.halali.evaluator import (
    HalaliEvaluator,
    best_capture,
    exit_points,
    on_board,
)
from gamehall.games.halali.tiles import BEASTS, HUMANS
from tests.games.halali.helpers import board, position


def test_a_fox_takes_the_first_green_tile_in_its_line_and_not_through_another() -> None:
    state = position(board(a1="F", a5="D", c1="T", d1="P", g7="?"), unrevealed={"tree": 1})
    assert best_capture(state.board, BEASTS) == 2  # the duck; the pheasant is behind a tree
    assert best_capture(state.board, HUMANS) == 0


def test_a_hunter_shoots_only_along_its_rifle_and_a_bear_only_next_to_it() -> None:
    rows = board(c3="H^", c6="B", e3="F", d4="B", d5="L", g7="?")
    state = position(rows, unrevealed={"tree": 1})
    assert best_capture(state.board, HUMANS) == 10  # the bear up c, not the fox on e3
    assert best_capture(state.board, BEASTS) == 5  # the bear on d4 takes the lumberjack on d5


def test_exits_count_the_best_tiles_with_a_clear_way_out_in_the_turns_left() -> None:
    # d1's exit lies below it; the fox on d3 has d2 and d1 clear; the bear on d7 stands next to
    # the top exit; the bear on b2 is a step away from any exit
    state = position(board(d3="F", d7="B", b2="B", a7="H^"), to_move="beasts", end=4)
    assert exit_points(state.board, BEASTS, 1) == 10
    assert exit_points(state.board, BEASTS, 2) == 15
    assert exit_points(state.board, BEASTS, 5) == 15
    assert exit_points(state.board, HUMANS, 2) == 0
    assert on_board(state.board, BEASTS) == 25 and on_board(state.board, HUMANS) == 5


def test_the_side_ahead_is_valued_ahead_and_the_values_sum_to_zero() -> None:
    rows = board(a1="F", g7="?", c4="L", e5="T")
    ahead = position(rows, unrevealed={"tree": 1}, captured={"humans": ["B", "F"]})
    evaluator = HalaliEvaluator(ahead.game)
    humans, beasts = evaluator.evaluate(ahead, random.Random(1))  # type: ignore[misc]
    assert humans > 0.5 and humans + beasts == 0.0  # seat 0 plays the humans in game 1
    level = position(rows, unrevealed={"tree": 1})
    assert abs(evaluator.evaluate(level, random.Random(1))[0]) < humans  # type: ignore[index]


def test_a_capture_at_hand_is_worth_more_to_the_side_to_move() -> None:
    rows = board(c3="H^", c6="B", g7="?")
    mover = position(rows, to_move="humans", unrevealed={"tree": 1})
    waiting = position(rows, to_move="beasts", unrevealed={"tree": 1})
    evaluator = HalaliEvaluator(mover.game)
    assert evaluator.lead(mover, HUMANS) > evaluator.lead(waiting, HUMANS) > 0


def test_a_finished_game_is_valued_by_its_returns() -> None:
    state = position(board(d1="F", a7="L"), to_move="beasts", end=1,
                     captured={"humans": ["D"]})
    state.apply_action(state.string_to_action("d1-exit-d1"))
    assert state.is_terminal()
    assert list(HalaliEvaluator(state.game).evaluate(state, random.Random(1)) or []) == \
        state.returns()


def test_a_flip_not_yet_revealed_is_judged_as_after_the_reveal() -> None:
    # the humans' hunter aims at the bear; the humans flip the last face-down tile instead: once
    # it shows, the beasts move (their bear can step away) and the end phase has begun
    state = position(board(c3="H^", c6="B", g7="?"), to_move="humans", unrevealed={"tree": 1})
    evaluator = HalaliEvaluator(state.game)
    before = evaluator.lead(state, HUMANS)
    state.apply_action(state.string_to_action("flip g7"))
    flipping = evaluator.lead(state, HUMANS)
    state.apply_action(state.string_to_action("tree"))
    assert state.side_to_move == BEASTS and state.end_left == 10
    assert flipping == evaluator.lead(state, HUMANS) < before


def test_the_same_lead_weighs_more_with_fewer_points_left_to_take() -> None:
    hidden = {f"{f}{r}": "?" for f in "efg" for r in "1234"}  # twelve face down
    early = position(board(a1="F", c4="L", **hidden), unrevealed={"tree": 10, "bear": 2},
                     captured={"humans": ["F"]})
    late = position(board(a1="F", c4="L", g7="?"), unrevealed={"tree": 1},
                    captured={"humans": ["F"]})
    evaluator = HalaliEvaluator(early.game)
    assert evaluator.lead(early, HUMANS) == evaluator.lead(late, HUMANS) > 0
    value = [evaluator.evaluate(s, random.Random(1))[0] for s in (early, late)]  # type: ignore[index]
    assert 0 < value[0] < value[1]
