"""Hula: the state, move generation, the neutral rule and the end of the game.

Seats and colours: seat 0 (``first``) places the very first stone, which is of the first colour.
Without a swap, seat ``i`` plays colour ``i``. After a swap (pie rule) the seat that answered —
seat 1, ``second`` — owns the first colour and that stone, and seat 0 plays the second colour and
moves next. So ``colour = seat ^ swapped`` both ways. Turns alternate between colours, the first
colour placing first, so the colour to move is the number of stones on the board modulo 2.

Speed (bots play thousands of random games): the board is a few Python ints (see `geometry`).
For the neutral rule the state tracks, per colour, the stones of groups that hold an inner-ring
cell (`inner`); a new stone floods only if it touches one of those, stopping at the edge. For
loops it keeps per colour one escape path from the centre to the edge (`paths`, its empty cells
`esc`; see `escape`): only a stone (own or neutral) on it can close a loop. `watch` unites the two
per colour, so most moves cost one AND; `random_playout` (playout.py) plays whole games faster.
"""

from __future__ import annotations

import random
from bisect import bisect_left
from typing import Any

from gamehall.core import TERMINAL, Game, State, StateFormatError
from gamehall.games.hula.escape import escape_path, escaper
from gamehall.games.hula.geometry import geometry
from gamehall.games.hula.loops import double_loop_winner
from gamehall.games.hula.notation import STONE_NAMES, action_name, action_parts
from gamehall.games.hula.observation import observation_planes
from gamehall.games.hula.playout import random_playout

STONE_COLOURS = ("#d0342c", "#2a62c9")
"""The first and the second colour's stones as the board draws them (js/boards/hula.js)."""


class HulaState(State):
    """A Hula position: masks `stones[colour]` and `neutral`, the colour to move `turn`, and the
    bookkeeping that keeps moves cheap (see the module docstring)."""

    def __init__(self, game: Game, seed: int | None = None) -> None:
        super().__init__(game, seed)
        geo = self.geo = geometry(int(game.options["size"]))
        self._bit = geo.bit
        self._mend = escaper(geo.size).mend
        self.pie = bool(game.options["pie"])
        self.swap = geo.num_cells
        self.stones = [0, 0]
        self.neutral = 0
        self.turn = 0
        """The colour to move (0 first, 1 second)."""
        self.swapped = False
        self.swap_open = False
        """True right after the first stone with the pie rule on: `swap` is legal."""
        self.pie_pending = self.pie
        """True until the pie rule is settled (first stone and its answer): `apply_action`'s
        fast path skips that bookkeeping."""
        self.winner: int | None = None
        """The winning colour once the game is over."""
        self.double = False
        """True when both colours closed a loop at once (the tie-break decided)."""
        self.inner = [geo.centre_bit, geo.centre_bit]
        """Per colour, the stones of its groups that hold an inner-ring cell, and the centre (so
        that "touches an inner group or the centre" is one test)."""
        found = escape_path(geo, 0, geo.playable)
        assert found is not None
        self.paths = [found[0], found[0][:]]
        """Per colour, an escape path: cells from the centre to the edge, none its stones or
        neutral (the opponent's stones may lie on it)."""
        self.esc = [found[1], found[1]]
        """Per colour, the empty cells of its escape path."""
        self.watch = [0, 0]
        """Per colour, the cells where its stone needs a look (`_settle`): those touching an
        inner group or the centre (neutral rule), and those of its escape path (loops)."""
        self._watch(0)
        self._watch(1)
        self.last_before: int | None = None
        """The last move before the history starts (a position read from JSON may give one)."""
        self._legal = [c for c in range(geo.num_cells) if c != geo.centre]

    def copy(self, seed: int | None) -> HulaState:
        """A copy of this position with a fresh history and generator (for new states)."""
        rng, self._rng = self._rng, None
        new = self.clone()
        self._rng = rng
        new._history = []
        new._seed = seed
        return new

    @property
    def empty(self) -> int:
        """The mask of the empty cells (the centre excluded)."""
        return self.geo.playable ^ (self.stones[0] | self.stones[1] | self.neutral)

    @property
    def placed(self) -> int:
        """The number of stones on the board."""
        return (self.stones[0] | self.stones[1] | self.neutral).bit_count()

    @property
    def last(self) -> int | None:
        """The last action played (a cell or the swap), or None."""
        history = self._history
        return history[-1] if history else self.last_before

    # --- the contract -----------------------------------------------------------------------
    def current_player(self) -> int:
        if self.winner is not None:
            return TERMINAL
        return self.turn ^ self.swapped

    def is_terminal(self) -> bool:
        return self.winner is not None

    def is_chance_node(self) -> bool:
        return False

    def legal_actions(self) -> list[int]:
        return self._legal[:]

    def _is_legal(self, action: int) -> bool:
        if self.winner is not None:
            return False
        if action == self.swap:
            return self.swap_open
        return 0 <= action < self.swap and bool(self.geo.bit[action] & self.empty)

    def apply_action(self, action: int) -> None:
        # The common case inline: a cell, after the pie answer, in a game going on. An action
        # found in the sorted legal actions is legal (the pie phase's answers go through
        # `_apply_at`); anything else the base class checks and refuses.
        if type(action) is int:
            legal = self._legal
            i = bisect_left(legal, action)
            if i < len(legal) and legal[i] == action:
                self._history.append(action)
                if self.pie_pending:
                    self._apply_at(action, i)
                    return
                del legal[i]
                b = self._bit[action]
                p = self.turn
                self.turn = p ^ 1
                if b & self.watch[p]:
                    self._settle(action, b, p)
                    if self.winner is not None:
                        legal.clear()
                else:
                    self.stones[p] |= b
                return
        super().apply_action(action)

    def _apply(self, action: int) -> None:
        self._apply_at(action, bisect_left(self._legal, action))

    def _apply_at(self, action: int, i: int) -> None:
        """Play the legal `action`, found at index `i` of the legal actions."""
        legal = self._legal
        if action == self.swap:
            self.swapped = True
            self.swap_open = self.pie_pending = False
            legal.pop()
            return
        del legal[i]
        self._place(action)
        if self.winner is not None:
            legal.clear()
            self.swap_open = self.pie_pending = False
        elif self.swap_open:
            self.swap_open = self.pie_pending = False
            legal.pop()
        elif self.pie_pending:
            self.swap_open = True
            legal.append(self.swap)

    def returns(self) -> list[float]:
        if self.winner is None:
            return [0.0, 0.0]
        out = [-1.0, -1.0]
        out[self.winner ^ self.swapped] = 1.0
        return out

    def action_to_string(self, action: int) -> str:
        return action_name(self.geo, action)

    def action_parts(self, action: int) -> dict[str, Any]:
        return action_parts(self.geo, action)

    def observation_tensor(self, seat: int) -> Any:
        """The position as `seat` sees it, planes × cells (see `observation.py`). Colours are
        read from the seat's side, so a swap does not change what "own" means to a network."""
        colour = seat ^ self.swapped
        stones = self.stones
        return observation_planes(
            self.geo.size, (stones[colour], stones[colour ^ 1], self.neutral, self.empty),
            self.winner is None and self.current_player() == seat, self.swap_open)

    def clone(self) -> HulaState:
        new = self._clone_base()
        new._legal = self._legal[:]
        new.stones = self.stones[:]
        new.inner = self.inner[:]
        new.esc = self.esc[:]
        new.watch = self.watch[:]
        new.paths = [self.paths[0][:], self.paths[1][:]]
        return new

    # --- seats and colours ------------------------------------------------------------------
    def colour_of_seat(self, seat: int) -> int:
        return seat ^ self.swapped

    def seat_colours(self) -> tuple[str, ...]:
        """Each seat's stones' colour: after a swap, seat 0 plays the second colour."""
        return tuple(STONE_COLOURS[self.colour_of_seat(seat)] for seat in (0, 1))

    def seat_of_colour(self, colour: int) -> int:
        return colour ^ self.swapped

    # --- the rules --------------------------------------------------------------------------
    def _place(self, c: int) -> None:
        """Put the mover's stone, or a neutral one, on the empty cell `c`; settle any loop.

        (`apply_action` inlines this.) `random_playout` (playout.py) runs the same rules over a
        whole game at once; a test replays its games through `apply_action`.
        """
        p = self.turn
        self.turn = p ^ 1
        b = self._bit[c]
        if b & self.watch[p]:
            self._settle(c, b, p)
        else:
            self.stones[p] |= b

    def _settle(self, c: int, b: int, p: int) -> None:
        """The stone of colour `p` on cell `c` (bit `b`), a cell `watch[p]` covers: the neutral
        rule, then loops; `watch` is brought up to date."""
        geo = self.geo
        stones = self.stones
        inner = self.inner
        touch = geo.nb[c]
        if touch & inner[p]:
            # The new group holds an inner-ring cell. Flood through the own stones outside the
            # inner groups (those never reach the edge), stopping at the edge.
            edge, W = geo.edge, geo.W
            group = front = b
            rest = (stones[p] | inner[p]) ^ inner[p]
            if touch & rest:
                while front and not group & edge:
                    x = front << 1
                    y = front >> 1
                    front = (x | y | ((front | x) >> W) | ((front | y) << W)) & rest
                    rest ^= front
                    group |= front
            if group & edge:
                self._place_neutral(c, b, p)
                return
            inner[p] |= group
        own = stones[p] = stones[p] | b
        esc = self.esc[p]
        if b & esc:
            neutral = self.neutral
            esc = self._mend(self.paths[p], esc, c, own | neutral,
                             geo.playable ^ (stones[0] | stones[1] | neutral))
            if esc < 0:
                self.winner = p
                return
            self.esc[p] = esc
        m = inner[p]
        x = m << 1
        y = m >> 1
        W = geo.W
        self.watch[p] = x | y | ((m | x) >> W) | ((m | y) << W) | esc  # as `_watch` does

    def _watch(self, colour: int) -> None:
        """Recompute `watch[colour]`: the cells where a stone of that colour needs `_settle`."""
        m = self.inner[colour]
        x = m << 1
        y = m >> 1
        self.watch[colour] = (x | y | ((m | x) >> self.geo.W) | ((m | y) << self.geo.W)
                              | self.esc[colour])

    def _place_neutral(self, c: int, b: int, mover: int) -> None:
        """A neutral stone on `c`: either colour, or both, may close a loop."""
        self.neutral |= b
        looped = []
        for colour in (mover, mover ^ 1):
            if b & self.esc[colour]:
                esc = self._mend(self.paths[colour], self.esc[colour], c,
                                 self.stones[colour] | self.neutral, self.empty)
                if esc < 0:
                    looped.append(colour)
                else:
                    self.esc[colour] = esc
                    self._watch(colour)
        if len(looped) == 2:
            self.double = True
            self.winner = double_loop_winner(self.geo, self.stones[0], self.stones[1],
                                             self.neutral, closing=c)
        elif looped:
            self.winner = looped[0]

    def random_playout(self, rng: random.Random) -> int:
        """Play uniformly random legal moves to the end; return how many were played.

        Same distribution as picking from `legal_actions()` each turn (the swap included); the
        whole game is settled at once (`playout.py`).
        """
        if self.winner is not None:
            return 0
        moves, self.stones, self.neutral, self.winner, self.turn, double, swapped = (
            random_playout(self.geo, self._legal, self.swap_open, self.pie and self.placed == 0,
                           self.turn, self.stones, self.inner, self.neutral, self.swap, rng))
        if double:
            self.double = True
        if swapped:
            self.swapped = True
        self._legal = []
        self.swap_open = self.pie_pending = False
        self._history.extend(moves)
        return len(moves)

    # --- a position written as a whole (the JSON reader) ------------------------------------
    def set_position(self, stones: tuple[int, int], neutral: int, swapped: bool) -> None:
        """Make this fresh state the position with these stones (masks per colour and neutral)
        and colours: the colour to move, the neutral bookkeeping, the escape paths or the loops
        that ended the game, and the legal actions follow from them. StateFormatError when a
        group joins the inner ring to the edge (the neutral rule never allows that)."""
        geo = self.geo
        self.stones = [stones[0], stones[1]]
        self.neutral = neutral
        placed = self.placed
        self.turn = placed % 2
        self.swapped = swapped
        for colour in (0, 1):
            self.inner[colour] = self._inner_groups(colour)
        self._settle_loops()
        self._watch(0)
        self._watch(1)
        if self.winner is not None:
            self._legal = []
            self.pie_pending = False
        else:
            self._legal = sorted(geo.cells_of(self.empty))
            self.pie_pending = self.pie and not swapped and placed <= 1
            if self.pie_pending and placed == 1:
                self.swap_open = True
                self._legal.append(self.swap)

    def _inner_groups(self, colour: int) -> int:
        """The stones of `colour` in groups holding an inner-ring cell, with the centre (see
        `inner`); such a group must not reach the edge."""
        geo = self.geo
        own = self.stones[colour]
        dilate = geo.dilater()
        group = own & geo.inner
        while True:
            grown = dilate(group) & own
            if grown == group:
                break
            group = grown
        if group & geo.edge:
            raise StateFormatError(
                f"the {STONE_NAMES[colour]} colour has a group joining the inner ring to the "
                "edge: the neutral rule never allows that")
        return group | geo.centre_bit

    def _settle_loops(self) -> None:
        """Find the escape paths, or the loops that already ended the game, and the winner."""
        geo = self.geo
        looped = []
        for colour in (0, 1):
            found = escape_path(geo, self.stones[colour] | self.neutral, self.empty)
            if found is None:
                looped.append(colour)
            else:
                self.paths[colour], self.esc[colour] = found
        if len(looped) == 2:
            self.double = True
            self.winner = double_loop_winner(geo, self.stones[0], self.stones[1], self.neutral)
        elif looped:
            self.winner = looped[0]
