"""Hau La for people (issue 43), on a phone (390 px, a touch screen): the camera is refitted after
each change, from the direction the player turned it to, so the building and every target stay in
view; a tap beside a target still chooses it; the choices are said in words (their codes only in
tooltips); the move list names the piece, a bonus joint's too, in the page's language."""

from __future__ import annotations

import math
import re
from typing import Any

from playwright.sync_api import Page, expect

from tests.web.conftest import Pages
from tests.web.helpers import (
    create_room,
    enter,
    start_against_bot,
    wait_my_turn,
    wait_version_above,
)

PHONE = {"width": 390, "height": 844}
CODE = re.compile(r"^(?:r\d+|[ud]{1,2}|BJ|SJ|BE|SE|tag \S+ [ud]|\S+ [ud])$")


def direction(page: Page) -> list[float]:
    """Where the camera looks from, seen from the point it looks at (a unit vector)."""
    camera = page.evaluate("window.gamehall.room.board.camera()")
    d = [p - t for p, t in zip(camera["position"], camera["target"], strict=True)]
    n = math.sqrt(sum(x * x for x in d))
    return [x / n for x in d]


def turn_and_zoom_in(page: Page) -> None:
    """The player zooms in far (the building no longer fits) and turns the view."""
    box = page.locator("[data-testid=haula-view] canvas").bounding_box()
    assert box
    x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
    page.mouse.move(x, y)
    for _ in range(6):
        page.mouse.wheel(0, -400)
    page.mouse.down()
    for k in range(1, 9):
        page.mouse.move(x + 12 * k, y + 3 * k)
    page.mouse.up()


def assert_all_in_view(page: Page) -> None:
    """The building, the board's rim and every target lie inside the canvas on the screen."""
    frame = page.evaluate("window.gamehall.room.board.framing()")
    assert frame and frame["visible"], frame
    canvas = frame["canvas"]
    assert frame["left"] >= canvas["left"] and frame["right"] <= canvas["right"], frame
    assert frame["top"] >= canvas["top"] and frame["bottom"] <= canvas["bottom"], frame
    for target in page.evaluate("window.gamehall.room.board.targets()"):
        assert target["visible"], target
        assert canvas["left"] <= target["x"] <= canvas["right"], (target, canvas)
        assert canvas["top"] <= target["y"] <= canvas["bottom"], (target, canvas)


def assert_choices_in_words(page: Page) -> None:
    """No button of the step says a code, and each is a finger's size (44 px); a choice's code
    is its tooltip."""
    for button in page.locator(".step-box button:visible").all():
        text = button.inner_text().strip()
        assert not CODE.match(text), f"a button says a code: {text!r}"
        box = button.bounding_box()
        assert box and box["height"] >= 44 and box["width"] >= 44, (text, box)
    for choice in page.locator(".step-box [data-choice]").all():
        assert choice.get_attribute("title") == choice.get_attribute("data-choice")


def tap_beside(page: Page, key: str, dx: float) -> None:
    """Tap the 3D view `dx` pixels to the right of the target `key` (a fingertip's miss)."""
    at = page.evaluate(f"window.gamehall.room.board.screenOf({key!r})")
    assert at and at["visible"], key
    page.touchscreen.tap(at["x"] + dx, at["y"])


def play_step(page: Page, st: dict[str, Any]) -> None:
    """One step of this page's placement by taps, as a person on a phone plays it."""
    entry = st["legal"][0]
    kind = entry["kind"]
    if kind in ("piece", "take"):
        page.locator(f".step-box [data-move='{entry['move']}']").tap()
    elif kind == "hole":
        tap_beside(page, entry["move"], 16)  # beside the lit hole: within a 48 px target
    elif kind == "tag":
        tap_beside(page, entry["move"], 0)  # ghost tags lie close together: on the spot
        expect(page.locator("[data-action=confirm]")).to_have_attribute("data-confirm",
                                                                        entry["move"])
        page.locator("[data-action=confirm]").tap()
    else:  # a side or rotation: played at once (Back takes it back)
        page.locator(f".step-box [data-choice='{entry['move']}']").tap()


def test_a_hau_la_placement_on_a_phone_keeps_targets_in_view_and_in_words(
        pages: Pages) -> None:
    page = pages.new(**PHONE, touch=True)
    me = enter(page)
    create_room(page, "hau_la")
    start_against_bot(page)
    st = wait_my_turn(page, timeout=30000)
    turn_and_zoom_in(page)
    turned = direction(page)
    steps: list[str] = []
    while not (steps and steps[-1] == "tag" and "hole" in steps):  # a whole placement
        if steps and steps[-1] == "tag":  # a first turn's tag alone: the next turn
            st = wait_my_turn(page, timeout=30000)
        assert st["status"] == "playing" and st["to_move"] == st["seat"], st["status"]
        assert_choices_in_words(page)
        steps.append(st["legal"][0]["kind"])
        play_step(page, st)
        st = wait_version_above(page, st["version"])
        page.wait_for_function("() => window.gamehall.room.board.framing() !== null")
        assert_all_in_view(page)
        now = direction(page)
        assert sum(a * b for a, b in zip(now, turned, strict=True)) > 0.999, (now, turned)
    mine = page.locator("[data-testid=moves] li", has=page.locator(f".who:text-is('{me}')"))
    expect(mine.last.locator(".notation")).to_have_text(
        re.compile(r"^(big|small) (joint|end) into hole \S+ "), use_inner_text=True)


def test_a_bonus_joints_move_line_names_the_piece_in_both_languages(pages: Pages) -> None:
    bonus = [{"kind": "hole", "cell": "g3", "piece": "BJ", "move": "g3"},
             {"kind": "hole", "cell": "3b", "piece": "BJ", "move": "3b"},
             {"kind": "sides", "sides": "du", "move": "du"}]
    chosen = [{"kind": "piece", "piece": "SE", "move": "SE"},
              {"kind": "hole", "cell": "5a", "piece": "SE", "move": "5a"}]
    said = {}
    for locale in ("en-US", "de-DE"):
        page = pages.new(locale=locale)
        said[locale] = page.evaluate("""async ([bonus, chosen]) => {
            const { moveWords } = await import('/js/boards/hau_la.js');
            return [moveWords(bonus).join(' '), moveWords(chosen).join(' ')]; }""",
                                     [bonus, chosen])
    assert said["en-US"] == ["big joint into hole g3 and hole 3b (lower, upper faces)",
                             "small end into hole 5a"]
    assert said["de-DE"] == ["großes Gelenk in Loch g3 und Loch 3b (untere, obere Seiten)",
                             "kleines Endstück in Loch 5a"]
