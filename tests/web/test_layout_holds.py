"""Layout that holds (issue 43), measured in Chromium by bounding boxes: every form of the lobby
lies inside its card (the new-room form with each game's options, at a phone's 390 px and a
desktop's 1280 px, and the ends of the range, 320 and 1920 px), the page never scrolls
sideways; the header takes two lines on a phone; the final position is in view with the result;
no Halali! exit covers a coordinate."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import Page, expect

from tests.web.conftest import Pages
from tests.web.helpers import create_room, enter, start_against_bot, wait_my_turn

GAMES = ["hula", "haugaz", "halali", "hotu_matua", "hau_la"]

# Every part of every form in a card that sticks out of the card (by more than a pixel), and the
# page's width beyond the window's
_OUTSIDE = """() => {
  const out = [];
  for (const form of document.querySelectorAll(".card form, form.card")) {
    const card = form.closest(".card").getBoundingClientRect();
    for (const el of [form, ...form.querySelectorAll("*")]) {
      const r = el.getBoundingClientRect();
      // not drawn: hidden, or in a closed <details> (which still lays its content out)
      if ((!r.width && !r.height) || !el.checkVisibility()) continue;
      if (r.left < card.left - 1 || r.right > card.right + 1 || r.top < card.top - 1
          || r.bottom > card.bottom + 1) {
        out.push(`${el.tagName.toLowerCase()}${el.name ? "[name=" + el.name + "]" : ""}`
          + ` ${Math.round(r.left)}..${Math.round(r.right)} in ${Math.round(card.left)}..`
          + `${Math.round(card.right)}`);
      }
    }
  }
  return { out, wide: document.documentElement.scrollWidth - window.innerWidth };
}"""


def outside(page: Page) -> dict[str, Any]:
    found = page.evaluate(_OUTSIDE)
    assert isinstance(found, dict)
    return found


@pytest.mark.parametrize("width", [320, 390, 1280, 1920])
def test_every_form_of_the_lobby_is_inside_its_card(pages: Pages, width: int) -> None:
    page = pages.new(width=width, height=844 if width < 500 else 800)
    assert outside(page) == {"out": [], "wide": 0}  # the nickname form
    enter(page)
    for game in GAMES:
        page.select_option("select[name=game]", game)  # its options drawn at once
        found = outside(page)
        assert found == {"out": [], "wide": 0}, (game, found)


_ROWS = """() => {
  const tops = [...document.querySelectorAll("header.top > *, header.top .who > *")]
    .filter((el) => el.checkVisibility() && !el.classList.contains("who"))
    .map((el) => el.getBoundingClientRect().top);
  const rows = [];
  for (const top of tops.sort((a, b) => a - b)) {
    if (!rows.length || top - rows[rows.length - 1] > 12) rows.push(top);
  }
  return rows.length;
}"""


# Every drawn part of the header that reaches past the window's left or right edge
_HEADER_OUT = """() => [...document.querySelectorAll("header.top *")]
  .filter((el) => el.checkVisibility())
  .map((el) => [el, el.getBoundingClientRect()])
  .filter(([el, r]) => r.width && (r.right > window.innerWidth + 0.5 || r.left < -0.5))
  .map(([el, r]) => `${el.tagName.toLowerCase()} ${el.textContent.trim().slice(0, 20)} `
    + `${Math.round(r.left)}..${Math.round(r.right)}`)"""

LOBBY_BUTTON = {"en-US": "Enter the hall", "de-DE": "Die Halle betreten"}


@pytest.mark.parametrize("locale", list(LOBBY_BUTTON))
@pytest.mark.parametrize("width", [320, 390])
def test_the_header_takes_two_lines_on_a_phone(pages: Pages, width: int, locale: str) -> None:
    """The longest nickname allowed (20 characters) still leaves every link of the header and
    its 'change' on the screen, in both languages: the nickname is what gives way."""
    page = pages.new(width=width, height=844, locale=locale)
    nickname = enter(page, "a" * 16, button=LOBBY_BUTTON[locale])
    assert len(nickname) >= 17
    assert page.evaluate(_ROWS) == 2
    assert page.evaluate(_HEADER_OUT) == []
    assert outside(page)["wide"] == 0


def _box(page: Page, selector: str) -> dict[str, float]:
    box = page.locator(selector).first.bounding_box()
    assert box is not None, selector
    return box


@pytest.mark.parametrize("game", GAMES)
def test_the_final_position_is_in_view_with_the_result(pages: Pages, game: str) -> None:
    """At 1280×800 the result and the whole board under it are on the screen at the end."""
    page = pages.new(width=1280, height=800)
    page.on("dialog", lambda d: d.accept())
    enter(page)
    create_room(page, game)
    start_against_bot(page)
    wait_my_turn(page, timeout=30000)
    page.click("[data-action=resign]")
    expect(page.get_by_test_id("result-words")).to_be_visible()
    words = _box(page, "[data-testid=result-words]")
    board = _box(page, ".board-main svg.board-svg, .board-main canvas")
    assert words["y"] >= 0 and board["y"] >= words["y"] + words["height"], (words, board)
    assert board["y"] + board["height"] <= 800, board


_COVERED = """() => {
  const exits = [...document.querySelectorAll("[data-game=halali] .exit")]
    .map((el) => el.getBoundingClientRect());
  return [...document.querySelectorAll("[data-game=halali] .coord")].filter((el) => {
    const r = el.getBoundingClientRect();
    return exits.some((e) => r.left < e.right && e.left < r.right && r.top < e.bottom
                              && e.top < r.bottom);
  }).map((el) => el.textContent);
}"""


def test_no_exit_covers_a_coordinate_of_halali(pages: Pages) -> None:
    page = pages.new(width=1280, height=800)
    enter(page)
    create_room(page, "halali")
    start_against_bot(page)
    wait_my_turn(page, timeout=30000)
    expect(page.locator("[data-game=halali] .coord")).to_have_count(14)
    assert page.evaluate(_COVERED) == []


@pytest.mark.parametrize("touch", [True, False])
def test_a_touch_screen_is_told_to_tap(pages: Pages, touch: bool) -> None:
    """On a phone's touch screen the room says "tap", never "click"; with a mouse, "click"."""
    page = pages.new(width=390 if touch else 1280, height=844 if touch else 800, touch=touch)
    enter(page)
    create_room(page, "hula")
    start_against_bot(page)
    wait_my_turn(page)
    said = "Tap an empty cell" if touch else "Click an empty cell"
    expect(page.locator("body")).to_contain_text(said)
    if touch:
        assert "click" not in page.locator("body").inner_text().lower()


def test_hotu_matuas_line_values_are_written_as_numbers(pages: Pages) -> None:
    """Each line's value is a number on the map (1-4 dots were hard to count)."""
    page = pages.new()
    enter(page)
    create_room(page, "hotu_matua")
    start_against_bot(page)
    wait_my_turn(page)
    lines = page.locator("[data-game=hotu_matua] [data-line]")
    expect(lines.first).to_be_visible()
    shown = lines.evaluate_all("""gs => gs.map((g) => [g.dataset.number, g.textContent.trim(),
        g.querySelector('text') && g.querySelector('text').getBoundingClientRect().width > 0])""")
    assert len(shown) > 10
    assert all(number == text and drawn for number, text, drawn in shown), shown


def test_the_phone_menu_opens_the_halls_pages(pages: Pages) -> None:
    """On a phone the header's links fold under the menu button: it opens them as a panel on the
    screen, a tap on one goes there and folds the panel again; on a laptop they stand in line."""
    phone = pages.new(width=320, height=700)
    enter(phone)
    links = phone.locator("header.top a.nav")
    expect(links.first).to_be_hidden()
    toggle = phone.get_by_role("button", name="Pages of the hall")
    expect(toggle).to_have_attribute("aria-expanded", "false")
    toggle.click()
    expect(toggle).to_have_attribute("aria-expanded", "true")
    expect(links).to_have_count(3)
    for i in range(3):
        expect(links.nth(i)).to_be_visible()
    assert phone.evaluate(_HEADER_OUT) == []
    phone.get_by_role("link", name="Tournaments").click()
    phone.wait_for_url("**/#/tournaments")
    expect(links.first).to_be_hidden()
    laptop = pages.new(width=1280, height=800)
    enter(laptop)
    expect(laptop.locator("header.top button.menu-toggle")).to_be_hidden()
    expect(laptop.locator("header.top a.nav").first).to_be_visible()
