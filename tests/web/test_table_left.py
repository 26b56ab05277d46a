"""What was left of issue 43 after its first pieces, as a person meets it in Chromium: Hula's
seats and colours after the swap read without a clash; a turned Hotu Matua map says which end is
north's, and Escape puts a picked-up ship down; the replay counts turns, not steps; a Haugaz cake
point too near says why it plays nothing; no board's panel runs into the sidebar, in English or
German; `/bot superhard` is answered with the levels."""

from __future__ import annotations

from typing import Any

import httpx
import pytest
from playwright.sync_api import Page, expect

from tests.web.conftest import Pages
from tests.web.helpers import (
    create_room,
    enter,
    say,
    start_against_bot,
    state,
    wait_my_turn,
    wait_version_above,
)
from tests.web.test_page_text import _bots_play


def test_hulas_colours_after_the_swap_are_named_by_their_look(pages: Pages) -> None:
    """After the swap the first seat plays the second colour: the legend names the colours as
    the board draws them (red, blue), never "first"/"second" beside the seat's name, and the
    swatch is the colour the game announces for the seat's stones."""
    with httpx.Client(base_url=pages.hall.url) as http:
        colours = next(g for g in http.get("/api/games").json() if g["name"] == "hula")[
            "seat_colours"
        ]
    ann, bob = pages.new(), pages.new()
    enter(ann, "ann")
    enter(bob, "bob")
    room = create_room(ann, "hula", size=5)
    bob.goto(f"{pages.hall.url}#/room/{room}/join")
    expect(bob.locator(".seat.mine")).to_have_attribute("data-seat-name", "second")
    ann.click("[data-action=start]")
    st = wait_my_turn(ann)
    ann.locator("[data-game=hula] .cell.legal").first.click()
    wait_my_turn(bob)
    bob.click(".board-wrap [data-move=swap]")
    wait_version_above(ann, st["version"] + 1)
    wait_my_turn(ann)
    expect(ann.get_by_test_id("status")).to_have_text("Your move (first).")
    legend = ann.locator(".board-panel .legend li")
    expect(legend.nth(0)).to_contain_text("plays blue — you")
    expect(legend.nth(1)).to_contain_text("plays red")
    for line in (legend.nth(0), legend.nth(1)):
        expect(line).not_to_contain_text("colour")
    swatch = legend.nth(0).locator(".swatch").evaluate("e => getComputedStyle(e).backgroundColor")
    blue = colours["second"].lstrip("#")
    assert swatch == "rgb({}, {}, {})".format(*(int(blue[i : i + 2], 16) for i in (0, 2, 4)))


def _hotu_matua_turn(pages: Pages, **size: int) -> tuple[Page, dict[str, Any]]:
    page = pages.new(**size)
    enter(page)
    create_room(page, "hotu_matua")
    start_against_bot(page)
    st = wait_my_turn(page)
    while not any(e["kind"] == "step" for e in st["legal"]):  # dice first, if they are ours
        page.click(f".board-wrap [data-move='{st['legal'][0]['move']}']")
        wait_version_above(page, st["version"])
        st = wait_my_turn(page)
    return page, st


def test_escape_puts_a_hotu_matua_ship_down(pages: Pages) -> None:
    page, st = _hotu_matua_turn(pages)
    step = next(e for e in st["legal"] if e["kind"] == "step")
    page.click(f".ship[data-ship={step['piece']}]")
    expect(page.locator(f".ship[data-ship={step['piece']}].selected")).to_have_count(1)
    expect(page.locator("polygon.field.target")).not_to_have_count(0)
    page.keyboard.press("Escape")
    expect(page.locator(".ship.selected")).to_have_count(0)
    expect(page.locator("polygon.field.target")).to_have_count(0)
    assert state(page)["version"] == st["version"]  # nothing sent, nothing taken back


def test_a_turned_hotu_matua_map_names_its_ends(pages: Pages) -> None:
    """On a 1280 px screen the map is turned a quarter (north's start fields on the left): each
    end says whose it is, north's name over north's sails, south's over south's; on a phone the
    map stands upright (north at the top) and needs no such label."""
    page, _ = _hotu_matua_turn(pages, width=1280, height=800)

    def x_of(selector: str) -> float:
        box = page.locator(selector).first.bounding_box()
        assert box, selector
        return float(box["x"] + box["width"] / 2)

    for side in ("north", "south"):
        label = page.locator(f"[data-side-label={side}]")
        expect(label).to_be_visible()
        expect(label).to_contain_text(side)
    middle = x_of("svg[data-game=hotu_matua]")
    assert x_of("[data-side-label=north]") < middle < x_of("[data-side-label=south]")
    assert x_of("[data-sail=north]") < middle < x_of("[data-sail=south]")
    phone, _ = _hotu_matua_turn(pages, width=390, height=844)
    expect(phone.locator("[data-side-label]")).to_have_count(0)
    north = phone.locator("[data-sail=north]").first.bounding_box()
    south = phone.locator("[data-sail=south]").first.bounding_box()
    assert north and south and north["y"] < south["y"]


def test_the_replay_counts_turns_not_steps(pages: Pages) -> None:
    """A Hotu Matua game of 3 turns has some 20 steps (rolls and ship moves): the replay says
    "3 / 3" and steps turn by turn, each showing the position after a whole turn; a review's
    jump into a turn says which step of it is shown."""
    page = pages.new(width=1280, height=800)
    enter(page, "watch")
    st = _bots_play(page, "hotu_matua", turn_limit=3)
    moves = st["moves"]
    ends = [max(i + 1 for i, m in enumerate(moves) if m["turn"] == k) for k in (1, 2, 3)]
    assert len(moves) > 3
    page.click("[data-action=replay]")
    label = page.get_by_test_id("replay-step")
    expect(label).to_have_text("3 / 3")
    expect(page.get_by_test_id("status")).to_have_text("Replay: after turn 3 of 3")
    page.click("[data-replay=back]")
    expect(label).to_have_text("2 / 3")
    assert page.evaluate("window.gamehall.room.replay.step") == ends[1]
    page.click("[data-replay=first]")
    expect(label).to_have_text("0 / 3")
    page.keyboard.press("ArrowRight")
    expect(label).to_have_text("1 / 3")
    assert page.evaluate("window.gamehall.room.replay.step") == ends[0]
    page.evaluate(f"window.gamehall.room.replay.go({ends[0] + 2})")  # as a review's mark does
    expect(label).to_have_text(f"2 / 3 (step 2 of {ends[1] - ends[0]})")
    page.click("[data-replay=forward]")
    expect(label).to_have_text("2 / 3")


def test_a_haugaz_cake_point_too_near_says_why(pages: Pages) -> None:
    """The white cake stack must keep its distance from the black one: a click on a point too
    near plays nothing and says why, in words, on the board's panel."""
    page = pages.new()
    enter(page)
    create_room(page, "haugaz", size=6)
    start_against_bot(page)
    st = wait_my_turn(page)
    black = next(e["cell"] for e in st["legal"] if e.get("colour") == "black")
    page.click(f".point[data-cell={black}] .hit", force=True)
    page.wait_for_function(f"() => window.gamehall.room.state.version === {st['version'] + 1}")
    white = {e["cell"] for e in state(page)["legal"]}
    cells = page.locator(".point[data-cell]").evaluate_all("els => els.map((e) => e.dataset.cell)")
    near = next(c for c in cells if c not in white and c != black)
    page.click(f".point[data-cell={near}] .hit", force=True)
    notice = page.get_by_test_id("board-notice")
    expect(notice).to_be_visible()
    expect(notice).to_contain_text(f"{near} is")
    expect(notice).to_contain_text(f"from the black one on {black}")
    assert state(page)["version"] == st["version"] + 1  # nothing more chosen
    page.click(f".point[data-cell={next(iter(white))}] .hit", force=True)  # a fine one
    expect(notice).to_have_count(0)


_PAST_THE_PANEL = """() => {
    const panel = document.querySelector('.board-panel').getBoundingClientRect();
    return [...document.querySelectorAll('.board-panel *')].filter((el) => {
        const box = el.getBoundingClientRect();
        return box.width > 0 && box.right > panel.right + 1;
    }).map((el) => `${el.tagName} ${el.textContent.slice(0, 30)}`);
}"""


@pytest.mark.parametrize("locale", ["en-US", "de-DE"])
def test_nothing_of_a_boards_panel_runs_past_it(pages: Pages, locale: str) -> None:
    """The panel beside each board at 1280 px, in English and German: no header or cell of its
    tables reaches past its right edge into the sidebar (Halali!'s "Plättchen" did)."""
    page = pages.new(locale=locale)
    enter(page, "wide", button="Die Halle betreten" if locale == "de-DE" else "Enter the hall")
    for game in ("hula", "haugaz", "halali", "hotu_matua", "hau_la"):
        if "#/room/" in page.url:
            page.click("a.back")
        create_room(page, game)
        start_against_bot(page)
        wait_my_turn(page, timeout=30000)
        assert page.evaluate(_PAST_THE_PANEL) == [], game


@pytest.mark.parametrize("locale", ["en-US", "de-DE"])
def test_bot_with_an_unknown_level_names_the_levels_in_the_chat(pages: Pages, locale: str) -> None:
    page = pages.new(locale=locale)
    enter(page, "lvl", button="Die Halle betreten" if locale == "de-DE" else "Enter the hall")
    create_room(page, "hula")
    say(page, "/bot superhard")
    line = page.locator(".chat-log .line.error").last
    expect(line).to_contain_text("superhard")
    expect(line).to_contain_text("easy, medium, hard")
    expect(page.locator(".seat .occupant", has_text="bot")).to_have_count(0)


def test_asking_for_a_hint_again_in_the_same_position_is_free(pages: Pages) -> None:
    """Twelve presses of Hint in one position, past the hall's 10 hints a minute: each is
    answered with the same move in words (the position was thought out once), none refused."""
    page = pages.new()
    enter(page)
    create_room(page, "hula")
    start_against_bot(page)
    wait_my_turn(page)
    button = page.locator("[data-action=hint]")
    shown = page.get_by_test_id("hint-move")
    said = set()
    for _ in range(12):
        button.click()
        expect(button).to_be_enabled(timeout=30000)
        expect(shown).to_contain_text("Hint: place a stone on ")
        said.add(shown.inner_text())
    assert len(said) == 1
    expect(page.locator(".toast.error")).to_have_count(0)


_OUTLINED = """() => [...document.querySelectorAll('#app *')].filter((el) => {
    const style = getComputedStyle(el);
    return style.outlineStyle !== 'none' && parseFloat(style.outlineWidth) > 0
        && el.getBoundingClientRect().width > 0;
}).map((el) => `${el.tagName}.${el.className} ${el.textContent.slice(0, 30)}`)"""


def test_no_outline_round_the_instructions(pages: Pages) -> None:
    """A player's turn in each game, no hint asked, nothing focused: no element of the room
    wears an outline, a piece picked up or not (the instruction line beside the board, of class
    "hint", wore the ring meant for a hinted move once the panel was drawn for a picked-up
    piece)."""
    page = pages.new()
    enter(page)
    for game in ("hula", "haugaz", "halali", "hau_la"):
        if "#/room/" in page.url:
            page.click("a.back")
        create_room(page, game)
        start_against_bot(page)
        wait_my_turn(page, timeout=30000)
        page.evaluate("document.activeElement && document.activeElement.blur()")
        assert page.evaluate(_OUTLINED) == [], game
    ships, st = _hotu_matua_turn(pages)
    step = next(e for e in st["legal"] if e["kind"] == "step")
    ships.click(f".ship[data-ship={step['piece']}]")
    instructions = ships.locator(".board-panel p", has_text="a lit field for")
    expect(instructions).to_be_visible()
    assert ships.evaluate(_OUTLINED) == []


def _served_version(page: Page) -> int:
    return int(page.evaluate("window.gamehall.room.served.version"))


def test_a_hau_la_turn_asks_for_one_confirmation_and_steps_are_taken_back(pages: Pages) -> None:
    """On a phone, by taps: each step of a placement (piece, holes, side or rotation, tag) is
    shown and not played until the turn is sent; Back takes the last one back; a whole turn asks
    for one confirmation (the tag's), where it took one per side, rotation and tag."""
    page = pages.new(width=390, height=844, touch=True)
    enter(page)
    create_room(page, "hau_la")
    start_against_bot(page)
    st = wait_my_turn(page, timeout=30000)
    kinds: list[str] = []
    confirmations = 0
    taken_back = False
    # until a whole placement with a side or rotation step (a first turn is a tag alone; a
    # joint may have one way to plug in only)
    while not (kinds and kinds[-1] == "tag" and {"sides", "rotation"} & set(kinds)):
        if kinds and kinds[-1] == "tag":  # the next turn
            st = wait_my_turn(page, timeout=30000)
            kinds, confirmations = [], 0
        served = _served_version(page)
        ends = [e for e in st["legal"] if e["kind"] == "piece" and e["move"] in ("BE", "SE")]
        entry = (ends or st["legal"])[0]  # an end is turned, then plugged in by a face
        kinds.append(entry["kind"])
        if entry["kind"] == "hole":
            at = page.evaluate(f"window.gamehall.room.board.screenOf({entry['move']!r})")
            page.touchscreen.tap(at["x"], at["y"])
        elif entry["kind"] in ("sides", "rotation", "tag"):
            page.locator(f".step-box [data-choice='{entry['move']}']").tap()
        else:
            page.locator(f".step-box [data-move='{entry['move']}']").tap()
        if entry["kind"] == "tag":
            confirm = page.locator("[data-action=confirm]")
            expect(confirm).to_have_attribute("data-confirm", entry["move"])
            assert _served_version(page) == served
            confirm.tap()
            confirmations += 1
            st = wait_version_above(page, st["version"])
            continue
        expect(page.locator("[data-action=confirm]")).to_have_count(0)
        st = wait_version_above(page, st["version"])
        assert st.get("composing") and _served_version(page) == served  # shown, not played
        if not taken_back and entry["kind"] in ("hole", "sides", "rotation"):
            page.locator("[data-action=turn-back]").tap()  # Back: the step before again
            page.wait_for_function(
                f"() => window.gamehall.room.state.version === {st['version'] - 1}"
            )
            st = state(page)
            assert st["legal"][0]["kind"] == entry["kind"]
            kinds.pop()
            taken_back = True
    assert taken_back and confirmations == 1, (kinds, confirmations)


def test_a_hotu_matua_turn_is_composed_and_taken_back(pages: Pages) -> None:
    """After the roll (chance, played as it is), a ship's step is shown and not played, Back
    puts the ship back, and the turn goes to the server whole when it ends."""
    page, st = _hotu_matua_turn(pages)
    served = _served_version(page)
    step = next(e for e in st["legal"] if e["kind"] == "step")
    ship = page.locator(f".ship[data-ship={step['piece']}]")
    home = ship.get_attribute("data-at")
    ship.click()
    page.click(f"polygon[data-cell={step['to']}]", force=True)
    st = wait_version_above(page, st["version"])
    assert st.get("composing") and _served_version(page) == served
    expect(ship).to_have_attribute("data-at", step["to"])
    expect(page.locator("[data-testid=moves] .step.pending")).to_have_count(1)
    page.click("[data-action=turn-back]")
    expect(ship).to_have_attribute("data-at", str(home))
    expect(page.locator("[data-testid=moves] .step.pending")).to_have_count(0)
    assert _served_version(page) == served
    ship.click()  # again, then the end of the turn: all of it sent
    page.click(f"polygon[data-cell={step['to']}]", force=True)
    st = wait_version_above(page, served)
    if st["status"] == "playing" and st.get("composing"):
        page.click(".board-wrap [data-move=end]")
    page.wait_for_function(f"() => window.gamehall.room.served.version > {served}")
    moves = page.evaluate("window.gamehall.room.served.moves")
    assert moves[served]["move"] == step["move"]
    seat = st["seat"]
    assert len({m["turn"] for m in moves[served:] if m["seat"] == seat}) == 1  # one turn


NO_STACK_LEFT = {"en-US": "has no stack left", "de-DE": "hat keinen Stapel mehr"}


@pytest.mark.parametrize("locale", ["en-US", "de-DE"])
def test_haugazs_end_names_the_deciding_heights_only(pages: Pages, locale: str) -> None:
    """Two bots play Haugaz to the end: the result names the comparison that decided (the
    winner's first), never every height of both sides, in English and German; a side left
    without a stack is said to be so (random bots end that way now and then)."""
    from gamehall.games.haugaz.scoring import deciding

    page = pages.new(locale=locale)
    enter(page, "watch", button="Die Halle betreten" if locale == "de-DE" else "Enter the hall")
    st = _bots_play(page, "haugaz", size=6)
    heights = st["view"]["heights"]  # type: ignore[index]
    black, white = heights["black"], heights["white"]
    decision = deciding(black, white, str(st["options"]["objective"]))  # type: ignore[index]
    outcome = page.get_by_test_id("outcome")
    if decision.kind == "more" and not decision.alike:  # a side with no stack left: said so
        expect(outcome).to_contain_text(NO_STACK_LEFT[locale])
    elif decision.kind in ("taller", "count", "more"):
        expect(outcome).to_contain_text(f"{decision.won} ")
        expect(outcome).to_contain_text(f" {decision.lost}")
    for side in (black, white):
        if len(side) > len(decision.alike) + 1:  # a whole list of heights is never said
            expect(outcome).not_to_contain_text(" ".join(map(str, side)))
    said = outcome.inner_text()
    assert len([w for w in said.replace("(", " ").replace(")", " ").split() if w.isdigit()]) <= (
        len(decision.alike) + 2
    ), said
