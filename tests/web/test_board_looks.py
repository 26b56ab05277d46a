"""Boards that look like the games, in Chromium: Halali!'s tiles carry the pictures of their
animals, people and trees (the hall's picture file, the one its SVG drawing reads); Hau La's
camera keeps the growing building and the board in view, and a 2-player game says who owns
which tags."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import Page, expect

from tests.web.conftest import Pages
from tests.web.helpers import (
    create_room,
    enter,
    start_against_bot,
    wait_my_turn,
    wait_version_above,
)

KINDS = {"B": "bear", "F": "fox", "L": "lumberjack", "H": "hunter", "P": "pheasant",
         "D": "duck", "T": "tree"}


def test_halali_tiles_carry_pictures_not_letters(pages: Pages) -> None:
    page = pages.new()
    enter(page)
    create_room(page, "halali", setup="end_phase")  # every tile face up: every kind on the board
    start_against_bot(page)
    wait_my_turn(page)
    tiles = page.locator(".tile[data-token]")
    expect(tiles).not_to_have_count(0)
    drawn = page.evaluate("""() => [...document.querySelectorAll('.tile[data-token]')].map((t) => [
        t.getAttribute('data-token'),
        [...t.querySelectorAll('.picture')].map((p) => p.getAttribute('data-picture')),
        t.querySelectorAll('.picture > *').length, !!t.querySelector('.glyph')])""")
    assert {KINDS[tok[0]] for tok, *_ in drawn} == set(KINDS.values())
    for tok, pictures, shapes, glyph in drawn:
        assert pictures == [KINDS[tok[0]]], tok
        assert shapes >= 2 and not glyph, tok
    # the picture file the page drew from is the hall's
    served = page.evaluate("fetch('/api/games/halali/pictures').then((r) => r.json())")
    fox = page.locator(".tile[data-token=F] .picture").first
    assert fox.locator(":scope > *").count() == len(served["pictures"]["fox"])
    # a hunter's rifle is an arrowhead on the edge it points to, and its tooltip says so
    hunter = page.locator(".tile[data-token^=H]").first
    expect(hunter.locator(".rifle")).to_have_count(1)
    expect(hunter.locator("title")).to_contain_text("rifle pointing")


def _play_first_choices(page: Page, steps: int) -> dict[str, Any]:
    """Play the first offered choice at each of this page's next `steps` steps (the bot plays
    between); the last state."""
    st = wait_my_turn(page)
    for _ in range(steps):
        if st["status"] != "playing":
            break
        page.evaluate(f"window.gamehall.room.submit({st['legal'][0]['move']!r})")
        wait_version_above(page, st["version"])
        st = wait_my_turn(page)
    return st


@pytest.mark.parametrize("width", [1280, 390])
def test_hau_la_keeps_the_building_and_board_in_view(pages: Pages, width: int) -> None:
    """As the building grows, the camera keeps every piece, tag and the board's rim inside the
    canvas (their projected box), and the page says which two tags each player owns."""
    page = pages.new(width=width, height=800 if width > 500 else 844)
    enter(page)
    create_room(page, "hau_la")
    start_against_bot(page)
    for _ in range(4):
        st = _play_first_choices(page, 12)
        frame = page.evaluate("window.gamehall.room.board.framing()")
        assert frame is not None and frame["visible"], frame
        canvas = frame["canvas"]
        assert canvas["right"] <= width
        for side in ("left", "top"):
            assert frame[side] >= canvas[side], (side, frame)
        for side in ("right", "bottom"):
            assert frame[side] <= canvas[side], (side, frame)
        if st["status"] != "playing":
            break
    assert len(st["view"]["pieces"]) > 6
    owners = page.get_by_test_id("tag-owners")
    expect(owners.locator("[data-owner=red]")).to_contain_text("owns the red and yellow tags")
    expect(owners.locator("[data-owner=blue]")).to_contain_text("owns the blue and orange tags")


def test_hau_la_step_buttons_are_used_beside_the_3d_view_on_a_phone(pages: Pages) -> None:
    """At 390 px the step box comes right under the 3D view and the view sticks at the top:
    step after step, the buttons and the view are on the screen together (a new state no
    longer scrolls the page down to the move list)."""
    page = pages.new(width=390, height=844)
    enter(page)
    create_room(page, "hau_la")
    start_against_bot(page)
    page.evaluate("window.scrollTo(0, 0)")  # typing in the chat and pressing Start scrolled
    rects = """(sel) => { const r = document.querySelector(sel).getBoundingClientRect();
                          return { top: r.top, bottom: r.bottom, height: r.height }; }"""
    for _ in range(4):
        st = wait_my_turn(page)
        # the player opened every part of the panel (holes by name, pieces in hand, ...)
        page.evaluate("document.querySelectorAll('.haula-steps details')"
                      ".forEach((d) => { d.open = true; })")
        if st["legal"][0]["kind"] == "tag":  # a tag: chosen, then confirmed
            page.locator(".step-box [data-choice]").first.click()
            buttons = ".step-box [data-action=confirm]"
        else:  # a piece, a hole by name, a side or rotation: played at once
            buttons = ".step-box [data-move], .step-box [data-hole], .step-box [data-choice]"
        button = page.locator(buttons).first
        button.scroll_into_view_if_needed()
        view = page.evaluate(rects, ".haula-view canvas")
        # measured by its selector in the page: the panel is drawn anew for every state, so an
        # element located first could be detached by the time it is measured
        shown = page.evaluate(rects, buttons)
        assert view["height"] > 200
        assert view["top"] >= 0 and view["bottom"] <= 844, view
        assert shown["top"] >= 0 and shown["bottom"] <= 844, shown
        button.click()  # a real click, where the player sees it
        wait_version_above(page, st["version"])
        view = page.evaluate(rects, ".haula-view canvas")
        assert view["top"] >= 0 and view["bottom"] <= 844, view
