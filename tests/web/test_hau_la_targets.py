"""Hau La's targets as a finger meets them on a phone (issue 43: "ghost tags are tiny dots with
overlapping labels"): at a tag step with many ghost tags, every target has a label of its own,
no two visible labels overlap, each is at least 24 CSS px each way and inside the view, and a tap
on a label chooses its target; the camera keeps every piece and target in view after each
change, from the direction the player turned it to."""

from __future__ import annotations

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
from tests.web.test_hau_la_people import (
    PHONE,
    assert_all_in_view,
    direction,
    play_step,
    turn_and_zoom_in,
)

FINGER_PX = 24


def _boxes(page: Page) -> dict[str, dict[str, float]]:
    """Each visible target label's box on the screen, by its target's key."""
    out = {}
    for label in page.locator("[data-testid=haula-view] .labels [data-label]:visible").all():
        box = label.bounding_box()
        assert box, label
        out[str(label.get_attribute("data-label"))] = box
    return out


def _overlap(a: dict[str, float], b: dict[str, float]) -> bool:
    return (
        a["x"] < b["x"] + b["width"]
        and b["x"] < a["x"] + a["width"]
        and a["y"] < b["y"] + b["height"]
        and b["y"] < a["y"] + a["height"]
    )


def _assert_labels_fit_a_finger(page: Page, targets: list[dict[str, Any]]) -> None:
    boxes = _boxes(page)
    assert {t["key"] for t in targets} <= set(boxes), (sorted(boxes), targets)
    view = page.locator("[data-testid=haula-view] canvas").bounding_box()
    assert view
    left, top = view["x"], view["y"]
    right, bottom = left + view["width"], top + view["height"]
    keys = sorted(boxes)
    for i, key in enumerate(keys):
        box = boxes[key]
        assert box["width"] >= FINGER_PX and box["height"] >= FINGER_PX, (key, box)
        assert left <= box["x"] and box["x"] + box["width"] <= right, (key, box, view)
        assert top <= box["y"] and box["y"] + box["height"] <= bottom, (key, box, view)
        note = page.locator("[data-testid=haula-view] .overlay").bounding_box()
        assert not note or not _overlap(box, note), (key, box, note)  # "drag to turn" stays read
        for other in keys[i + 1 :]:
            assert not _overlap(box, boxes[other]), (key, box, other, boxes[other])


def test_hau_la_tag_targets_are_a_fingers_size_and_never_overlap(pages: Pages) -> None:
    page = pages.new(**PHONE, touch=True)
    enter(page)
    create_room(page, "hau_la")
    start_against_bot(page)
    st = wait_my_turn(page, timeout=30000)
    turn_and_zoom_in(page)
    turned = direction(page)
    changed = False  # the player's own zoom holds until the position changes
    placed = False  # a tag step after a piece was placed: its ghost tags high on the building
    while True:
        assert st["status"] == "playing" and st["to_move"] == st["seat"], st["status"]
        page.wait_for_function("() => window.gamehall.room.board.framing() !== null")
        if changed:
            assert_all_in_view(page)
            now = direction(page)
            assert sum(a * b for a, b in zip(now, turned, strict=True)) > 0.999, (now, turned)
        targets = page.evaluate("window.gamehall.room.board.targets()")
        kind = st["legal"][0]["kind"]
        if kind == "tag" and len(targets) >= 2:
            _assert_labels_fit_a_finger(page, targets)
            if placed:
                break
        placed = placed or kind == "hole"
        play_step(page, st)
        changed = True
        st = wait_version_above(page, st["version"])
        if st["to_move"] != st["seat"] or not st["legal"]:  # the turn was sent: the next one
            st = wait_my_turn(page, timeout=30000)
    _assert_labels_fit_a_finger(page, targets)
    confirm = page.locator("[data-action=confirm]")
    for key in sorted(_boxes(page)):  # a tap on each label chooses its target
        box = _boxes(page)[key]  # where it is now: a choice draws the labels again
        page.touchscreen.tap(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
        expect(confirm).to_have_attribute("data-confirm", key)
        _assert_labels_fit_a_finger(page, targets)  # the chosen one's label too
        assert_all_in_view(page)
