"""The rough edges of issue 32, each as a person meets it in the browser: names in board captions
are profile links, the seat list is updated in place, sentences name players, Hau La's last move
in words, Halali! on a phone, Hau La's camera kept, no dead rematch link, a roll-only turn."""

from __future__ import annotations

from playwright.sync_api import expect

from tests.web.conftest import Pages
from tests.web.helpers import create_room, enter, start_against_bot, wait_my_turn


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
    expect(panel.locator(".legend li").first).to_contain_text(f"first ({me}) plays the")
    mine.click()
    page.wait_for_url(f"**/#/player/{me}")
