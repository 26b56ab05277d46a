"""The page in the browser's language: a browser asking for German gets the lobby, the header's
picker, Halali!'s rules, a room and the end of a game in German; the picker switches languages,
and an account keeps its choice on the server (a new browser signing in speaks it)."""

from __future__ import annotations

from playwright.sync_api import Page, expect

from tests.web.conftest import Pages
from tests.web.helpers import enter, start_against_bot, state, wait_my_turn


def _enter(page: Page, button: str) -> str:
    return enter(page, "sprache", button)


def test_a_german_browser_gets_the_hall_in_german(pages: Pages) -> None:
    page = pages.new(locale="de-DE")
    expect(page.locator("html")).to_have_attribute("lang", "de")
    expect(page.get_by_test_id("language")).to_have_value("de")
    expect(page.locator(".lobby h2").first).to_have_text("Wähle einen Spielernamen")
    expect(page.locator("header.top")).to_contain_text("Bestenlisten")
    _enter(page, "Die Halle betreten")
    expect(page.locator(".card.rooms h2")).to_have_text("Räume")
    page.goto(pages.hall.url + "#/rules/halali")
    rules = page.get_by_test_id("rules")
    expect(rules.locator("h2").first).to_have_text("So spielt man Halali!")
    expect(rules).to_contain_text("Holzfäller")
    expect(rules).to_contain_text("Dein Zug")
    page.goto(pages.hall.url + "#/")
    page.select_option("select[name=game]", "halali")
    page.get_by_role("button", name="Raum eröffnen").click()
    page.wait_for_url("**/#/room/*")
    expect(page.locator(".seat.mine")).to_have_count(1)


def test_the_picker_switches_and_an_account_keeps_its_choice(pages: Pages) -> None:
    page = pages.new(locale="de-DE")
    nickname = _enter(page, "Die Halle betreten")
    page.goto(pages.hall.url + f"#/player/{nickname}")
    page.fill("input[name=password]", "a long enough password")
    page.locator(".account-form button[type=submit]").click()
    expect(page.locator("[data-action=sign-out]")).to_be_visible()
    page.get_by_test_id("language").select_option("en")
    expect(page.get_by_test_id("language")).to_have_value("en")
    expect(page.locator("header.top")).to_contain_text("Leaderboards")
    page.get_by_test_id("language").select_option("de")
    expect(page.locator("header.top")).to_contain_text("Bestenlisten")
    page.get_by_test_id("language").select_option("en")
    expect(page.locator("header.top")).to_contain_text("Leaderboards")
    other = pages.new(locale="de-DE")  # a new browser asking for German: the account says English
    expect(other.locator("header.top")).to_contain_text("Bestenlisten")
    other.locator(".sign-in summary").click()
    other.fill("input[name=login-nickname]", nickname)
    other.fill("input[name=login-password]", "a long enough password")
    other.locator("[data-testid=sign-in] button").click()
    expect(other.get_by_test_id("me")).to_have_text(nickname)
    expect(other.get_by_test_id("language")).to_have_value("en")
    expect(other.locator("header.top")).to_contain_text("Leaderboards")


def test_a_german_page_says_the_servers_refusals_and_notices_in_german(pages: Pages) -> None:
    """The server sends each sentence's key and args; a German page says them in German: a
    refused move, a refused action, an unknown command, a command's answer and the hall's
    notice of a seat taken."""
    page = pages.new(locale="de-DE")
    nickname = _enter(page, "Die Halle betreten")
    page.select_option("select[name=game]", "halali")
    page.get_by_role("button", name="Raum eröffnen").click()
    page.wait_for_url("**/#/room/*")
    expect(page.locator(".seat.mine")).to_have_count(1)
    log = page.locator(".chat-log")
    expect(log.locator(".line.info").first).to_contain_text(f"{nickname} sitzt als")
    page.evaluate("window.gamehall.room.conn.send({type: 'move', move: 'a1', version: 0})")
    expect(log.locator(".line.error").last).to_have_text(
        "die Partie hat noch nicht begonnen (/start)")
    expect(page.locator(".toast.error").last).to_have_text(
        "die Partie hat noch nicht begonnen (/start)")
    page.fill("input[name=chat]", "/start")
    page.press("input[name=chat]", "Enter")
    expect(log.locator(".line.error").last).to_contain_text("es fehlt noch ein Spieler als")
    page.fill("input[name=chat]", "/frobnicate")
    page.press("input[name=chat]", "Enter")
    expect(log.locator(".line.error").last).to_have_text(
        "es gibt keinen Befehl /frobnicate (siehe /help)")
    page.fill("input[name=chat]", "/rated")
    page.press("input[name=chat]", "Enter")
    expect(log.locator(".line.info").last).to_contain_text("diese Partie wird ungewertet")
    expect(log).not_to_contain_text("the game has not started")
    # German words, not the English ("online") nor the odd ("locker" for casual)
    expect(page.get_by_test_id("rated")).to_have_text("ungewertet")
    expect(page.get_by_test_id("connection")).to_have_text("verbunden")


def test_a_german_browser_reads_the_end_of_a_game_in_german(pages: Pages) -> None:
    page = pages.new(locale="de-DE")
    page.on("dialog", lambda d: d.accept())
    me = _enter(page, "Die Halle betreten")
    page.select_option("select[name=game]", "hula")
    page.get_by_role("button", name="Raum eröffnen").click()
    page.wait_for_url("**/#/room/*")
    start_against_bot(page)
    page.click("[data-action=resign]")
    expect(page.get_by_test_id("outcome")).to_have_text(
        f"{me} hat aufgegeben: Zufallsbot gewinnt")
    assert state(page)["outcome"] == f"{me} resigned: random bot wins"  # the English beside it
    # a game's own sentence: the seats as the players' names, the game's terms in German
    sentences = page.evaluate("""async () => {
        const { outcomeWords } = await import('/js/words.js');
        const seats = [{ name: 'first', player: 'ann' }, { name: 'second', player: 'bea' }];
        const seat = (s) => ({ key: 'game.seat', args: { seat: s } });
        return [
          outcomeWords({ seats, outcome: 'second (second colour) wins with a loop',
                         outcome_key: 'game.hula.outcome.loop',
                         outcome_args: { seat: seat('second'), colour: 'second' } }),
          outcomeWords({ seats: [{ name: 'north', player: null }, seats[1]],
                         outcome: 'north wins (three pearls; 3-1 in pearls)',
                         outcome_key: 'game.hotu_matua.outcome.win',
                         outcome_args: { winner: seat('north'), how: 'pearls',
                                         north: 3, south: 1 } }),
        ];
    }""")
    assert sentences == ["bea (Blau) gewinnt mit einem Ring um die Mitte",
                         "Nord gewinnt (drei Perlen; 3:1 Perlen)"]


def test_a_german_browser_reads_hau_la_s_steps_and_events_in_german(pages: Pages) -> None:
    page = pages.new(locale="de-DE")
    _enter(page, "Die Halle betreten")
    page.select_option("select[name=game]", "hau_la")
    page.get_by_role("button", name="Raum eröffnen").click()
    page.wait_for_url("**/#/room/*")
    start_against_bot(page)
    wait_my_turn(page)
    expect(page.locator("p", has_text=": wähle ein Teil")).to_have_count(1)
    expect(page.locator("details li", has_text="Runde 1: Rot, Blau")).to_have_count(1)
    assert state(page)["view"]["events"][0]["text"].startswith("round 1:")
