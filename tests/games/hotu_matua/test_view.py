"""Notation, the JSON form, views, the terminal map and the SVG drawing."""

from __future__ import annotations

import copy
import json
import re
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from rich.console import Console

from gamehall.core import NotationError, StateFormatError, load_game
from gamehall.games.hotu_matua.notation import END, NUM_ACTIONS, roll_action
from tests.games.hotu_matua.helpers import BOARD, GAME, moves, number, position

# --- notation -----------------------------------------------------------------------------------

def test_step_end_and_roll_notation_read_back() -> None:
    state = GAME.new_initial_state(seed=2)
    assert state.action_to_string(roll_action(3)) == "roll 3"
    assert state.string_to_action("Roll 3") == roll_action(3)
    with pytest.raises(NotationError, match="not a roll"):
        state.string_to_action("N1>f6")
    state = position({"N1": "f13"}, unused=[number("f13", "f18"), 1])
    action = state.string_to_action("N1>f18")
    assert state.action_to_string(action) == "N1>f18"
    for typed in ("n1>F18", " N1 > f18 ", "N1-f18", "N1 f18"):
        assert state.string_to_action(typed) == action
    assert state.string_to_action("END") == END
    assert state.action_to_string(END) == "end"


@pytest.mark.parametrize(("typed", "message"), [
    ("S1>f50", "S1 is not yours"),
    ("X1>f7", "no ship called X1"),
    ("N1>f99", "there is no field f99"),
    ("N1>f40", "f40 is not next to N1 (on f13)"),
    ("roll 2", "the dice are rolled already"),
    ("fly away", "is not a move here"),
    ("N1>", "N1> is not a move here: a move is like N1>f12, or end"),
    (">f18", ">f18 is not a move here: a move is like N1>f12, or end"),
])
def test_bad_moves_say_why(typed: str, message: str) -> None:
    state = position({"N1": "f13"}, unused=[1, 2])
    with pytest.raises(NotationError, match=re.escape(message)):
        state.string_to_action(typed)


def test_missing_die_is_named() -> None:
    n = number("f13", "f18")
    other = next(v for v in (1, 2, 3, 4) if v != n and v != number("f13", "f12"))
    state = position({"N1": "f13"}, unused=[other, 1])
    with pytest.raises(NotationError, match=f"numbered {n} and you have no unused {n}"):
        state.string_to_action("N1>f18")


def test_illegal_action_numbers_are_explained() -> None:
    state = position({"N1": "f13"}, unused=[1, 1])
    assert "dice are being rolled" not in state.explain_illegal(roll_action(2))
    assert state.explain_illegal(NUM_ACTIONS + 5) == f"there is no action {NUM_ACTIONS + 5}"
    # N1 on f1 (a corner start field): two of its four sides are the edge of the sea
    corner = position({"N1": "f1"}, unused=[1])
    edges = [s for s, line in enumerate(BOARD.sides[BOARD.field_index("f1")]) if line < 0]
    assert "edge of the sea" in corner.explain_illegal(edges[0])


# --- JSON ----------------------------------------------------------------------------------------

def test_json_round_trip_mid_turn() -> None:
    n = number("f13", "f18")
    state = position({"N1": "f13"}, unused=[n, 1, 3], carried_over=2,
                     pearls=["f22", "f26", "f28", "f30"], owned={"north": 0, "south": 1})
    state.apply_action(state.string_to_action("N1>f18"))
    data = json.loads(json.dumps(state.to_json()))
    assert list(data)[:2] == ["game", "options"]
    assert data["crossed"] == {"N1": ["f13-f18"]}
    assert data["dice"]["carried_over"] == 2
    again = GAME.state_from_json(data)
    assert again.to_json() == data and moves(again) == moves(state)


@pytest.mark.parametrize(("change", "message"), [
    (lambda d: d["ships"].__setitem__("N1", "f22"), "stands on f22, which holds a pearl"),
    (lambda d: d["ships"].__setitem__("N1", "f2"), "two ships stand on one field"),
    (lambda d: d["ships"].__setitem__("Q1", "f9"), "no ship called 'Q1'"),
    (lambda d: d["ships"].__setitem__("N1", "f77"), "unknown field 'f77'"),
    (lambda d: d["owned"].__setitem__("north", 2), "do not add up to 5"),
    (lambda d: d["dice"].__setitem__("carried_over", 4), "dice.carried_over"),
    (lambda d: d["dice"].__setitem__("to_roll", 4), "rolled and still to roll must add up"),
    (lambda d: d.__setitem__("to_move", "east"), "north or south"),
    (lambda d: d.__setitem__("board_digest", "0123"), "saved on another board file"),
    (lambda d: d["crossed"].__setitem__("S1", ["f13-f18"]), "ships of the player to move"),
    (lambda d: d["crossed"].__setitem__("N1", ["f1-f40"]), "names no line"),
])
def test_bad_json_positions_are_refused(change: object, message: str) -> None:
    data = GAME.new_initial_state().to_json()
    bad = copy.deepcopy(data)
    change(bad)  # type: ignore[operator]
    with pytest.raises(StateFormatError, match=message):
        GAME.state_from_json(bad)


# --- views ----------------------------------------------------------------------------------------

def test_view_holds_board_ships_pearls_dice_and_moves() -> None:
    state = position({"N1": "f13"}, unused=[number("f13", "f18"), 1], carried_over=1,
                     pearls=["f22", "f26", "f28", "f30"], owned={"north": 1, "south": 0})
    view = json.loads(json.dumps(state.view(0)))
    assert view["seat"] == "north" and view["to_move"] == "north" and view["phase"] == "move"
    assert view["board"]["format"] == "hotu-matua-board/1"
    assert len(view["board"]["fields"]) == 55 and view["board_digest"] == BOARD.digest
    assert all(len(f["polygon"]) == 4 for f in view["board"]["fields"])
    assert {"id": "N1", "seat": "north", "field": "f13"} in view["ships"]
    assert view["pearls_left"] == ["f22", "f26", "f28", "f30"]
    assert view["pearls_owned"] == {"north": 1, "south": 0}
    assert view["dice"]["carried_over"] == 1 and len(view["dice"]["rolled"]) == 6
    assert sorted(view["dice"]["unused"]) == sorted([number("f13", "f18"), 1])
    assert view["dice"]["passing_on"] == 2
    assert "N1>f18" in view["legal_moves"] and view["legal_moves"][-1] == "end"
    step = next(s for s in view["steps"] if s["move"] == "N1>f18")
    assert step["from"] == "f13" and step["to"] == "f18" and step["number"] == number(
        "f13", "f18")
    # no hidden information: every seat sees the same position
    assert state.view(1)["ships"] == view["ships"] and state.view(None)["seat"] is None
    # moves are the seat to move's alone, as in the state message
    assert state.view(1)["legal_moves"] == [] and state.view(None)["legal_moves"] == []
    view["board"]["fields"].clear()  # a view is a copy: changing it changes nothing
    assert len(state.view(0)["board"]["fields"]) == 55


def _plain(markup: str) -> str:
    console = Console(width=120, record=True, color_system=None)
    console.print(markup)
    return console.export_text()


def test_terminal_map_shows_ids_numbers_ships_pearls_and_dice() -> None:
    state = position({"N1": "f13"}, unused=[number("f13", "f18"), 1])
    text = _plain(GAME.render_text(state, 0))
    for token in ("f1 ", "f55", "N1", "S4", "(o)", "^n", "^s", "Moves:", "N1>f18", "end"):
        assert token in text
    # the line between f13 and f18 shows its number below f13's cell
    ways = next(line for line in text.splitlines() if "N1 on f13:" in line)
    for target in ("f8", "f12", "f14", "f18"):
        assert f"{number('f13', target)}→{target}" in ways
    assert "unused" in text


def test_list_view_for_a_board_without_a_grid(tmp_path: Path) -> None:
    raw = json.loads(json.dumps(BOARD.data))
    for f in raw["fields"]:
        f.pop("row"), f.pop("col")
    path = tmp_path / "nogrid.json"
    path.write_text(json.dumps(raw))
    game = load_game("hotu_matua", board=str(path))
    assert game.board.grid is None
    state = game.new_initial_state()
    text = _plain(game.render_text(state, None))
    assert "list view" in text and "f22" in text and "N1" in text


def test_svg_draws_fields_numbers_sails_pearls_and_ships(tmp_path: Path) -> None:
    state = position({"N1": "f13"}, unused=[1], pearls=["f22", "f26", "f28", "f30"],
                     owned={"north": 1, "south": 0})
    svg = GAME.render_svg(state)
    root = ET.fromstring(svg)
    ns = "{http://www.w3.org/2000/svg}"
    polygons = root.findall(f".//{ns}polygon")
    assert len(polygons) == 55
    dots = root.findall(f".//{ns}circle[@class='dot']")
    assert len(dots) == sum(BOARD.line_number)
    assert len(root.findall(f".//{ns}g[@class='sail']")) == 8
    assert len(root.findall(f".//{ns}g[@class='ship']")) == 8
    assert len(root.findall(f".//{ns}circle[@class='pearl-field']")) == 5
    assert svg.count('fill="url(#pearl)"') == 4
    assert GAME.render_svg(None).startswith("<svg")
