"""Clocks and rematches in Chromium: the running clock ticks and turns red when low, the tab's
title says whose turn it is, the lobby shows the clocks, and two people play again with the
Rematch button."""

from __future__ import annotations

from playwright.sync_api import Dialog, expect

from tests.web.conftest import Pages
from tests.web.helpers import create_room, enter, start_against_bot, state


def test_the_running_clock_ticks_turns_red_and_runs_out(pages: Pages) -> None:
    ann = pages.new()
    enter(ann, "clk")
    room = create_room(ann, "hula", size=5, clock="0.2+0")  # twelve seconds
    expect(ann.get_by_test_id("room-options")).to_have_count(0)  # a manager sees the form
    start_against_bot(ann)
    mine = ann.locator(".seat.mine .clock")
    expect(mine).to_have_class("clock running")
    first = mine.inner_text()
    expect(mine).not_to_have_text(first)  # it ticks between the server's states
    assert ann.title().startswith("● Your move")
    watcher = pages.new()
    row = watcher.locator(f"tr[data-room='{room}']")
    expect(row).to_contain_text("clock 0.2+0")
    expect(row.locator(".clock")).to_have_count(2)
    expect(mine).to_have_class("clock running low", timeout=20000)
    expect(ann.get_by_test_id("result")).to_contain_text("ran out of time", timeout=30000)
    st = state(ann)
    assert st["ended_by"] == "time" and st["clock"]["remaining_ms"][0] == 0
    assert ann.title().startswith("Game over")


def test_two_people_play_again_with_the_rematch_button(pages: Pages) -> None:
    ann = pages.new()
    ann_name = enter(ann, "rem")
    bob = pages.new()
    bob_name = enter(bob, "rem")
    room = create_room(ann, "hula", size=5, clock="5+3")
    bob.goto(f"{pages.hall.url}#/room/{room}/join")
    expect(bob.locator(".seat.mine")).to_have_attribute("data-seat", "1")
    ann.click("[data-action=start]")
    expect(bob.get_by_test_id("status")).to_contain_text(f"({ann_name})")
    assert bob.title().startswith(f"{ann_name} to move")
    answers: list[str] = []

    def accept(dialog: Dialog) -> None:
        answers.append(dialog.message)
        dialog.accept()

    bob.on("dialog", accept)
    bob.click("[data-action=leave]")  # leaving a running game resigns, after asking
    expect(ann.get_by_test_id("result")).to_contain_text("resigned")
    assert answers and "resigns" in answers[0]
    ann.click("[data-action=rematch]")
    expect(ann.locator("[data-action=rematch]")).to_have_text("Rematch asked")
    expect(ann.get_by_test_id("result")).to_contain_text(f"waiting for {bob_name}")
    bob.click("[data-action=rematch]")
    for page in (ann, bob):
        page.wait_for_function("(r) => window.gamehall && window.gamehall.room.state && "
                               "window.gamehall.room.state.rematch_of === r", arg=room)
    assert ann.url.rsplit("/", 1)[-1] != room
    expect(ann.locator(".seat.mine")).to_have_attribute("data-seat", "1")  # seats moved on
    expect(bob.locator(".seat.mine")).to_have_attribute("data-seat", "0")
    again = state(bob)
    assert again["status"] == "playing" and again["clock"]["control"] == "5+3"
    assert again["options"]["size"] == 5 and again["to_move"] == 0
