"""Helpers for Hau La tests: set up games and play chosen placements through the contract."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from gamehall.core import load_game
from gamehall.games.hau_la.notation import layout
from gamehall.games.hau_la.rules import STEP_RANGE, HauLaState
from gamehall.games.hau_la.turns import Table

Pick = Callable[[np.ndarray, bool, Table], bool]


def new_state(players: int, seed: int = 0) -> HauLaState:
    state = load_game("hau_la", players=players).new_initial_state(seed)
    assert isinstance(state, HauLaState)
    return state


def calm(row: np.ndarray, touch: bool, table: Table) -> bool:
    return not touch


def touching(row: np.ndarray, touch: bool, table: Table) -> bool:
    return touch


def play(state: HauLaState, pick: Pick = calm, at: float = 0.5) -> tuple[np.ndarray, bool]:
    """Play an enumerated placement that `pick` accepts (the one `at` of the way through the
    list of candidates), action by action through the contract."""
    t = state.table
    found = t.placements
    assert found is not None, f"no placement in phase {t.phase}"
    rows = [int(i) for i in t.rows if pick(found.rows[i], bool(found.touch[i]), t)]
    assert rows, "no such placement here"
    i = rows[min(len(rows) - 1, int(at * len(rows)))]
    row = found.rows[i]
    lay = layout(t.model)
    while True:  # until the placement is committed: the pending choices start again
        step = state.table.step()
        assert step is not None
        action = lay[STEP_RANGE[step]] + int(row[step])
        assert action in state.legal_actions()
        before = len(t.pending)
        state.apply_action(action)
        if t.placements is None or len(t.pending) <= before:
            break
    return row, bool(found.touch[i])


def play_round(state: HauLaState, pick: Pick = calm) -> None:
    """Play placements until the round's judging has happened (the bonus placement is next)."""
    start = state.table.round
    while state.table.round == start and state.table.phase == "place":
        play(state, pick)
