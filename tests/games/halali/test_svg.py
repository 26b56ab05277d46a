"""Halali!'s SVG drawing: well-formed XML that shows every square of the position as it is."""

from __future__ import annotations

import xml.etree.ElementTree as ET

from gamehall.core import load_game
from gamehall.games.halali.svg import render_svg
from tests.games.halali.helpers import board, position

NS = "{http://www.w3.org/2000/svg}"
TILES = {"B": "bear", "F": "fox", "L": "lumberjack", "H^": "hunter^", "H>": "hunter>",
         "Hv": "hunterv", "H<": "hunter<", "P": "pheasant", "D": "duck", "T": "tree",
         "?": "hidden", ".": "empty"}


def _squares(svg: str) -> dict[str, str]:
    root = ET.fromstring(svg)
    return {g.get("data-square", ""): g.get("data-tile", "") for g in root.iter(f"{NS}g")
            if "square" in (g.get("class") or "").split()}


def test_every_square_shows_its_tile() -> None:
    rows = board(c3="H>", c5="F", g7="?", a1="B", d2="L", e6="P", f6="D", b7="T")
    state = position(rows)
    squares = _squares(render_svg(state))
    assert len(squares) == 49
    expected = {"c3": "hunter>", "c5": "fox", "g7": "hidden", "a1": "bear", "d2": "lumberjack",
                "e6": "pheasant", "f6": "duck", "b7": "tree"}
    assert {sq: t for sq, t in squares.items() if t != "empty"} == expected


def test_the_drawing_follows_the_json_board() -> None:
    state = load_game("halali").new_initial_state(4)
    for text in ("flip a1", "fox", "flip b2"):
        state.apply_action(state.string_to_action(text) if not state.is_chance_node()
                           else state.legal_actions()[0])
    svg = render_svg(state)
    rows = state.to_json()["board"]
    squares = _squares(svg)
    for r, row in enumerate(rows):
        for f, token in enumerate(row.split()):
            assert squares[f"{'abcdefg'[f]}{7 - r}"] == TILES[token]
    root = ET.fromstring(svg)
    assert len([t for t in root.iter(f"{NS}text") if t.get("class") == "exit"]) == 4
    assert "flipping the tile on b2" in svg


def test_face_up_tiles_carry_the_pictures_the_page_draws() -> None:
    """The drawing uses the shared picture file (pictures.json, what the page gets from the
    hall): a picture of each face-up tile's kind, none on a face-down one."""
    from gamehall.games.halali.pictures import load_pictures

    rows = board(c3="H>", c5="F", g7="?", a1="B", d2="L", e6="P", f6="D", b7="T")
    root = ET.fromstring(render_svg(position(rows)))
    drawn = {}
    for g in root.iter(f"{NS}g"):
        if "square" in (g.get("class") or "").split():
            pics = [p for p in g.iter(f"{NS}g") if p.get("class") == "picture"]
            drawn[g.get("data-square")] = [p.get("data-picture") for p in pics]
    assert drawn["c3"] == ["hunter"] and drawn["a1"] == ["bear"] and drawn["b7"] == ["tree"]
    assert drawn["g7"] == [] and drawn["d4"] == []
    pictures = load_pictures()["pictures"]
    fox = next(p for p in root.iter(f"{NS}g") if p.get("data-picture") == "fox")
    assert len(list(fox)) == len(pictures["fox"])
    assert {p.get("data-picture") for p in root.iter(f"{NS}g")} - {None} == set(pictures)
