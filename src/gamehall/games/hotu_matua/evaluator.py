"""A leaf evaluator for MCTS that judges the sea instead of playing on (`gamehall.evaluators`).

A random Hotu Matua game runs about 2,000 actions (hundreds of dice-driven turns) and random play
seldom chains all four ships at a pearl, so a random rollout costs milliseconds and says little:
a 2-second search made about 120 of them. This evaluator values a position at once from what
decides the game: the pearls each side owns, and how far each side's fleet is from closing a
chain at a pearl still on the board — for each pearl, the steps (field to field, around the
pearls still lying there; a taken pearl's field is open sea) that would bring every ship of the
fleet next to it; the nearest pearl counts. The value for north is
``tanh((pearls_N - pearls_S + w·(steps_S - steps_N)) / scale)``, south's its negative (the
game's returns are +1/−1, a draw 0).

Nothing is applied to the state; the distances are computed once per board and set of pearls
left. It imports only the
engine (the interface, `gamehall.core.Evaluator`, is structural) and is registered in
``pyproject.toml`` under ``gamehall.evaluators``.
"""

from __future__ import annotations

import math
import random
from collections import deque
from collections.abc import Sequence
from functools import cache

from gamehall.core import Game, GamehallError, State
from gamehall.games.hotu_matua.board import Board
from gamehall.games.hotu_matua.notation import SHIPS_PER_SEAT
from gamehall.games.hotu_matua.rules import HotuMatuaState


def pearl_steps(board: Board, pearls: tuple[int, ...] | None = None
                ) -> tuple[tuple[int, ...], ...]:
    """Per pearl of `pearls` (those still on the board; default all of `board.pearls`), per
    field: the fewest steps from that field to a field next to the pearl, never entering the
    field of a pearl still lying there (unreachable: the field count). A taken pearl's field is
    ordinary sea (rules), so the table depends on which pearls are left."""
    return _pearl_steps(board, tuple(sorted(board.pearls if pearls is None else pearls)))


@cache
def _pearl_steps(board: Board, pearls: tuple[int, ...]) -> tuple[tuple[int, ...], ...]:
    """`pearl_steps` for a sorted tuple of pearls left (at most 2^5 tables a board)."""
    blocked = set(pearls)
    far = board.num_fields
    out = []
    for pearl in pearls:
        steps = [far] * board.num_fields
        todo: deque[int] = deque()
        for f in board.neighbours(pearl):
            if f not in blocked:
                steps[f] = 0
                todo.append(f)
        while todo:
            f = todo.popleft()
            for g in board.neighbours(f):
                if g not in blocked and steps[g] > steps[f] + 1:
                    steps[g] = steps[f] + 1
                    todo.append(g)
        out.append(tuple(steps))
    return tuple(out)


class HotuMatuaEvaluator:
    """Owned pearls plus fleet distance to the nearest pearl, squashed into the game's returns."""

    def __init__(self, game: Game, step_weight: float = 0.1, scale: float = 1.5) -> None:
        if step_weight < 0 or scale <= 0:
            raise GamehallError("step_weight must be at least 0 and scale positive")
        self.game = game
        self.step_weight = step_weight
        self.scale = scale

    def fleet_steps(self, state: HotuMatuaState, seat: int) -> int:
        """Steps that would bring all of `seat`'s ships next to the nearest pearl left."""
        left = tuple(sorted(state.pearls))
        table = pearl_steps(state.board, left)
        base = seat * SHIPS_PER_SEAT
        fleet = state.ships[base:base + SHIPS_PER_SEAT]
        best = SHIPS_PER_SEAT * state.board.num_fields
        for row in table:
            best = min(best, sum(row[f] for f in fleet))
        return best

    def evaluate(self, state: State, rng: random.Random,
                 deadline: float | None = None) -> Sequence[float] | None:
        if not isinstance(state, HotuMatuaState):
            raise GamehallError("the Hotu Matua evaluator values Hotu Matua positions only")
        if state.is_terminal():
            return state.returns()
        lead = float(state.owned[0] - state.owned[1])
        if state.pearls:
            lead += self.step_weight * (self.fleet_steps(state, 1) - self.fleet_steps(state, 0))
        value = math.tanh(lead / self.scale)
        return [value, 0.0 - value]
