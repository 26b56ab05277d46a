"""The page in words, in Chromium: how to play each game, whose turn it is (title, icon, sound),
results with names, move lists of one line per turn with whole numbers, and the small defects
found by playing (watchers told to press Start, a chat without a nickname, raw options, the bot
menu's default, the /help table, Hotu Matua's turn line after the end)."""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from tests.web.conftest import Pages
from tests.web.helpers import create_room, enter, say, state, wait_my_turn, wait_version_above

GAMES = {"halali": "Halali!", "hau_la": "Hau La", "haugaz": "Haugaz",
         "hotu_matua": "Hotu Matua", "hula": "Hula"}


@pytest.fixture()
def shots(tmp_path: Path) -> Path:
    """Where the screenshots go: GAMEHALL_SHOTS when set (to look at them), else a temp dir."""
    folder = Path(os.environ.get("GAMEHALL_SHOTS") or tmp_path)
    folder.mkdir(parents=True, exist_ok=True)
    return folder


def _fits(page: Page) -> bool:
    return bool(page.evaluate("document.documentElement.scrollWidth <= window.innerWidth + 1"))


def test_every_game_has_a_rules_page_linked_from_the_lobby_and_the_room(
        pages: Pages, shots: Path) -> None:
    page = pages.new(width=1280, height=900)
    header = page.locator("#games-line a")
    expect(header.first).to_be_visible()
    menu = page.locator("select[name=game] option")
    expect(menu.first).to_be_attached()
    titles = header.all_inner_texts()
    assert menu.all_inner_texts() == titles, "the game menu lists the games as the header does"
    assert set(GAMES.values()) <= set(titles)
    link = page.get_by_test_id("rules-link")
    first = page.eval_on_selector("select[name=game]", "e => e.value")
    expect(link).to_have_attribute("href", f"#/rules/{first}")
    page.select_option("select[name=game]", "hotu_matua")
    expect(link).to_have_attribute("href", "#/rules/hotu_matua")
    expect(link).to_have_text("How to play Hotu Matua")
    for name, title in GAMES.items():
        page.goto(f"{pages.hall.url}#/rules/{name}")
        rules = page.locator(f"[data-testid=rules][data-game={name}]")
        expect(rules.locator("h2")).to_have_text(f"How to play {title}")
        expect(rules.locator("h3", has_text="Your turn")).to_be_visible()
        pictures = rules.locator("[data-testid=rules-pictures] img")
        expect(pictures).to_have_count(2)
        page.wait_for_function("""() => [...document.querySelectorAll('.rules-picture img')]
            .every((img) => img.complete && img.naturalWidth > 0)""")
        expect(page.locator(".rules-nav a.current")).to_have_text(title)
        assert page.title() == f"How to play {title} · gamehall"
        assert _fits(page)
        page.screenshot(path=str(shots / f"rules-{name}-1280.png"), full_page=True)
    # no markup from the text leaks onto the page
    assert "**" not in page.locator("[data-testid=rules]").inner_text()
    phone = pages.new(width=390, height=844)
    phone.goto(f"{pages.hall.url}#/rules/halali")
    expect(phone.locator("[data-testid=rules] h2")).to_have_text("How to play Halali!")
    assert _fits(phone)
    phone.screenshot(path=str(shots / "rules-halali-390.png"), full_page=True)
    # every room links to its game's rules
    page.goto(f"{pages.hall.url}#/")
    enter(page)
    create_room(page, "haugaz", size=6)
    room_link = page.locator(".room-head [data-testid=rules-link]")
    expect(room_link).to_have_attribute("href", "#/rules/haugaz")
    room_link.click()
    expect(page.locator("[data-testid=rules] h2")).to_have_text("How to play Haugaz")
    # the lobby lists a room's options in words, those that differ from the game's defaults
    page.click("a.back")
    row = page.locator("tr[data-game=haugaz]").first
    expect(row).to_contain_text("board size: 6")
    expect(row).not_to_contain_text("cake")
    expect(row).not_to_contain_text("size 6")


def test_your_turn_title_icon_sound_and_results_in_words(pages: Pages, shots: Path) -> None:
    ann = pages.new()
    ann_name = enter(ann, "ann")
    room = create_room(ann, "hula", size=5)
    bea = pages.new()
    bea_name = enter(bea, "bea")
    bea.goto(f"{pages.hall.url}#/room/{room}/join")
    expect(bea.locator(".seat.mine")).to_have_count(1)
    # an anonymous watcher of the full waiting room is not told to press Start ...
    watcher = pages.new()
    watcher.goto(f"{pages.hall.url}#/room/{room}")
    status = watcher.get_by_test_id("status")
    expect(status).to_contain_text("Every seat is taken")
    expect(status).not_to_contain_text("Start")
    # ... and chatting without a nickname asks for one, in words, at the nickname box
    say(watcher, "hello")
    expect(watcher.get_by_test_id("chat-log")).to_contain_text("Pick a nickname to chat")
    expect(watcher.get_by_test_id("chat-log")).not_to_contain_text("POST /api/session")
    assert watcher.evaluate("document.activeElement.name") == "nickname"
    # the bot menu starts on the level /bot seats
    expect(ann.locator("select.bot-level")).to_have_value("medium")
    # bea turns the sound on (it is off by default): remembered in this browser
    ann_sound = ann.locator("[data-action=turn-sound]")
    expect(ann_sound).not_to_be_checked()
    bea.locator("[data-action=turn-sound]").check()
    bea.reload()
    expect(bea.locator("[data-action=turn-sound]")).to_be_checked()
    sounds = "() => Number(document.documentElement.dataset.turnSounds || 0)"
    before = bea.evaluate(sounds)
    ann.click("[data-action=start]")
    ann.wait_for_function("() => window.gamehall.room.state.status === 'playing'")
    st = wait_my_turn(ann)
    mover, other = (ann, bea) if st["seat"] == st["to_move"] else (bea, ann)
    wait_my_turn(mover)
    expect(mover).to_have_title("● Your move · Hula · gamehall")
    expect(mover.locator("link[rel=icon]")).to_have_attribute("data-turn", "mine")
    expect(other.locator("link[rel=icon]")).to_have_attribute("data-turn", "idle")
    # the icon was idle before the start too: the title says when `other` has the game's state
    expect(other).to_have_title(re.compile(r"^[^●]*to move · Hula · gamehall$"))
    st = state(mover)
    mover.locator("[data-game=hula] .cell.legal").first.click()
    wait_version_above(other, st["version"])
    expect(other).to_have_title("● Your move · Hula · gamehall")
    expect(mover.locator("link[rel=icon]")).to_have_attribute("data-turn", "idle")
    if other is bea:
        bea.wait_for_function(f"() => ({sounds})() > {before}")
    assert ann.evaluate(sounds) == 0, "no sound unless asked for"
    # bea resigns: ann won, bea lost, the watcher reads names
    if state(bea)["to_move"] != state(bea)["seat"]:
        wait_my_turn(bea)
    bea.once("dialog", lambda dialog: dialog.accept())
    bea.click("[data-action=resign]")
    expect(ann.get_by_test_id("result-words")).to_have_text("You won")
    expect(bea.get_by_test_id("result-words")).to_have_text("You lost")
    expect(watcher.get_by_test_id("result-words")).to_have_text(f"{ann_name} won")
    expect(watcher.get_by_test_id("outcome")).to_contain_text(f"{bea_name} resigned")
    for page in (ann, bea, watcher):
        expect(page.get_by_test_id("result")).not_to_contain_text(": -1")
        expect(page.get_by_test_id("result")).not_to_contain_text(": 1")
    expect(ann).to_have_title("Game over: You won · Hula · gamehall")
    expect(bea).to_have_title("Game over: You lost · Hula · gamehall")
    expect(ann.locator("link[rel=icon]")).to_have_attribute("data-turn", "idle")
    ann.screenshot(path=str(shots / "room-hula-result-1280.png"))
    # with the game's scores, the winner's first; a draw says so
    words = ann.evaluate("""async () => {
        const { resultWords } = await import('/js/words.js');
        const seats = [{ name: 'humans', player: 'ann' }, { name: 'beasts', player: 'bea' }];
        const base = { seats, status: 'finished', result: [-1, 1], scores: [11, 12] };
        return [resultWords({ ...base, seat: null }), resultWords({ ...base, seat: 0 }),
                resultWords({ ...base, seat: 1 }),
                resultWords({ ...base, seat: null, result: [0, 0], scores: [9, 9] }),
                resultWords({ ...base, seat: null, scores: null,
                              seats: [{ name: 'humans', player: null }, seats[1]] }),
                resultWords({ ...base, seat: null, ended_by: 'resign', scores: [12, 3] })];
    }""")
    assert words == ["bea won 12 to 11", "You lost 12 to 11", "You won 12 to 11", "Draw 9 to 9",
                     "bea won", "bea won"]
    # the game's sentence names the players where it names a seat; its own terms stay
    sentences = ann.evaluate("""async () => {
        const { outcomeWords } = await import('/js/words.js');
        const seats = [{ name: 'first', player: 'ann' }, { name: 'second', player: 'bea' }];
        const bots = [{ name: 'north', player: 'random bot' },
                      { name: 'south', player: 'random bot' }];
        return [
          outcomeWords({ seats, outcome: 'second (second colour) wins with a loop' }),
          outcomeWords({ seats, outcome: 'Black (first) wins — two passes in a row' }),
          outcomeWords({ seats, outcome: 'second resigned: first wins' }),
          outcomeWords({ seats: bots, outcome: 'north wins (three pearls; 3-1 in pearls)' }),
        ];
    }""")
    assert sentences == ["bea (second colour) wins with a loop",
                         "Black (ann) wins — two passes in a row", "bea resigned: ann wins",
                         "Random bot (north) wins (three pearls; 3-1 in pearls)"]
    expect(ann.get_by_test_id("outcome")).to_have_text(f"{bea_name} resigned: {ann_name} wins")
    ann.click("a.back")  # the lobby's line for the room names them too
    expect(ann.locator("select[name=status], select[aria-label='show rooms']")).to_be_visible()
    ann.select_option("select[aria-label='show rooms']", "finished")
    expect(ann.locator(f"tr[data-room='{room}']")).to_contain_text(
        f"{bea_name} resigned: {ann_name} wins")


def _bots_play(page: Page, game: str, **options: object) -> dict[str, object]:
    """Create a room, give both seats to random bots, start, and watch to the end."""
    if "#/room/" in page.url:
        page.click("a.back")  # to the lobby
    expect(page.locator(".create-form select[name=game] option").first).to_be_attached()
    create_room(page, game, **options)
    page.click("[data-action=leave]")
    expect(page.locator(".seat.mine")).to_have_count(0)
    page.select_option("select.bot-level", "random")
    for seat in (0, 1):
        page.locator(f".seat[data-seat='{seat}'] [data-action=bot]").click()
        expect(page.locator(f".seat[data-seat='{seat}'] .tag", has_text="bot")).to_have_count(1)
    page.click("[data-action=start]")
    page.wait_for_function("() => window.gamehall.room.state.status === 'finished'",
                           timeout=120000)
    return state(page)


def test_a_long_game_shows_whole_turn_numbers_in_play_and_in_replay(
        pages: Pages, shots: Path) -> None:
    """Two bots play Hula on the largest board (100 turns or more in 98% of random games; up to
    three tries): '100.' shows whole, in the replay too, and the replay at step 0 is scrolled to
    the top of the list."""
    page = pages.new(width=1280, height=800)
    enter(page, "watch")
    for _ in range(3):
        st = _bots_play(page, "hula", size=7)
        if len(st["moves"]) >= 100:  # type: ignore[arg-type]
            break
    turns = page.locator("[data-testid=moves] li")
    assert turns.count() == len(st["moves"]) >= 100  # type: ignore[arg-type]
    hundredth = page.locator("[data-testid=moves] li[data-turn='100']")
    hundredth.scroll_into_view_if_needed()
    expect(hundredth.locator(".num")).to_have_text("100.")
    _whole(page, "[data-testid=moves] li[data-turn='100']")
    expect(page.get_by_test_id("result-words")).to_contain_text(" won")
    page.screenshot(path=str(shots / "room-hula-long-1280.png"))
    page.click("[data-action=replay]")
    expect(page.locator("[data-testid=moves] li.current")).to_have_attribute(
        "data-turn", str(turns.count()))
    _whole(page, "[data-testid=moves] li.current")
    page.click("[data-replay=first]")
    expect(page.get_by_test_id("replay-step")).to_have_text(f"0 / {turns.count()}")
    expect(page.locator("[data-testid=moves] li.current")).to_have_count(0)
    page.wait_for_function("() => document.querySelector('[data-testid=moves]').scrollTop === 0")
    page.click("[data-replay=forward]")
    expect(page.locator("[data-testid=moves] li.current")).to_have_attribute("data-turn", "1")
    page.screenshot(path=str(shots / "room-hula-replay-1280.png"))


def test_hotu_matua_turns_are_one_line_and_the_board_knows_the_game_is_over(
        pages: Pages, shots: Path) -> None:
    page = pages.new(width=1280, height=800)
    enter(page, "watch")
    st = _bots_play(page, "hotu_matua", turn_limit=3)
    lines = page.locator("[data-testid=moves] li")
    expect(lines).to_have_count(3)
    for k in range(3):
        text = lines.nth(k).locator(".notation").inner_text()
        assert text.startswith("roll ") and text.count("roll") == 1, text
    assert lines.count() * 5 <= len(st["moves"])  # type: ignore[arg-type]
    # both seats hold a "random bot": the seat's name tells them apart. A turn whose roll left
    # no die usable ends with no move of its seat (a first turn in 32: no 1 and no 4 among five
    # dice); its line still names the seat whose roll it was (the roll's `for`)
    names = [seat["name"] for seat in st["seats"]]  # type: ignore[attr-defined]
    assert names == ["north", "south"]
    for k in range(3):
        turn = [m for m in st["moves"] if m["turn"] == k + 1]  # type: ignore[attr-defined]
        movers = [m["seat"] for m in turn if m["seat"] is not None]
        movers += [m["for"] for m in turn if m["seat"] is None and m.get("for") is not None]
        who = f"Random bot ({names[movers[0]]})" if movers else "chance"
        expect(lines.nth(k).locator(".who")).to_have_text(who)
    expect(page.get_by_test_id("turn-line")).to_have_text("Game over after 3 turns.")
    board = page.get_by_test_id("board")
    expect(board).not_to_contain_text("to play")
    expect(board).not_to_contain_text("Unused dice")
    options = page.get_by_test_id("room-options")
    expect(options).to_contain_text("turn limit: 3")
    expect(options).to_contain_text("map: the shipped map")
    expect(options).not_to_contain_text("turn_limit")
    page.screenshot(path=str(shots / "room-hotu-matua-over-1280.png"))


def _whole(page: Page, line: str) -> None:
    """The line's number (the line by its selector) is inside the list and not cut: its text fits
    its box. Checked in the page until it holds: the list is drawn anew on every state and step,
    so a line found first may be detached by the time it is measured."""
    page.wait_for_function(
        """(sel) => { const num = document.querySelector(sel + ' .num');
                      const list = num && num.closest('ol');
                      if (!list) return false;
                      const outer = list.getBoundingClientRect(), box = num.getBoundingClientRect();
                      return num.scrollWidth <= num.clientWidth + 1 && box.left >= outer.left
                             && box.right <= outer.right; }""", arg=line)


def test_the_help_table_lines_up(pages: Pages) -> None:
    page = pages.new()
    enter(page)
    create_room(page, "hula", size=5)
    page.click("[data-action=help]")
    table = page.locator("[data-testid=chat-log] table.columns")
    expect(table).to_have_count(1)
    rows = table.locator("tr")
    assert rows.count() >= 10
    lefts = {round(box["x"]) for box in (c.bounding_box() for c in
                                         table.locator("td:nth-child(2)").all()) if box}
    assert len(lefts) == 1, "the descriptions start in one column"
    expect(rows.first.locator("td").first).to_have_text("/join [seat]")
