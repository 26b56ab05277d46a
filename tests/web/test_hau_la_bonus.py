"""A Hau La turn asks for one confirmation at most, a bonus joint's too (issue 43), played by
taps on a phone against the random bot until this page has placed a bonus joint: every turn the
page sends (the served position moving on once) took one tap on a confirm button at most. Each
game is played on a page of its own, opened at the lobby (see the closing note of 2026-12-06:
a page sent back to the lobby with `page.goto("#/")` once made a Halali! room instead)."""

from __future__ import annotations

import random

from playwright.sync_api import Page

from tests.web.conftest import Pages
from tests.web.helpers import create_room, enter, start_against_bot, wait_my_turn
from tests.web.test_hau_la_people import PHONE
from tests.web.test_tap_games import _next_state, tap_entry

BONUS = ("bonus", "bonus_handover")


def _served(page: Page) -> int:
    return int(page.evaluate("window.gamehall.room.served.version"))


def _play_until_a_bonus_joint(page: Page, rng: random.Random) -> int:
    """One game against the random bot by taps, until this page placed a bonus joint or the
    game ended: the bonus joints' turns played (each turn checked for one confirmation)."""
    enter(page)
    create_room(page, "hau_la")
    assert page.evaluate("window.gamehall.room.state.game") == "hau_la"
    start_against_bot(page)
    st = wait_my_turn(page, timeout=30000)
    bonus_turns = 0
    while st["status"] != "finished" and not bonus_turns:
        served, confirmations, bonus = _served(page), 0, False
        while st["status"] == "playing" and _served(page) == served:  # one turn of this page
            bonus = bonus or st["view"]["phase"] in BONUS
            entry = rng.choice(st["legal"])
            tap_entry(page, "hau_la", entry)  # a tag is chosen, then confirmed: one tap more
            confirmations += entry["kind"] == "tag"
            st = _next_state(page, st["version"])
        assert confirmations <= 1, (confirmations, st["moves"][-8:])
        bonus_turns += bonus
        st = wait_my_turn(page, timeout=30000)
    return bonus_turns


def test_a_bonus_joints_turn_asks_for_one_confirmation_at_most(pages: Pages) -> None:
    rng = random.Random("bonus")
    # the bonus joint goes to the topmost player: a game may end before this page is, once
    assert any(_play_until_a_bonus_joint(pages.new(**PHONE, touch=True), rng) for _ in range(4)), (
        "no bonus joint"
    )
