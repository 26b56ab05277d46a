"""A leaf evaluator for MCTS that reads the forest instead of playing on (`gamehall.evaluators`).

A random Halali! rollout flips the remaining tiles in random order and lets both sides wander;
what decides a game between players is simpler to see: the points each side has taken, the
captures each side can make at once (a fox with a duck in its line, a hunter with a bear in its
rifle's), the own tiles a side still has on the board (what it may capture with, and exit in the
end phase) and, once the end phase runs, the tiles that can leave through an exit in the turns
left. The value for a side is ``tanh(lead / scale)`` with

    lead = taken_A - taken_B + w_capture·(best capture of the side to move)
           - w_reply·(best capture of the other side) + w_material·(own points on board, A - B)
           + (end phase) the points of the best exits each side can still make

and the other side's value its negative (the game's returns are +1/−1, a draw 0). In a match
the first game's points count too. The scale grows with the points still in play (face down, on
the board, and a second game of a match to come): a lead of 9 points is little with 160 points
left to take and nearly decisive with 20, and a search, a review's graph and the ladder's
adjudication all read the value as a winning chance. A leaf where a tile was just flipped (its
face not drawn yet) is judged as after the reveal: the other side moves next.

Nothing is applied to the state. It imports only the engine (the interface,
`gamehall.core.Evaluator`, is structural) and is registered in ``pyproject.toml`` under
``gamehall.evaluators``.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence

from gamehall.core import Game, GamehallError, State
from gamehall.games.halali.rules import END_PHASE_TURNS, HalaliState
from gamehall.games.halali.tiles import (
    CAPTURES,
    CODE_POINTS,
    COUNTS,
    EMPTY,
    EXIT_EDGE,
    KINDS,
    OWN,
    POINTS,
    RAYS,
    SHORT_MOVERS,
    SQUARES,
    exit_steps,
)

GAME_POINTS = sum(COUNTS[kind] * POINTS[kind] for kind in KINDS)
"""Points of all 48 tiles (what one game puts in play)."""


def in_play(state: HalaliState) -> int:
    """Points not yet taken: tiles face down or face up on the board, and in the first game of
    a match the whole second game."""
    hidden = sum(CODE_POINTS[2 + o] * n for o, n in enumerate(state.left))
    shown = sum(CODE_POINTS.get(c, 0) for c in state.board)
    return hidden + shown + (GAME_POINTS if state.match and state.game_no == 0 else 0)


def best_capture(board: Sequence[int], side: int) -> int:
    """The most points `side` could take with one capture now (0: none), ignoring the rule
    against reversing a move: the first face-up tile in a line of one of its tiles, within that
    tile's reach, that the tile may capture moving that way."""
    own = OWN[side]
    best = 0
    for sq in range(SQUARES):
        code = board[sq]
        if code not in own:
            continue
        short = code in SHORT_MOVERS
        for d, ray in enumerate(RAYS[sq]):
            prey = CAPTURES[code][d]
            for t in ray[:1] if short else ray:
                target = board[t]
                if target == EMPTY:
                    continue
                if target in prey and CODE_POINTS[target] > best:
                    best = CODE_POINTS[target]
                break
    return best


def on_board(board: Sequence[int], side: int) -> int:
    """Points of `side`'s own tiles face up on the board."""
    own = OWN[side]
    return sum(CODE_POINTS[c] for c in board if c in own)


def exit_points(board: Sequence[int], side: int, turns: int) -> int:
    """Points `side` could bank by exiting its best `turns` tiles that have a clear way out now
    (bears and lumberjacks only from the square next to an exit)."""
    own = OWN[side]
    ready: list[int] = []
    for sq in range(SQUARES):
        code = board[sq]
        if code not in own:
            continue
        for d in range(4):
            steps = exit_steps(sq, d)
            if not steps or (code in SHORT_MOVERS and sq != EXIT_EDGE[d]):
                continue
            if all(board[t] == EMPTY for t in RAYS[sq][d]):
                ready.append(CODE_POINTS[code])
                break
    ready.sort(reverse=True)
    return sum(ready[:max(0, turns)])


class HalaliEvaluator:
    """Points taken, captures at hand, material and exits, squashed into the game's returns."""

    def __init__(self, game: Game, capture: float = 0.7, reply: float = 0.35,
                 material: float = 0.1, per_point: float = 0.15, least: float = 4.0) -> None:
        if min(capture, reply, material) < 0 or per_point <= 0 or least <= 0:
            raise GamehallError("the weights must be at least 0 and the scale's positive")
        self.game = game
        self.capture = capture
        self.reply = reply
        self.material = material
        self.per_point = per_point
        self.least = least

    def scale(self, state: HalaliState) -> float:
        """Points of lead worth tanh⁻¹(0.76): `per_point` of the points in play, at least
        `least`."""
        return max(self.least, self.per_point * in_play(state))

    def lead(self, state: HalaliState, side: int) -> float:
        """How far `side` (HUMANS or BEASTS of the current game) is ahead, in points."""
        other = side ^ 1
        scores, _ = state.totals()
        seat, rival = state.seat_of(side), state.seat_of(other)
        lead = float(scores[seat] - scores[rival])
        board = state.board
        flipping = state.pending is not None  # the flipper's turn ends with the reveal
        mover = state.side_to_move ^ flipping
        mine, theirs = best_capture(board, side), best_capture(board, other)
        if mover == side:
            lead += self.capture * mine - self.reply * theirs
        else:
            lead += self.reply * mine - self.capture * theirs
        lead += self.material * (on_board(board, side) - on_board(board, other))
        left = state.end_left
        if flipping and left is None and state.hidden == 1:
            left = END_PHASE_TURNS  # the last tile: the end phase begins with the reveal
        if left is not None:
            first, second = (left + 1) // 2, left // 2  # the side to move has the odd turn
            turns_mine, turns_theirs = (first, second) if mover == side else (second, first)
            lead += (exit_points(board, side, turns_mine)
                     - exit_points(board, other, turns_theirs))
        return lead

    def evaluate(self, state: State, rng: random.Random,
                 deadline: float | None = None) -> Sequence[float] | None:
        if not isinstance(state, HalaliState):
            raise GamehallError("the Halali! evaluator values Halali! positions only")
        if state.is_terminal():
            return state.returns()
        value = math.tanh(self.lead(state, state.side_of_seat(0)) / self.scale(state))
        return [value, 0.0 - value]

