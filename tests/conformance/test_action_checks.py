"""Every game refuses what is not an action — a bool, a float, a string, None, a number out of
range — in `apply_action` and `is_legal`, with a reason and without changing anything.

The checks live once in `core.State`; a game's fast path must not let anything else through
(Hula once accepted ``apply_action(True)`` as cell 1 and recorded ``True``).
"""

from __future__ import annotations

import random
from importlib.metadata import entry_points

import pytest

from gamehall.core import IllegalActionError, State, load_game

GAMES = sorted(ep.name for ep in entry_points(group="gamehall.games"))
"""The installed games (tests elsewhere may register toy games for a while)."""

NOT_ACTIONS: list[object] = [True, False, 1.0, 0.0, "1", None, [1], (0,)]


def _positions(name: str, count: int = 6) -> list[State]:
    """Positions along a seeded random game: the start, chance nodes too, the end."""
    state = load_game(name).new_initial_state(5)
    rng = random.Random(5)
    out = [state.clone()]
    steps = 0
    while not state.is_terminal() and steps < 400:
        if state.is_chance_node():
            state.apply_action(state.sample_chance(rng))
        else:
            state.apply_action(rng.choice(state.legal_actions()))
        steps += 1
        if steps % 7 == 0 and len(out) < count:
            out.append(state.clone())
    out.append(state)
    return out


def _refused(state: State, action: object) -> str:
    before, history = state.to_json(), state.history()
    assert not state.is_legal(action)  # type: ignore[arg-type]
    with pytest.raises(IllegalActionError) as caught:
        state.apply_action(action)  # type: ignore[arg-type]
    assert state.to_json() == before and state.history() == history
    return str(caught.value)


@pytest.mark.parametrize("name", GAMES)
def test_what_is_not_an_action_is_refused(name: str) -> None:
    for state in _positions(name):
        for thing in NOT_ACTIONS:
            reason = _refused(state, thing)
            if not state.is_terminal():
                assert reason == f"an action is a whole number, not {thing!r}"


@pytest.mark.parametrize("name", GAMES)
def test_numbers_out_of_range_are_refused(name: str) -> None:
    for state in _positions(name):
        size = state.game.num_distinct_actions
        for number in (-1, size, size + 1, 10**9):
            reason = _refused(state, number)
            if not state.is_terminal():
                assert reason == f"there is no action {number}"


@pytest.mark.parametrize("name", GAMES)
def test_a_bool_is_refused_even_where_its_number_is_legal(name: str) -> None:
    for state in _positions(name):
        for flag in (False, True):
            if int(flag) in state.legal_actions():
                _refused(state, flag)
                twin = state.clone()
                twin.apply_action(int(flag))
                assert all(type(a) is int for a in twin.history())
