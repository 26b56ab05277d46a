"""A finished game's review on the page: Review in the end box shows the progress, then the
graph of the winning chances, the marked moves and each player's accuracy; a click on the graph
steps the replay to that position, and a marked move shows the position before it with the
bot's better move lit on the board. The game is Hula's hand-made blunder (tests/ai/test_review.py:
first could close its ring with f5 and win, plays a1, and second closes its own); the web tests'
hall reviews at 200 simulations a position."""

from __future__ import annotations

from typing import Any

import httpx
from playwright.sync_api import Page, expect

from gamehall.ai.review_levels import review_simulations
from tests.ai.test_review import HULA_FAR, HULA_RING, HULA_RING2
from tests.web.conftest import Pages
from tests.web.helpers import create_room, enter, state, wait_my_turn, wait_version_above

MOVES = [m for pair in zip(HULA_RING + HULA_FAR, HULA_RING2, strict=True) for m in pair]
MOVES += ["a1", "g5"]
BLUNDER = 22
"""The index of first's a1 (f5 won at once)."""


def _play_the_blunder_game(page: Page, url: str) -> str:
    """The page plays first; a second player (over HTTP) joins, starts and plays second."""
    create_room(page, "hula", size=5, pie=False)
    room = state(page)["room"]
    with httpx.Client(base_url=url) as http:
        token = http.post("/api/session", json={"nickname": "revbob"}).json()["token"]
        headers = {"Authorization": f"Bearer {token}"}

        def act(kind: str, **body: Any) -> None:
            r = http.post(f"/api/rooms/{room}/{kind}", json=body, headers=headers)
            assert r.status_code == 200, r.text

        act("join")
        act("start")
        for i, move in enumerate(MOVES):
            if i % 2 == 0:
                st = wait_my_turn(page)
                page.evaluate("(m) => window.gamehall.room.submit(m)", move)
                wait_version_above(page, st["version"])
            else:
                act("move", move=move, version=state(page)["version"])
                wait_version_above(page, i)
    expect(page.get_by_test_id("result")).to_be_visible()
    return str(room)


def test_review_shows_progress_graph_marks_and_jumps_the_board(pages: Pages) -> None:
    page = pages.new()
    enter(page, "revann")
    room = _play_the_blunder_game(page, pages.hall.url)
    # whatever the review's speed, the panel draws its progress before the graph
    page.evaluate("""() => { window.progressSeen = false;
      new MutationObserver(() => { if (document.querySelector('[data-testid=review-progress]'))
        window.progressSeen = true; }).observe(document.querySelector('[data-testid=review]'),
        { childList: true, subtree: true }); }""")
    page.click("[data-action=review]")
    expect(page.get_by_test_id("review-graph")).to_be_visible(timeout=60000)
    assert page.evaluate("window.progressSeen")
    assert page.locator("[data-testid=review-accuracy] tr[data-seat]").count() == 2
    marks = page.locator("[data-testid=review-marks] button")
    assert marks.count() >= 1
    blunder = page.locator(f"[data-testid=review-marks] button[data-index='{BLUNDER}']")
    expect(blunder).to_contain_text("a1??")
    expect(page.get_by_test_id("review-marks")).to_contain_text("better: f5")
    # a click on the graph steps the replay there
    page.locator("[data-testid=review-graph] rect.hit[data-step='5']").click()
    expect(page.get_by_test_id("replay-step")).to_have_text(f"5 / {len(MOVES)}")
    # a marked move: the position before it, and the better move lit
    blunder.click()
    expect(page.get_by_test_id("replay-step")).to_have_text(f"{BLUNDER} / {len(MOVES)}")
    expect(page.locator("[data-game=hula] [data-cell='f5'].hint")).to_have_count(1)
    expect(page.get_by_test_id("review-picked")).to_contain_text("the bots prefer f5")
    # stepping on clears the hint
    page.click("[data-replay=forward]")
    expect(page.get_by_test_id("replay-step")).to_have_text(f"{BLUNDER + 1} / {len(MOVES)}")
    expect(page.locator("[data-game=hula] .hint")).to_have_count(0)
    # another level is another review
    page.select_option("[data-testid=review-level]", "easy")
    page.click("[data-action=review-level]")
    easy = review_simulations("easy", "hula")
    expect(page.get_by_test_id("review")).to_contain_text(f"{easy} simulations a position",
                                                          timeout=60000)
    expect(page.get_by_test_id("review-graph")).to_be_visible()
    # the archive line now shows the accuracy, and links to the review
    page.goto(pages.hall.url + "#/archive")
    line = page.locator(f".game-line[data-room='{room}']")
    expect(line.get_by_test_id("accuracy")).to_contain_text("%")
    expect(line.locator("[data-action=open-review]")).to_be_visible()
