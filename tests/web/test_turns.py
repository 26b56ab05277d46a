"""A turn composed, then sent, as a person plays it in Chromium: the steps of a Haugaz turn are
shown on the board and in the move list but not played; Back and Escape take them back; the
turn goes to the server whole when the player confirms, and is one line of the move list."""

from __future__ import annotations

import json
import urllib.request
from typing import Any

from playwright.sync_api import Page, expect

from tests.web.conftest import Pages
from tests.web.helpers import create_room, enter, start_against_bot, state, wait_my_turn


def served(pages: Pages, room: str) -> dict[str, Any]:
    """The room as the server has it (a watcher's state over HTTP, from outside the page)."""
    with urllib.request.urlopen(f"{pages.hall.url}api/rooms/{room}", timeout=10) as answer:
        data = json.load(answer)
    assert isinstance(data, dict)
    return data


def place(page: Page, point: str) -> None:
    page.click(f".point[data-cell={point}] .hit", force=True)


def shown_after(page: Page, steps: int, version: int) -> dict[str, Any]:
    """The state drawn once `steps` steps of the turn at `version` are chosen (not sent)."""
    page.wait_for_function(
        f"""() => {{ const s = window.gamehall.room.state;
                   return s && s.version === {version + steps} && s.composing === true
                     && window.gamehall.room.served.version === {version}; }}""")
    return state(page)


def test_a_haugaz_turn_is_composed_taken_back_and_sent_whole(pages: Pages) -> None:
    page = pages.new()
    enter(page)
    room = create_room(page, "haugaz", size=6)
    start_against_bot(page)
    st = wait_my_turn(page)
    # the player wants to confirm each turn
    box = page.locator("[data-action=turn-at-once]")
    expect(box).to_be_checked()
    box.uncheck()
    # the cake: two placements, one turn, sent on confirmation
    version = st["version"]
    black = next(e["cell"] for e in st["legal"] if e.get("colour") == "black")
    place(page, black)
    white = next(e["cell"] for e in shown_after(page, 1, version)["legal"])
    place(page, white)
    shown_after(page, 2, version)
    expect(page.get_by_test_id("turn-steps")).to_contain_text("complete")
    assert served(pages, room)["version"] == version
    page.click("[data-action=turn-send]")
    # the bot chooses a side (and takes the first turn if it chose black): this page's turn
    st = wait_my_turn(page)
    assert {e["kind"] for e in st["legal"]} >= {"place"}
    version = st["version"]
    places = [e["cell"] for e in st["legal"] if e["kind"] == "place"]
    first, second = places[0], places[-1]

    # a placement is shown, in the list as not sent, and not played
    place(page, first)
    shown_after(page, 1, version)
    expect(page.locator(f".stack[data-at={first}]")).to_have_count(1)
    expect(page.locator("[data-testid=moves] .step.pending")).to_have_count(1)
    assert served(pages, room)["version"] == version
    # Back takes it back: the board as before, nothing pending
    page.click("[data-action=turn-back]")
    expect(page.locator(f".stack[data-at={first}]")).to_have_count(0)
    expect(page.locator("[data-testid=moves] .step.pending")).to_have_count(0)
    expect(page.locator(f".point[data-cell={first}].legal")).to_have_count(1)
    # Escape too
    place(page, first)
    shown_after(page, 1, version)
    expect(page.locator(f".stack[data-at={first}]")).to_have_count(1)
    page.keyboard.press("Escape")
    expect(page.locator(f".stack[data-at={first}]")).to_have_count(0)
    expect(page.locator("[data-testid=moves] .step.pending")).to_have_count(0)

    # elsewhere, then a move: the turn is complete, still not played until confirmed
    place(page, second)
    shown = shown_after(page, 1, version)
    move = next(e for e in shown["legal"] if e["kind"] == "move")
    page.click(f".stack[data-at={move['from']}]")
    expect(page.locator(f".point[data-cell={move['to']}].target")).to_have_count(1)
    page.click(f".point[data-cell={move['to']}] .hit", force=True)
    shown_after(page, 2, version)
    expect(page.get_by_test_id("turn-steps")).to_contain_text("complete")
    expect(page.locator("[data-testid=moves] .step.pending")).to_have_count(2)
    assert served(pages, room)["version"] == version
    page.click("[data-action=turn-send]")

    page.wait_for_function(f"() => window.gamehall.room.served.version > {version}")
    played = served(pages, room)["moves"][version:version + 2]
    assert [m["move"] for m in played] == [second, move["move"]]
    assert played[0]["turn"] == played[1]["turn"]
    # one line of the move list holds the turn: the placement and the move, nothing taken back
    line = page.locator(f"[data-testid=moves] li[data-turn='{played[0]['turn']}']")
    expect(line).to_have_count(1)
    notations = line.locator(".step").evaluate_all("els => els.map((e) => e.dataset.notation)")
    assert notations == [second, move["move"]]
    assert first == second or first not in [m["move"] for m in served(pages, room)["moves"]]
    expect(page.locator("[data-testid=moves] .step.pending")).to_have_count(0)
