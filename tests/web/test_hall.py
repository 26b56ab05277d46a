"""The hall around the boards: the live lobby, two people in two windows, spectators (who never
see a face-down Halali! tile), errors in words, reconnecting, resigning, the replay, phone width."""

from __future__ import annotations

import json
from typing import Any

from playwright.sync_api import Page, expect

from tests.web.conftest import Pages
from tests.web.helpers import (
    create_room,
    enter,
    moves_shown,
    say,
    start_against_bot,
    state,
    wait_my_turn,
    wait_version_above,
)


def _click_legal_cell(page: Page, index: int = 0) -> str:
    cells = page.locator("[data-game=hula] .cell.legal")
    cell = cells.nth(index % cells.count())
    name = cell.get_attribute("data-cell")
    assert name
    cell.click()
    return name


def test_two_people_meet_in_the_lobby_and_play_in_two_windows(pages: Pages) -> None:
    ann = pages.new()
    enter(ann, "ann")
    bob = pages.new()
    bob_name = enter(bob, "bob")
    room = create_room(ann, "hula", size=5)
    # bob's lobby shows the new room without a reload, with ann in the first seat
    row = bob.locator(f"tr[data-room='{room}']")
    expect(row).to_contain_text("waiting")
    expect(row).to_contain_text("first: ann")
    row.locator("text=Join").click()
    expect(bob.locator(".seat.mine")).to_have_attribute("data-seat-name", "second")
    expect(ann.locator("[data-seat-name=second]")).to_contain_text(bob_name)
    ann.click("[data-action=start]")
    players = [ann, bob]
    for turn in range(4):
        mover, other = players[turn % 2], players[(turn + 1) % 2]
        st = wait_my_turn(mover)
        name = _click_legal_cell(mover, turn * 3)
        wait_version_above(other, st["version"])
        for page in (mover, other):
            expect(page.locator(f"[data-cell={name}]")).not_to_have_attribute("data-stone", "empty")
            assert moves_shown(page)[-1] == name
    expect(bob.locator(f"tr[data-room='{room}']")).to_have_count(0)  # bob is in the room now
    bob.goto(pages.hall.url)
    expect(bob.locator(f"tr[data-room='{room}']")).to_contain_text("playing")


def test_a_spectator_never_sees_a_face_down_tile(pages: Pages) -> None:
    player = pages.new()
    enter(player, "hunter")
    room = create_room(player, "halali")
    start_against_bot(player)
    frames: list[dict[str, Any]] = []
    watcher = pages.new()  # no nickname: an anonymous spectator
    watcher.on("websocket", lambda ws: ws.on(
        "framereceived", lambda payload: frames.append(json.loads(payload))))
    watcher.goto(f"{pages.hall.url}#/room/{room}")
    expect(watcher.locator("[data-game=halali]")).to_have_count(1)
    for _ in range(4):
        st = wait_my_turn(player)
        flip = next(e["cell"] for e in st["legal"] if e["kind"] == "flip")
        player.click(f".tile[data-at={flip}]")
        wait_version_above(watcher, st["version"])
        _check_no_face_down_shown(watcher)
    states = [f for f in frames if f.get("type") == "state"]
    assert states, "the spectator received no state"
    for frame in states:
        assert frame["seat"] is None and frame["legal_moves"] == []
        board = " ".join(frame["view"]["board"]).split()
        # a face-down square is only ever "?", and the counts left are the public ones
        assert sum(t == "?" for t in board) == sum(frame["view"]["unrevealed"].values())


def _check_no_face_down_shown(page: Page) -> None:
    """Compare the drawn board with the state the page holds, in one go inside the page."""
    problems = page.evaluate("""() => {
        const st = window.gamehall.room.state;
        const out = [];
        const hidden = [];
        st.view.board.forEach((row, r) => row.split(/\\s+/).forEach((tok, f) => {
            if (tok === "?") hidden.push("abcdefg"[f] + (7 - r));
        }));
        const down = [...document.querySelectorAll(".tile.down")].map((el) => el.dataset.at);
        if (down.sort().join() !== [...hidden].sort().join()) out.push("backs differ: " + down);
        for (const sq of hidden) {
            const el = document.querySelector(`.tile[data-at="${sq}"]`);
            if (!el || el.hasAttribute("data-token") || el.querySelector("text")) out.push(sq);
        }
        return out;
    }""")
    assert problems == [], problems


def test_errors_in_words_reconnect_resign_and_replay(pages: Pages) -> None:
    page = pages.new()
    enter(page)
    create_room(page, "hula", size=5)
    say(page, "/bot random 9")
    expect(page.locator(".chat-log .line.error")).to_contain_text("no seat")
    expect(page.locator(".toast.error")).to_contain_text("no seat")
    say(page, "/frobnicate")
    expect(page.locator(".chat-log .line.error").last).to_contain_text("no command /frobnicate")
    start_against_bot(page)
    for turn in range(2):
        st = wait_my_turn(page)
        _click_legal_cell(page, turn)
        wait_version_above(page, st["version"])
    # a dropped connection comes back by itself, and play goes on
    page.evaluate("window.gamehall.room.conn.drop()")
    expect(page.get_by_test_id("connection")).to_have_text("offline")
    expect(page.get_by_test_id("connection")).to_have_text("online", timeout=10000)
    st = wait_my_turn(page)
    _click_legal_cell(page, 5)
    st = wait_version_above(page, st["version"])
    wait_my_turn(page)
    page.once("dialog", lambda dialog: dialog.accept())
    page.click("[data-action=resign]")
    expect(page.get_by_test_id("result")).to_contain_text("resigned")
    final = state(page)
    total = final["version"]
    # a stone for every move but the pie rule's swap (the random bot answers one in about 19)
    placed = [sum(m["move"] != "swap" for m in final["moves"][:k]) for k in range(total + 1)]
    assert _stones(page) == placed[total]
    page.click("[data-action=replay]")
    expect(page.get_by_test_id("replay-step")).to_have_text(f"{total} / {total}")
    page.click("[data-replay=back]")
    expect(page.get_by_test_id("replay-step")).to_have_text(f"{total - 1} / {total}")
    assert _stones(page) == placed[total - 1]
    page.click("[data-replay=first]")
    expect(page.get_by_test_id("replay-step")).to_have_text(f"0 / {total}")
    assert _stones(page) == placed[0] == 0
    page.click("[data-replay=forward]")
    expect(page.get_by_test_id("replay-step")).to_have_text(f"1 / {total}")
    assert _stones(page) == placed[1] == 1
    expect(page.locator("[data-testid=moves] li.current")).to_have_attribute("data-index", "1")
    page.click("[data-replay=close]")
    expect(page.get_by_test_id("replay-bar")).to_be_hidden()
    assert _stones(page) == placed[total]


def _stones(page: Page) -> int:
    return page.locator("[data-game=hula] .cell:not([data-stone=empty]):not([data-stone=centre])"
                        ).count()


def test_phone_width_lobby_and_board(pages: Pages) -> None:
    page = pages.new(width=390, height=844)
    enter(page, "phone")
    assert _fits(page)
    create_room(page, "haugaz", size=6, cake=False)
    start_against_bot(page)
    st = wait_my_turn(page)
    svg = page.locator("svg[data-game=haugaz]").bounding_box()
    assert svg is not None and svg["width"] <= 390 and svg["width"] > 300
    point = next(e["cell"] for e in st["legal"] if e["kind"] == "place")
    page.click(f".point[data-cell={point}] .hit", force=True)
    wait_version_above(page, st["version"])
    expect(page.locator(f".stack[data-at={point}]")).to_have_count(1)
    assert _fits(page)


def _fits(page: Page) -> bool:
    """No sideways scrolling: the page is no wider than the window."""
    return bool(page.evaluate("document.documentElement.scrollWidth <= window.innerWidth + 1"))


def test_1280x800_shows_board_and_side_panel_together(pages: Pages) -> None:
    page = pages.new(width=1280, height=800)
    enter(page)
    create_room(page, "halali")
    expect(page.locator("svg[data-game=halali]")).to_be_visible()
    board = page.locator("svg[data-game=halali]").bounding_box()
    seats = page.get_by_test_id("seats").bounding_box()
    assert board is not None and seats is not None
    assert board["y"] + board["height"] <= 800 and board["width"] >= 450
    assert seats["x"] >= board["x"] + board["width"] - 1  # side by side, not below
    assert _fits(page)


def test_a_hotu_matua_board_from_a_file_is_sent_as_data(pages: Pages, tmp_path: Any) -> None:
    """The options form offers the server's boards and a file of your own, which the page reads
    and sends as the board's JSON (the server never opens a file a client names)."""
    from tests.server.test_live_options import island

    path = tmp_path / "my_island.json"
    path.write_text(json.dumps(island()))
    page = pages.new()
    enter(page)
    page.select_option("select[name=game]", "hotu_matua")
    board = page.locator(".create-form select[name=board]")
    expect(board.locator("option")).to_have_text(["default"])
    page.set_input_files(".create-form input[type=file]", str(path))
    expect(board.locator("option:checked")).to_have_text("file: my_island.json")
    page.click("text=Create room")
    page.wait_for_url("**/#/room/*")
    expect(page.locator(".seat.mine")).to_have_count(1)
    st = state(page)
    assert st["options"]["board"].startswith("Test island")
    assert st["view"]["board"]["name"] == "Test island"


def test_quick_replay_clicks_add_up_while_steps_are_fetched(pages: Pages) -> None:
    """◀ ◀ |◀ ▶ clicked faster than the server answers ends at step 1: each click counts from
    the step last asked for, not from the one still shown (a busy server once left 121 of 122)."""
    page = pages.new()
    enter(page)
    create_room(page, "hula", size=5)
    start_against_bot(page)
    for turn in range(3):
        st = wait_my_turn(page)
        _click_legal_cell(page, turn)
        wait_version_above(page, st["version"])
    wait_my_turn(page)
    page.once("dialog", lambda dialog: dialog.accept())
    page.click("[data-action=resign]")
    expect(page.get_by_test_id("result")).to_contain_text("resigned")
    total = state(page)["version"]
    page.click("[data-action=replay]")
    expect(page.get_by_test_id("replay-step")).to_have_text(f"{total} / {total}")
    # a slow server: each step's answer held back, the later ones less, so they come in reverse
    page.evaluate("""() => { const real = window.fetch; const delays = [1200, 900, 600, 300];
      let i = 0;
      window.fetch = (url, opts) => { const answer = real(url, opts);
        if (!String(url).includes('/replay/')) return answer;
        const ms = delays[i++] || 0;
        return answer.then((r) => new Promise((ok) => setTimeout(() => ok(r), ms))); }; }""")
    for button in ("back", "back", "first", "forward"):
        page.click(f"[data-replay={button}]")
    expect(page.get_by_test_id("replay-step")).to_have_text(f"1 / {total}", timeout=10000)
    assert _stones(page) == 1
