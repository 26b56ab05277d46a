"""The lobby is pushed, not polled (issue 44): a room made in another browser appears, fills and
starts in the lobby of a page that asks nothing after it loaded — no GET of the room list at all,
counted from the browser's own requests — and an anonymous visitor watches it too."""

from __future__ import annotations

from playwright.sync_api import Page, Request, expect

from tests.web.conftest import Pages
from tests.web.helpers import create_room, enter


def _list_requests(page: Page) -> list[str]:
    """Every HTTP request the page makes for the room list, from now on."""
    seen: list[str] = []

    def note(request: Request) -> None:
        if "/api/rooms" in request.url and request.method == "GET":
            seen.append(request.url)

    page.on("request", note)
    return seen


def test_the_lobby_updates_without_polling(pages: Pages) -> None:
    watcher = pages.new()  # no nickname: an anonymous visitor
    asked = _list_requests(watcher)
    sockets: list[str] = []
    watcher.on("websocket", lambda ws: sockets.append(ws.url))
    watcher.reload()
    watcher.locator(".rooms:not(.stale)").wait_for()
    ann = pages.new()
    enter(ann, "pushann")
    room = create_room(ann, "hula", size=5)
    row = watcher.locator(f"tr[data-room='{room}']")
    expect(row).to_contain_text("waiting")
    bob = pages.new()
    enter(bob, "pushbob")
    bob.goto(f"{pages.hall.url}#/room/{room}/join")
    expect(bob.locator(".seat.mine")).to_have_count(1)
    expect(row.locator(".seat-chip.free")).to_have_count(0)
    ann.click("[data-action=start]")
    expect(row).to_contain_text("playing")
    assert asked == [], f"the lobby asked for the room list: {asked}"
    assert [u for u in sockets if u.endswith("/ws/lobby")], sockets


def test_the_lobby_shows_a_room_made_before_it_opened_and_its_menu_filters(pages: Pages) -> None:
    ann = pages.new()
    enter(ann, "endann")
    room = create_room(ann, "hula", size=5)
    watcher = pages.new()
    row = watcher.locator(f"tr[data-room='{room}']")
    expect(row).to_contain_text("waiting")
    watcher.select_option(".rooms select", "finished")
    expect(row).to_have_count(0)  # the menu shows only finished rooms now
    watcher.select_option(".rooms select", "waiting")
    expect(row).to_have_count(1)
