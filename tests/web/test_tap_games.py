"""A whole game of each of the five games on a phone (390×844, a touch screen), played by taps
alone (issue 43): every step of this page's turns is a random legal entry, tapped on the board
(a place, a piece then its target) or on the board's buttons, never clicked or sent by script;
the random bot plays the other seat. The game ends by the rules and the result is shown."""

from __future__ import annotations

import random
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from tests.web.conftest import Pages
from tests.web.helpers import create_room, enter, start_against_bot, state, wait_my_turn
from tests.web.test_botpage import SHORT

PHONE = {"width": 390, "height": 844}


def _tap_place(page: Page, cell: str) -> None:
    """Tap the place `cell` on the board (a piece standing there takes the tap as well)."""
    page.locator(f".board-main [data-cell='{cell}']").first.tap(force=True)


def _tap_3d(page: Page, key: str) -> None:
    """Tap a target of Hau La's 3D view where the scene draws it."""
    at = page.evaluate(f"window.gamehall.room.board.screenOf({key!r})")
    assert at and at["visible"], f"{key} is not in the 3D view"
    page.touchscreen.tap(at["x"], at["y"])


def _tap_hau_la(page: Page, entry: dict[str, Any]) -> None:
    """One step of a Hau La placement: a piece's button, a hole or a ghost tag in the 3D view, a
    side or rotation's button; a tag, chosen, is confirmed by its button (the turn's one
    confirmation)."""
    kind = entry["kind"]
    if kind == "hole":
        _tap_3d(page, entry["move"])
        return
    if kind == "tag":
        _tap_3d(page, entry["move"])
    elif kind in ("sides", "rotation"):
        page.locator(f".step-box [data-choice='{entry['move']}']").tap()
        return
    else:
        page.locator(f".step-box [data-move='{entry['move']}']").tap()
        return
    confirm = page.locator("[data-action=confirm]")
    expect(confirm).to_have_attribute("data-confirm", entry["move"])
    confirm.tap()


def tap_entry(page: Page, game: str, entry: dict[str, Any]) -> None:
    """Play one legal entry by taps: a piece then its target, a place, or a button."""
    if game == "hau_la":
        _tap_hau_la(page, entry)
    elif "from" in entry:
        page.locator(f".board-main [data-at='{entry['from']}']").first.tap()
        target = entry.get("to") or f"exit:{entry['exit']}"
        expect(page.locator(f".board-main [data-cell='{target}'].target")).not_to_have_count(0)
        _tap_place(page, target)
    elif "cell" in entry:
        _tap_place(page, entry["cell"])
    else:
        page.locator(f".board-wrap [data-move='{entry['move']}']").tap()


def _next_state(page: Page, version: int) -> dict[str, Any]:
    """The state after this page's step (a composed step's preview, or the served turn), or the
    end."""
    page.wait_for_function(
        f"""() => {{ const s = window.gamehall.room.state;
                   return s && (s.version > {version} || s.status === 'finished'); }}""",
        timeout=30000)
    return state(page)


@pytest.mark.parametrize("game", [
    "hula", "haugaz", pytest.param("halali", marks=pytest.mark.slow), "hotu_matua",
    pytest.param("hau_la", marks=pytest.mark.slow)])
def test_a_whole_game_on_a_phone_by_taps_alone(pages: Pages, game: str) -> None:
    page = pages.new(**PHONE, touch=True)
    enter(page)
    create_room(page, game, **SHORT[game])
    start_against_bot(page)
    rng = random.Random(f"taps-{game}")
    st = wait_my_turn(page, timeout=30000)
    steps = 0
    while st["status"] != "finished":
        tap_entry(page, game, rng.choice(st["legal"]))
        steps += 1
        _next_state(page, st["version"])
        st = wait_my_turn(page, timeout=30000)
    assert steps > 1 and st["ended_by"] == "rules"
    expect(page.get_by_test_id("result-words")).to_be_visible()
