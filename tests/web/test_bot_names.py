"""Names as people read them (issue 43): a room of every game against the easy bot, in English and
in German, shows "Easy bot" / "Leichter Bot" in its seats, its move list, its chat and its
result, and the lobby's line of the room too; no visible text (nor a tooltip or a label) holds
an internal name (`mcts:easy bot`, a spec like `mcts:` or `uct:`, an option's value `two_each`,
Halali!'s notation `hunterv` or `d2-exit-d1`); Halali!'s move lines are words in the page's
language."""

from __future__ import annotations

import random
import re

import pytest
from playwright.sync_api import Page, expect

from tests.web.conftest import Pages
from tests.web.helpers import create_room, enter, say, state, wait_my_turn, wait_version_above
from tests.web.test_botpage import SHORT, _play_entry

# a bot's spec, an option's value, Halali!'s notation of a tile or an exit
INTERNAL = re.compile(r"\b(?:mcts|uct)\b|\bbot-(?:easy|medium|hard)\b|\btwo_each\b"
                      r"|\bhunter[v<>^]|-exit-", re.IGNORECASE)
EASY = {"en": "Easy bot", "de": "Leichter Bot"}
EASY_SAID = {"en": "an Easy bot", "de": "einen leichten Bot"}  # in the chat's sentence
ENTER = {"en": "Enter the hall", "de": "Die Halle betreten"}

# What a person reads on the page: its visible text, its title, and the tooltips and labels
_READ = """() => [document.title, document.body.innerText,
  ...[...document.querySelectorAll("[title], [aria-label], [placeholder]")].flatMap(
    (el) => ["title", "aria-label", "placeholder"].map((a) => el.getAttribute(a) || ""))
].join("\\n")"""


def internal_names(page: Page) -> list[str]:
    """The internal bot names the page shows a person (none, when it reads right)."""
    text = page.evaluate(_READ)
    return sorted({line for line in str(text).splitlines() if INTERNAL.search(line)})


def _bot_has_moved(page: Page, game: str) -> None:
    """Play this page's turns (random legal entries through the board) until a move of the bot's
    is in the move list."""
    rng = random.Random(game)
    while True:
        st = wait_my_turn(page, timeout=30000)
        bots = {i for i, seat in enumerate(st["seats"]) if seat.get("bot")}
        if any(m.get("seat") in bots for m in st["moves"]) or st["status"] == "finished":
            return
        _play_entry(page, game, rng.choice(st["legal"]))
        wait_version_above(page, st["version"])


@pytest.mark.parametrize("language", ["en", "de"])
@pytest.mark.parametrize("game", ["hula", "haugaz", "halali", "hotu_matua", "hau_la"])
def test_no_internal_bot_name_in_a_room_of_any_game(pages: Pages, game: str,
                                                     language: str) -> None:
    page = pages.new(locale="de-DE" if language == "de" else "en-US")
    page.on("dialog", lambda d: d.accept())
    enter(page, button=ENTER[language])
    room = create_room(page, game, **SHORT[game])
    say(page, "/bot easy")
    bot_seat = page.locator(".seat .occupant", has_text=EASY[language])
    expect(bot_seat).to_have_count(1)
    expect(page.locator(".chat-log .line.info").last).to_contain_text(EASY_SAID[language])
    assert not internal_names(page), internal_names(page)
    page.click("[data-action=start]")
    _bot_has_moved(page, game)
    expect(page.locator("[data-testid=moves] .who", has_text=EASY[language]).first).to_be_visible()
    assert not internal_names(page), internal_names(page)

    lobby = pages.new(locale=page.evaluate("navigator.language"))
    line = lobby.locator(f"[data-room='{room}']")
    expect(line).to_contain_text(EASY[language])
    assert not internal_names(lobby), internal_names(lobby)

    if state(page)["status"] != "finished":
        page.click("[data-action=resign]")
    expect(page.get_by_test_id("result-words")).to_be_visible()
    expect(page.get_by_test_id("outcome")).to_contain_text(EASY[language])
    assert not internal_names(page), internal_names(page)


HALALI_LINES = [{"kind": "flip", "cell": "d1", "move": "flip d1"},
                {"kind": "reveal", "cell": "d1", "tile": "Hv", "move": "hunterv"},
                {"kind": "capture", "from": "b6", "to": "b5", "move": "b6xb5"},
                {"kind": "exit", "from": "d2", "exit": "d1", "move": "d2-exit-d1"},
                {"kind": "pass", "move": "pass"}]


@pytest.mark.parametrize(("locale", "said"), [
    ("en-US", ["turns over d1:", "hunter (rifle down)", "b6 takes b5",
               "d2 out by the exit at d1", "passes"]),
    ("de-DE", ["deckt d1 auf:", "Jäger (Gewehr nach unten)", "b6 schlägt b5",
               "d2 hinaus durch den Ausgang bei d1", "passt"])])
def test_halalis_move_lines_are_words_in_the_pages_language(pages: Pages, locale: str,
                                                           said: list[str]) -> None:
    """Halali!'s moves are written in words, not notation ("hunterv", "d2-exit-d1")."""
    page = pages.new(locale=locale)
    words = page.evaluate("""async (moves) => {
        const { moveWords } = await import('/js/boards/halali.js');
        return moveWords(moves); }""", HALALI_LINES)
    assert words == said
