"""`random_playout`: the bots' fast path must play Hula exactly as `apply_action` does."""

from __future__ import annotations

import random

import pytest

from gamehall.core import load_game


@pytest.mark.parametrize(("size", "pie"), [(5, True), (6, True), (6, False), (7, True)])
def test_playouts_replay_identically_through_apply_action(size: int, pie: bool) -> None:
    game = load_game("hula", size=size, pie=pie)
    rng = random.Random(size * 10 + pie)
    for _ in range(150):
        state = game.new_initial_state()
        for _ in range(rng.choice([0, 0, 1, 2, 5, 30])):  # also from the swap and mid-game
            if state.is_terminal():
                break
            state.apply_action(rng.choice(state.legal_actions()))
        start = len(state.history())
        played = state.random_playout(rng)
        assert state.is_terminal()
        assert played == len(state.history()) - start
        replay = game.new_initial_state()
        for action in state.history():
            replay.apply_action(action)
        assert replay.is_terminal()
        assert replay.to_json() == state.to_json()
        assert replay.returns() == state.returns()
        assert replay.double == state.double
        assert replay.legal_actions() == state.legal_actions() == []


def test_a_finished_game_plays_no_more() -> None:
    state = load_game("hula", size=5).new_initial_state()
    rng = random.Random(1)
    state.random_playout(rng)
    history = state.history()
    assert state.random_playout(rng) == 0
    assert state.history() == history


def test_playouts_swap_about_as_often_as_uniform_play_does() -> None:
    # With 60 empty cells plus the swap, a uniform answer swaps 1 time in 61.
    game = load_game("hula", size=5)
    rng = random.Random(4)
    swaps = 0
    runs = 3000
    for _ in range(runs):
        state = game.new_initial_state()
        state.random_playout(rng)
        swaps += state.swapped
    assert 0.5 * runs / 61 < swaps < 1.6 * runs / 61


def test_playouts_are_reproducible_from_the_seed() -> None:
    game = load_game("hula")
    histories = []
    for _ in range(2):
        state = game.new_initial_state()
        state.random_playout(random.Random(99))
        histories.append(state.history())
    assert histories[0] == histories[1]
