"""docs/bot-api.md is enough for a bot written in another language: every key a real view of each
game holds is listed in its table of views (and nothing listed is invented), and the view's
`legal_moves`, where a game has them, follow the state message's rule: the seat's own moves on
its turn, empty otherwise."""

from __future__ import annotations

import random
import re
from typing import Any

import pytest

from gamehall.core import load_game
from tests.server.live import ROOT

DOC = (ROOT / "docs" / "bot-api.md").read_text()
GAMES: dict[str, dict[str, Any]] = {
    "hula": {"size": 5}, "haugaz": {"size": 5}, "halali": {}, "hotu_matua": {"turn_limit": 6},
    "hau_la": {"players": 3}}
RARE = {"hula": {"loop_scores"}}
"""Keys the doc lists that only a rare position holds (a double loop), so random games may miss
them."""


def documented(game: str) -> set[str]:
    """The keys of `game`'s row in the doc's table of views (what parentheses say is left out)."""
    row = re.search(rf"^\| `{game}` \| (.*) \|$", DOC, re.MULTILINE)
    assert row is not None, f"docs/bot-api.md has no row for {game}'s view"
    without_notes = re.sub(r"\([^)]*\)", "", row.group(1))
    return set(re.findall(r"`([a-z_]+)`", without_notes))


def positions(game: str, seeds: int = 3) -> list[Any]:
    """Every position of a few random games of `game`, chance drawn at random."""
    g = load_game(game, **GAMES[game])
    rng = random.Random(f"doc:{game}")
    out = []
    for seed in range(seeds):
        state = g.new_initial_state(seed=seed)
        out.append(state.clone())
        while not state.is_terminal():
            chance = [a for a, _ in state.chance_outcomes()]
            state.apply_action(rng.choice(chance or state.legal_actions()))
            out.append(state.clone())
    return out


@pytest.mark.parametrize("game", sorted(GAMES))
def test_every_key_of_a_real_view_is_documented(game: str) -> None:
    seen: set[str] = set()
    for state in positions(game):
        for seat in (None, *range(state.game.num_players)):
            seen |= set(state.view(seat))
    listed = documented(game)
    assert not seen - listed, f"{game}: keys a view holds that the doc does not list"
    assert not listed - seen - RARE.get(game, set()), f"{game}: keys listed that no view holds"


@pytest.mark.parametrize("game", sorted(GAMES))
def test_a_views_legal_moves_are_the_seats_own_on_its_turn_only(game: str) -> None:
    for state in positions(game, seeds=2):
        for seat in (None, *range(state.game.num_players)):
            view = state.view(seat)
            if "legal_moves" not in view:
                continue
            mine = seat is not None and seat == state.current_player()
            want = [text for _, text in state.legal_notation()] if mine else []
            assert view["legal_moves"] == want, (game, seat, state.current_player())
