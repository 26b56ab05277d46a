"""Sentences and links as a person meets them: "Play Hula" on the rules page opens the lobby
with Hula chosen in the new-room form."""

from __future__ import annotations

from playwright.sync_api import expect

from tests.web.conftest import Pages


def test_play_on_a_rules_page_opens_the_lobby_on_that_game(pages: Pages) -> None:
    page = pages.new()
    for game in ("hula", "hotu_matua"):
        page.goto(f"{pages.hall.url}#/rules/{game}")
        page.click("[data-action=play-it]")
        expect(page.locator(".create-form select[name=game]")).to_have_value(game)
