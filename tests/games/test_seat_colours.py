"""Each game names its seats' colours once, as its board draws them (`Game.seat_colours`), and
says where play changes them (`State.seat_colours`): the review's graph colours each seat as its
pieces were, so a swapped Hula seat is drawn blue, a Haugaz seat that chose White white."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from gamehall.core import load_game
from gamehall.core.game import DEFAULT_SEAT_COLOURS
from gamehall.core.registry import list_games
from gamehall.games.haugaz.rules import HaugazState

BOARDS = Path(__file__).resolve().parents[2] / "src" / "gamehall" / "web" / "js" / "boards"
COLOUR = re.compile(r"^#[0-9a-f]{6}$")


@pytest.mark.parametrize("name", ["halali", "hau_la", "haugaz", "hotu_matua", "hula"])
def test_every_seat_of_every_game_has_its_boards_colour(name: str) -> None:
    game = load_game(name)
    named = [game.colour_of_seat(seat, i) for i, seat in enumerate(game.every_seat_name())]
    assert all(COLOUR.match(c) for c in named), named
    assert set(game.every_seat_name()) <= set(game.seat_colours), "a seat without a colour"
    start = game.new_initial_state(1).seat_colours()
    assert len(set(start)) == game.num_players, start


def test_the_boards_draw_the_colours_the_games_name() -> None:
    """The board modules still draw with constants of their own: they must be the games'."""
    hula = (BOARDS / "hula.js").read_text()
    for seat, colour in load_game("hula").seat_colours.items():
        assert f"{seat}: \"{colour}\"" in hula, seat
    hotu = (BOARDS / "hotu_matua.js").read_text()
    for seat, colour in load_game("hotu_matua").seat_colours.items():
        assert f"{seat}: \"{colour}\"" in hotu, seat
    hau_la = (BOARDS / "hau_la.js").read_text()
    for seat, colour in load_game("hau_la").seat_colours.items():
        assert f"{seat}: 0x{colour[1:]}" in hau_la, seat
    assert "#222" in (BOARDS / "haugaz.js").read_text()


def test_a_swap_or_a_side_choice_changes_the_seats_colours() -> None:
    hula = load_game("hula", size=5)
    state = hula.new_initial_state(1)
    red, blue = hula.seat_colours["first"], hula.seat_colours["second"]
    assert state.seat_colours() == (red, blue)
    for move in ("c3", "swap"):
        state.apply_action(state.string_to_action(move))
    assert state.seat_colours() == (blue, red)

    haugaz = load_game("haugaz")
    cake = haugaz.new_initial_state(1)
    assert isinstance(cake, HaugazState)
    while cake.black_seat is None:  # first places the cake, second plays White
        actions = cake.legal_actions()
        cake.apply_action(actions[-1] if len(actions) == 2 else actions[0])
    assert cake.black_seat == 0 and cake.seat_colours() == ("#222222", "#fafafa")
    cake = haugaz.new_initial_state(1)
    assert isinstance(cake, HaugazState)
    while cake.black_seat is None:  # now second plays Black
        cake.apply_action(cake.legal_actions()[0])
    assert cake.black_seat == 1 and cake.seat_colours() == ("#fafafa", "#222222")


def test_a_game_without_colours_takes_the_default_palette_by_place() -> None:
    game = load_game(list_games()[0])
    assert game.colour_of_seat("nobody", 5) == DEFAULT_SEAT_COLOURS[1]
