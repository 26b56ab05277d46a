"""The Haugaz position and its rules: cake setup, turns (place, move, grow), passing, the end.

A turn is two actions by the same seat — place, then move — with the growth applied
automatically after the move. A placement is offered only when a move can follow it, so a turn
can never be left half done (under ``stuck=place_only`` a placement with no move after it is a
whole turn by itself).
"""

from __future__ import annotations

import random
from typing import Any

from gamehall.core import TERMINAL, Game, State
from gamehall.games.haugaz import scoring
from gamehall.games.haugaz.board import (
    BLACK,
    CAKE_BLACK,
    CAKE_WHITE,
    CHOOSE,
    EMPTY,
    PLAY,
    WHITE,
)
from gamehall.games.haugaz.geometry import geometry
from gamehall.games.haugaz.notation import action_parts, action_text, layout

DISC_COLOURS = {BLACK: "#222222", WHITE: "#fafafa"}
"""Black's and White's stacks as the board draws them (js/boards/haugaz.js)."""


class HaugazState(State):
    """A Haugaz position. Stacks are kept as parallel lists per point: `height`, `owner` (colour
    of the top piece, EMPTY for no stack) and `bits` (bit i = colour of the i-th piece from the
    bottom, 1 for white)."""

    def __init__(self, game: Game, seed: int | None = None) -> None:
        super().__init__(game, seed)
        size = int(game.options["size"])
        self.blocking = bool(game.options["blocking"])
        """A moving stack may not jump over other stacks."""
        self.grow_flip = game.options["grow_colour"] == "flip"
        self.place_only = game.options["stuck"] == "place_only"
        self.geo = geometry(size)
        self.lay = layout(size * size)
        n = size * size
        self.height = [0] * n
        self.owner = [EMPTY] * n
        self.bits = [0] * n
        cake = bool(game.options["cake"])
        self.phase = CAKE_BLACK if cake else PLAY
        self.black_seat: int | None = None if cake else 0
        self.to_move = BLACK
        self.placed = -1
        """The point placed on this turn while its move is awaited, else -1."""
        self.passes = 0
        """Passes in a row (2 ends the game)."""
        self.opened = [cake, cake]
        """Per colour: has it had its first turn (which is a placement alone without the cake)."""
        self.over = False
        self._legal: list[int] | None = None
        self._legal_set: frozenset[int] | None = None
        if not cake:
            self._start_turn()

    # --- the contract --------------------------------------------------------------------------
    def current_player(self) -> int:
        if self.over:
            return TERMINAL
        if self.phase == PLAY:
            return self.seat_of(self.to_move)
        return 1 if self.phase == CHOOSE else 0

    def legal_actions(self) -> list[int]:
        if self._legal is None:
            self._legal = self._compute_legal()
        return list(self._legal)

    def _is_legal(self, action: int) -> bool:
        if self._legal_set is None:
            if self._legal is None:
                self._legal = self._compute_legal()
            self._legal_set = frozenset(self._legal)
        return action in self._legal_set

    def _apply(self, action: int) -> None:
        self._legal = None
        self._legal_set = None
        lay = self.lay
        if self.phase == CAKE_BLACK:
            self._put(action - lay.cake_black, BLACK)
            self.phase = CAKE_WHITE
        elif self.phase == CAKE_WHITE:
            self._put(action - lay.cake_white, WHITE)
            self.phase = CHOOSE
        elif self.phase == CHOOSE:
            self.black_seat = 1 if action == lay.play_black else 0
            self.phase = PLAY
            self.to_move = BLACK
            self._start_turn()
        elif action == lay.pass_:
            self.passes += 1
            self._end_turn()
        elif action < lay.move:
            self._place(action)
        else:
            self._move(action)

    def returns(self) -> list[float]:
        if not self.over:
            return [0.0, 0.0]
        result = self.result()
        black = self.seat_of(BLACK)
        out = [0.0, 0.0]
        out[black] = float(result)
        out[1 - black] = float(-result)
        return out

    def action_to_string(self, action: int) -> str:
        return action_text(self.geo, self.height, action)

    def action_parts(self, action: int) -> dict[str, Any]:
        return action_parts(self.geo, self.height, action)

    def clone(self) -> HaugazState:
        other = self._clone_base()
        other.height = list(self.height)
        other.owner = list(self.owner)
        other.bits = list(self.bits)
        other.opened = list(self.opened)
        return other

    # --- facts ---------------------------------------------------------------------------------
    def seat_of(self, colour: int) -> int:
        """The seat playing `colour` (before the side choice: the seat that will, if Black)."""
        black = self.black_seat if self.black_seat is not None else 0
        return black if colour == BLACK else 1 - black

    def seat_colours(self) -> tuple[str, ...]:
        """Each seat's stacks' colour (before the side choice: as if first plays Black)."""
        black = self.black_seat if self.black_seat is not None else 0
        return tuple(DISC_COLOURS[BLACK if seat == black else WHITE] for seat in (0, 1))

    def heights(self, colour: int) -> list[int]:
        """`colour`'s stack heights, tallest first."""
        return scoring.heights_by_owner(self.height, self.owner, colour)

    def result(self) -> int:
        """+1 Black ahead, -1 White ahead, 0 level — by the game's objective."""
        return scoring.winner(self.heights(BLACK), self.heights(WHITE),
                              str(self.game.options["objective"]))

    def stack_colours(self, point: int) -> list[int]:
        """The colours of the stack on `point`, bottom to top."""
        bits = self.bits[point]
        return [(bits >> i) & 1 for i in range(self.height[point])]

    def cake_black_point(self) -> int:
        """Where the black cake stack stands (during the white cake placement)."""
        return self.owner.index(BLACK) if BLACK in self.owner else -1

    def cake_black_points(self) -> list[int]:
        """Where the black cake stack may go: any point leaving room for the white one."""
        far = int(self.game.options["cake_distance"])
        edge = self.geo.size - 1
        return [p for p, h in enumerate(self.height)
                if not h and max(p // (edge + 1), p % (edge + 1),
                                 edge - p // (edge + 1), edge - p % (edge + 1)) >= far]

    # --- move generation -----------------------------------------------------------------------
    def moves(self, colour: int, exclude: int = -1) -> list[tuple[int, int, int]]:
        """(action, source, target) of every legal move of `colour`'s stacks but `exclude`."""
        height, owner, jumps = self.height, self.owner, self.geo.jumps
        size = self.geo.size
        blocking = self.blocking
        base_action = self.lay.move
        out: list[tuple[int, int, int]] = []
        for p, o in enumerate(owner):
            if o != colour or p == exclude:
                continue
            h = height[p]
            if h >= size:
                continue
            for d, t, between in jumps[p * size + h]:
                if height[t] or (blocking and any(height[q] for q in between)):
                    continue
                out.append((base_action + p * 8 + d, p, t))
        return out

    def move_actions(self, colour: int, exclude: int = -1) -> list[int]:
        """The actions of `moves(colour, exclude)`, sorted — the fast path of move generation."""
        height, owner, jumps = self.height, self.owner, self.geo.jumps
        size = self.geo.size
        blocking = self.blocking
        first = self.lay.move
        out: list[int] = []
        for p, o in enumerate(owner):
            if o != colour or p == exclude or height[p] >= size:
                continue
            base = first + p * 8
            if blocking:
                out.extend([base + d for d, t, between in jumps[p * size + height[p]]
                            if not height[t] and not any(height[q] for q in between)])
            else:
                out.extend([base + d for d, t, _ in jumps[p * size + height[p]]
                            if not height[t]])
        return out

    def placements(self, colour: int) -> list[int]:
        """The points `colour` may place on at the start of its turn: every empty point after
        which some stack of `colour` can still move (every empty point if it has no move to make
        yet, or under stuck=place_only)."""
        height = self.height
        empties = [p for p in range(len(height)) if not height[p]]
        if not self.opened[colour] or self.place_only or not empties:
            return empties
        needed = (self._points_every_move_needs(colour) if self.blocking
                  else self._only_target(colour))
        if needed is None:
            return []
        return [p for p in empties if p not in needed] if needed else empties

    def _only_target(self, colour: int) -> set[int] | None:
        """Without blocking a placement spoils only the moves onto its point: {t} when every
        move goes to t, set() when moves reach two targets, None when there is no move."""
        height, owner, jumps = self.height, self.owner, self.geo.jumps
        size = self.geo.size
        first = -1
        for p, o in enumerate(owner):
            if o != colour or height[p] >= size:
                continue
            for _, t, _ in jumps[p * size + height[p]]:
                if not height[t]:
                    if first < 0:
                        first = t
                    elif t != first:
                        return set()
        return None if first < 0 else {first}

    def _points_every_move_needs(self, colour: int) -> set[int] | None:
        """Points that every legal move uses (its target and the points it passes, which must be
        empty with blocking): placing there would leave no move; None when there is no move."""
        lines = self.geo.lines
        needed: set[int] | None = None
        for action, src, _ in self.moves(colour):
            d = (action - self.lay.move) % 8
            used = set(lines[src * 8 + d][:self.height[src]])
            needed = used if needed is None else needed & used
            if not needed:
                return needed
        return needed

    def _compute_legal(self) -> list[int]:
        if self.over:
            return []
        lay = self.lay
        if self.phase == CAKE_BLACK:
            return [lay.cake_black + p for p in self.cake_black_points()]
        if self.phase == CAKE_WHITE:
            black = self.cake_black_point()
            far = int(self.game.options["cake_distance"])
            dist = self.geo.distance
            return [lay.cake_white + p for p, h in enumerate(self.height)
                    if not h and (black < 0 or dist(p, black) >= far)]
        if self.phase == CHOOSE:
            return [lay.play_black, lay.play_white]
        if self.placed >= 0:
            return self.move_actions(self.to_move, self.placed)
        return [*self.placements(self.to_move), lay.pass_]

    # --- changing the position -----------------------------------------------------------------
    def refresh(self) -> None:
        """After the position was written field by field (the JSON reader): forget the legal
        actions, and at the start of a turn in play decide them, and the end, again."""
        self._legal = None
        self._legal_set = None
        self.over = False
        if self.phase == PLAY and self.placed < 0:
            self._start_turn()

    def _put(self, point: int, colour: int) -> None:
        self.height[point] = 1
        self.owner[point] = colour
        self.bits[point] = colour

    def _place(self, point: int) -> None:
        colour = self.to_move
        self._put(point, colour)
        self.passes = 0
        if not self.opened[colour]:
            self._end_turn()
            return
        follow = self.move_actions(colour, point)
        if not follow:  # only under stuck=place_only: the placement is the whole turn
            self._end_turn()
            return
        self.placed = point
        self._legal = follow

    def _move(self, action: int) -> None:
        src, d = divmod(action - self.lay.move, 8)
        height, owner, bits, lines = self.height, self.owner, self.bits, self.geo.lines
        h = height[src]
        target = lines[src * 8 + d][h - 1]
        height[target], owner[target], bits[target] = h, owner[src], bits[src]
        height[src], owner[src], bits[src] = 0, EMPTY, 0
        self._grow(target, h)
        self._end_turn()

    def _grow(self, target: int, h: int) -> None:
        """Add one piece to every stack exactly `h` points from `target` on the eight lines."""
        height, owner, bits, lines = self.height, self.owner, self.bits, self.geo.lines
        fixed = None if self.grow_flip else 1 - self.to_move
        base = target * 8
        for d in range(8):
            line = lines[base + d]
            if h > len(line):
                continue
            q = line[h - 1]
            hq = height[q]
            if not hq:
                continue
            colour = 1 - owner[q] if fixed is None else fixed
            bits[q] |= colour << hq
            height[q] = hq + 1
            owner[q] = colour

    def _end_turn(self) -> None:
        self.opened[self.to_move] = True
        self.to_move = 1 - self.to_move
        self.placed = -1
        self._start_turn()

    def _start_turn(self) -> None:
        """Decide whether the game ends here; otherwise fill in the legal actions."""
        self._legal = None
        self._legal_set = None
        if self.passes >= 2:
            self.over = True
            return
        legal = self._compute_legal()
        if len(legal) == 1:  # pass alone: no possible turn
            self.over = True
            legal = []
        self._legal = legal

    # --- fast path -----------------------------------------------------------------------------
    def random_playout(self, rng: random.Random) -> int:
        """Play uniformly random legal actions to the end; return how many were played."""
        n = 0
        choice = rng.choice
        history = self._history
        while not self.over:
            if self._legal is None:
                self._legal = self._compute_legal()
            action = choice(self._legal)
            self._apply(action)
            history.append(action)
            n += 1
        return n
