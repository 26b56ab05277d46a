"""The review worker's job on a finished game of each of the five games, from the record the
hall makes public (`replay.game_record`: no seed; chance outcomes are its actions): the review
covers every action, reports its progress as lines, and gives each searched move's better move
with its parts for the board. A tiny budget (2 simulations a position) keeps it quick."""

from __future__ import annotations

import io
import json
import random

import pytest

from gamehall.core import CHANCE, GameRecord, list_games, load_game
from gamehall.server.reviews.worker import review

GAMES = [g for g in ("halali", "hau_la", "haugaz", "hotu_matua", "hula") if g in list_games()]


@pytest.mark.parametrize("name", GAMES)
def test_a_public_record_of_each_game_is_reviewed(name: str) -> None:
    rng = random.Random(11)
    state = load_game(name).new_initial_state(rng.randrange(2**31))
    while not state.is_terminal() and len(state.history()) < 30:
        state.apply_action(state.sample_chance(rng) if state.current_player() == CHANCE
                           else rng.choice(state.legal_actions()))
    public = GameRecord.from_state(state, [f"p{i}" for i in range(state.game.num_players)])
    public.seed = None  # as the hall's record: the moves alone replay the game
    out = io.StringIO()
    rave = 1000.0 if name == "hula" else None  # as Hula's levels search (LEVEL_RAVE)
    found = review({"record": public.to_dict(), "simulations": 2, "seed": 0, "widening": None,
                    "rave": rave}, out)["review"]
    assert [s["move"] for s in found["steps"]] == [m for _, m in public.actions]
    lines = [json.loads(line) for line in out.getvalue().splitlines()]
    assert lines[-1] == {"progress": [len(public.actions)] * 2}
    searched = [s for s in found["steps"] if s["kind"] == "move"]
    assert searched and all(s["best_parts"]["move"] == s["best"] for s in searched)
    assert len(found["accuracy"]) == state.game.num_players
