"""A hint in the browser: in a casual game against a bot the Hint button shows the bot's move
for one's own seat, in words and lit on the board; it goes once the position changes."""

from __future__ import annotations

from playwright.sync_api import expect

from tests.web.conftest import Pages
from tests.web.helpers import create_room, enter, start_against_bot, state, wait_my_turn


def test_the_hint_button_lights_the_bots_move_on_the_board(pages: Pages) -> None:
    page = pages.new()
    enter(page)
    create_room(page, "hula")
    start_against_bot(page)
    before = wait_my_turn(page)
    assert before["hints"] is True and before["rated"] is False
    button = page.locator("[data-action=hint]")
    expect(button).to_be_visible()
    button.click()
    shown = page.get_by_test_id("hint-move")
    expect(shown).to_contain_text("Hint: ", timeout=30000)
    words = shown.inner_text().split("Hint: ", 1)[1].strip()
    assert words.startswith("place a stone on "), "a hint is said in words, not notation"
    cell = words.rsplit(" ", 1)[1]
    assert cell in {e["cell"] for e in state(page)["legal"] if e["kind"] == "place"}
    lit = page.locator("[data-game=hula] .cell.hint")
    expect(lit).to_have_count(1)
    assert lit.get_attribute("data-cell") == cell
    lit.click()  # play it: the position changes and the hint goes
    page.wait_for_function(f"() => window.gamehall.room.state.version > {before['version']}")
    expect(page.locator("[data-game=hula] .hint")).to_have_count(0)
    expect(shown).to_have_count(0)
