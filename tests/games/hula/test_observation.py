"""Hula's observation tensor for the adapters: planes × cells, read from the observing seat."""

from __future__ import annotations

import random

import numpy as np
import pytest

from gamehall.core import load_game
from gamehall.games.hula.observation import OBSERVATION_PLANES

OWN, OTHER, NEUTRAL, EMPTY, TO_MOVE, SWAP = range(len(OBSERVATION_PLANES))


def cells(game: object, plane: np.ndarray) -> set[str]:
    names = game.geo.names  # type: ignore[attr-defined]
    return {names[i] for i in np.nonzero(plane)[0]}


def test_planes_of_a_constructed_position_from_each_side() -> None:
    game = load_game("hula")
    state = game.state_from_json({
        "game": "hula", "options": {"size": 6, "pie": True},
        "board": {"e5": "first", "e6": "first", "g5": "second", "c3": "second", "d5": "neutral"},
        "to_move": "second", "swapped": False})
    first, second = state.observation_tensor(0), state.observation_tensor(1)
    assert first.shape == second.shape == game.observation_shape == (6, 91)
    assert first.dtype == np.float32
    assert cells(game, first[OWN]) == {"e5", "e6"} == cells(game, second[OTHER])
    assert cells(game, first[OTHER]) == {"g5", "c3"} == cells(game, second[OWN])
    assert cells(game, first[NEUTRAL]) == {"d5"} == cells(game, second[NEUTRAL])
    assert first[EMPTY].sum() == 90 - 5 and "f6" not in cells(game, first[EMPTY])  # the centre
    assert first[TO_MOVE].sum() == 0 and second[TO_MOVE].sum() == 91
    assert first[SWAP].sum() == second[SWAP].sum() == 0


def test_own_follows_the_seat_through_a_swap() -> None:
    game = load_game("hula", size=5)
    state = game.new_initial_state()
    state.apply_action(state.string_to_action("c2"))
    assert state.observation_tensor(1)[SWAP].all()  # swap is legal now
    state.apply_action(state.string_to_action("swap"))
    # seat 1 now owns the first colour and that stone; seat 0 is to move
    assert cells(game, state.observation_tensor(1)[OWN]) == {"c2"}
    assert cells(game, state.observation_tensor(0)[OTHER]) == {"c2"}
    assert state.observation_tensor(0)[TO_MOVE].all()
    assert not state.observation_tensor(0)[SWAP].any()


@pytest.mark.parametrize("size", [5, 6, 7])
def test_planes_partition_the_board_in_random_games(size: int) -> None:
    game = load_game("hula", size=size)
    rng = random.Random(size)
    for _ in range(20):
        state = game.new_initial_state()
        while True:
            tensor = state.observation_tensor(rng.randrange(2))
            assert tensor.shape == game.observation_shape
            stones = tensor[[OWN, OTHER, NEUTRAL, EMPTY]].sum(axis=0)
            assert stones.max() == 1 and stones.sum() == game.geo.num_cells - 1
            if state.is_terminal():
                assert not tensor[TO_MOVE].any()
                break
            state.apply_action(rng.choice(state.legal_actions()))
