"""Material and chance: 48 tiles, the rifle distributions, outcome probabilities."""

from __future__ import annotations

import math
import random
from collections import Counter

import pytest

from gamehall.core import CHANCE, load_game
from gamehall.games.halali.rules import HalaliState
from gamehall.games.halali.tiles import KIND_OF, TOKENS
from tests.games.halali.helpers import board, play, position


def _flip_everything(state: HalaliState) -> Counter[str]:
    """Flip every face-down tile in turn (the players only flip) and tally what shows."""
    while state.hidden:
        flips = [a for a in state.legal_actions() if state.action_to_string(a).startswith("flip")]
        state.apply_action(flips[0])
        state.apply_action(state.sample_chance())
    return Counter(TOKENS[c] for c in state.board if c > 1)


def test_initial_position_has_48_face_down_tiles_around_an_empty_centre() -> None:
    state = load_game("halali").new_initial_state(seed=1)
    rows = state.to_json()["board"]
    assert [row.split().count("?") for row in rows] == [7, 7, 7, 6, 7, 7, 7]
    assert rows[3].split()[3] == "."
    assert state.to_json()["unrevealed"] == {
        "bear": 2, "fox": 6, "lumberjack": 2, "hunter^": 2, "hunter>": 2, "hunterv": 2,
        "hunter<": 2, "pheasant": 8, "duck": 7, "tree": 15}
    assert sum(state.to_json()["unrevealed"].values()) == 48


@pytest.mark.parametrize("seed", range(6))
def test_flipping_every_tile_reveals_exactly_the_material(seed: int) -> None:
    state = load_game("halali").new_initial_state(seed=seed)
    shown = _flip_everything(state)
    kinds = Counter[str]()
    for code in state.board:
        if code > 1:
            kinds[KIND_OF[code]] += 1
    assert kinds == {"bear": 2, "fox": 6, "lumberjack": 2, "hunter": 8, "pheasant": 8,
                     "duck": 7, "tree": 15}
    assert {t: shown[t] for t in ("H^", "H>", "Hv", "H<")} == dict.fromkeys(
        ("H^", "H>", "Hv", "H<"), 2)
    assert state.end_left == 10


def test_random_rifles_draw_each_hunters_direction() -> None:
    game = load_game("halali", rifles="random")
    state = game.new_initial_state(seed=0)
    assert state.to_json()["unrevealed"]["hunter"] == 8
    play(state, "flip a1")
    probs = dict((state.action_to_string(a), p) for a, p in state.chance_outcomes())
    for arrow in "^>v<":
        assert math.isclose(probs[f"hunter{arrow}"], 8 / 48 / 4)
    splits = set()
    for seed in range(20):
        shown = _flip_everything(game.new_initial_state(seed=seed))
        per_dir = tuple(shown[t] for t in ("H^", "H>", "Hv", "H<"))
        assert sum(per_dir) == 8
        splits.add(per_dir)
    assert any(split != (2, 2, 2, 2) for split in splits)


def test_chance_probabilities_follow_the_remaining_tiles() -> None:
    state = position(board(a1="?", b1="?", c1="?", d1="?", g7="F", a7="H^"), to_move="beasts",
                     unrevealed={"bear": 1, "tree": 3}, turn=3)
    play(state, "flip b1")
    assert state.current_player() == CHANCE
    out = [(state.action_to_string(a), p) for a, p in state.chance_outcomes()]
    assert out == [("bear", 0.25), ("tree", 0.75)]
    assert state.legal_actions() == [a for a, _ in state.chance_outcomes()]
    play(state, "tree")
    assert state.to_json()["unrevealed"]["tree"] == 2
    play(state, "flip c1")
    out = [(state.action_to_string(a), p) for a, p in state.chance_outcomes()]
    assert out == [("bear", pytest.approx(1 / 3)), ("tree", pytest.approx(2 / 3))]
    play(state, "bear")
    play(state, "flip d1")
    assert [state.action_to_string(a) for a, _ in state.chance_outcomes()] == ["tree"]


def test_first_flip_probabilities_and_their_sum() -> None:
    state = load_game("halali").new_initial_state(seed=5)
    play(state, "flip a1")
    probs = {state.action_to_string(a): p for a, p in state.chance_outcomes()}
    assert math.isclose(sum(probs.values()), 1.0)
    assert probs == pytest.approx({"bear": 2 / 48, "fox": 6 / 48, "lumberjack": 2 / 48,
                                   "hunter^": 2 / 48, "hunter>": 2 / 48, "hunterv": 2 / 48,
                                   "hunter<": 2 / 48, "pheasant": 8 / 48, "duck": 7 / 48,
                                   "tree": 15 / 48})
    play(state, "fox")
    play(state, "flip b1")
    probs = {state.action_to_string(a): p for a, p in state.chance_outcomes()}
    assert probs["fox"] == pytest.approx(5 / 47) and probs["tree"] == pytest.approx(15 / 47)


def test_exhausted_rifle_direction_is_no_longer_an_outcome() -> None:
    state = position(board(a1="?", b1="?", g7="F", a7="L"), to_move="beasts",
                     unrevealed={"hunter^": 1, "hunterv": 1},
                     captured={"beasts": ["H^", "Hv"]})
    play(state, "flip a1")
    assert [state.action_to_string(a) for a, _ in state.chance_outcomes()] == [
        "hunter^", "hunterv"]
    play(state, "hunter^")
    play(state, "a7-a6", "flip b1")
    assert [state.action_to_string(a) for a, _ in state.chance_outcomes()] == ["hunterv"]


def test_draws_from_the_seed_are_reproducible_and_depend_on_it() -> None:
    def draws(seed: int) -> list[int]:
        state = load_game("halali").new_initial_state(seed=seed)
        rng = random.Random(0)
        out = []
        for _ in range(30):
            state.apply_action(rng.choice([a for a in state.legal_actions() if a < 49]))
            out.append(state.sample_chance())
            state.apply_action(out[-1])
        return out

    assert draws(7) == draws(7)
    assert draws(7) != draws(8)


def test_random_playout_reaches_a_legal_end_and_replays() -> None:
    game = load_game("halali", rifles="random")
    for seed in range(5):
        state = game.new_initial_state(seed=seed)
        n = state.random_playout(random.Random(seed))
        assert state.is_terminal() and n == len(state.history())
        replay = game.new_initial_state()
        for action in state.history():
            replay.apply_action(action)  # every action of the fast path was legal
        assert replay.to_json() == state.to_json()


def test_fast_draw_follows_the_chance_odds() -> None:
    state = position(board(a1="?", b1="?", c1="?", d1="?", g7="F", a7="H^"), to_move="beasts",
                     unrevealed={"bear": 1, "tree": 3})
    play(state, "flip a1")
    rng = random.Random(1)
    draws = Counter(state.action_to_string(state.draw_outcome(rng)) for _ in range(4000))
    assert set(draws) == {"bear", "tree"} and 800 < draws["bear"] < 1200
