"""Hotu Matua positions and moves: the roll, ship steps, conquest, carry-over, the end.

A turn is: one chance action per die (5 dice, plus those the opponent left unused, at most 3),
then ship steps, each spending one die whose value is the number of the line crossed, then
``end``. Conquest is checked after the roll and after every step; the turn also ends by itself
when no die can be used any more.
"""

from __future__ import annotations

import random
from functools import cache
from typing import Any

from gamehall.core import CHANCE, TERMINAL, Game, State
from gamehall.games.hotu_matua.board import Board, load_board
from gamehall.games.hotu_matua.notation import (
    END,
    ROLL_BASE,
    SHIPS_PER_SEAT,
    SIDES,
    action_parts,
    roll_action,
    roll_text,
    roll_value,
    ship_label,
    split_step,
    step_action,
    step_text,
)

BASE_DICE = 5
MAX_EXTRA = 3
WIN_PEARLS = 3
_ROLLS = [roll_action(v) for v in range(1, 5)]
_ROLL_OUTCOMES = [(a, 0.25) for a in _ROLLS]


@cache
def adjacency(board: Board) -> list[frozenset[int]]:
    """Per field, the fields sharing a side with it (conquest chains ships by sides)."""
    return [frozenset(board.neighbours(f)) for f in range(board.num_fields)]


class HotuMatuaState(State):
    """A position. Ships 0-3 are north's (N1-N4), 4-7 south's (S1-S4); fields are board indices."""

    def __init__(self, game: Game, seed: int | None = None, board: Board | None = None) -> None:
        """A new game of `game`; `board` is the board its option names (read here if None)."""
        super().__init__(game, seed)
        if board is None:
            board = load_board(str(game.options["board"]))
        self.board: Board = board
        self.adjacent = adjacency(board)
        self.turn_limit = int(game.options["turn_limit"])
        """Turns in all after which the game ends (more pearls wins, else a draw)."""
        self.ships: list[int] = list(board.start[0]) + list(board.start[1])
        self.pearls: list[int] = sorted(board.pearls)
        """Pearls still on the board (their fields are blocked)."""
        self.owned: list[int] = [0, 0]
        self.player = 0
        self.turn = 0
        """Turns finished so far, both players counted."""
        self.extra = 0
        """Dice the opponent passed on into this turn (0-3)."""
        self.to_roll = BASE_DICE
        self.rolled: list[int] = []
        self.unused: list[int] = [0] * 5
        """Unused dice of this turn by value (index 1-4)."""
        self.crossed: list[set[int]] = [set() for _ in range(SHIPS_PER_SEAT)]
        """Lines each of the mover's ships crossed this turn (no crossing back)."""
        self.over = False
        self.winner: int | None = None
        self._legal: list[int] | None = None

    # --- facts -----------------------------------------------------------------------------------
    def current_player(self) -> int:
        if self.over:
            return TERMINAL
        return CHANCE if self.to_roll > 0 else self.player

    def legal_actions(self) -> list[int]:
        if self._legal is None:
            if self.over:
                self._legal = []
            elif self.to_roll > 0:
                self._legal = list(_ROLLS)
            else:
                self._legal = [a for a, _ in self.steps()] + [END]
        return list(self._legal)

    def _is_legal(self, action: int) -> bool:
        self.legal_actions()
        assert self._legal is not None
        return action in self._legal

    def chance_outcomes(self) -> list[tuple[int, float]]:
        return list(_ROLL_OUTCOMES) if not self.over and self.to_roll > 0 else []

    def steps(self) -> list[tuple[int, int]]:
        """(action, line) for every ship step the mover may make now, by action number."""
        board = self.board
        blocked = set(self.ships)
        blocked.update(self.pearls)
        unused = self.unused
        base = self.player * SHIPS_PER_SEAT
        out = []
        for k in range(SHIPS_PER_SEAT):
            field = self.ships[base + k]
            crossed = self.crossed[k]
            for side, line in enumerate(board.sides[field]):
                if (line >= 0 and unused[board.line_number[line]] and line not in crossed
                        and board.other_end(line, field) not in blocked):
                    out.append((step_action(k, side), line))
        return out

    def returns(self) -> list[float]:
        if not self.over:
            return [0.0, 0.0]
        if self.winner is None:
            return [0.0, 0.0]
        return [1.0, -1.0] if self.winner == 0 else [-1.0, 1.0]

    def passing_on(self) -> int:
        """How many dice go to the opponent if the turn ends now."""
        return min(MAX_EXTRA, sum(self.unused))

    # --- playing ---------------------------------------------------------------------------------
    def _apply(self, action: int) -> None:
        self._legal = None
        if action >= ROLL_BASE:
            self._roll(roll_value(action))
        elif action == END:
            self._end_turn()
        else:
            self._step(action)

    def _roll(self, value: int) -> None:
        self.rolled.append(value)
        self.unused[value] += 1
        self.to_roll -= 1
        if self.to_roll == 0:
            self._conquer()
            self._end_if_stuck()

    def _step(self, action: int) -> None:
        k, side = split_step(action)
        board = self.board
        index = self.player * SHIPS_PER_SEAT + k
        line = board.sides[self.ships[index]][side]
        self.unused[board.line_number[line]] -= 1
        self.crossed[k].add(line)
        self.ships[index] = board.other_end(line, self.ships[index])
        self._conquer()
        self._end_if_stuck()

    def _end_if_stuck(self) -> None:
        """The turn ends by itself once no die can be used (dice left over pass on)."""
        if self.over:
            return
        steps = self.steps()
        if steps:
            self._legal = [a for a, _ in steps] + [END]
        else:
            self._end_turn()

    def _conquer(self) -> None:
        """With all four ships chained by sides, take every pearl next to one of them."""
        if self.over or not self.pearls:
            return
        base = self.player * SHIPS_PER_SEAT
        fleet = self.ships[base:base + SHIPS_PER_SEAT]
        if not self.chained(fleet):
            return
        adjacent = self.adjacent
        near = {g for f in fleet for g in adjacent[f]}
        taken = [p for p in self.pearls if p in near]
        if not taken:
            return
        self.pearls = [p for p in self.pearls if p not in taken]
        self.owned[self.player] += len(taken)
        if self.owned[self.player] >= WIN_PEARLS:
            self.over = True
            self.winner = self.player

    def chained(self, fleet: list[int]) -> bool:
        """True when the fields form one chain of fields sharing sides (corners do not count)."""
        adjacent = self.adjacent
        todo = [fleet[0]]
        seen = {fleet[0]}
        while todo:
            f = todo.pop()
            for g in fleet:
                if g not in seen and g in adjacent[f]:
                    seen.add(g)
                    todo.append(g)
        return len(seen) == len(fleet)

    def _end_turn(self) -> None:
        carry = self.passing_on()
        self.turn += 1
        self.rolled = []
        self.unused = [0] * 5
        self.crossed = [set() for _ in range(SHIPS_PER_SEAT)]
        if self.turn >= self.turn_limit:
            self.over = True
            self.to_roll = 0
            if self.owned[0] != self.owned[1]:
                self.winner = 0 if self.owned[0] > self.owned[1] else 1
            return
        self.player = 1 - self.player
        self.extra = carry
        self.to_roll = BASE_DICE + carry

    def random_playout(self, rng: random.Random) -> int:
        """Play uniformly random actions to the end (the bots' rollouts); return how many."""
        n = 0
        while not self.over:
            if self.to_roll > 0:
                action = _ROLLS[rng.randrange(4)]
            else:
                legal = self.legal_actions()
                action = legal[rng.randrange(len(legal))]
            self._apply(action)
            self._history.append(action)
            n += 1
        return n

    # --- notation --------------------------------------------------------------------------------
    def action_to_string(self, action: int) -> str:
        if ROLL_BASE <= action < ROLL_BASE + 4:
            return roll_text(roll_value(action))
        if action == END:
            return "end"
        if 0 <= action < END:
            k, side = split_step(action)
            ends = self._step_ends(action)
            if ends is not None:
                return step_text(self.player, k, ends[1])
            return f"{ship_label(self.player, k)}>side{side + 1}"
        return f"action {action}"

    def action_parts(self, action: int) -> dict[str, Any]:
        return action_parts(action, self.player, self._step_ends(action))

    def _step_ends(self, action: int) -> tuple[str, str] | None:
        """The fields a step action leaves and reaches; None if it is no step or the side of
        the ship's field has no line."""
        if not 0 <= action < END:
            return None
        k, side = split_step(action)
        field = self.ships[self.player * SHIPS_PER_SEAT + k]
        line = self.board.sides[field][side]
        if line < 0:
            return None
        return self.board.ids[field], self.board.ids[self.board.other_end(line, field)]

    # --- copies ------------------------------------------------------------------------------
    def clone(self) -> HotuMatuaState:
        new = self._clone_base()
        new.ships = list(self.ships)
        new.pearls = list(self.pearls)
        new.owned = list(self.owned)
        new.rolled = list(self.rolled)
        new.unused = list(self.unused)
        new.crossed = [set(c) for c in self.crossed]
        new._legal = self._legal  # never changed in place, only replaced
        return new

    def ship_field(self, seat: int, ship: int) -> int:
        return self.ships[seat * SHIPS_PER_SEAT + ship]


__all__ = ["BASE_DICE", "MAX_EXTRA", "SIDES", "WIN_PEARLS", "HotuMatuaState"]
