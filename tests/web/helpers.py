"""What a person does in the hall, as Playwright steps: pick a nickname, create a room, type in the
chat, wait for a turn, click and drag on a board (real mouse events at real coordinates)."""

from __future__ import annotations

import itertools
from typing import Any

from playwright.sync_api import Page, expect

_names = itertools.count(1)


def enter(page: Page, prefix: str = "ann", button: str = "Enter the hall") -> str:
    """Pick a fresh nickname in the lobby (`button`: the lobby's button in the page's language);
    returns it."""
    nickname = f"{prefix}{next(_names)}"
    page.fill("input[name=nickname]", nickname)
    page.get_by_role("button", name=button).click()
    expect(page.get_by_test_id("me")).to_have_text(nickname)
    return nickname


def create_room(page: Page, game: str, **options: Any) -> str:
    """Create a room through the lobby form (options set in the generated fields); the page
    then opens the room and takes the first free seat. Returns the room id."""
    page.select_option("select[name=game]", game)
    for name, value in options.items():
        field = page.locator(f".create-form [name={name}]")
        if isinstance(value, bool):
            field.set_checked(value)
        elif field.evaluate("el => el.tagName") == "SELECT":
            field.select_option(str(value))
        else:
            field.fill(str(value))
    page.click(".create-form button[type=submit]")  # "Create room" in any language
    page.wait_for_url("**/#/room/*")
    expect(page.locator(".seat.mine")).to_have_count(1)
    return page.url.rsplit("/", 1)[-1]


def say(page: Page, text: str) -> None:
    """Type a line (or a slash command) into the chat and send it."""
    page.fill("input[name=chat]", text)
    page.press("input[name=chat]", "Enter")


def state(page: Page) -> dict[str, Any]:
    """The latest state message the page received."""
    data = page.evaluate("window.gamehall.room.state")
    assert isinstance(data, dict)
    return data


# The room's latest state, once the board is mounted. A state can come before the board's module
# has loaded (Hau La's three.js, Halali!'s pictures, a busy machine); the board draws every state
# in the task that brought it, so once `room.board` is there the board shows the state read here
# (outside a replay, where no test waits for a turn).
_DRAWN = """(() => { const room = window.gamehall && window.gamehall.room;
                     return room && room.board ? room.state : null; })()"""


def wait_my_turn(page: Page, timeout: float = 20000) -> dict[str, Any]:
    """Wait until this page may move (or the game is over), the state drawn on the board;
    returns the state."""
    page.wait_for_function(
        f"""() => {{ const s = {_DRAWN};
                   return s && (s.status === 'finished' || (s.status === 'playing'
                     && s.to_move === s.seat && s.legal_moves.length)); }}""",
        timeout=timeout)
    return state(page)


def wait_version_above(page: Page, version: int, timeout: float = 15000) -> dict[str, Any]:
    """Wait until the page has seen a state with more moves than `version`, drawn on the
    board."""
    page.wait_for_function(f"() => {{ const s = {_DRAWN}; return s && s.version > {version}; }}",
                           timeout=timeout)
    return state(page)


def start_against_bot(page: Page) -> None:
    """Seat a random bot with a typed command, then press Start; wait for the game to begin."""
    say(page, "/bot random")
    expect(page.locator(".seat .occupant", has_text="bot")).to_have_count(1)
    page.click("[data-action=start]")
    page.wait_for_function("() => window.gamehall.room.state.status === 'playing'")


def centre(page: Page, selector: str) -> tuple[float, float]:
    box = page.locator(selector).first.bounding_box()
    assert box is not None, f"{selector} is not on the screen"
    return box["x"] + box["width"] / 2, box["y"] + box["height"] / 2


def drag(page: Page, source: str, target: str) -> None:
    """Press on `source`, move in steps to `target` and release (mouse, so pointer events)."""
    x, y = centre(page, source)
    tx, ty = centre(page, target)
    page.mouse.move(x, y)
    page.mouse.down()
    for k in range(1, 9):
        page.mouse.move(x + (tx - x) * k / 8, y + (ty - y) * k / 8)
    page.mouse.up()


def moves_shown(page: Page) -> list[str]:
    """The notation of every move in the page's move list (its lines are turns)."""
    found = page.eval_on_selector_all(
        "[data-testid=moves] li .step", "els => els.map((e) => e.dataset.notation)")
    assert isinstance(found, list)
    return [str(x) for x in found]


_RECORD_RENDERS = """() => {
    const room = window.gamehall.room;
    const board = room.board;
    if (board.__recorded) return;
    board.__recorded = true;
    window.__renders = [];
    const update = board.update.bind(board);
    const attrs = (sel, key, vals) => Object.fromEntries([...document.querySelectorAll(sel)]
        .map((e) => [e.getAttribute(key), vals.map((v) => e.getAttribute(v))]));
    board.update = (st) => {
        update(st);
        window.__renders.push({
            version: st.version, to_move: st.to_move, seat: st.seat,
            moves: st.moves.map((m) => m.move),
            stacks: attrs(".stack[data-at]", "data-at", ["data-height", "data-owner"]),
            stones: attrs("[data-game=hula] [data-cell]", "data-cell", ["data-stone"]),
            tiles: attrs(".tile[data-at]", "data-at", ["data-token", "class"]),
            ships: attrs(".ship[data-ship]", "data-ship", ["data-at"]),
            used_dice: document.querySelectorAll(".die.used").length,
            pieces: (st.view.pieces || []).length,
        });
    };
}"""


def record_renders(page: Page) -> None:
    """From now on keep what the board showed after each state it drew (version, pieces), so a
    test can check the position right after its own move even if a bot answers at once."""
    page.wait_for_function("() => window.gamehall && window.gamehall.room.board")
    page.evaluate(_RECORD_RENDERS)


def render_after(page: Page, version: int, timeout: float = 15000) -> dict[str, Any]:
    """What the board showed for the first state after `version` (normally the test's own move;
    the server may fold a bot's quick answer into it, which a test can see in `version`)."""
    page.wait_for_function(
        f"() => (window.__renders || []).some((r) => r.version > {version})", timeout=timeout)
    snap = page.evaluate(f"window.__renders.find((r) => r.version > {version})")
    assert isinstance(snap, dict)
    return snap


def start_halali_end_phase(page: Page) -> dict[str, Any]:
    """Enter, create a Halali! room set up at its end phase (`halali_setup`), play the random
    bot with renders recorded (`record_renders`); returns the state of this page's first turn."""
    enter(page)
    create_room(page, "halali", setup="end_phase")
    start_against_bot(page)
    record_renders(page)
    return wait_my_turn(page)
