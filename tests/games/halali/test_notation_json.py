"""Notation (reading, writing, lenient forms, messages) and the JSON form's checks."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from gamehall.core import IllegalActionError, NotationError, StateFormatError, load_game
from gamehall.games.halali import notation as nt
from gamehall.games.halali.tiles import parse_square, square_name
from tests.games.halali.helpers import board, play, position


def test_squares_run_a1_to_g7_with_rank_7_printed_first() -> None:
    assert parse_square("a1") == 0 and parse_square("g1") == 6 and parse_square("a2") == 7
    assert square_name(48) == "g7" and parse_square("d4") == 24
    state = position(board(a7="F", g1="L", b2="?"))
    assert state.to_json()["board"][0].split()[0] == "F"
    assert state.to_json()["board"][6].split()[6] == "L"


def test_every_action_kind_has_readable_notation() -> None:
    state = position(board(c3="H>", e3="F", d2="B", g7="?"), end=None)
    assert state.action_to_string(nt.flip_action(parse_square("g7") or 0)) == "flip g7"
    assert state.action_to_string(state.string_to_action("c3xe3")) == "c3xe3"
    assert state.action_to_string(state.string_to_action("c3-c6")) == "c3-c6"
    assert state.action_to_string(nt.PASS) == "pass"
    assert [state.action_to_string(nt.outcome_action(o)) for o in range(10)] == [
        "bear", "fox", "lumberjack", "hunter^", "hunter>", "hunterv", "hunter<", "pheasant",
        "duck", "tree"]
    exit_d = nt.exit_action(parse_square("d2") or 0, 2)
    assert state.action_to_string(exit_d) == "d2-exit-d1"


def test_lenient_forms_capture_with_dash_and_unique_exit() -> None:
    state = position(board(c3="H>", e3="F", d2="H<", d5="T", a1="B"), end=5)
    assert state.string_to_action("C3-E3") == state.string_to_action("c3xe3")
    assert state.string_to_action("c3 x d3") == state.string_to_action("c3-d3")
    assert state.string_to_action("d2-exit") == state.string_to_action("d2-exit-d1")
    assert state.string_to_action("d2-exit@d1") == state.string_to_action("d2-exit-d1")


@pytest.mark.parametrize(("text", "message"), [
    ("hello", "moves look like"),
    ("flip z9", "write a flip as"),
    ("c3-exit-c1", "the exits sit beyond"),
    ("hunterx", "a hunter outcome is one of"),
    ("fox", "decided by chance"),
    ("b1-b2", "there is no tile on b1"),
    ("g7-g6", "g7 is face down"),
    ("a1-a2", "belongs to the beasts"),
])
def test_unreadable_or_illegal_text_gets_a_reason(text: str, message: str) -> None:
    state = position(board(c3="H>", a1="B", g7="?"))
    with pytest.raises(NotationError, match=message):
        state.string_to_action(text)


def test_illegal_integer_actions_are_refused_with_a_reason_and_change_nothing() -> None:
    state = position(board(c3="H>", c5="F", g7="?"))
    before = state.to_json()
    with pytest.raises(IllegalActionError, match="rifle points >"):
        state.apply_action(nt.move_action(parse_square("c3") or 0, 0, 2))
    with pytest.raises(IllegalActionError, match="there is no action 1000000"):
        state.apply_action(10**6)
    with pytest.raises(IllegalActionError, match="only when no other action"):
        state.apply_action(nt.PASS)
    assert state.to_json() == before
    play(state, "flip g7")
    with pytest.raises(IllegalActionError, match="being turned over"):
        state.apply_action(nt.PASS)
    with pytest.raises(IllegalActionError, match="no bear tile is left face down"):
        state.apply_action(nt.outcome_action(0))


def _valid() -> dict[str, Any]:
    return position(board(c3="H>", a1="B", g7="?")).to_json()


@pytest.mark.parametrize(("change", "message"), [
    (lambda d: d.update(board=d["board"][:6]), "7 rows"),
    (lambda d: d["board"].__setitem__(0, ". . X . . . ?"), "unknown board token"),
    (lambda d: d["unrevealed"].update(tree=2), "counts 2 tiles"),
    (lambda d: d["unrevealed"].pop("duck"), "'unrevealed' must be an object"),
    (lambda d: d["captured"].update(humans=["B", "B"]), "3 bear tiles"),
    (lambda d: d["captured"].update(beasts=["H>", "H>"]), "more than 2 hunters aim >"),
    (lambda d: d["exited"].update(humans=["F"]), "own tiles can leave"),
    (lambda d: d.update(to_move="nobody"), "'to_move'"),
    (lambda d: d.update(flipping="c3"), "face-down square"),
    (lambda d: d.update(end_phase_turns_left=4), "end phase starts only"),
    (lambda d: d["previous_move"].update(humans="c3-d5"), "straight move"),
    (lambda d: d.update(locked="z1"), "'locked'"),
    (lambda d: d.update(match_game=2), "'match_game'"),
    (lambda d: d.update(over="no"), "'over'"),
    (lambda d: d.update(game="hula"), "not 'halali'"),
])
def test_malformed_json_is_refused_with_a_reason(change: Any, message: str) -> None:
    data = copy.deepcopy(_valid())
    change(data)
    with pytest.raises(StateFormatError, match=message):
        load_game("halali").state_from_json(data)


def test_json_round_trips_mid_game_and_in_a_match() -> None:
    game = load_game("halali", match=True, rifles="random")
    state = game.new_initial_state(seed=2)
    play(state, "flip a1")
    data = state.to_json()
    assert list(data)[:2] == ["game", "options"]
    assert game.state_from_json(data).to_json() == data
    assert data["unrevealed"]["hunter"] == 8 and data["flipping"] == "a1"
