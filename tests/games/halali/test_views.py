"""Views and the client-facing JSON: what they show, and that no face-down tile ever leaks."""

from __future__ import annotations

import json
import random

import pytest

from gamehall.core import load_game
from gamehall.games.halali.rules import HalaliState
from tests.games.halali.helpers import board, play, position

SEATS = (None, 0, 1)


def _client_texts(state: HalaliState) -> list[str]:
    """Everything a client may be sent: the JSON form and every seat's view."""
    return [json.dumps(state.to_json(), sort_keys=True)] + [
        json.dumps(state.view(seat), sort_keys=True) for seat in SEATS]


@pytest.mark.parametrize("options", [{}, {"rifles": "random", "match": True}])
def test_no_view_or_json_carries_a_face_down_tiles_identity(options: dict[str, object]) -> None:
    """Twin games share every action but not the seed, so their futures differ. If anything
    sent to a client depended on tiles not yet flipped, the twins' texts would differ."""
    game = load_game("halali", **options)
    futures_differ = 0
    for seed in range(8):
        state = game.new_initial_state(seed=seed)
        twin = game.new_initial_state(seed=10_000 + seed)
        rng = random.Random(seed)
        while not state.is_terminal():
            texts = _client_texts(state)
            assert texts == _client_texts(twin)
            if state.turns % 4 == 0:
                rebuilt = game.state_from_json(json.loads(texts[0]))
                assert _client_texts(rebuilt) == texts
            data = state.to_json()
            hidden = sum(row.split().count("?") for row in data["board"])
            assert hidden == sum(data["unrevealed"].values()) == state.view(None)["face_down"]
            for text in texts:
                assert not any(word in text for word in ('"seed"', '"stack"', '"rng"', '"tiles"'))
            if state.is_chance_node():
                draw = state.sample_chance()
                futures_differ += draw != twin.clone().sample_chance()
                action = draw
            else:
                action = rng.choice(state.legal_actions())
            state.apply_action(action)
            twin.apply_action(action)
    assert futures_differ > 100  # the twins' seeds really would have drawn other tiles


def test_state_holds_nothing_beyond_its_json_and_its_generator() -> None:
    """A state rebuilt from JSON, given the same generator, plays on exactly alike."""
    game = load_game("halali")
    state = game.new_initial_state(seed=3)
    rng = random.Random(3)
    for _ in range(60):
        if state.is_chance_node():
            state.apply_action(state.sample_chance())
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    rebuilt = game.state_from_json(state.to_json())
    rebuilt.rng.setstate(state.rng.getstate())
    a, b = random.Random(9), random.Random(9)
    while not state.is_terminal():
        for s, r in ((state, a), (rebuilt, b)):
            s.apply_action(s.sample_chance() if s.is_chance_node() else r.choice(s.legal_actions()))
        assert state.to_json() == rebuilt.to_json()


def test_view_shows_turn_scores_taken_tiles_counter_and_legal_moves() -> None:
    state = position(board(c3="H^", c6="F", a1="L", e1="B", g7="?"), captured={"beasts": ["D"]},
                     unrevealed={"tree": 1})
    play(state, "c3xc6", "flip g7", "tree")
    assert state.current_player() == 0
    mover, other, spectator = state.view(0), state.view(1), state.view(None)
    assert mover["to_move"] == "humans" and mover["to_move_seat"] == 0
    assert mover["side"] == "humans" and other["side"] == "beasts" and spectator["side"] is None
    assert mover["scores"] == {"humans": 5, "beasts": 2}
    assert mover["captured"] == {"humans": ["F"], "beasts": ["D"]}
    assert mover["end_phase_turns_left"] == 10 and mover["phase"] == "end"
    assert mover["last_turn"] == "flip g7: tree"
    assert "c6-exit-d7" not in mover["legal_moves"] and "c6-c5" in mover["legal_moves"]
    assert other["legal_moves"] == [] and spectator["legal_moves"] == []
    assert mover["board"][0] == ". . . . . . T"


def test_view_at_a_flip_shows_the_square_but_not_the_tile() -> None:
    state = load_game("halali").new_initial_state(seed=0)
    play(state, "flip c3")
    view = state.view(None)
    assert view["phase"] == "flip" and view["flipping"] == "c3"
    assert view["board"][4].split()[2] == "?"
    assert view["legal_moves"] == []


def test_render_text_shows_board_scores_rifles_and_end_phase() -> None:
    state = position(board(c3="H>", c6="F", a1="L", d4="T"), end=7,
                     captured={"humans": ["B"]})
    text = state.game.render_text(state, 0)
    assert "H>" in text and "end phase: 7 turns left" in text and "10[/] points" in text
    assert " 4 " in text and "a  b  c  d  e  f  g" in text
    last = position(board(c3="H>", c6="F", a1="L", d4="T"), end=1)
    assert "end phase: 1 turn left" in last.game.render_text(last, 0)
    start = load_game("halali").new_initial_state(seed=1)
    assert start.game.render_text(start, None).count("░░") >= 48
