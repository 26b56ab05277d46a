"""A stored review reads back as it was written (`Review.from_dict` of `to_dict`), with the
preferred moves taken apart for a board (`with_parts`): what the hall stores and serves."""

from __future__ import annotations

import json

import pytest

from gamehall.ai.review import REVIEW_FORMAT, Review, review_record, with_parts
from gamehall.core import GamehallError, GameRecord, load_game


def test_a_review_reads_back_from_its_json_with_the_best_moves_parts() -> None:
    state = load_game("hula").new_initial_state(5)
    while len(state.history()) < 8:
        state.apply_action(state.legal_actions()[len(state.history()) % 3])
    record = GameRecord.from_state(state, ["ann", "bob"], seed=5)
    review = with_parts(review_record(record, simulations=6, seed=1), record)
    data = review.to_dict()
    back = Review.from_dict(json.loads(json.dumps(data)))
    assert back.to_dict() == data and data["format"] == REVIEW_FORMAT
    chosen = [s for s in back.steps if s.best is not None]
    assert chosen and all(s.best_parts and s.best_parts["move"] == s.best for s in chosen)
    with pytest.raises(GamehallError):
        Review.from_dict({**data, "format": "gamehall-record/1"})


def test_a_review_colours_each_seat_as_its_pieces_were_at_the_end() -> None:
    """After Hula's swap seat 0 plays the second colour's stones: the review says so, and a
    review stored before colours were kept reads back with none (the page then takes the
    game's)."""
    state = load_game("hula", size=5).new_initial_state(3)
    for move in ("c3", "swap", "d4", "e6"):
        state.apply_action(state.string_to_action(move))
    record = GameRecord.from_state(state, ["ann", "bob"], seed=3)
    review = review_record(record, simulations=4, seed=1)
    assert review.colours == list(state.seat_colours()) == ["#2a62c9", "#d0342c"]
    data = review.to_dict()
    assert data["colours"] == ["#2a62c9", "#d0342c"]
    old = {k: v for k, v in data.items() if k != "colours"}
    assert Review.from_dict(old).colours == []
