"""Each game in the browser: lobby, room, a seat, a bot seated by a typed command, the start, and
several moves by real clicks and drags, with the board and the move list checked after each."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

from tests.web.conftest import Pages
from tests.web.helpers import (
    centre,
    create_room,
    drag,
    enter,
    moves_shown,
    record_renders,
    render_after,
    start_against_bot,
    start_halali_end_phase,
    state,
    wait_my_turn,
    wait_version_above,
)


def test_hula_place_by_click(pages: Pages) -> None:
    page = pages.new()
    enter(page)
    create_room(page, "hula", size=5)
    start_against_bot(page)
    for turn in range(4):
        st = wait_my_turn(page)
        cells = page.locator("[data-game=hula] .cell.legal")
        assert cells.count() == len([e for e in st["legal"] if e["kind"] == "place"])
        name = cells.nth(turn * 5 % cells.count()).get_attribute("data-cell")
        cells.nth(turn * 5 % cells.count()).click()
        st = wait_version_above(page, st["version"])
        assert name in moves_shown(page)
        stone = page.locator(f"[data-game=hula] [data-cell={name}]")
        assert stone.get_attribute("data-stone") in ("first", "second", "neutral")
        assert st["view"]["board"].get(name) == stone.get_attribute("data-stone")
    assert len(moves_shown(page)) >= 7
    expect(page.locator("[data-game=hula] .last-ring")).to_have_count(1)
    # play on to the end: the winner's loop is drawn through its stones, the result shown
    while (st := wait_my_turn(page))["status"] != "finished":
        page.locator("[data-game=hula] .cell.legal").first.click()
        wait_version_above(page, st["version"])
    loop = st["view"]["loop"]
    assert loop
    expect(page.get_by_test_id("loop")).to_have_count(1)
    drawn = page.get_by_test_id("loop").get_attribute("points") or ""
    assert len(drawn.split()) == len(loop)
    expect(page.get_by_test_id("result")).to_contain_text("wins with a loop")


def test_haugaz_cake_place_and_move_by_drag_and_clicks(pages: Pages) -> None:
    # The random bot can leave this page's colour without a turn before a stack has moved twice
    # (a fresh clone's run met it: "White has no possible turn"). Such a game proves nothing
    # about dragging or clicking; play another.
    for _ in range(3):
        page = pages.new()
        enter(page)
        create_room(page, "haugaz", size=6)
        start_against_bot(page)
        record_renders(page)
        if _cake_then_drag_and_click(page):
            return
    pytest.fail("three Haugaz games in a row ended before a stack moved by drag and by clicks")


def _cake_then_drag_and_click(page: Page) -> bool:
    """The cake by clicks, then moves until one went by drag and one by clicks (each checked on
    the board and in the move list); False if the game ended first."""
    # the cake: first (this page) places the black stack, then the white one, by clicks
    for colour in ("black", "white"):
        st = wait_my_turn(page)
        point = next(e["cell"] for e in st["legal"] if e.get("colour") == colour)
        page.click(f".point[data-cell={point}] .hit", force=True)
        shown = render_after(page, st["version"])
        assert shown["stacks"][point] == ["1", colour]
        assert shown["moves"][-1] == f"{colour} {point}"
    drags = clicks = 0
    while drags < 1 or clicks < 1:
        st = wait_my_turn(page)
        if st["status"] != "playing":
            return False
        moves = [e for e in st["legal"] if e["kind"] == "move"]
        if moves:
            move, a, b = moves[0]["move"], moves[0]["from"], moves[0]["to"]
            height = page.locator(f".stack[data-at={a}]").get_attribute("data-height")
            if drags == 0:
                drag(page, f".stack[data-at={a}]", f".point[data-cell={b}] .hit")
                drags += 1
            else:
                page.click(f".stack[data-at={a}]")
                expect(page.locator(f".point[data-cell={b}].target")).to_have_count(1)
                page.click(f".point[data-cell={b}] .hit", force=True)
                clicks += 1
            shown = render_after(page, st["version"])
            assert move in shown["moves"]
            assert a not in shown["stacks"] and shown["stacks"][b][0] == height
        else:
            point = next(e["cell"] for e in st["legal"] if e["kind"] == "place")
            page.click(f".point[data-cell={point}] .hit", force=True)
            shown = render_after(page, st["version"])
            assert shown["moves"][-1] == point and shown["stacks"][point][0] == "1"
    assert moves_shown(page)[: len(shown["moves"])] == shown["moves"]
    return True


def test_halali_flip_by_click_and_move_by_drag(pages: Pages) -> None:
    # Tiles move only across empty squares, and at first only the centre is empty: in about one
    # game in twenty no tile the humans may move ever comes up next to an empty square before the
    # face-down tiles run out and the game ends. Such a game proves nothing; play another.
    for _ in range(3):
        page = pages.new()
        enter(page)
        create_room(page, "halali")
        start_against_bot(page)
        record_renders(page)
        if _flip_then_drag(page):
            return
    pytest.fail("three games ended before a move by drag came up")


def _flip_then_drag(page: Page) -> bool:
    """Flip by clicking (at least three times) and move by dragging (once); False if the game
    ended before a move to drag came up."""
    moved = flipped = 0
    while moved < 1 or flipped < 3:
        st = wait_my_turn(page)
        if st["status"] != "playing":
            return False
        moves = [e for e in st["legal"] if e["kind"] in ("move", "capture")]
        flips = [e for e in st["legal"] if e["kind"] == "flip"]
        if moves and (flipped >= 2 or not flips):
            move, a, b = moves[0]["move"], moves[0]["from"], moves[0]["to"]
            token = page.locator(f".tile[data-at={a}]").get_attribute("data-token")
            drag(page, f".square[data-cell={a}]", f".square[data-cell={b}]")
            shown = render_after(page, st["version"])
            assert move in shown["moves"]
            assert a not in shown["tiles"] and shown["tiles"][b][0] == token
            moved += 1
        elif flips:
            # flip next to the empty centre first, so that a tile able to move comes up early
            near = [e for e in flips if e["cell"] in ("c4", "e4", "d3", "d5")]
            flip, square = (near or flips)[0]["move"], (near or flips)[0]["cell"]
            expect(page.locator(f".tile[data-at={square}]")).to_have_class(re.compile("down"))
            page.click(f".tile[data-at={square}]")
            shown = render_after(page, st["version"])
            at = shown["moves"].index(flip)
            drawn = shown["moves"][at + 1]  # the chance outcome follows the flip in the list
            token, cls = shown["tiles"][square]
            assert "down" not in cls and token and token[0] == drawn[0].upper()
            flipped += 1
        else:
            return False  # the end phase, with only exits or a pass: nothing to drag here
    return True


def test_halali_exit_by_drag_in_a_set_up_end_phase(pages: Pages) -> None:
    page = pages.new()
    st = start_halali_end_phase(page)
    assert st["view"]["phase"] == "end"
    score = st["view"]["scores"]["humans"]
    expect(page.locator("[data-score=humans]")).to_have_text(str(score))
    expect(page.get_by_test_id("end-phase")).to_contain_text("6 turns left")
    # no exit is lit before a tile is picked up; dragging the hunter lights the legal ones
    expect(page.locator(".exit.target")).to_have_count(0)
    x, y = centre(page, ".tile[data-at=d2]")
    tx, ty = centre(page, "[data-exit=d1]")
    page.mouse.move(x, y)
    page.mouse.down()
    page.mouse.move(x, y + 20, steps=3)
    expect(page.locator(".exit.target")).to_have_count(2)  # d1 and d7
    page.mouse.move(tx, ty, steps=6)
    page.mouse.up()
    shown = render_after(page, st["version"])
    assert "d2-exit-d1" in shown["moves"] and "d2" not in shown["tiles"]
    st = state(page)
    assert st["view"]["exited"]["humans"] == ["H^"]
    expect(page.locator("[data-score=humans]")).to_have_text(str(score + 5))  # a hunter: 5
    # the counter went down: 5 after this turn, 4 once the bot has answered
    expect(page.get_by_test_id("end-phase")).to_have_text(re.compile(r"End phase: [45] turns left"))


def test_hotu_matua_ship_then_field_and_end_turn(pages: Pages) -> None:
    page = pages.new()
    enter(page)
    create_room(page, "hotu_matua")
    start_against_bot(page)
    record_renders(page)
    steps_made = 0
    ended = False
    while steps_made < 3 or not ended:
        st = wait_my_turn(page)
        assert st["status"] == "playing"
        steps = [e for e in st["legal"] if e["kind"] == "step"]
        used = page.locator(".die.used").count()
        if steps and (steps_made < 3 or "end" not in st["legal_moves"]):
            step = steps[0]
            page.click(f".ship[data-ship={step['piece']}]")
            expect(page.locator(f"polygon[data-cell={step['to']}].target")).to_have_count(1)
            page.click(f"polygon[data-cell={step['to']}]", force=True)
            shown = render_after(page, st["version"])
            assert step["move"] in shown["moves"]
            assert shown["ships"][step["piece"]] == [step["to"]]
            if shown["version"] == st["version"] + 1:  # still this turn: one more die greyed
                assert shown["used_dice"] == used + 1
            steps_made += 1
        else:
            page.click("[data-move=end]")
            shown = render_after(page, st["version"])
            assert "end" in shown["moves"][st["version"]:]
            ended = True
    # the pearls drawn are the ones left in the state the page holds, both read at once in the
    # page: the bot plays on after this page's turn and may take one between two reads
    page.wait_for_function("""() => document.querySelectorAll('.pearl').length
                               === window.gamehall.room.state.view.pearls_left.length""")


def test_hau_la_full_placement_through_the_3d_view(pages: Pages) -> None:
    page = pages.new()
    enter(page)
    create_room(page, "hau_la")
    start_against_bot(page)
    record_renders(page)
    st = wait_my_turn(page, timeout=30000)
    pieces = len(st["view"]["pieces"])
    assert st["view"]["pending"]["step"] == "kind"
    page.click("[data-move=SJ]")
    st = wait_version_above(page, st["version"])
    # holes by clicking them in the 3D view, at the screen point the scene projects them to
    for step in ("first", "second"):
        assert st["view"]["pending"]["step"] == step
        hole = st["legal_moves"][-1]
        _click_3d(page, hole)
        st = wait_version_above(page, st["version"])
        assert hole in moves_shown(page)
    if st["view"]["pending"]["step"] == "sides":
        side = st["legal_moves"][0]
        page.click(f"[data-choice='{side}']")  # played at once
        st = wait_version_above(page, st["version"])
    assert st["view"]["pending"]["step"] == "tag"
    tag = st["legal_moves"][0]
    _click_3d(page, tag)
    expect(page.locator("[data-testid=touch-warning], [data-testid=no-touch]")).to_have_count(1)
    confirm = page.locator("[data-action=confirm]")
    expect(confirm).to_have_attribute("data-confirm", tag)  # said in words, the code its title
    expect(confirm).to_contain_text(re.compile(r"tag in \S+, (upper|lower) face"))
    page.click("[data-action=confirm]")
    shown = render_after(page, st["version"])
    assert tag in shown["moves"]
    assert shown["pieces"] == pieces + 1
    expect(page.get_by_test_id("ranking")).to_contain_text("height")


def _click_3d(page: Page, key: str) -> None:
    at = page.evaluate(f"window.gamehall.room.board.screenOf({key!r})")
    assert at and at["visible"], f"{key} is not in the 3D view"
    page.mouse.click(at["x"], at["y"])
