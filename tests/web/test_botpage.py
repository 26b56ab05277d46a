"""The bot API's page in Chromium: API tokens made, shown once and revoked from one's profile, an
account made a bot account there; a person challenges a bot from its profile (a decline shows
its reason, a challenge can be canceled), a bot's challenge to a person shows above the page;
and the issue's "done when": the real `gamehall bot` client in a subprocess plays a person who
challenged it from the page, through the page, to the game's end, its name marked BOT, in each of
the five games (Halali! and Hau La, the long ones, are marked slow: `-m "not slow"` leaves them
out, `-m slow` runs them alone)."""

from __future__ import annotations

import contextlib
import itertools
import os
import random
import signal
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from playwright.sync_api import Page, expect

from tests.web.conftest import ROOT, HallProcess, Pages
from tests.web.helpers import enter, state, wait_my_turn, wait_version_above

PASSWORD = "correct horse"


def _auth(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def _account(url: str, nickname: str) -> str:
    """A new account over HTTP at the hall's `url` (ending in /): its session token."""
    r = httpx.post(f"{url}api/session", json={"nickname": nickname}, timeout=30)
    assert r.status_code == 200, r.text
    token = str(r.json()["token"])
    r = httpx.post(f"{url}api/account/password", json={"password": PASSWORD},
                   headers=_auth(token), timeout=30)
    assert r.status_code == 200, r.text
    return token


def _bot(url: str, nickname: str, games: list[str]) -> str:
    """A new bot account over HTTP at `url`: an API token of it with bot:play."""
    session = _account(url, nickname)
    r = httpx.post(f"{url}api/account/tokens", json={"scopes": ["bot:play"]},
                   headers=_auth(session), timeout=30)
    token = str(r.json()["token"])
    r = httpx.post(f"{url}api/bot/account/upgrade", json={"games": games},
                   headers=_auth(token), timeout=30)
    assert r.status_code == 200, r.text
    return token


def _protect(page: Page, nickname: str) -> None:
    """Give the page's player a password from its profile (it stays on the profile)."""
    page.get_by_test_id("me").click()
    expect(page.get_by_test_id("profile-name")).to_have_text(nickname)
    page.get_by_test_id("account").locator("input[name=password]").fill(PASSWORD)
    page.get_by_test_id("account").locator("button[type=submit]").click()
    expect(page.get_by_test_id("api-tokens")).to_be_visible()


GAMES = ["hula", "haugaz", "halali", "hotu_matua", "hau_la"]
_bots = itertools.count(1)


@contextlib.contextmanager
def running_bot(url: str, token: str, log: Path) -> Iterator[None]:
    """The real `gamehall bot --engine random` in a subprocess, playing for `token` at `url`
    (its output in `log`) until the block ends."""
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(
        p for p in (os.environ.get("PYTHONPATH"), str(ROOT)) if p)}
    proc = subprocess.Popen([sys.executable, "-m", "gamehall", "bot", "--url", url,
                             "--token", token, "--engine", "random", "--seed", "3"],
                            env=env, stdout=log.open("wb"), stderr=subprocess.STDOUT)
    try:
        yield
    finally:
        proc.send_signal(signal.SIGINT)
        try:
            proc.wait(20)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(5)


@pytest.fixture()
def bot_client(hall: HallProcess) -> Iterator[str]:
    """The real `gamehall bot` for a fresh bot account playing the five games: its nickname."""
    nickname = f"engine{os.getpid() % 1000}n{next(_bots)}"
    token = _bot(hall.url, nickname, GAMES)
    with running_bot(hall.url, token, hall.log.parent / f"{nickname}.log"):
        yield nickname


def test_api_tokens_are_made_shown_once_and_revoked_and_the_account_becomes_a_bot(
        pages: Pages) -> None:
    page = pages.new()
    name = enter(page, "tok")
    _protect(page, name)
    form = page.get_by_test_id("token-form")
    form.locator("input[name=token-description]").fill("my engine")
    form.locator("input[value=read]").check()
    form.locator("button[type=submit]").click()
    shown = page.get_by_test_id("new-token").locator("input[name=new-token]")
    expect(shown).to_be_visible()
    token = shown.input_value()
    row = page.locator("[data-testid=token-list] tr", has_text="my engine")
    expect(row).to_contain_text("bot:play, read")
    url = pages.hall.url
    assert httpx.get(f"{url}api/bot/account", headers=_auth(token)).status_code == 200
    row.locator("[data-action=revoke-token]").click()
    expect(page.get_by_test_id("token-list")).to_contain_text("No API tokens yet.")
    assert httpx.get(f"{url}api/bot/account", headers=_auth(token)).status_code == 401

    card = page.get_by_test_id("bot-account")
    expect(card.locator("[data-action=make-bot]")).to_be_disabled()  # until the box is ticked
    for box in card.locator("input[name=bot-game]").all():
        box.set_checked(box.get_attribute("value") == "hula")
    card.locator("input[name=bot-for-good]").check()
    card.locator("[data-action=make-bot]").click()
    expect(page.get_by_test_id("bot-tag")).to_be_visible()  # beside the profile's name
    card = page.get_by_test_id("bot-account")
    expect(card.locator("[data-action=save-bot-games]")).to_be_visible()
    card.locator("input[name=bot-game][value=haugaz]").check()
    card.locator("[data-action=save-bot-games]").click()
    expect(page.locator(".toast", has_text="it plays haugaz, hula")).to_be_visible()
    profile = httpx.get(f"{url}api/players/{name}").json()
    assert profile["bot_account"] and profile["bot_games"] == ["haugaz", "hula"]


def _challenge_from_profile(page: Page, bot: str, **options: Any) -> None:
    page.goto(f"{page.url.split('#')[0]}#/player/{bot}")
    card = page.get_by_test_id("challenge")
    expect(page.get_by_test_id("bot-tag")).to_be_visible()
    card.locator("[data-action=challenge]").click()
    for key, value in options.items():
        field = card.locator(f"[name={key}]")
        if field.evaluate("el => el.tagName") == "SELECT":
            field.select_option(str(value))
        else:
            field.fill(str(value))
    card.locator("[data-action=send-challenge]").click()
    expect(card.get_by_test_id("challenge-status")).to_contain_text("waiting for an answer")


def _person_and_bot(pages: Pages, prefix: str, bot: str,
                    games: list[str]) -> tuple[Page, str, str]:
    """A bot account playing `games` (driven over HTTP by the test), and a page of a person
    with a password: the page, the person's nickname and the bot's token."""
    token = _bot(pages.hall.url, bot, games)
    page = pages.new()
    name = enter(page, prefix)
    _protect(page, name)
    return page, name, token


def test_a_decline_shows_its_reason_a_challenge_is_canceled_and_a_bots_shows_above(
        pages: Pages) -> None:
    hall = pages.hall
    page, name, bot = _person_and_bot(pages, "chal", "quietbot1", ["hula"])
    _challenge_from_profile(page, "quietbot1", clock="1+0")
    [sent] = httpx.get(f"{hall.url}api/challenge", headers=_auth(bot)).json()["in"]
    assert sent["clock"] == "1+0" and sent["challenger"]["name"] == name
    # the summary names the game by its title, as people read it
    expect(page.locator(".pending-challenge")).to_contain_text("Hula · board size: 6")
    httpx.post(f"{hall.url}api/challenge/{sent['id']}/decline", json={"reason": "tooFast"},
               headers=_auth(bot))
    status = page.get_by_test_id("challenge-status")
    expect(status).to_contain_text("declined: This time control is too fast")
    page.reload()
    _challenge_from_profile(page, "quietbot1")
    page.get_by_test_id("challenge").locator("[data-action=cancel-challenge]").click()
    expect(status).to_have_text("The challenge was canceled.")

    r = httpx.post(f"{hall.url}api/challenge/{name}", json={"game": "hula"}, headers=_auth(bot))
    declined = r.json()["id"]
    page.goto(f"{hall.url}#/")  # a page opened looks for challenges
    bar = page.get_by_test_id("incoming")
    expect(bar).to_contain_text("challenges you: Hula")
    bar.locator("select[name=decline-reason]").select_option("later")  # lichess's fixed list
    bar.locator("[data-action=decline-challenge]").click()
    expect(bar).to_be_hidden()
    answer = httpx.get(f"{hall.url}api/challenge/{declined}", headers=_auth(bot)).json()
    assert answer["status"] == "declined" and answer["reason"] == "later"

    r = httpx.post(f"{hall.url}api/challenge/{name}", json={"game": "hula", "seat": 1},
                   headers=_auth(bot))
    assert r.status_code == 201, r.text
    page.reload()
    expect(bar).to_contain_text("challenges you")
    expect(bar.locator("[data-bot-account=true]")).to_have_text("BOT quietbot1")
    bar.locator("[data-action=accept-challenge]").click()
    page.wait_for_url("**/#/room/*")
    expect(page.locator(".seat.mine")).to_have_attribute("data-seat", "0")  # the bot took 1
    expect(page.locator(".seat[data-seat='1'] [data-bot-account=true]")).to_be_visible()
    # the challenge's seats stay as agreed: no leaving them, no hall bot for them (Resign stays)
    expect(page.locator("[data-action=resign]")).to_be_visible()
    expect(page.locator("[data-action=leave]")).to_have_count(0)
    expect(page.locator(".room .bot-level")).to_have_count(0)


def test_a_challenge_to_hau_la_for_three_offers_its_seats_and_keeps_them_in_the_room(
        pages: Pages) -> None:
    hall = pages.hall
    page, _name, bot = _person_and_bot(pages, "trio", "quietbot2", ["hau_la"])
    page.goto(f"{hall.url}#/player/quietbot2")
    card = page.get_by_test_id("challenge")
    card.locator("[data-action=challenge]").click()
    seats = card.locator("select[name=seat] option")
    expect(seats).to_have_count(3)  # drawn at random, red, blue
    card.locator("[name=players]").select_option("3")
    expect(seats).to_have_count(4)
    expect(seats.last).to_have_text("you play yellow")
    card.locator("select[name=seat]").select_option("0")
    card.locator("[data-action=send-challenge]").click()
    expect(card.get_by_test_id("challenge-status")).to_contain_text("waiting for an answer")
    [sent] = httpx.get(f"{hall.url}api/challenge", headers=_auth(bot)).json()["in"]
    r = httpx.post(f"{hall.url}api/challenge/{sent['id']}/accept", headers=_auth(bot))
    assert r.status_code == 200, r.text
    page.wait_for_url("**/#/room/*", timeout=30000)
    expect(page.locator(".seat.mine")).to_have_attribute("data-seat", "0")
    # the two seats of the challenge and its terms are fixed; the third seat is free as anywhere
    expect(page.locator("[data-action=start]")).to_be_visible()
    expect(page.locator("[data-action=leave]")).to_have_count(0)
    expect(page.locator("[data-action=rated]")).to_have_count(0)
    expect(page.get_by_test_id("room-options")).to_contain_text("clock 1d")  # asked untimed
    expect(page.locator(".seat[data-seat='1'] [data-action=bot]")).to_have_count(0)
    page.locator(".seat[data-seat='2'] [data-action=bot]").click()
    expect(page.locator(".seat[data-seat='2'] .occupant")).to_contain_text("bot")
    page.click("[data-action=start]")
    page.wait_for_function("() => window.gamehall.room.state.status === 'playing'")


# The smallest options each game offers, to keep a game short (Hotu Matua's turn limit, the
# smallest Hula and Haugaz boards); Halali! and Hau La have none that shorten them.
SHORT: dict[str, dict[str, Any]] = {"hula": {"size": 5}, "haugaz": {"size": 5},
                                    "halali": {}, "hotu_matua": {"turn_limit": 4}, "hau_la": {}}


def _click_place(page: Page, cell: str) -> None:
    """Click the place `cell` on the board (a piece standing there takes the click as well)."""
    page.locator(f".board-main [data-cell='{cell}']").first.click(force=True)


def _play_hau_la(page: Page, entry: dict[str, Any]) -> None:
    """One step of a Hau La turn by its controls: a piece's button, a hole by name, a side or
    rotation, or a tag chosen, then confirmed."""
    if entry["kind"] == "hole":
        page.locator(".step-box details").first.evaluate("el => { el.open = true; }")
        page.click(f"[data-hole='{entry['cell']}']")
    elif entry["kind"] in ("sides", "rotation"):
        page.click(f"[data-choice='{entry['move']}']")
    elif entry["kind"] == "tag":
        page.click(f"[data-choice='{entry['move']}']")
        expect(page.locator("[data-action=confirm]")).to_have_attribute("data-confirm",
                                                                        entry["move"])
        page.click("[data-action=confirm]")
    else:
        page.click(f"[data-move='{entry['move']}']")


def _play_entry(page: Page, game: str, entry: dict[str, Any]) -> None:
    """Play one legal entry as a person does: a piece picked up and put down (click, click), a
    place clicked, or a button pressed (pass, swap, end of turn, a side)."""
    if game == "hau_la":
        _play_hau_la(page, entry)
    elif "from" in entry:
        page.locator(f".board-main [data-at='{entry['from']}']").first.click()
        target = entry.get("to") or f"exit:{entry['exit']}"
        expect(page.locator(f".board-main [data-cell='{target}'].target")).not_to_have_count(0)
        _click_place(page, target)
    elif "cell" in entry:
        _click_place(page, entry["cell"])
    else:
        page.click(f".board-wrap [data-move='{entry['move']}']")


def play_to_the_end(page: Page, game: str) -> None:
    """Play this page's seat through the board, a random legal entry each time, until the end
    (the result shown)."""
    rng = random.Random(game)
    st = wait_my_turn(page, timeout=30000)
    while st["status"] != "finished":
        _play_entry(page, game, rng.choice(st["legal"]))
        wait_version_above(page, st["version"])
        st = wait_my_turn(page, timeout=30000)
    expect(page.get_by_test_id("result-words")).to_be_visible()


@pytest.mark.parametrize("game", [
    "hula", "haugaz", pytest.param("halali", marks=pytest.mark.slow), "hotu_matua",
    pytest.param("hau_la", marks=pytest.mark.slow)])
def test_a_person_challenges_the_real_bot_client_and_plays_to_the_end(
        pages: Pages, bot_client: str, game: str) -> None:
    page = pages.new()
    name = enter(page, "vsbot")
    _protect(page, name)
    _challenge_from_profile(page, bot_client, game=game, **SHORT[game])
    page.wait_for_url("**/#/room/*", timeout=30000)  # the bot accepted: the room opens
    theirs = page.locator(f".seat a.player-link[data-player='{bot_client}']")
    expect(theirs).to_have_text(f"BOT {bot_client}")
    play_to_the_end(page, game)
    assert state(page)["ended_by"] == "rules"
    expect(page.get_by_test_id("result-words")).not_to_be_empty()
    page.goto(f"{pages.hall.url}#/leaderboard/{game}")
    row = page.locator(f"[data-testid=leaderboard] tr[data-player='{bot_client}']")
    expect(row.get_by_test_id("bot-tag")).to_be_visible()
