"""What a seat sees (JSON for the browser) and the terminal drawing."""

from __future__ import annotations

import json
import random

from rich.console import Console

from gamehall.core import load_game
from gamehall.core.messages import render
from gamehall.games.hula.loops import shortest_loop_cells
from tests.games.hula.helpers import position

RING_BUT_F5 = """
    . . . . .
   . . . . . .
  . . . . . . .
 . . . X . . . .
. . . X * X . . .
 . . . X X . . .
  . . . . . . .
   O O O O . .
    O . . . .
"""


def plain(markup: str) -> str:
    console = Console(width=120, record=True, color_system=None)
    console.print(markup)
    return console.export_text()


def test_view_during_play() -> None:
    state = position(5, RING_BUT_F5)
    view = state.view(0)
    json.dumps(view)
    assert view["you"] == "first" and view["to_move"] == "first"
    assert view["colours"] == {"first": "first", "second": "second"}
    assert view["centre"] == "e5" and view["row_lengths"] == [5, 6, 7, 8, 9, 8, 7, 6, 5]
    assert "f5" in view["legal_moves"] and "e5" not in view["legal_moves"]
    assert view["winner"] is None and view["loop"] == []
    assert state.view(None)["you"] is None


def test_view_at_the_end_shows_the_winner_and_the_loop() -> None:
    state = position(5, RING_BUT_F5, swapped=True)
    state.apply_action(state.string_to_action("f5"))
    view = state.view(1)
    assert view["winner"] == "second"  # seat second owns the first colour after the swap
    assert view["colours"] == {"first": "second", "second": "first"}
    assert sorted(view["loop"]) == ["d4", "d5", "e4", "e6", "f4", "f5"]
    assert view["legal_moves"] == [] and view["to_move"] is None


def test_winning_loop_is_a_closed_chain_in_order() -> None:
    rng = random.Random(2)
    game = load_game("hula")
    for _ in range(20):
        state = game.new_initial_state()
        state.random_playout(rng)
        cells = shortest_loop_cells(state.geo, state.stones[state.winner], state.neutral)
        names = state.view(None)["loop"]
        assert names == [state.geo.names[c] for c in cells]
        for a, b in zip(cells, cells[1:] + cells[:1], strict=True):
            assert b in state.geo.neighbours[a]


def test_terminal_board_has_rows_numbers_centre_and_last_move() -> None:
    state = position(5, RING_BUT_F5)
    state.apply_action(state.string_to_action("f5"))
    text = plain(state.game.render_text(state, 0))
    lines = text.splitlines()
    assert lines[0].split()[0] == "i" and lines[0].split()[-1] == "i"
    assert lines[8].split()[0] == "a"
    assert "⊙" in lines[4]  # the centre, row e
    assert "(●)" in lines[3]  # the last move, f5, is marked
    assert "1   2   3" in lines[0]  # empty cells show their number
    assert "first (red) wins" in text
    assert "loop (6 stones, 0 neutral)" in text and "plays red — you" in text


def test_terminal_board_mentions_the_swap_when_it_is_allowed() -> None:
    state = load_game("hula").new_initial_state()
    state.apply_action(state.string_to_action("c3"))
    text = plain(state.game.render_text(state, 1))
    assert "swap" in text and "second to move" in text


def test_only_the_seat_to_move_sees_legal_moves_in_its_view() -> None:
    """One rule with the state message's list: a seat off its turn, or a spectator, reads no
    moves in the view (a bot reading them out of turn would play a move that is not its)."""
    state = position(5, RING_BUT_F5)
    assert state.view(0)["legal_moves"] and state.view(0)["to_move"] == "first"
    assert state.view(1)["legal_moves"] == [] and state.view(None)["legal_moves"] == []


def test_terminal_legend_names_the_colours_as_the_page_does() -> None:
    """The terminal's legend says who plays red and who blue in the page's own words (the
    catalogue's ``page.hula.plays``), after a swap too, never "first/second colour" beside the
    seat's name ("first colour: seat first" fought with the page's "plays blue")."""
    state = load_game("hula").new_initial_state()
    state.apply_action(state.string_to_action("c3"))
    state.apply_action(state.string_to_action("swap"))  # seat first now plays the second colour
    text = plain(state.game.render_text(state, 0))
    blue = render("page.hula.plays", {"colour": "second", "you": "yes"})
    red = render("page.hula.plays", {"colour": "first", "you": "no"})
    assert f"first {blue}" in text and f"second {red}" in text, text
    assert "first to move, playing blue" in text, text
    assert "colour" not in text.replace("take over the first stone and colour", ""), text
