"""The result's order as a person reads it (issue 43), in English and in German: a Halali! game
played by two people to its end by the rules (set up at its end phase) gives the winner's points
first in the result and in the game's own sentence, for the player who lost, the one who won and
a watcher alike."""

from __future__ import annotations

import random
import re

import pytest
from playwright.sync_api import Page, expect

from tests.web.conftest import Pages
from tests.web.helpers import (
    create_room,
    enter,
    state,
    wait_my_turn,
    wait_version_above,
)
from tests.web.test_botpage import _play_entry

ENTER = {"en": "Enter the hall", "de": "Die Halle betreten"}
LOCALE = {"en": "en-US", "de": "de-DE"}
SCORE = re.compile(r"(\d+) (?:to|zu) (\d+)")


def _play_to_the_end(players: list[Page], seed: int) -> None:
    """Random legal entries through the board of whichever page is to move, until the rules
    end the game."""
    rng = random.Random(seed)
    st = state(players[0])
    while st["status"] != "finished":
        mover = next(p for p in players if state(p)["seat"] == st["to_move"])
        st = wait_my_turn(mover, timeout=30000)
        if st["status"] == "finished":
            break
        _play_entry(mover, "halali", rng.choice(st["legal"]))
        st = wait_version_above(players[0], st["version"])
    for page in players:
        page.wait_for_function("() => window.gamehall.room.state.status === 'finished'")


def _scores_read(page: Page) -> list[tuple[int, int]]:
    """The two scores in the result's words and in the game's sentence, in the order read."""
    expect(page.get_by_test_id("result-words")).to_contain_text(SCORE)
    expect(page.get_by_test_id("outcome")).to_contain_text(SCORE)
    read = []
    for part in ("result-words", "outcome"):
        found = SCORE.search(page.get_by_test_id(part).inner_text())
        assert found, part
        read.append((int(found[1]), int(found[2])))
    return read


@pytest.mark.parametrize("language", ["en", "de"])
def test_the_winners_points_come_first_for_players_and_watchers(pages: Pages,
                                                                  language: str) -> None:
    ann = pages.new(locale=LOCALE[language])
    enter(ann, button=ENTER[language])
    room = create_room(ann, "halali", setup="end_phase")
    bea = pages.new(locale=LOCALE[language])
    enter(bea, button=ENTER[language])
    bea.goto(f"{pages.hall.url}#/room/{room}/join")
    expect(bea.locator(".seat.mine")).to_have_count(1)
    ann.click("[data-action=start]")
    watcher = pages.new(locale=LOCALE[language])
    watcher.goto(f"{pages.hall.url}#/room/{room}")
    _play_to_the_end([ann, bea], seed=3)
    st = state(ann)
    assert st["ended_by"] == "rules"
    winner, loser = sorted(st["scores"], reverse=True)
    assert winner > loser  # this seed's game is no draw: a player lost
    for reader in (ann, bea, watcher):
        for first, second in _scores_read(reader):
            assert (first, second) == (winner, loser), (language, first, second, st["scores"])
