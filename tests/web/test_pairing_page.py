"""Players find each other on the page (issue 44), in Chromium: two browsers click the same pool
tile within one wave and land in the same room, a quick-paired game is played to its end by
clicks, a wait is cancelled, and a seek posted in one browser (its form inside its card at 390
and 1280 px) is accepted in another, both pages then in its room; the tiles' counts change on a
third page that asks for nothing. The hall's clock is the test's (tests/server/fake_time.py):
a wave fires when the test moves it on, never by waiting."""

from __future__ import annotations

import itertools
import random
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Locator, Page, Request, expect

from tests.server.fake_time import ENV, set_time
from tests.web.conftest import HallProcess, Pages
from tests.web.helpers import enter, state, wait_my_turn, wait_version_above

WAVE = 30.0
POOL = "hula-5-3"
_time = itertools.count(1)


class PairingHall(HallProcess):
    """A hall whose clock the test moves (`wave`): waves every WAVE seconds of it."""

    def __init__(self, tmp: Path) -> None:
        self.time_file = tmp / "now.txt"
        set_time(self.time_file, 1000.0)
        super().__init__(
            tmp,
            extra=(
                "--plugin",
                "tests.server.fake_time",
                "--pairing-wave-seconds",
                str(WAVE),
                "--pairing-wave-players",
                "50",
            ),
            env={ENV: str(self.time_file)},
        )

    def wave(self) -> None:
        """The clock one wave on: every pool's next wave is due."""
        set_time(self.time_file, 1000.0 + next(_time) * (WAVE + 1))


@pytest.fixture(scope="module")
def pairing_hall(tmp_path_factory: pytest.TempPathFactory) -> Iterator[PairingHall]:
    server = PairingHall(tmp_path_factory.mktemp("pairing-page"))
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture()
def people(browser: Browser, pairing_hall: PairingHall) -> Iterator[Pages]:
    made = Pages(browser, pairing_hall, None)
    try:
        yield made
        assert not made.errors, f"JavaScript errors on the page: {made.errors}"
    finally:
        made.close()


def _asked(page: Page) -> list[str]:
    """The lobby's HTTP reads from now on (rooms, pools, seeks): none should come."""
    seen: list[str] = []

    def note(request: Request) -> None:
        if request.method == "GET" and any(
            p in request.url for p in ("/api/rooms", "/api/pools", "/api/seeks")
        ):
            seen.append(request.url)

    page.on("request", note)
    return seen


def _tile(page: Page, pool: str = POOL) -> Locator:
    return page.locator(f".pool-tile[data-pool='{pool}']")


def _pair_two(people: Pages, hall: PairingHall, watcher: Page | None = None) -> list[Page]:
    """Two players click the same tile in one wave; the wave fires; both in one room."""
    players = [people.new(), people.new()]
    for page in players:
        enter(page, "pool")
    for page in players:
        _tile(page).click()
        expect(page.locator(f".pool-tile.waiting[data-pool='{POOL}'] .pool-cancel")).to_be_visible()
    if watcher is not None:
        expect(
            watcher.locator(f".pool-tile[data-pool='{POOL}'] [data-testid=pool-waiting]")
        ).to_have_text("2 waiting")
    hall.wave()
    for page in players:
        page.wait_for_url("**/#/room/*", timeout=30000)
        expect(page.locator(".seat.mine")).to_have_count(1)
    return players


def test_two_browsers_click_one_pool_tile_in_one_wave_and_meet_in_one_room(
    people: Pages, pairing_hall: PairingHall
) -> None:
    watcher = people.new()  # anonymous: watches the counts, asks for nothing
    expect(watcher.locator(f".pool-tile[data-pool='{POOL}']")).to_contain_text("Hula")
    asked = _asked(watcher)
    ann, bob = _pair_two(people, pairing_hall, watcher)
    assert ann.url.rsplit("/", 1)[-1] == bob.url.rsplit("/", 1)[-1]
    assert {state(ann)["seat"], state(bob)["seat"]} == {0, 1}
    assert state(ann)["status"] == "playing"
    expect(
        watcher.locator(f".pool-tile[data-pool='{POOL}'] [data-testid=pool-waiting]")
    ).to_have_text("nobody waiting")
    room = ann.url.rsplit("/", 1)[-1]
    expect(watcher.locator(f"tr[data-room='{room}']")).to_contain_text("playing")
    assert asked == [], f"the lobby polled: {asked}"


def _click_entry(page: Page, entry: dict[str, object]) -> None:
    if "cell" in entry:
        page.locator(f".board-main [data-cell='{entry['cell']}']").first.click(force=True)
    else:
        page.click(f".board-wrap [data-move='{entry['move']}']")


def test_a_quick_paired_game_is_played_to_its_end_by_clicks(
    people: Pages, pairing_hall: PairingHall
) -> None:
    players = _pair_two(people, pairing_hall)
    rng = random.Random("quick-pair")
    by_seat = {state(p)["seat"]: p for p in players}
    st = state(players[0])
    while st["status"] != "finished":
        mover = by_seat[st["to_move"]]
        mine = wait_my_turn(mover, timeout=30000)
        if mine["status"] == "finished":
            break
        _click_entry(mover, rng.choice(mine["legal"]))
        st = wait_version_above(players[0], mine["version"], timeout=30000)
    for page in players:
        page.wait_for_function("() => window.gamehall.room.state.status === 'finished'")
        expect(page.get_by_test_id("result-words")).to_be_visible()
    assert state(players[0])["ended_by"] == "rules"


def test_a_wait_ends_when_the_page_leaves_and_when_cancelled(
    people: Pages, pairing_hall: PairingHall
) -> None:
    page = people.new()
    enter(page, "canceller")
    _tile(page, "halali-10-5").click()
    waiting = page.locator(".pool-tile.waiting[data-pool='halali-10-5']")
    expect(waiting).to_contain_text("1 waiting")
    page.reload()  # leaving the lobby (its last socket closed) takes the player out of the pool
    expect(
        page.locator(".pool-tile[data-pool='halali-10-5'] [data-testid=pool-waiting]")
    ).to_have_text("nobody waiting")
    _tile(page, "halali-10-5").click()
    expect(waiting).to_contain_text("1 waiting")
    waiting.locator(".pool-cancel").click()
    expect(page.locator(".pool-tile.waiting")).to_have_count(0)
    expect(
        page.locator(".pool-tile[data-pool='halali-10-5'] [data-testid=pool-waiting]")
    ).to_have_text("nobody waiting")
    pairing_hall.wave()  # nobody is paired: the page stays in the lobby
    expect(_tile(page, "halali-10-5")).to_be_enabled()


_FORM_OUTSIDE = """() => {
  const card = document.querySelector(".card.seeks").getBoundingClientRect();
  const out = [];
  for (const el of document.querySelectorAll(".seek-form, .seek-form *")) {
    const r = el.getBoundingClientRect();
    if ((!r.width && !r.height) || !el.checkVisibility()) continue;
    if (r.left < card.left - 1 || r.right > card.right + 1) out.push(el.tagName + " " + el.name);
  }
  return { out, wide: document.documentElement.scrollWidth - window.innerWidth };
}"""


@pytest.mark.parametrize("width", [390, 1280])
def test_a_seek_posted_in_one_browser_is_accepted_in_another(people: Pages, width: int) -> None:
    height = 844 if width < 500 else 800
    ann, bob = people.new(width=width, height=height), people.new(width=width, height=height)
    ann_name = enter(ann, "seeker")
    enter(bob, "taker")
    ann.locator(".post-seek summary").click()
    for game in ("hula", "haugaz", "halali", "hotu_matua", "hau_la"):
        ann.select_option("select[name=seek-game]", game)
        assert ann.evaluate(_FORM_OUTSIDE) == {"out": [], "wide": 0}, game
    ann.select_option("select[name=seek-game]", "hula")
    ann.select_option(".seek-form [name=size]", "5")
    ann.fill(".seek-form [name=clock]", "3+2")
    ann.select_option("select[name=seek-rated]", "false")
    ann.click(".seek-form button[type=submit]")
    line = bob.locator(".seek", has_text=ann_name)
    expect(line).to_contain_text("clock 3+2")
    expect(line).to_contain_text("casual")
    expect(ann.locator(".seek", has_text=ann_name).get_by_role("button")).to_have_text("Cancel")
    line.get_by_role("button", name="Accept").click()
    bob.wait_for_url("**/#/room/*", timeout=30000)
    ann.wait_for_url("**/#/room/*", timeout=30000)  # the poster's page follows its seek
    assert ann.url.rsplit("/", 1)[-1] == bob.url.rsplit("/", 1)[-1]
    for page in (ann, bob):
        expect(page.locator(".seat.mine")).to_have_count(1)
    assert state(ann)["status"] == "playing" and state(ann)["options"]["size"] == 5


def test_the_tiles_and_the_seeks_speak_german(people: Pages) -> None:
    page = people.new(locale="de-DE")
    tile = page.locator(".pool-tile[data-pool='hau_la-3p-10-5']")
    expect(tile).to_contain_text("3 Spieler")
    expect(tile.get_by_test_id("pool-waiting")).to_have_text("niemand wartet")
    expect(page.locator(".card.pools h2")).to_have_text("Schnelle Partie")
    expect(page.locator(".card.seeks h2")).to_have_text("Offene Herausforderungen")
    expect(page.locator(".post-seek summary")).to_have_text("Eine Herausforderung einstellen")
