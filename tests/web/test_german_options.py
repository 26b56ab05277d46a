"""A German page says the games' own texts in German from the keys the server sends beside them:
the create form's options for Halali! (labels, docs, choices) and the game's one line, the
lobby's line and the room's options line, and the seats' names; an English page keeps the
English."""

from __future__ import annotations

from playwright.sync_api import Page, expect

from tests.web.conftest import Pages
from tests.web.helpers import enter


def _enter(page: Page, button: str) -> str:
    return enter(page, "optionen", button)


def test_halalis_options_and_seats_in_german(pages: Pages) -> None:
    page = pages.new(locale="de-DE")
    _enter(page, "Die Halle betreten")
    page.select_option("select[name=game]", "halali")
    form = page.locator(".create-form")
    expect(page.get_by_test_id("game-description")).to_contain_text("Menschen gegen Tiere")
    expect(form.locator("label[for=opt-rifles]")).to_have_text("Gewehre")
    expect(form.locator("label[for=opt-match]")).to_have_text("Match über zwei Partien")
    expect(form).to_contain_text("Richtungen der Jägergewehre")
    expect(form.locator("#opt-rifles option")).to_have_text(["je zwei pro Richtung",
                                                              "zufällig ausgelost"])
    form.locator("#opt-rifles").select_option("random")
    page.get_by_role("button", name="Raum eröffnen").click()
    page.wait_for_url("**/#/room/*")
    expect(page.locator(".seat.mine .seat-name")).to_have_text("Menschen")
    room_url = page.url.removesuffix("/join")

    watcher = pages.new(locale="de-DE")
    _enter(watcher, "Die Halle betreten")
    row = watcher.locator("tr[data-game=halali]").filter(has_text="zufällig ausgelost").first
    expect(row).to_contain_text("Gewehre: zufällig ausgelost")
    expect(row).to_contain_text("Menschen:")
    watcher.goto(room_url)
    line = watcher.get_by_test_id("room-options")
    expect(line).to_contain_text("Gewehre: zufällig ausgelost")
    expect(line).to_contain_text("Match über zwei Partien: aus")
    expect(watcher.locator(".seat .seat-name")).to_have_text(["Menschen", "Tiere"])


def test_an_english_page_keeps_the_games_english(pages: Pages) -> None:
    page = pages.new()
    _enter(page, "Enter the hall")
    page.select_option("select[name=game]", "halali")
    form = page.locator(".create-form")
    expect(form.locator("label[for=opt-rifles]")).to_have_text("rifles")
    expect(form.locator("#opt-rifles option")).to_have_text(["two per direction",
                                                              "drawn at random"])
    expect(page.get_by_test_id("game-description")).to_contain_text("Humans against beasts")
