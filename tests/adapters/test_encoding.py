"""The generic observation encoding: fixed size, deterministic, and telling positions apart."""

from __future__ import annotations

import random

import numpy as np

from gamehall.adapters.encoding import Encoder, _features_for, _leaves
from gamehall.core import load_game


def test_leaves_are_path_value_texts() -> None:
    assert _leaves({"a": [1, "x"], "b": {"c": None, "d": []}, "e": True}) == [
        "/a/0=1", "/a/1='x'", "/b/c=None", "/b/d=[]", "/e=True"]


def test_long_strings_are_read_as_rows_of_cells() -> None:
    assert _leaves({"board": ["x . o . x", "ab"]}) == [
        "/board/0/0='x'", "/board/0/1=' '", "/board/0/2='.'", "/board/0/3=' '",
        "/board/0/4='o'", "/board/0/5=' '", "/board/0/6='.'", "/board/0/7=' '",
        "/board/0/8='x'", "/board/1='ab'"]
    assert _leaves("abcdefgh") == ["='abcdefgh'"]
    assert len(_leaves("abcdefghi")) == 9


def test_feature_count_grows_with_the_view() -> None:
    assert _features_for(1) == 256
    assert _features_for(100) == 1024
    assert _features_for(10**6) == 1 << 15


def test_generic_tensor_has_a_fixed_shape_and_is_deterministic() -> None:
    game = load_game("toy_pig")
    enc = Encoder(game)
    assert not enc.uses_hook and enc.shape == (2 + 4 + enc.num_features,)
    rng = random.Random(0)
    state = game.new_initial_state(0)
    seen = set()
    while not state.is_terminal():
        tensor = enc.tensor(state, 0)
        assert tensor.shape == enc.shape and tensor.dtype == np.float32
        assert np.array_equal(tensor, Encoder(game).tensor(state.clone(), 0))
        seen.add(tensor.tobytes())
        state.apply_action(state.sample_chance(rng) if state.is_chance_node()
                           else rng.choice(state.legal_actions()))
    terminal = enc.tensor(state, 1)
    assert terminal[1] == 1 and terminal[2 + 3] == 1  # seat 1 observes; terminal
    assert len(seen) > 5


def test_a_games_own_tensor_is_used_when_it_has_one() -> None:
    game = load_game("toy_nim", stones=5)
    enc = Encoder(game)
    assert enc.uses_hook and enc.shape == (2, 6) and (enc.low, enc.high) == (0.0, 1.0)
    state = game.new_initial_state()
    assert np.array_equal(enc.tensor(state, 0), state.observation_tensor(0))
