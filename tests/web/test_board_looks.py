"""Boards that look like the games, in Chromium: Halali!'s tiles carry the pictures of their
animals, people and trees (the hall's picture file, the one its SVG drawing reads)."""

from __future__ import annotations

from playwright.sync_api import expect

from tests.web.conftest import Pages
from tests.web.helpers import create_room, enter, start_against_bot, wait_my_turn

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
