"""Accounts, ratings, profiles, leaderboards and the archive in Chromium: a guest sets a password,
signs out, signs in from a fresh browser and takes back the seat of a running game; two
accounts play a rated game whose end shows the rating changes that both profiles and the
leaderboard show; the archive finds the game, opens its replay and downloads its record."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from playwright.sync_api import Page, expect

from tests.web.conftest import ROOT, Pages
from tests.web.helpers import create_room, enter, start_against_bot, state, wait_my_turn

PASSWORD = "correct horse"


def _protect(page: Page, nickname: str) -> None:
    """From the lobby, open one's profile through the header and set a password."""
    page.get_by_test_id("me").click()
    expect(page.get_by_test_id("profile-name")).to_have_text(nickname)
    account = page.get_by_test_id("account")
    account.locator("input[name=password]").fill(PASSWORD)
    account.locator("button[type=submit]").click()
    expect(page.locator(".toast")).to_contain_text("sign in with it from any browser")
    expect(account.locator("[data-action=sign-out]")).to_be_visible()
    page.goto(page.url.split("#")[0] + "#/")


def _sign_in(page: Page, nickname: str) -> None:
    page.locator("details.sign-in summary").click()
    form = page.get_by_test_id("sign-in")
    form.locator("input[name=login-nickname]").fill(nickname.upper())
    form.locator("input[name=login-password]").fill(PASSWORD)
    form.locator("button[type=submit]").click()
    expect(page.get_by_test_id("me")).to_have_text(nickname)


def _click_legal_cell(page: Page) -> None:
    page.locator("[data-game=hula] .cell.legal").first.click()


def test_sign_up_sign_out_and_take_back_a_running_seat_from_a_fresh_browser(
        pages: Pages) -> None:
    home = pages.new()
    name = enter(home, "carl")
    expect(home.get_by_test_id("guest-note")).to_be_visible()
    _protect(home, name)
    expect(home.get_by_test_id("guest-note")).to_have_count(0)
    room = create_room(home, "hula", size=5)
    start_against_bot(home)
    st = wait_my_turn(home)
    _click_legal_cell(home)
    home.wait_for_function(f"() => window.gamehall.room.state.version > {st['version']}")
    home.get_by_test_id("me").click()
    home.click("[data-action=sign-out]")
    expect(home.locator("input[name=nickname]")).to_be_visible()  # the lobby, nobody signed in

    away = pages.new()  # another browser: its own storage, no token
    _sign_in(away, name)
    row = away.locator(f"tr[data-room='{room}']")
    row.locator("text=Back to it").click()
    expect(away.locator(".seat.mine")).to_have_count(1)
    st = wait_my_turn(away)
    assert st["seat"] == 0 and st["legal_moves"]
    _click_legal_cell(away)
    away.wait_for_function(f"() => window.gamehall.room.state.version > {st['version']}")


def test_a_room_signed_out_from_another_browser_says_so_and_forgets_the_token(
        pages: Pages) -> None:
    """Signing out everywhere closes the room's socket with 4401: the page says why, forgets
    the dead token (reconnecting with it would only be refused again) and watches on."""
    home = pages.new()
    name = enter(home, "dora")
    _protect(home, name)
    create_room(home, "hula", size=5)
    expect(home.locator(".conn.open")).to_have_count(1)
    away = pages.new()
    _sign_in(away, name)
    away.get_by_test_id("me").click()
    away.click("[data-action=sign-out-all]")
    expect(home.locator(".line.info", has_text="you were signed out")).to_have_count(1)
    expect(home.locator(".conn.open")).to_have_count(1)  # watching on, as nobody
    assert home.evaluate(
        "() => [localStorage, sessionStorage].every(s => s.getItem('gamehall.token') === null)")


def test_a_rated_game_shows_its_changes_in_the_end_box_profiles_and_leaderboard(
        pages: Pages, tmp_path: Path) -> None:
    ann, bob = pages.new(), pages.new()
    ann_name, bob_name = enter(ann, "rana"), enter(bob, "ranb")
    _protect(ann, ann_name)
    _protect(bob, bob_name)
    room = create_room(ann, "hula", size=5)
    expect(ann.get_by_test_id("rated")).to_have_text("rated")
    bob.goto(f"{pages.hall.url}#/room/{room}/join")
    expect(bob.locator(".seat.mine")).to_have_count(1)
    ann.click("[data-action=start]")
    wait_my_turn(ann)
    _click_legal_cell(ann)
    wait_my_turn(bob)
    bob.once("dialog", lambda dialog: dialog.accept())
    bob.click("[data-action=resign]")
    for page in (ann, bob):
        expect(page.get_by_test_id("rating-changes")).to_contain_text("1500 →")
    changes = {c["player"]: c["after"] for c in state(ann)["rating_changes"]}
    assert changes[ann_name] > 1500 > changes[bob_name]
    box = ann.get_by_test_id("rating-changes")
    expect(box.locator("[data-seat='0']")).to_contain_text(f"→ {changes[ann_name]} (+")

    for name in (ann_name, bob_name):  # a nickname in the seat list opens its profile
        ann.locator(f".seat a.player-link[data-player='{name}']").click()
        expect(ann.get_by_test_id("profile-name")).to_have_text(name)
        rating = ann.locator("[data-testid=ratings] tr[data-game=hula] .rating")
        expect(rating).to_have_attribute("data-rating", str(changes[name]))
        expect(ann.locator(f"[data-testid=recent] li[data-room='{room}']")).to_contain_text(
            "win" if name == ann_name else "loss")
        ann.go_back()
    ann.goto(f"{pages.hall.url}#/leaderboard/hula")
    for name in (ann_name, bob_name):
        row = ann.locator(f"[data-testid=leaderboard] tr[data-player='{name}'] .rating")
        expect(row).to_have_attribute("data-rating", str(changes[name]))

    ann.goto(f"{pages.hall.url}#/archive?player={bob_name}")  # the archive, by player
    line = ann.locator(f"[data-testid=archive] li[data-room='{room}']")
    expect(line).to_contain_text("resigned")
    with ann.expect_download() as info:
        line.locator("[data-action=download]").click()
    record = tmp_path / "record.json"
    info.value.save_as(record)
    # the test server's Hula is the set-up plug-in's (tests.web.hula_setup), as the record says:
    # the CLI replays it with the same plug-in loaded, as a hall's operator would
    cli = "import sys, tests.web.hula_setup; from gamehall.cli import app; app(sys.argv[1:])"
    done = subprocess.run([sys.executable, "-c", cli, "replay", "--quiet", str(record)],
                          cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0 and "verified" in done.stdout, done.stdout + done.stderr
    line.locator("[data-action=open-replay]").click()
    expect(ann.get_by_test_id("replay-bar")).to_be_visible()
    total = state(ann)["version"]
    expect(ann.get_by_test_id("replay-step")).to_have_text(f"{total} / {total}")


def test_a_guests_room_is_casual_unless_made_rated(pages: Pages) -> None:
    page = pages.new()
    enter(page, "gina")
    create_room(page, "hula", size=5)
    expect(page.get_by_test_id("rated")).to_have_text("casual")  # a guest is seated
    page.click("[data-action=rated]")
    expect(page.get_by_test_id("rated")).to_have_text("rated")
    page.goto(pages.hall.url)
    expect(page.locator("tr[data-game=hula]").first).to_contain_text("rated")
