"""Hula's SVG drawing: well-formed XML that shows exactly the stones of the position."""

from __future__ import annotations

import random
import xml.etree.ElementTree as ET

from gamehall.core import load_game
from gamehall.games.hula.svg import render_svg
from gamehall.games.hula.view import winning_loop
from tests.games.hula.helpers import position

NS = "{http://www.w3.org/2000/svg}"
PICTURE = """
        . . . . .
       . . . . . .
      . . X . . . .
     . . O n . . . .
    . . . . * . . . .
     . . . . X . . .
      . . . . . . .
       . . . . . .
        . O . . .
"""


def _stones(svg: str) -> dict[str, str]:
    root = ET.fromstring(svg)
    return {c.get("data-cell", ""): (c.get("class") or "").split()[1]
            for c in root.iter(f"{NS}circle") if "stone" in (c.get("class") or "").split()}


def test_the_drawing_shows_every_stone_with_its_colour() -> None:
    state = position(5, PICTURE, last_move="a2")
    svg = render_svg(state)
    assert _stones(svg) == state.to_json()["board"]
    root = ET.fromstring(svg)
    cells = [p for p in root.iter(f"{NS}polygon") if p.get("class") == "cell"]
    assert len(cells) == state.geo.num_cells
    assert len([c for c in root.iter(f"{NS}circle") if c.get("class") == "centre"]) == 1
    assert len([c for c in root.iter(f"{NS}circle") if c.get("class") == "last"]) == 1
    caption = " ".join(t.text or "" for t in root.iter(f"{NS}text") if t.get("class") == "caption")
    assert "second to move" in caption and "last move a2" in caption


def test_a_finished_game_outlines_the_winning_loop() -> None:
    state = load_game("hula").new_initial_state(3)
    rng = random.Random(3)
    while not state.is_terminal():
        state.apply_action(rng.choice(state.legal_actions()))
    svg = state.game.render_svg(state)
    assert _stones(svg) == state.to_json()["board"]
    ringed = [p.get("data-cell") for p in ET.fromstring(svg).iter(f"{NS}polygon")
              if p.get("stroke") == "#2ca02c"]
    assert sorted(ringed) == sorted(state.geo.names[c] for c in winning_loop(state))
    assert "wins with a loop" in svg


def test_the_empty_board_of_every_size() -> None:
    for size in (5, 6, 7):
        game = load_game("hula", size=size)
        root = ET.fromstring(game.render_svg())
        assert len([p for p in root.iter(f"{NS}polygon")]) == game.geo.num_cells
        assert _stones(game.render_svg()) == {}
