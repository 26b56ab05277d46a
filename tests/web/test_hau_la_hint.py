"""Hau La's 3D board lights a hinted step as the 2D boards light a hinted move: a state carrying a
`hint` (a step's parts: a review's better move shown in a replay, or the Hint button's move) gets
a spot in the hint colour at the hinted hole or ghost tag, the hinted rotation's or sides' ghost,
the `hint` class on the matching button, and a line in the panel saying the step in words. Each
step of a placement is drawn with one of its legal entries as the hint, both as the mover sees it
and replayed (a spectator's view, with no buttons); without WebGL the panel still shows it."""

from __future__ import annotations

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

_SHOW = """([hint, replay]) => { const st = window.gamehall.room.state;
    window.gamehall.room.board.update(replay
      ? { ...st, replay: true, status: "replay", version: -1, seat: null, legal: [],
          legal_moves: [], hint }
      : { ...st, hint }); }"""
LIT = re.compile(r"\bhint\b")


def _show(page: Page, hint: dict[str, Any], replay: bool = False) -> Any:
    """Draw the latest state with `hint` (as the mover, or replayed); what the 3D view lights."""
    page.evaluate(_SHOW, [hint, replay])
    return page.evaluate("window.gamehall.room.board.hintShown()")


def _play(page: Page, st: dict[str, Any], move: str) -> dict[str, Any]:
    page.evaluate("(m) => window.gamehall.room.submit(m)", move)
    return wait_version_above(page, st["version"])


def _hau_la_game(page: Page) -> dict[str, Any]:
    enter(page)
    create_room(page, "hau_la")
    start_against_bot(page)
    st = wait_my_turn(page, timeout=30000)
    assert st["view"]["pending"]["step"] == "kind"
    return st


def _in_view(page: Page, key: str) -> None:
    at = page.evaluate(f"window.gamehall.room.board.screenOf({key!r})")
    assert at and at["visible"], f"{key} is not lit in the 3D view"


def _lit_in_panel(page: Page, button: str, words: str) -> None:
    """The hinted step's button (`button`: its data attribute) is lit, and the panel's line
    says the step in `words`."""
    expect(page.locator(f"button[{button}]")).to_have_class(LIT)
    expect(page.get_by_test_id("haula-hint")).to_contain_text(f"Suggested step: {words}")


def test_each_hinted_hau_la_step_is_lit_on_the_board_and_in_the_panel(pages: Pages) -> None:
    page = pages.new()
    st = _hau_la_game(page)
    line = page.get_by_test_id("haula-hint")
    # the piece: its button and the line (an end piece, so that a rotation step follows)
    piece = next(e for e in st["legal"] if e.get("piece") in ("BE", "SE"))
    _show(page, piece)
    end = f"{'big' if piece['piece'] == 'BE' else 'small'} end"
    _lit_in_panel(page, f"data-move='{piece['move']}'", end)
    st = _play(page, st, piece["move"])
    # a hole: a spot in the 3D view, its button by name, the line; replayed, the spot and line
    assert st["view"]["pending"]["step"] == "first"
    hole = st["legal"][-1]
    assert _show(page, hole) == {"spot": hole["move"], "ghost": None}
    _in_view(page, hole["move"])
    _lit_in_panel(page, f"data-hole='{hole['cell']}'", f"put the {end} into hole {hole['cell']}")
    expect(line).to_contain_text("(lit in blue in the 3D view)")
    expect(line).to_have_class(LIT)
    assert _show(page, hole, replay=True) == {"spot": hole["move"], "ghost": None}
    _in_view(page, hole["move"])
    expect(page.locator("[data-hole]")).to_have_count(0)
    expect(line).to_contain_text(f"into hole {hole['cell']}")
    st = _play(page, st, hole["move"])
    # the rotation: its ghost and its button
    assert st["view"]["pending"]["step"] == "rotation"
    rot = st["legal"][-1]
    shown = _show(page, rot)
    assert shown["spot"] is None and shown["ghost"].startswith(f"{rot['move']} "), shown
    _lit_in_panel(page, f"data-choice='{rot['move']}'", f"turned {rot['degrees']}°")
    assert _show(page, rot, replay=True)["ghost"].startswith(f"{rot['move']} ")
    st = _play(page, st, rot["move"])
    if st["view"]["pending"]["step"] == "sides":
        sides = st["legal"][-1]
        shown = _show(page, sides)
        assert shown["ghost"] == f"{rot['move']} {sides['sides']}", shown
        _lit_in_panel(page, f"data-choice='{sides['move']}'", "")
        expect(line).to_contain_text("face")
        st = _play(page, st, sides["move"])
    # the tag: a spot at the ghost tag's place, its button; replayed, the piece's ghost as well
    assert st["view"]["pending"]["step"] == "tag"
    tag = st["legal"][-1]
    assert _show(page, tag) == {"spot": tag["move"], "ghost": None}
    _in_view(page, tag["move"])
    face = {"u": "upper", "d": "lower"}[tag["face"]]
    _lit_in_panel(page, f"data-choice='{tag['move']}'", f"tag in {tag['cell']} ({face})")
    assert _show(page, tag, replay=True) == {"spot": tag["move"], "ghost": "piece"}
    _in_view(page, tag["move"])
    # no hint: nothing lit
    assert _show(page, None) == {"spot": None, "ghost": None}
    expect(line).to_have_count(0)
    expect(page.locator("[data-testid=haula-steps] .hint")).to_have_count(0)


_NO_WEBGL = """(() => { const get = HTMLCanvasElement.prototype.getContext;
    HTMLCanvasElement.prototype.getContext = function (kind, ...rest) {
      return /webgl/.test(kind) ? null : get.call(this, kind, ...rest); }; })()"""


def test_without_webgl_the_panel_shows_the_hinted_hole(pages: Pages) -> None:
    page = pages.new()
    page.context.add_init_script(_NO_WEBGL)
    page.reload()
    st = _hau_la_game(page)
    expect(page.get_by_test_id("haula-view")).to_contain_text("needs WebGL")
    st = _play(page, st, next(e["move"] for e in st["legal"] if e["kind"] == "piece"))
    hole = st["legal"][-1]
    assert _show(page, hole) is None  # no 3D view
    button = page.locator(f"button[data-hole='{hole['cell']}']")
    expect(button).to_have_class(LIT)
    expect(button).to_be_visible()  # the holes by name are opened to show it
    line = page.get_by_test_id("haula-hint")
    expect(line).to_have_text(re.compile(
        rf"^Suggested step: put the (big|small) (joint|end) into hole {hole['cell']}$"))
    _show(page, hole, replay=True)
    expect(line).to_have_text(re.compile(
        rf"^Suggested step: put the (big|small) (joint|end) into hole {hole['cell']}$"))
