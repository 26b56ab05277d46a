"""The board shell lights a review's better move on every game's 2D board, the same way for all:
a state carrying a `hint` (a move's parts) gets `hint-from` on the piece that moves and `hint`
where it goes or acts (shell.js). Each board here draws a position it is offered a move in, as a
replayed state with that move as the hint; the lit elements are the move's own places."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.web.conftest import Pages
from tests.web.helpers import create_room, enter, start_against_bot, wait_my_turn

BOARDS = {"hula": {"size": 5}, "haugaz": {}, "halali": {}, "hotu_matua": {}}


@pytest.mark.parametrize("game", sorted(BOARDS))
def test_a_hinted_move_is_lit_on_the_board(pages: Pages, game: str) -> None:
    page = pages.new()
    enter(page)
    create_room(page, game, **BOARDS[game])
    start_against_bot(page)
    st = wait_my_turn(page)
    entry = next(e for e in st["legal"] if "from" in e or "cell" in e)
    page.evaluate("""(hint) => { const st = window.gamehall.room.state;
        window.gamehall.room.board.update({ ...st, replay: true, legal: [], legal_moves: [],
                                            hint }); }""", entry)
    lit = page.locator("[data-testid=board] .hint")
    expect(lit.first).to_be_attached()
    places = set(lit.evaluate_all(
        "els => els.map((el) => el.getAttribute('data-cell') ?? el.getAttribute('data-at'))"))
    if "from" in entry:
        expect(page.locator(f"[data-testid=board] [data-at='{entry['from']}'].hint-from")
               ).to_have_count(1)
    else:
        assert places == {entry["cell"]}
