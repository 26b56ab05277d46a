"""The rough edges of issue 32 left after tests/web/test_rough_edges.py, each as a person meets it
in the browser: Hau La's move line in words, Halali! on a phone, no dead rematch link, a roll-only
turn says whose roll it was; and (issue 30) the Hau La board lights a hint. (Hau La's camera
after the player turned it: tests/web/test_hau_la_people.py.)"""

from __future__ import annotations

import re

from playwright.sync_api import Page, expect

from tests.web.conftest import Pages
from tests.web.helpers import (
    create_room,
    enter,
    moves_shown,
    start_against_bot,
    state,
    wait_my_turn,
    wait_version_above,
)


def _play_my_placement(page: Page) -> dict:
    """Play the first legal step until the placement is done (the turn passes or the game ends)."""
    st = wait_my_turn(page, timeout=30000)
    me = st["seat"]
    while st["status"] == "playing" and st["to_move"] == me and st["legal_moves"]:
        page.evaluate("(m) => window.gamehall.room.submit(m)", st["legal_moves"][0])
        st = wait_version_above(page, st["version"])
    return st


def test_hau_la_moves_are_listed_in_words(pages: Pages) -> None:
    page = pages.new()
    me = enter(page)
    create_room(page, "hau_la")
    start_against_bot(page)
    _play_my_placement(page)
    mine = page.locator("[data-testid=moves] li", has=page.locator(f".who:text-is('{me}')")).first
    notation = mine.locator(".notation")
    # "big joint into hole g5 and hole g6 · tag in 4a (upper)", not "BJ g5 g6 tag 4a u" (a hole's
    # plug side is forced, so no sides step here). The list is written in notation until the
    # board's module (three.js) has loaded, then drawn again in its words: wait for them.
    expect(notation).to_have_text(
        re.compile(r"^(big|small) (joint|end) into hole \S+ .*· tag in \S+ \((upper|lower)\)$"),
        use_inner_text=True)
    line = notation.inner_text()
    assert not re.search(r"\b(BJ|SJ|BE|SE)\b|\btag \S+ [ud]\b", line), line
    # each step keeps its notation for tools
    assert any(m.startswith("tag ") for m in moves_shown(page))
    assert state(page)["moves"][0]["move"] in moves_shown(page)


def test_a_hotu_matua_roll_names_whose_roll_it_was(pages: Pages) -> None:
    page = pages.new()
    me = enter(page)
    create_room(page, "hotu_matua")
    start_against_bot(page)
    st = wait_my_turn(page)
    rolls = [m for m in st["moves"] if m["kind"] == "roll"]
    assert rolls and rolls[-1]["for"] == st["seat"]  # the server says whose roll each roll is
    lines = page.locator("[data-testid=moves] li")
    expect(lines.last.locator(".who")).to_have_text(me)
    expect(page.locator("[data-testid=moves] li.chance")).to_have_count(0)
    # a turn that is only a roll (no ship could move): its line names the roller, not "chance"
    only_roll = [{**m, "turn": 1} for m in rolls if m["turn"] == rolls[-1]["turn"]]
    seat = page.evaluate("""async (moves) => {
        const { groupTurns } = await import('/js/moves.js');
        return groupTurns(moves).map((t) => t.seat); }""", only_roll)
    assert seat == [st["seat"]]
