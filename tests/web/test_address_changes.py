"""The page follows its address: when the address changes again while the page for the last one
is still being made (its session being read), only the newest address is drawn. Both drawn, one
after the other, showed the older page under the newer address and left its sockets and timers
running (the older page was never closed)."""

from __future__ import annotations

from playwright.sync_api import Route, expect

from tests.web.conftest import Pages
from tests.web.helpers import enter


def test_only_the_newest_address_is_drawn(pages: Pages) -> None:
    page = pages.new()
    enter(page)
    held: list[Route] = []

    def hold_the_first(route: Route) -> None:
        if held:
            route.continue_()
        else:
            held.append(route)  # answered below, once the newer address is drawn

    page.route("**/api/session", hold_the_first)
    with page.expect_request("**/api/session"):
        page.evaluate("location.hash = '#/tournaments'")  # its session read is held
    page.evaluate("location.hash = '#/'")  # the lobby, drawn at once
    expect(page.locator("form.create-form")).to_be_visible()
    assert held, "the tournaments' session read was not held"
    with page.expect_response("**/api/session"):
        held[0].continue_()  # the tournaments' session comes back late
    # one more round trip: the late answer's page code has run by then
    page.evaluate("() => fetch('/api/games').then((r) => r.status)")
    expect(page.locator("form.create-form")).to_be_visible()
    expect(page.get_by_test_id("tournament-list")).to_have_count(0)
    assert page.url.endswith("#/")
