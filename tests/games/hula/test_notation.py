"""Hula notation, exactly as the rules file gives it: rows a.. from the bottom, cells from 1."""

from __future__ import annotations

import pytest

from gamehall.core import NotationError, load_game
from gamehall.games.hula.geometry import geometry


def names(size: int, cells: list[int]) -> set[str]:
    return {geometry(size).names[c] for c in cells}


def neighbours(size: int, name: str) -> set[str]:
    geo = geometry(size)
    return names(size, geo.neighbours[geo.index_of_name[name]])


def test_size_6_rows_centre_ring_and_corners() -> None:
    geo = geometry(6)
    assert geo.row_lengths == [6, 7, 8, 9, 10, 11, 10, 9, 8, 7, 6]
    assert geo.num_cells == 91
    assert geo.names[geo.centre] == "f6"
    assert names(6, geo.neighbours[geo.centre]) == {"e5", "e6", "f5", "f7", "g5", "g6"}
    corners = {geo.names[c] for c in range(geo.num_cells) if len(geo.neighbours[c]) == 3}
    assert corners == {"a1", "a6", "f1", "f11", "k1", "k6"}


@pytest.mark.parametrize(("size", "rows", "centre"), [(5, 9, "e5"), (6, 11, "f6"), (7, 13, "g7")])
def test_every_size(size: int, rows: int, centre: str) -> None:
    geo = geometry(size)
    assert geo.num_rows == rows == 2 * size - 1
    assert geo.names[geo.centre] == centre
    assert geo.num_cells == 3 * size * (size - 1) + 1
    assert bin(geo.edge).count("1") == 6 * (size - 1)


def test_neighbour_examples_from_the_rules() -> None:
    assert neighbours(6, "e5") == {"d4", "d5", "e4", "e6", "f5", "f6"}
    assert neighbours(6, "a1") == {"a2", "b1", "b2"}


def test_neighbour_rule_longer_and_shorter_rows() -> None:
    # Xn touches n-1, n+1 in its row; n, n+1 in a longer adjacent row; n-1, n in a shorter one.
    assert neighbours(6, "c3") == {"c2", "c4", "d3", "d4", "b2", "b3"}
    assert neighbours(6, "h3") == {"h2", "h4", "g3", "g4", "i2", "i3"}
    assert neighbours(6, "f3") == {"f2", "f4", "e2", "e3", "g2", "g3"}


def test_input_ignores_case_and_spaces_output_is_lower_case() -> None:
    state = load_game("hula").new_initial_state()
    action = state.string_to_action(" E 5 ")
    assert state.action_to_string(action) == "e5"
    assert state.string_to_action("e5") == action


def test_swap_is_written_swap() -> None:
    state = load_game("hula").new_initial_state()
    state.apply_action(state.string_to_action("a1"))
    swap = state.string_to_action("SWAP")
    assert state.action_to_string(swap) == "swap"
    assert swap in state.legal_actions()


@pytest.mark.parametrize(("text", "message"), [
    ("z3", "no row z"),
    ("e11", "row e has cells 1–10"),
    ("hello", "not a cell"),
    ("f6", "centre"),
    ("swap", "only possible as the answer"),
])
def test_bad_moves_are_explained(text: str, message: str) -> None:
    state = load_game("hula").new_initial_state()
    with pytest.raises(NotationError, match=message):
        state.string_to_action(text)


def test_occupied_cell_is_explained() -> None:
    state = load_game("hula", pie=False).new_initial_state()
    state.apply_action(state.string_to_action("c3"))
    with pytest.raises(NotationError, match="c3 is occupied"):
        state.string_to_action("c3")
