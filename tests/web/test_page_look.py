"""The page as people see it: the lobby and a room of every game, a few moves in, at a laptop's
1280 px and a phone's 390 px, with nothing wider than the screen (no horizontal scrolling and no
control cut off at the right edge). Each page is kept as a screenshot when GAMEHALL_SHOTS names
a folder, to be looked at."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Page

from tests.web.conftest import Pages
from tests.web.helpers import (
    create_room,
    enter,
    start_against_bot,
    wait_my_turn,
    wait_version_above,
)

WIDTHS = (1280, 390)
GAMES: dict[str, dict[str, Any]] = {
    "hula": {"size": 5},
    "haugaz": {"size": 6},
    "halali": {},
    "hotu_matua": {},
    "hau_la": {},
}
TURNS = {"hula": 3, "haugaz": 4, "halali": 3, "hotu_matua": 2, "hau_la": 10}

# Visible elements that reach past the right (or left) edge of the window, and the width the
# document scrolls to; a cut-off control inside a clipping box counts too.
_OVERFLOW = """() => {
  const w = document.documentElement.clientWidth;
  const out = [];
  const shown = 'button, a, input, select, td, th, svg, canvas, h1, p, li';
  for (const el of document.querySelectorAll(shown)) {
    const r = el.getBoundingClientRect();
    if (!r.width || !r.height || el.closest('[hidden]')) continue;
    if (r.right > w + 0.5 || r.left < -0.5) {
      const cls = el.className.baseVal ?? el.className;
      out.push(`${el.tagName.toLowerCase()}.${cls}: `
        + `${Math.round(r.left)}..${Math.round(r.right)}`
        + ` (${(el.textContent || '').trim().slice(0, 30)})`);
    }
  }
  return { scroll: document.documentElement.scrollWidth, width: w, out };
}"""


def overflow(page: Page) -> dict[str, Any]:
    data = page.evaluate(_OVERFLOW)
    assert isinstance(data, dict)
    return data


def assert_fits(page: Page, shots: Path | None = None, name: str = "") -> None:
    """Nothing wider than the window; with `shots`, the whole page kept as `name`.png."""
    if shots is not None:
        shots.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(shots / f"full-{name}.png"), full_page=True)
    data = overflow(page)
    assert data["scroll"] <= data["width"], data
    assert not data["out"], data["out"]


def play_some(page: Page, turns: int) -> None:
    """Play `turns` of this page's moves (the first offered entry each time, as the board's
    contract sends it), the bot answering in between."""
    for _ in range(turns):
        st = wait_my_turn(page)
        if st["status"] != "playing":
            return
        move = st["legal"][0]["move"]
        page.evaluate(f"window.gamehall.room.submit({move!r})")
        wait_version_above(page, st["version"])


@pytest.mark.parametrize("width", WIDTHS)
def test_the_lobby_fits(pages: Pages, width: int) -> None:
    page = pages.new(width=width, height=800 if width > 500 else 844)
    enter(page)
    create_room(page, "hula", size=5)
    start_against_bot(page)
    page.goto(pages.hall.url)
    page.wait_for_selector(".room-list td.actions button, .room-list td.actions a")
    assert_fits(page, pages.shots, f"lobby-{width}")


@pytest.mark.parametrize("width", WIDTHS)
@pytest.mark.parametrize("game", list(GAMES))
def test_a_room_fits(pages: Pages, game: str, width: int) -> None:
    page = pages.new(width=width, height=800 if width > 500 else 844)
    enter(page)
    create_room(page, game, **GAMES[game])
    start_against_bot(page)
    page.evaluate("window.scrollTo(0, 0)")  # typing in the chat and pressing Start scrolled
    play_some(page, TURNS[game])
    wait_my_turn(page)
    assert_fits(page, pages.shots, f"{game}-{width}")
    # nothing scrolled the page by itself (the move list scrolls inside its own box)
    assert page.evaluate("window.scrollY") == 0
