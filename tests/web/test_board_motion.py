"""The opponent's last move is animated (a stone drops, a stack grows or slides, a tile slides or
turns over, a ship sails, a Hau La piece drops onto the building), and nothing moves for a user
who asks for reduced motion. The board shell counts the motions it plays and the ones it skips
on the board (data-animations-run, data-animations-skipped): the tests read those counts and
the page's running animations, never the time."""

from __future__ import annotations

from typing import Any

import pytest

from tests.web.conftest import Pages
from tests.web.helpers import (
    create_room,
    enter,
    start_against_bot,
    wait_my_turn,
    wait_version_above,
)

GAMES: dict[str, dict[str, Any]] = {
    "hula": {"size": 5},
    "haugaz": {"size": 6, "cake": False},
    "halali": {},
    "hotu_matua": {},
    "hau_la": {},
}

_COUNTS = """() => { const m = document.querySelector('.board-main');
  return { run: Number(m.dataset.animationsRun || 0),
           skipped: Number(m.dataset.animationsSkipped || 0) }; }"""


def _after_the_bots_turn(pages: Pages, game: str, reduced: bool) -> tuple[Any, dict[str, int]]:
    """Play against the random bot until its answer has been shown (a turn of its that moves
    something); the page and the motions counted meanwhile."""
    page = pages.new(reduced_motion=reduced)
    enter(page)
    create_room(page, game, **GAMES[game])
    start_against_bot(page)
    st = wait_my_turn(page)
    # the state can come before the board's module has loaded (Hau La's three.js, a busy machine)
    page.wait_for_selector(".board-main", state="attached")
    before = page.evaluate(_COUNTS)
    total = before["run"] + before["skipped"]
    for _ in range(8):  # a Hotu Matua bot may end its turn without a step: play another turn
        start = len(st["moves"])
        while not any(m["seat"] not in (None, st["seat"]) for m in st["moves"][start:]):
            entry = next((e for e in st["legal"] if e["kind"] == "end"), st["legal"][0])
            page.evaluate(f"window.gamehall.room.submit({entry['move']!r})")
            wait_version_above(page, st["version"])
            st = wait_my_turn(page)
        counts = page.evaluate(_COUNTS)
        if counts["run"] + counts["skipped"] > total:
            break
    after = page.evaluate(_COUNTS)
    return page, {k: after[k] - before[k] for k in after}


@pytest.mark.parametrize("game", list(GAMES))
def test_the_opponents_move_is_animated(pages: Pages, game: str) -> None:
    _, counts = _after_the_bots_turn(pages, game, reduced=False)
    assert counts["run"] > 0 and counts["skipped"] == 0


@pytest.mark.parametrize("game", ["hula", "halali", "hau_la"])
def test_nothing_moves_under_reduced_motion(pages: Pages, game: str) -> None:
    page, counts = _after_the_bots_turn(pages, game, reduced=True)
    assert counts["run"] == 0 and counts["skipped"] > 0
    assert page.evaluate("document.querySelector('.board-main').dataset.animationsRun") is None
    assert page.evaluate("document.getAnimations().length") == 0
