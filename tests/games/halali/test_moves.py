"""Movement and capture rules, each on a constructed position."""

from __future__ import annotations

import pytest

from gamehall.core import NotationError
from tests.games.halali.helpers import board, moves, play, position

# One face-down tile keeps every position before the end phase (no exits, no early end).
HID = {"g7": "?"}


def test_hunter_moves_any_direction_but_shoots_only_along_its_rifle() -> None:
    state = position(board(c3="H>", c5="F", a3="D", e3="F", c1="P", **HID))
    legal = moves(state)
    assert {"c3-c4", "c3-b3", "c3-c2", "c3-d3"} <= legal  # moving sideways and back is fine
    assert "c3xe3" in legal  # the fox in the rifle's direction
    assert "c3xc5" not in legal and "c3-c5" not in legal  # fox above: no shot
    assert "c3xa3" not in legal and "c3xc1" not in legal  # nor behind or below
    with pytest.raises(NotationError, match="rifle points >"):
        play(state, "c3xc5")


def test_hunter_shoots_the_first_tile_in_line_and_never_through_one() -> None:
    state = position(board(a1="H>", c1="T", e1="F", a3="H^", a6="B", **HID))
    legal = moves(state)
    assert "a1-b1" in legal and not any(m.startswith("a1x") for m in legal)  # tree blocks
    assert "a1-e1" not in legal and "a1xe1" not in legal
    assert "a3xa6" in legal  # bear at distance, path a4-a5 empty


@pytest.mark.parametrize(("target", "shoots"), [
    ("B", True), ("F", True), ("D", True), ("P", True),
    ("T", False), ("L", False), ("H<", False),
])
def test_what_a_hunter_may_shoot(target: str, shoots: bool) -> None:
    state = position(board(b2="H^", b5=target, **HID))
    assert ("b2xb5" in moves(state)) is shoots
    assert "b2-b4" in moves(state)


@pytest.mark.parametrize(("target", "takes"), [
    ("D", True), ("P", True), ("H^", False), ("L", False), ("B", False), ("F", False),
    ("T", False),
])
def test_fox_takes_ducks_and_pheasants_at_a_distance(target: str, takes: bool) -> None:
    state = position(board(a1="F", a6=target, **HID), to_move="beasts")
    assert ("a1xa6" in moves(state)) is takes


def test_fox_cannot_take_through_a_tile() -> None:
    state = position(board(a1="F", a3="T", a6="D", b1="D", **HID), to_move="beasts")
    legal = moves(state)
    assert "a1xa6" not in legal and "a1-a2" in legal and "a1xb1" in legal
    with pytest.raises(NotationError, match="a3 is in the way"):
        state.string_to_action("a1xa6")


@pytest.mark.parametrize(("target", "takes"), [
    ("H>", True), ("L", True), ("F", False), ("D", False), ("P", False), ("T", False),
])
def test_bear_takes_humans_only(target: str, takes: bool) -> None:
    state = position(board(c3="B", c4=target, **HID), to_move="beasts")
    assert ("c3xc4" in moves(state)) is takes


def test_bear_takes_only_when_adjacent() -> None:
    state = position(board(c3="B", c5="H<", **HID), to_move="beasts")
    legal = moves(state)
    assert legal == {"c3-c4", "c3-b3", "c3-d3", "c3-c2", "flip g7"}
    with pytest.raises(NotationError, match="a bear moves only one square"):
        state.string_to_action("c3xc5")


def test_lumberjack_fells_adjacent_trees_only() -> None:
    state = position(board(c3="L", c4="T", d3="D", c1="T", **HID))
    legal = moves(state)
    assert "c3xc4" in legal and "c3xd3" not in legal and "c3xc1" not in legal
    assert "c3-c2" in legal and "c3-c1" not in legal


def test_green_tiles_move_for_both_sides_and_never_capture() -> None:
    rows = board(c3="D", c5="F", e5="P", e1="H^", g1="T", **HID)
    for side in ("humans", "beasts"):
        legal = moves(position(rows, to_move=side))
        assert "c3-c4" in legal and "c3xc5" not in legal
        assert "e5-e2" in legal and "e5xe1" not in legal
        assert not any(m.startswith("g1") for m in legal)  # trees never move


def test_players_move_only_their_own_side() -> None:
    rows = board(a1="H^", c1="L", e1="B", g1="F", **HID)
    humans = {m[:2] for m in moves(position(rows, to_move="humans")) if "-" in m or "x" in m}
    beasts = {m[:2] for m in moves(position(rows, to_move="beasts")) if "-" in m or "x" in m}
    assert humans == {"a1", "c1"} and beasts == {"e1", "g1"}
    with pytest.raises(NotationError, match="belongs to the beasts"):
        position(rows).string_to_action("e1-e2")


def test_moves_are_straight_across_empty_squares() -> None:
    state = position(board(d4="F", d6="T", b4="?", g7="?"), to_move="beasts")
    legal = moves(state)
    assert legal >= {"d4-d5", "d4-c4", "d4-e4", "d4-f4", "d4-g4", "d4-d1"}
    assert "d4-d6" not in legal and "d4-d7" not in legal and "d4-b4" not in legal
    assert "d4-a4" not in legal  # face-down tiles block too, and are never captured
    with pytest.raises(NotationError, match="not in a straight line"):
        state.string_to_action("d4-e5")
    with pytest.raises(NotationError, match="never captured"):
        state.string_to_action("d4xb4")


def test_capture_scores_for_the_capturer_and_is_not_compulsory() -> None:
    state = position(board(b2="H^", b5="B", e1="F", **HID))
    assert "b2-b3" in moves(state) and "b2xb5" in moves(state)
    play(state, "b2xb5")
    view = state.view(None)
    assert view["board"][2].split()[1] == "H^"  # b5 now holds the hunter
    assert view["captured"]["humans"] == ["B"] and view["scores"] == {"humans": 10, "beasts": 0}
    assert view["tiles_taken"] == {"humans": 1, "beasts": 0}
    assert state.last_turn == "b2xb5"


def test_flip_is_offered_for_every_face_down_square() -> None:
    state = position(board(a1="?", b2="?", g7="?", d4="F"), to_move="beasts")
    assert {m for m in moves(state) if m.startswith("flip")} == {"flip a1", "flip b2", "flip g7"}
    with pytest.raises(NotationError, match="already face up"):
        state.string_to_action("flip d4")
