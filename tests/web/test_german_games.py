"""The languages issue's "done when": a browser asking for German plays a whole game of each
of the five games against a hall bot through the page (the random bot keeps it short) and, in
the room while playing, in the end box and in the replay, meets no English-only sentence: neither
the page's own strings nor the server's (its notices in the chat log, refusals, the games'
options, seats, outcomes and the views' texts such as Hau La's "what happened"), which the page
says from their keys.

The English-only strings are the English catalogue's parts (the page's and the server's) cut at
their ICU arguments: each literal piece of two words or more that no German string holds
("API tokens" is English only; "Halali!" is German too). Left out: the players' names (a hall
bot is called "random bot": a name, which no language changes) and what players type in the
chat. Halali! and Hau La, the long games, are marked slow like test_botpage's."""

from __future__ import annotations

import json
import random
import re
from functools import cache
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from gamehall.core.messages import Placeholder, parse
from tests.web.conftest import Pages
from tests.web.helpers import create_room, say, wait_my_turn, wait_version_above
from tests.web.test_botpage import SHORT, _play_entry

I18N = Path(__file__).resolve().parents[2] / "src" / "gamehall" / "web" / "i18n"

# What people wrote (see the docstring): left out of the text that is checked.
SERVER_TEXT = ["[data-testid=chat-log] .line.chat"]

_PAGE_TEXT = """(excluded) => {
  const skip = [...document.querySelectorAll(excluded.join(","))];
  const inSkip = (el) => skip.some((s) => s.contains(el));
  const attrs = [...document.querySelectorAll("[title], [aria-label], [placeholder]")]
    .filter((el) => !inSkip(el))
    .flatMap((el) => ["title", "aria-label", "placeholder"].map((a) => el.getAttribute(a)))
    .filter(Boolean);
  let text = [document.title, document.body.innerText, ...attrs].join("\\n");
  const st = window.gamehall && window.gamehall.room.state;
  const view = (st && st.view) || {};
  const said = st ? st.seats.map((seat) => seat && seat.player) : [];
  for (const cut of [...skip.map((el) => el.innerText), ...said]) {
    if (typeof cut === "string" && cut) text = text.split(cut).join("\\n");
  }
  return text;
}"""


def _page_parts(language: str) -> dict[str, str]:
    """Every part of `language`'s catalogue: the page's strings and the server's sentences."""
    joined: dict[str, str] = {}
    for part in sorted((I18N / language).glob("*.json")):
        joined.update(json.loads(part.read_text("utf-8")))
    return joined


def _pieces(nodes: Any) -> list[str]:
    """The literal text of parsed ICU nodes, cut at every argument (branches' text included)."""
    out: list[str] = []
    buf = ""
    for node in nodes:
        if isinstance(node, Placeholder):
            out.append(buf)
            buf = ""
            for _, branch in node.branches:
                out.extend(_pieces(branch))
        elif node != "#":
            buf += node
    out.append(buf)
    return out


@cache
def english_only() -> frozenset[str]:
    """The English strings' pieces of two words or more that no German string holds."""
    german = "\n".join(_page_parts("de").values())
    found = set()
    for text in _page_parts("en").values():
        for piece in _pieces(parse(text)):
            piece = piece.strip(" .,:;()—·…")
            if len(re.findall(r"[A-Za-z]+", piece)) >= 2 and piece not in german:
                found.add(piece)
    return frozenset(found)


def test_the_check_knows_the_rooms_english() -> None:
    strings = english_only()
    assert {"Leave seat", "Back to the game", "End turn", "rifle pointing up"} <= strings
    assert "Halali!" not in strings and "Hotu Matua map" in strings
    assert {"the game has not started yet", "What happened"} <= strings  # the server's too


def assert_german(page: Page, where: str) -> None:
    """No English-only string in the page's text (its visible text, title and the title,
    aria-label and placeholder attributes), what players wrote left out."""
    text = page.evaluate(_PAGE_TEXT, SERVER_TEXT)
    english = sorted(s for s in english_only() if s in text)
    assert not english, f"{where}: English page strings on a German page: {english}"


def _start_against_a_bot(page: Page, game: str) -> None:
    """Create a room of `game` with its shortest options through the German lobby, seat the
    random bot and start."""
    create_room(page, game, **SHORT[game])
    assert_german(page, f"{game}: the room before the start")
    say(page, "/bot random")
    expect(page.locator(".seat .occupant .tag")).to_have_count(1)
    page.click("[data-action=start]")
    page.wait_for_function("() => window.gamehall.room.state.status === 'playing'")


def _play_in_german(page: Page, game: str) -> None:
    """Play this page's seat to the end, a random legal entry a time, looking at the page in the
    first turns and every tenth."""
    rng = random.Random(game)
    st = wait_my_turn(page, timeout=30000)
    turns = 0
    while st["status"] != "finished":
        if turns < 3 or turns % 10 == 0:
            assert_german(page, f"{game}: turn {turns}")
        _play_entry(page, game, rng.choice(st["legal"]))
        wait_version_above(page, st["version"])
        st = wait_my_turn(page, timeout=30000)
        turns += 1


@pytest.mark.parametrize("game", [
    "hula", "haugaz", pytest.param("halali", marks=pytest.mark.slow), "hotu_matua",
    pytest.param("hau_la", marks=pytest.mark.slow)])
def test_a_german_player_meets_no_english_page_string_in_a_whole_game(
        pages: Pages, game: str) -> None:
    page = pages.new(locale="de-DE")
    page.fill("input[name=nickname]", f"deutsch{game.replace('_', '')[:8]}")
    page.get_by_role("button", name="Die Halle betreten").click()
    expect(page.get_by_test_id("me")).not_to_be_empty()
    _start_against_a_bot(page, game)
    _play_in_german(page, game)
    expect(page.get_by_test_id("result-words")).to_be_visible()
    assert_german(page, f"{game}: the end")
    page.click("[data-action=replay]")
    expect(page.get_by_test_id("replay-bar")).to_be_visible()
    for button in ("back", "back", "first", "forward"):
        page.click(f"[data-replay={button}]")
    expect(page.get_by_test_id("replay-step")).to_have_text(re.compile(r"^1 / \d+$"))
    assert_german(page, f"{game}: the replay")
