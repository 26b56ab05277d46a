"""Tournaments in Chromium: an account creates one from the page's form (the form's fields
inside its card at 390 and 1280 px), two players join from the tournament's page (one on a
phone), are reminded it starts in a few minutes, the creator starts it, both open their game
from the page and play it to the end on the board, and the page shows the winner and the
standings with the tiebreaks explained."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import httpx
from playwright.sync_api import Page, expect

from tests.web.conftest import Pages
from tests.web.helpers import enter, state, wait_my_turn, wait_version_above

PASSWORD = "correct horse"


def _account(pages: Pages, nickname: str) -> str:
    base = pages.hall.url.rstrip("/")
    token = httpx.post(f"{base}/api/session", json={"nickname": nickname}).json()["token"]
    r = httpx.post(
        f"{base}/api/account/password",
        json={"password": PASSWORD},
        headers={"Authorization": f"Bearer {token}"},
    )
    assert r.status_code == 200, r.text
    return str(token)


def _sign_in(page: Page, nickname: str) -> None:
    page.locator("details.sign-in summary").click()
    form = page.get_by_test_id("sign-in")
    form.locator("input[name=login-nickname]").fill(nickname)
    form.locator("input[name=login-password]").fill(PASSWORD)
    form.locator("button[type=submit]").click()
    expect(page.get_by_test_id("me")).to_have_text(nickname)


def _inside_its_card(page: Page) -> None:
    expect(page.get_by_test_id("tournament-form")).to_be_visible()
    card = page.locator("section.create").bounding_box()
    assert card is not None, page.evaluate("document.querySelectorAll('section.create').length")
    fields = page.locator(
        "[data-testid=tournament-form] input, [data-testid=tournament-form] select"
    )
    for i in range(fields.count()):
        box = fields.nth(i).bounding_box()
        if box is None:  # a datalist's hidden part
            continue
        assert (
            card["x"] - 0.5 <= box["x"]
            and box["x"] + box["width"] <= card["x"] + card["width"] + 0.5
        ), (i, box, card)


def test_join_a_tournament_from_its_page_and_play_its_game(pages: Pages) -> None:
    _account(pages, "director1")
    phone = pages.new(390, 844)
    _sign_in(phone, "director1")
    phone.goto(pages.hall.url + "#/tournaments")
    expect(phone.get_by_test_id("tournament-form")).to_be_visible()
    _inside_its_card(phone)
    wide = pages.new(1280, 800)
    _sign_in(wide, "director1")
    wide.goto(pages.hall.url + "#/tournaments")
    _inside_its_card(wide)
    form = wide.get_by_test_id("tournament-form")
    form.locator("[name=name]").fill("Page cup")
    form.locator("[name=game]").select_option("testline")
    form.locator("[name=system]").select_option("swiss")
    form.locator("[name=length]").fill("1")
    soon = datetime.now(UTC) + timedelta(minutes=4)  # the page's local time field
    form.locator("[name=starts_at]").fill(
        soon.astimezone().replace(tzinfo=None).strftime("%Y-%m-%dT%H:%M")
    )
    form.locator("button[type=submit]").click()
    wide.wait_for_url("**/#/tournament/*")
    tid = wide.url.rsplit("/", 1)[-1]
    expect(wide.get_by_test_id("tournament-status")).to_contain_text("starts soon")
    expect(wide.get_by_test_id("countdown")).to_contain_text("min")

    players = [pages.new(390, 844), pages.new(1280, 800)]
    names = [enter(p, "cup") for p in players]
    for p in players:
        p.goto(pages.hall.url + f"#/tournament/{tid}")
        p.get_by_test_id("join").click()
        expect(p.get_by_test_id("withdraw")).to_be_visible()
        expect(p.get_by_test_id("starts-soon")).to_be_visible()  # within five minutes
    expect(players[0].get_by_test_id("tournament-reminder")).to_be_visible()
    expect(wide.locator("[data-testid=standings] tbody tr")).to_have_count(2)
    expect(wide.get_by_test_id("tiebreaks")).to_contain_text("Sonneborn")
    wide.get_by_test_id("start-now").click()
    for p in players:
        link = p.locator("[data-testid=games-in-play] a")
        expect(link).to_have_count(1, timeout=30000)
        link.click()
        p.wait_for_url("**/#/room/*")
        expect(p.locator(".seat.mine")).to_have_count(1)
    first = 0 if state(players[0])["to_move"] == state(players[0])["seat"] else 1
    while state(players[first])["status"] != "finished":
        for p in (players[first], players[1 - first]):
            st = wait_my_turn(p, 30000)
            if st["status"] == "finished":
                break
            p.locator(".generic-board [data-move]").first.click()
            wait_version_above(p, st["version"])
    result = state(players[0])["result"]
    wide.goto(pages.hall.url + f"#/tournament/{tid}")
    expect(wide.get_by_test_id("tournament-status")).to_contain_text("finished", timeout=30000)
    rows = wide.locator("[data-testid=standings] tbody tr")
    expect(rows).to_have_count(2)
    if result[0] != result[1]:
        expect(wide.get_by_test_id("winner")).to_be_visible()
    assert {rows.nth(i).get_attribute("data-player") for i in range(2)} == set(names)


def test_go_berserk_from_an_arena_games_page(pages: Pages) -> None:
    """The room page of an arena's game offers Berserk before one's first move: pressed, the
    player's clock is halved and both pages mark it; the button is gone."""
    base = pages.hall.url.rstrip("/")
    boss = _account(pages, "director2")
    r = httpx.post(
        f"{base}/api/tournaments",
        json={
            "name": "Berserk cup",
            "game": "testline",
            "clock": "5+3",
            "system": "arena",
            "minutes": 30,
            "seats": 2,
        },
        headers={"Authorization": f"Bearer {boss}"},
    )
    assert r.status_code == 201, r.text
    tid = r.json()["id"]
    players = [pages.new(1280, 800), pages.new(390, 844)]
    for p in players:
        enter(p, "arena")
        p.goto(pages.hall.url + f"#/tournament/{tid}")
        p.get_by_test_id("join").click()
        expect(p.get_by_test_id("withdraw")).to_be_visible()
    r = httpx.post(
        f"{base}/api/tournaments/{tid}/start", headers={"Authorization": f"Bearer {boss}"}
    )
    assert r.status_code == 200, r.text
    for p in players:
        link = p.locator("[data-testid=games-in-play] a")
        expect(link).to_have_count(1, timeout=30000)
        link.click()
        p.wait_for_url("**/#/room/*")
        expect(p.locator(".seat.mine")).to_have_count(1)
    me = players[0]
    seat = state(me)["seat"]
    button = me.locator("[data-action=berserk]")
    expect(button).to_have_text("Berserk")
    button.click()
    expect(button).to_have_count(0)
    for p in players:
        expect(p.locator(f"[data-clock-seat='{seat}']")).to_have_attribute("data-berserk", "yes")
        expect(p.locator(f"[data-clock-seat='{1 - seat}']")).to_have_attribute("data-berserk", "no")
    clock = state(players[1])["clock"]
    assert clock["berserk"] == [seat] and clock["remaining_ms"][1 - seat] == 300_000
