"""A leaf evaluator for MCTS that reads the stacks instead of playing on (`gamehall.evaluators`).

A random Haugaz playout places and moves at random to the end of the game: every growth flips
the owner of the stacks it reaches, so the result of one such game says little of the position
it started from (issue 42: at a review's 500 simulations every mover read itself 0.6-0.7 and
won half the time). What the game is decided by is plain to see: the heights each side owns,
compared tallest first. The evaluator scores that comparison softly, each stack weighing
`base`^height, so a taller stack outweighs every shorter one but the second and third tallest
still count:

    share(Black) = (Σ over Black's stacks base^h − Σ over White's) / Σ over all stacks base^h

read after the side to move's best move step by that share (`after_best_move`: each move's
growth reckoned without playing it), since the side to move will flip what it can, and
squashed: value(Black) = tanh(sharpness · share), White's its negative (the game's returns
are +1/−1). Before the side choice of the cake set-up no seat has a colour: the value is even.

Strength: accepted over one random playout a leaf at equal simulations (160: 11-0-2,
``python -m benchmarks.evaluator_ab haugaz --simulations 160 --no-adjudicate``), about ten
times cheaper a simulation. Not registered for the bots' levels (their budgets and the
ladder were sized with playouts) nor used by the review: its value tells the result no
better than a coin until the last ~30 actions (``python -m benchmarks.evaluator_fit haugaz``),
so a review leaning on it marks strong moves (benchmarks/README.md, "Why random reads accurate
in Halali! and Haugaz"). Nothing is applied to the state; it imports only the engine.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence

from gamehall.core import Game, GamehallError, State
from gamehall.games.haugaz.board import BLACK, EMPTY, PLAY
from gamehall.games.haugaz.rules import HaugazState


class HaugazEvaluator:
    """The owned heights compared softly (tallest weighing most), squashed into the returns."""

    def __init__(
        self, game: Game, base: float = 2.0, sharpness: float = 1.0, reply: bool = True
    ) -> None:
        if base <= 1.0 or sharpness <= 0.0:
            raise GamehallError("the base must be above 1 and the sharpness positive")
        self.game = game
        self.size = int(game.options["size"])
        self.weights = [base**h for h in range(4 * self.size * self.size + 2)]
        self.sharpness = sharpness
        self.reply = reply

    def sums(self, state: HaugazState) -> tuple[float, float]:
        """Black's weighted heights less White's, and all stacks' weighted heights."""
        weights = self.weights
        lead = total = 0.0
        for h, owner in zip(state.height, state.owner, strict=True):
            if owner == EMPTY:
                continue
            w = weights[h]
            total += w
            lead += w if owner == BLACK else -w
        return lead, total

    def after_best_move(self, state: HaugazState, lead: float, total: float) -> float:
        """Black's share after the side to move's best move step by that share (its growth
        flipping the stacks it reaches), or the share now where it has no move."""
        colour, exclude = state.to_move, state.placed
        height, owner = state.height, state.owner
        size, jumps = state.geo.size, state.geo.jumps
        sign = 1.0 if colour == BLACK else -1.0
        best = lead / total if total else 0.0
        found = False
        for p, o in enumerate(owner):
            if o != colour or p == exclude or height[p] >= size:
                continue
            h = height[p]
            for _, t, between in jumps[p * size + h]:
                if height[t] or (state.blocking and any(height[q] for q in between)):
                    continue
                d_lead, d_total = self.growth(state, p, t, h)
                share = (lead + d_lead) / (total + d_total)
                if not found or sign * share > sign * best:
                    best, found = share, True
        return best

    def growth(self, state: HaugazState, source: int, target: int, h: int) -> tuple[float, float]:
        """What moving the `h`-stack on `source` to `target` adds to `sums`: every stack `h`
        points from `target` on the eight lines grows by one and changes hands (the rules'
        ``_grow``; `source` is empty by then)."""
        height, owner, weights = state.height, state.owner, self.weights
        mover, lines = state.to_move, state.geo.lines
        d_lead = d_total = 0.0
        for d in range(8):
            line = lines[target * 8 + d]
            if h > len(line):
                continue
            q = line[h - 1]
            hq = height[q]
            if not hq or q == source:
                continue
            old, new = weights[hq], weights[hq + 1]
            now = owner[q]
            grown = (1 - now) if state.grow_flip else (1 - mover)
            d_lead += (new if grown == BLACK else -new) - (old if now == BLACK else -old)
            d_total += new - old
        return d_lead, d_total

    def black_lead(self, state: HaugazState) -> float:
        """Black's share of the weighted heights less White's, -1..1 (0 with no stack)."""
        lead, total = self.sums(state)
        return lead / total if total else 0.0

    def evaluate(
        self, state: State, rng: random.Random, deadline: float | None = None
    ) -> Sequence[float] | None:
        if not isinstance(state, HaugazState):
            raise GamehallError("the Haugaz evaluator values Haugaz positions only")
        if state.is_terminal():
            return state.returns()
        if state.black_seat is None:
            return [0.0, 0.0]
        if self.reply and state.phase == PLAY:
            share = self.after_best_move(state, *self.sums(state))
        else:
            share = self.black_lead(state)
        value = math.tanh(self.sharpness * share)
        out = [0.0, 0.0]
        out[state.black_seat] = value
        out[1 - state.black_seat] = -value
        return out
