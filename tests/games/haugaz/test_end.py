"""The end: no possible turn, two passes, no empty point (place_only); the tie-break ladder and
the most_stacks objective."""

from __future__ import annotations

import pytest

from gamehall.games.haugaz import scoring
from tests.games.haugaz.helpers import B, W, play, position, texts


def test_game_ends_when_the_player_to_move_has_no_possible_turn() -> None:
    # White's move lands next to Black's only stack and flips it: Black has nothing to move.
    state = position({"a1": [B], "c1": [W]}, to_move=W, size=6)
    play(state, "f6", "c1-b1")
    assert state.to_json()["stacks"]["f6"] == ["white"]
    assert state.is_terminal() and state.legal_actions() == []
    assert state.returns() == [-1.0, 1.0]  # seat 0 plays Black
    assert "Black (first) has no possible turn" in state.outcome_text()


def test_a_stack_too_tall_to_move_anywhere_leaves_no_turn() -> None:
    state = position({"c3": [B, W, B, W, B], "a1": [W]}, size=5)
    assert state.is_terminal()
    assert state.returns() == [1.0, -1.0]  # Black's 5 beats White's 1


def test_the_last_empty_point_is_never_filled_under_ends() -> None:
    full = {f"{c}{r}": [W] for c in "abcde" for r in range(1, 6)}
    full["a1"] = [B]
    del full["b2"], full["e5"]
    state = position(full, size=5)
    assert texts(state) == {"e5", "pass"}  # b2 is the only target: do not place there
    play(state, "e5", "a1-b2")
    assert state.is_terminal()  # one empty point (a1) left: White has no possible turn
    assert "White (second) has no possible turn" in state.outcome_text()


def test_place_only_ends_when_no_empty_point_is_left() -> None:
    full = {f"{c}{r}": [W] for c in "abcde" for r in range(1, 6)}
    full["a1"] = [B]
    del full["e5"]
    state = position(full, size=5, stuck="place_only")
    assert texts(state) == {"e5", "pass"}  # no move: placing alone is a turn
    play(state, "e5")
    assert state.is_terminal()


def test_two_passes_in_a_row_end_the_game() -> None:
    state = position({"a1": [B], "h8": [W]})
    play(state, "pass")
    assert not state.is_terminal() and state.passes == 1
    play(state, "c3", "h8-g7", "pass")
    assert not state.is_terminal() and state.passes == 1  # the turn between reset the count
    play(state, "pass")
    assert state.is_terminal() and "two passes in a row" in state.outcome_text()


@pytest.mark.parametrize(("black", "white", "expected"), [
    ([5, 1], [4, 4, 4], 1),        # tallest decides
    ([3, 2], [3, 1, 1], 1),        # tie on the tallest: next one decides
    ([3, 3, 1], [3, 3, 2], -1),    # third one decides
    ([3, 2], [3, 2, 1], -1),       # a prefix: more stacks win
    ([3, 2, 1], [3, 2, 1], 0),     # identical: a draw
    ([], [], 0),
])
def test_tie_break_ladder_on_finished_games(black: list[int], white: list[int],
                                            expected: int) -> None:
    assert scoring.winner(black, white, "tallest") == expected
    state = _finished(black, white, "tallest")
    assert state.is_terminal() and state.result() == expected
    assert state.returns() == [float(expected), float(-expected)]


@pytest.mark.parametrize(("black", "white", "expected"), [
    ([1, 1, 1], [5, 4], 1),        # more stacks win even against taller ones
    ([5, 4], [1, 1, 1], -1),
    ([4, 1], [3, 3], 1),           # same count: the standard ladder
    ([2, 2], [2, 2], 0),           # then a draw
])
def test_most_stacks_objective(black: list[int], white: list[int], expected: int) -> None:
    state = _finished(black, white, "most_stacks")
    assert state.result() == expected
    if len(black) != len(white):
        assert _finished(black, white, "tallest").result() == -expected


def test_returns_follow_the_seat_that_plays_black() -> None:
    state = _finished([2], [1], "tallest", black_seat=1)
    assert state.returns() == [-1.0, 1.0]


def _finished(black: list[int], white: list[int], objective: str, black_seat: int = 0):  # noqa: ANN202
    """A position after two passes with the given owned stack heights."""
    free = iter(f"{c}{r}" for r in range(1, 9) for c in "abcdefgh")
    stacks = {}
    for colour, heights in ((B, black), (W, white)):
        other = W if colour == B else B
        for h in heights:
            pieces = [other if (h - 1 - i) % 2 else colour for i in range(h)]
            stacks[next(free)] = pieces
    return position(stacks, passes=2, objective=objective, black_seat=black_seat)


@pytest.mark.parametrize(("black", "white", "objective", "decided"), [
    ([5, 4, 3, 1], [5, 4, 2, 2], "tallest", "the tallest stacks alike (5 4), then 3 to 2"),
    ([5, 1, 1], [6, 1], "tallest", "tallest stack 6 to 5"),
    ([5, 3], [5, 2], "tallest", "the tallest stacks alike (5), then 3 to 2"),
    ([5, 4, 3], [5, 4], "tallest",
     "the heights alike as far as White (second)'s go (5 4), then more stacks: 3 to 2"),
    ([2, 1], [], "tallest", "White (second) has no stack left"),
    ([3, 2], [3, 2], "tallest", "the same heights on both sides (2 stacks each)"),
    ([1, 1, 1], [7, 5], "most_stacks", "more stacks: 3 to 2"),
    ([4, 1], [3, 2], "most_stacks", "tallest stack 4 to 3"),
])
def test_the_end_sentence_names_only_the_heights_that_decided(
        black: list[int], white: list[int], objective: str, decided: str) -> None:
    text = _finished(black, white, objective).outcome_text()
    assert text.endswith(f"two passes in a row; {decided}"), text
