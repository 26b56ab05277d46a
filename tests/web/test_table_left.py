"""What was left of issue 43 after its first pieces, as a person meets it in Chromium: Hula's
seats and colours after the swap read without a clash, ..."""

from __future__ import annotations

import httpx
from playwright.sync_api import expect

from tests.web.conftest import Pages
from tests.web.helpers import create_room, enter, wait_my_turn, wait_version_above


def test_hulas_colours_after_the_swap_are_named_by_their_look(pages: Pages) -> None:
    """After the swap the first seat plays the second colour: the legend names the colours as
    the board draws them (red, blue), never "first"/"second" beside the seat's name, and the
    swatch is the colour the game announces for the seat's stones."""
    with httpx.Client(base_url=pages.hall.url) as http:
        colours = next(g for g in http.get("/api/games").json() if g["name"] == "hula")[
            "seat_colours"
        ]
    ann, bob = pages.new(), pages.new()
    enter(ann, "ann")
    enter(bob, "bob")
    room = create_room(ann, "hula", size=5)
    bob.goto(f"{pages.hall.url}#/room/{room}/join")
    expect(bob.locator(".seat.mine")).to_have_attribute("data-seat-name", "second")
    ann.click("[data-action=start]")
    st = wait_my_turn(ann)
    ann.locator("[data-game=hula] .cell.legal").first.click()
    wait_my_turn(bob)
    bob.click(".board-wrap [data-move=swap]")
    wait_version_above(ann, st["version"] + 1)
    wait_my_turn(ann)
    expect(ann.get_by_test_id("status")).to_have_text("Your move (first).")
    legend = ann.locator(".board-panel .legend li")
    expect(legend.nth(0)).to_contain_text("plays blue — you")
    expect(legend.nth(1)).to_contain_text("plays red")
    for line in (legend.nth(0), legend.nth(1)):
        expect(line).not_to_contain_text("colour")
    swatch = legend.nth(0).locator(".swatch").evaluate("e => getComputedStyle(e).backgroundColor")
    blue = colours["second"].lstrip("#")
    assert swatch == "rgb({}, {}, {})".format(*(int(blue[i : i + 2], 16) for i in (0, 2, 4)))
