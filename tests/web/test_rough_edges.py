"""The rough edges of issue 32, each as a person meets it in the browser: names in board captions
are profile links, the seat list is updated in place, sentences name players, Hau La's last move
in words, Halali! on a phone, Hau La's camera kept, no dead rematch link, a roll-only turn."""

from __future__ import annotations

from playwright.sync_api import expect

from tests.web.conftest import Pages
from tests.web.helpers import (
    create_room,
    enter,
    say,
    start_against_bot,
    state,
    wait_my_turn,
    wait_version_above,
)


def test_board_captions_link_the_players_to_their_profiles(pages: Pages) -> None:
    page = pages.new()
    me = enter(page)
    create_room(page, "hula", size=5)
    start_against_bot(page)
    wait_my_turn(page)
    panel = page.locator(".board-panel")
    mine = panel.locator(f"a.player-link[data-player='{me}']")
    expect(mine).to_have_attribute("href", f"#/player/{me}")
    expect(panel.locator("a.player-link")).to_have_count(2)  # the bot's name too
    expect(panel.locator(".legend li").first).to_contain_text(f"first ({me}) plays red")
    mine.click()
    page.wait_for_url(f"**/#/player/{me}")


def test_the_seat_list_is_updated_in_place_and_its_clock_keeps_counting(pages: Pages) -> None:
    page = pages.new()
    enter(page)
    create_room(page, "hula", size=5, clock="5+0")
    start_against_bot(page)
    st = wait_my_turn(page)
    # mark the elements themselves: a re-drawn seat list would drop the marks
    page.evaluate("""() => { for (const el of document.querySelectorAll(
        '.seat-list, .seat-list > li, .seat-list .clock')) el.__kept = true; }""")
    clock = page.locator(".seat.mine .clock")
    page.locator("[data-game=hula] .cell.legal").first.click()
    wait_version_above(page, st["version"])
    st = wait_my_turn(page)  # the bot answered: at least two states drawn since
    kept = page.evaluate("""() => [...document.querySelectorAll(
        '.seat-list, .seat-list > li, .seat-list .clock')].map((el) => el.__kept === true)""")
    assert kept and all(kept), kept
    assert len(kept) == 1 + 2 + 2
    expect(clock).to_have_class("clock running")
    shown = clock.inner_text()
    expect(clock).not_to_have_text(shown)  # the same element counts down


def test_the_servers_sentences_name_the_players(pages: Pages) -> None:
    page = pages.new()
    page.on("dialog", lambda d: d.accept())
    me = enter(page)
    create_room(page, "hula", size=5, clock="5+0")
    start_against_bot(page)
    say(page, "/clock")  # the clocks now, by the players' names (the bot's has not started)
    expect(page.locator(".chat-log .line.info", has_text="clock 5+0")).to_contain_text(
        "Random bot 5:00")
    page.click("[data-action=resign]")
    expect(page.get_by_test_id("outcome")).to_have_text(f"{me} resigned: Random bot wins")
    assert state(page)["outcome"] == f"{me} resigned: random bot wins"  # written so by the server
