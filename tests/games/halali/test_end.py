"""The end phase, exits, the early end, scoring, the tie-break and the forced pass."""

from __future__ import annotations

import random

import pytest

from gamehall.core import CHANCE, TERMINAL, NotationError, load_game
from gamehall.games.halali import rules
from gamehall.games.halali.rules import HalaliState
from tests.games.halali.helpers import board, moves, play, position


def _shuffle_turn(state: HalaliState) -> None:
    """Make some legal non-exit move for the seat to move (keeps both sides on the board)."""
    legal = [a for a in state.legal_actions() if "exit" not in state.action_to_string(a)]
    state.apply_action(legal[0])


def test_last_flip_starts_an_end_phase_of_exactly_ten_turns() -> None:
    state = position(board(g7="?", a1="F", b7="B", g1="L", c4="H^"), to_move="beasts",
                     unrevealed={"tree": 1})
    assert state.end_left is None
    play(state, "flip g7", "tree")
    assert state.end_left == 10 and state.current_player() == 0  # humans, after the flipper
    seats = []
    while not state.is_terminal():
        seats.append(state.current_player())
        _shuffle_turn(state)
    assert seats == [0, 1] * 5
    assert state.turns == 10 + 11 and state.view(None)["end_phase_turns_left"] == 0


def test_in_seeded_random_games_the_end_phase_lasts_ten_turns_unless_it_ends_early() -> None:
    game = load_game("halali")
    for seed in range(40):
        state = game.new_initial_state(seed=seed)
        rng = random.Random(seed)
        after_last_flip = None
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(state.sample_chance())
                if state.hidden == 0:
                    after_last_flip = 0
                continue
            state.apply_action(rng.choice(state.legal_actions()))
            if after_last_flip is not None:
                after_last_flip += 1
        wiped = state.side_wiped_out()
        assert after_last_flip == 10 or (wiped and after_last_flip is not None
                                         and after_last_flip < 10)


def test_exits_open_only_in_the_end_phase() -> None:
    rows = board(d2="F", a1="H^", g5="B")
    before = position([*rows[:6], "H^ . . F . . ?"], to_move="beasts")
    assert not any("exit" in m for m in moves(before))
    with pytest.raises(NotationError, match="only in the end phase"):
        before.string_to_action("d2-exit")
    during = position(rows, to_move="beasts", end=6)
    assert "d2-exit-d1" in moves(during)


def test_exits_only_through_the_middle_of_an_edge() -> None:
    state = position(board(c2="F", a2="F", g4="F", d6="B", a7="H>"), to_move="beasts", end=4)
    exits = {m for m in moves(state) if "exit" in m}
    # a2 and c2 lie off the middle lines; d6 is a bear one step short. The fox on g4 leaves
    # to the right, or crosses the whole empty rank and leaves on the left.
    assert exits == {"g4-exit-g4", "g4-exit-a4"}
    with pytest.raises(NotationError, match="no exit in line with c2"):
        state.string_to_action("c2-exit-d1")
    with pytest.raises(NotationError, match="must stand on d7"):
        state.string_to_action("d6-exit")


def test_exit_paths_must_be_empty_and_bears_leave_from_the_edge_square() -> None:
    state = position(board(d1="B", a4="F", c4="T", d3="H^", d7="L"), to_move="beasts", end=4)
    exits = {m for m in moves(state) if "exit" in m}
    assert exits == {"d1-exit-d1", "a4-exit-a4"}
    humans = position(board(d1="B", a4="F", d3="H^", d7="L", g1="F"), end=4)
    assert {m for m in moves(humans) if "exit" in m} == {"d7-exit-d7"}
    with pytest.raises(NotationError, match="d7 is in the way"):
        humans.string_to_action("d3-exit-d7")


def test_green_tiles_never_leave_the_board() -> None:
    state = position(board(d2="D", a7="H^", g7="F"), end=3)
    assert not any("exit" in m for m in moves(state))
    with pytest.raises(NotationError, match="only your own side's tiles"):
        state.string_to_action("d2-exit")


def test_exit_from_the_centre_names_its_exit_and_scores_the_tile() -> None:
    state = position(board(d4="H>", a1="F"), end=5)
    assert {m for m in moves(state) if "exit" in m} == {
        "d4-exit-d7", "d4-exit-g4", "d4-exit-d1", "d4-exit-a4"}
    with pytest.raises(NotationError, match="several exits are open from d4"):
        state.string_to_action("d4-exit")
    play(state, "d4-exit-g4")
    view = state.view(None)
    assert view["exited"]["humans"] == ["H>"] and view["scores"]["humans"] == 5
    assert view["tiles_taken"]["humans"] == 1


def test_early_end_when_a_side_has_no_tile_left_once_all_are_face_up() -> None:
    state = position(board(c3="B", c4="L", a1="F", g7="D"), to_move="beasts", end=9)
    play(state, "c3xc4")
    assert state.is_terminal() and state.end_left == 8
    assert state.returns() == [-1.0, 1.0]


def test_no_early_end_while_tiles_are_face_down() -> None:
    state = position(board(c3="B", c4="L", a1="F", g7="?"), to_move="beasts")
    play(state, "c3xc4")
    assert not state.is_terminal()
    play(state, "flip g7")
    assert state.current_player() == CHANCE
    play(state, "tree")  # the last flip: humans still have nothing, so the game ends at once
    assert state.is_terminal()


def test_early_end_by_exiting_the_last_own_tile() -> None:
    state = position(board(d2="F", a1="H^", b1="H^"), to_move="beasts", end=7)
    play(state, "d2-exit-d1")
    assert state.is_terminal() and state.score(1) == 5


def test_forced_pass_only_when_nothing_else_is_possible() -> None:
    boxed = board(a1="L", a2="F", b1="F", g7="F")
    state = position(boxed, end=6)
    assert moves(state) == {"pass"}
    play(state, "pass")
    assert state.end_left == 5 and state.current_player() == 1
    assert "pass" not in moves(state)
    with pytest.raises(NotationError, match="only when no other action"):
        state.string_to_action("pass")


def test_scores_decide_then_tiles_taken_then_a_draw() -> None:
    rows = board(a1="L", g7="F", g1="T")
    # humans 10 (one bear) vs beasts 10 (hunter + lumberjack): beasts took more tiles
    tie = position(rows, end=1, captured={"humans": ["B"], "beasts": ["H^", "L"]})
    play(tie, "a1-a2")
    assert tie.is_terminal() and tie.returns() == [-1.0, 1.0]
    assert "beasts win the game on tiles taken (2 to 1)" in tie.outcome_text()
    more = position(rows, end=1, captured={"humans": ["B", "D"], "beasts": ["H^", "L"]})
    play(more, "a1-a2")
    assert more.returns() == [1.0, -1.0] and "12 to 10" in more.outcome_text()
    draw = position(rows, end=1, captured={"humans": ["F", "D", "D"], "beasts": ["H^", "D", "D"]})
    play(draw, "a1-a2")
    assert draw.returns() == [0.0, 0.0] and draw.outcome_text().startswith("draw")
    assert draw.current_player() == TERMINAL


def test_points_per_tile() -> None:
    taken = ["B", "F", "L", "H^", "P", "D", "T"]
    state = position(board(a1="L", g7="F"), end=3, captured={"humans": taken})
    assert state.score(0) == 10 + 5 + 5 + 5 + 3 + 2 + 2


def test_turn_limit_ends_an_endless_game(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(rules, "TURN_LIMIT", 12)
    state = position(board(a1="H^", g7="F", d4="?"), turn=11, captured={"beasts": ["D"]})
    play(state, "a1-a2")
    assert state.is_terminal() and state.returns() == [-1.0, 1.0]
