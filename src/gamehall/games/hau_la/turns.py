"""The table: building, tags, hands, rounds, and how a placement is chosen step by step.

Flow: (3 players: first-turn pieces are chosen) → rounds. In a round every seat with pieces
places once in order (or passes when nothing fits); a touching placement is reverted and handed
over. After the round: judging, then the topmost player's bonus joint, and the next round starts
with the topmost. The game ends when every hand is empty or a whole round passed.
"""

from __future__ import annotations

import copy
import threading
from collections import OrderedDict
from dataclasses import dataclass, field

import numpy as np
from numpy.typing import NDArray

from gamehall.core.messages import Arg, Message, msg
from gamehall.core.phrases import comma_list
from gamehall.core.phrases import seat as phrase_seat
from gamehall.games.hau_la.building import Building, Plan
from gamehall.games.hau_la.data import Model
from gamehall.games.hau_la.placements import (
    FIRST,
    KIND,
    ROT,
    SECOND,
    SIDES,
    TAG,
    Ask,
    Placements,
    Tags,
    enumerate_placements,
)

HAND, OUT = -1, -2
"""Where a tag is when it is not in a hole: still to be placed, or out of the game."""
EXTRAS, PLACE, HANDOVER, BONUS, BONUS_HANDOVER, OVER = (
    "extras", "place", "handover", "bonus", "bonus_handover", "over")
PLACING = (PLACE, HANDOVER, BONUS, BONUS_HANDOVER)
_CACHE: OrderedDict[object, Placements] = OrderedDict()
_CACHE_SIZE = 96
_LOCK = threading.Lock()
"""Guards the two caches below (a server may run several games in threads)."""


@dataclass
class Tag:
    owner: int
    hole: int = HAND
    face: int = 0


@dataclass
class Table:
    """Everything the rules depend on, plus the placements enumerated for the current choice."""

    model: Model
    n: int
    names: tuple[str, ...]
    building: Building
    tags: list[Tag]
    hands: list[list[int]]
    extra: list[int]
    """3 players: the kind each seat must use in its first turn (-1: none)."""
    extras_left: list[int]
    stock: int
    phase: str = PLACE
    round: int = 0
    order: list[int] = field(default_factory=list)
    pos: int = 0
    active: bool = False
    placer: int = 0
    culprit: int = -1
    kind: int = -1
    """The piece being handed over or placed as a bonus."""
    pending: dict[int, int] = field(default_factory=dict)
    ranking: list[int] = field(default_factory=list)
    """The last judging, topmost first."""
    events: list[Message] = field(default_factory=list)
    """What happened lately, as sentences (the last 12)."""
    placements: Placements | None = None
    asked: Ask | None = None
    """What the placement under way allows (fixed while it is chosen; None: ask again)."""
    rows: NDArray[np.int64] = field(default_factory=lambda: np.zeros(0, dtype=np.int64))

    # --- set-up ------------------------------------------------------------------------------
    @classmethod
    def new(cls, model: Model, n: int, names: tuple[str, ...], building: Building) -> Table:
        prep = model.preparations[n]
        t = cls(model, n, names, building,
                tags=[Tag(o) for o in prep.tag_owners],
                hands=[list(prep.hand) for _ in range(n)],
                extra=[-1] * n, extras_left=list(prep.extras), stock=model.stock(n))
        if t.extras_left:
            t.phase, t.placer = EXTRAS, 0
        else:
            t.start_round(0)
        return t

    def clone(self) -> Table:
        c = copy.copy(self)
        c.tags = [copy.copy(x) for x in self.tags]
        c.hands = [list(h) for h in self.hands]
        c.extra, c.extras_left = list(self.extra), list(self.extras_left)
        c.order, c.pending = list(self.order), dict(self.pending)
        c.ranking, c.events = list(self.ranking), list(self.events)
        return c

    def take_extra(self, index: int) -> None:
        """3 players: the placer takes one of the first-turn pieces."""
        self.extra[self.placer] = self.extras_left.pop(index)
        self._log("takes_extra", who=self._who(self.placer),
                  piece=self._piece(self.extra[self.placer]))
        self.placer += 1
        if len(self.extras_left) == 1:
            self.extra[self.placer] = self.extras_left.pop()
            self._log("gets_extra", who=self._who(self.placer),
                      piece=self._piece(self.extra[self.placer]))
        if not self.extras_left:
            self.start_round(0)

    # --- facts -------------------------------------------------------------------------------
    def in_hand(self, seat: int) -> int:
        return sum(self.hands[seat]) + (self.extra[seat] >= 0)

    def tag_spots(self) -> list[tuple[int, int]]:
        return [(t.hole, t.face) for t in self.tags if t.hole >= 0]

    def occupant(self) -> dict[int, str]:
        """Hole id -> what is in it: 'plug N' or a tag colour."""
        out = {h: f"plug {i + 1}" for i, p in enumerate(self.building.pieces)
               for h in p.plan.holes}
        out.update({t.hole: self.model.colours[i] for i, t in enumerate(self.tags) if t.hole >= 0})
        return out

    def free_holes(self) -> tuple[int, ...]:
        taken = {t.hole for t in self.tags if t.hole >= 0}
        b = self.building
        return tuple(int(h) for h in np.flatnonzero(b.plug < 0) if int(h) not in taken)

    def tag_height(self, i: int) -> float | None:
        t = self.tags[i]
        if t.hole < 0:
            return None
        return round(float(self.building.tag_centre(t.hole, t.face)[2]), 4)

    def heights(self) -> list[float | None]:
        """Each seat's height: its highest tag on the board (None without one)."""
        best: list[float | None] = [None] * self.n
        for i, t in enumerate(self.tags):
            h = self.tag_height(i)
            cur = best[t.owner]
            if h is not None and (cur is None or h > cur):
                best[t.owner] = h
        return best

    def live_ranking(self) -> list[int]:
        """Seats topmost first; ties go to the seat earlier in this round's order."""
        heights = self.heights()
        first = {s: self.order.index(s) if s in self.order else self.n + s for s in range(self.n)}

        def key(s: int) -> tuple[int, float, int]:
            h = heights[s]
            return (1, 0.0, first[s]) if h is None else (0, -h, first[s])

        return sorted(range(self.n), key=key)

    # --- rounds --------------------------------------------------------------------------------
    def start_round(self, start: int) -> None:
        self.round += 1
        self.order = [(start + i) % self.n for i in range(self.n)]
        if self.n == 2 and self.round == 1:
            self.order = self.order * 2  # two turns each, one tag per turn
        self.pos, self.active = 0, False
        self._log("round", round=self.round, order=comma_list([self._who(s) for s in self.order]))
        self._continue_round()

    def _continue_round(self) -> None:
        while True:
            if all(self.in_hand(s) == 0 for s in range(self.n)):
                self._end("pieces")
                return
            if self.pos >= len(self.order):
                self._finish_round()
                return
            seat = self.order[self.pos]
            if self.in_hand(seat) and self._begin(PLACE, seat, self._turn_ask(seat)):
                return
            if self.in_hand(seat):
                self._log("passes", who=self._who(seat))
                if self.extra[seat] >= 0:
                    self.hands[seat][self.extra[seat]] += 1
                    self.extra[seat] = -1
            self.pos += 1

    def _next_turn(self) -> None:
        self.pos += 1
        self._continue_round()

    def _finish_round(self) -> None:
        if not self.active:
            self._end("round")
            return
        self.ranking = self.live_ranking()
        self._log("judging", ranks=comma_list([self._rank(s) for s in self.ranking]))
        top = self.ranking[0]
        big = self.model.kind_index("BJ")
        if self.stock > 0 and self._begin(BONUS, top, self._bonus_ask(), kind=big):
            self.stock -= 1
            return
        self.start_round(top)

    def _rank(self, seat: int) -> Message:
        h = self.heights()[seat]
        return msg("game.hau_la.rank", who=self._who(seat),
                   height=f"{h:.2f}" if h is not None else "-")

    def _end(self, why: str) -> None:
        """The game is over because of `why`: ``pieces`` (every piece placed) or ``round`` (a
        whole round passed)."""
        self.phase = OVER
        self.ranking = self.live_ranking()
        self.placements, self.pending, self.asked = None, {}, None
        self._log("over", why=why, who=self._who(self.ranking[0]))

    def _log(self, event: str, **args: Arg) -> None:
        """Note what happened, as the sentence ``game.hau_la.event.<event>`` (the last 12)."""
        self.events = [*self.events[-11:], msg(f"game.hau_la.event.{event}", **args)]

    def _who(self, seat: int) -> Message:
        return phrase_seat(self.names[seat])

    def _piece(self, kind: int) -> Message:
        """A piece kind by name: the data file's English name, the code for other languages."""
        spec = self.model.kinds[kind]
        return msg("game.hau_la.piece", code=spec.code, name=spec.name)

    # --- asks ----------------------------------------------------------------------------------
    def _turn_ask(self, seat: int) -> Ask:
        kinds = ((self.extra[seat],) if self.extra[seat] >= 0 else
                 tuple(k for k, c in enumerate(self.hands[seat]) if c > 0))
        free = self.free_holes()
        mine = [t for t in self.tags if t.owner == seat]
        if any(t.hole == HAND for t in mine):
            return Ask(kinds, free, free)
        holes = tuple(sorted(t.hole for t in mine if t.hole >= 0))
        return Ask(kinds, holes, tuple(sorted(free + holes)))

    def _bonus_ask(self) -> Ask:
        free = self.free_holes()
        return Ask((self.model.kind_index("BJ"),), free, free, bonus=True, tag=False)

    def ask(self) -> Ask:
        """What the current placer may do (recomputed from the table)."""
        if self.phase == PLACE:
            return self._turn_ask(self.placer)
        if self.phase == HANDOVER:
            free = self.free_holes()
            return Ask((self.kind,), free, free, tag=False)
        return self._bonus_ask()

    def _begin(self, phase: str, placer: int, ask: Ask, kind: int = -1) -> bool:
        """Start a placement; False (and nothing changed) when no placement is possible."""
        found = placements_for(self.building, self.tag_spots(), ask)
        if len(found) == 0:
            return False
        self.phase, self.placer, self.pending = phase, placer, {}
        if kind >= 0:
            self.kind = kind
        self.placements, self.rows = found, np.arange(len(found))
        self.asked = ask
        self._autofill()
        return True

    # --- steps ---------------------------------------------------------------------------------
    def steps(self) -> list[int]:
        kind = self.pending.get(KIND)
        if kind is None:
            return [KIND]
        second = SECOND if self.model.kinds[kind].is_joint else ROT
        tag = [TAG] if self.phase == PLACE else []
        return [KIND, FIRST, second, SIDES, *tag]

    def step(self) -> int | None:
        """The first of `steps()` not chosen yet (None: all are), without building the list
        (asked several times for every action)."""
        p = self.pending
        kind = p.get(KIND)
        if kind is None:
            return KIND
        for s in (FIRST, SECOND if self.model.kinds[kind].is_joint else ROT, SIDES):
            if s not in p:
                return s
        return TAG if self.phase == PLACE and TAG not in p else None

    def choices(self) -> list[int]:
        """The values the current step may take (distinct, sorted)."""
        step = self.step()
        assert self.placements is not None and step is not None
        # a few hundred small ints at most: a set is quicker than np.unique's sort
        return sorted(set(self.placements.rows[self.rows, step].tolist()))

    def _forced(self, step: int) -> bool:
        ask = self.asked if self.asked is not None else self.ask()
        if step == KIND:
            return len(ask.kinds) == 1
        if step == FIRST:
            return len(ask.firsts) == 1
        if step == SIDES:
            holes = [self.pending[FIRST]] + ([self.pending[SECOND]] if SECOND in self.pending
                                             else [])
            return all(self.building.is_board(h) for h in holes)
        return False

    def completions(self) -> list[list[tuple[int, int]]]:
        """Every open placement (`rows`, in order) as the (step, value) pairs still to choose,
        forced steps left out: what a seat must choose, one after the other, to make it.

        A row's steps are its kind's (`steps`) not yet chosen; a step is forced, as in
        `_autofill`, for the whole ask (one kind, one first hole) or, for the sides, where each
        hole of the row is a board hole. Rows are distinct placements, so their lists are too.
        """
        assert self.placements is not None
        rows = self.placements.rows[self.rows]
        ask = self.asked if self.asked is not None else self.ask()
        b = self.building
        joint = np.array([k.is_joint for k in self.model.kinds])[rows[:, KIND]]
        board_sides = (rows[:, FIRST] < b.n_board) & (~joint | (rows[:, SECOND] < b.n_board))
        columns: list[tuple[int, NDArray[np.bool_]]] = []
        everywhere = np.ones(len(rows), dtype=bool)
        if KIND not in self.pending and len(ask.kinds) != 1:
            columns.append((KIND, everywhere))
        if FIRST not in self.pending and len(ask.firsts) != 1:
            columns.append((FIRST, everywhere))
        if SECOND not in self.pending and ROT not in self.pending:
            columns += [(SECOND, joint), (ROT, ~joint)]
        if SIDES not in self.pending:
            columns.append((SIDES, ~board_sides))
        if self.phase == PLACE and TAG not in self.pending:
            columns.append((TAG, everywhere))
        if not columns:
            return [[] for _ in range(len(rows))]
        values = np.stack([np.where(used, rows[:, step], -1) for step, used in columns], 1)
        steps = [step for step, _ in columns]
        return [[(st, v) for st, v in zip(steps, row, strict=True) if v >= 0]
                for row in values.tolist()]

    def chosen(self) -> int:
        """How many steps of the pending placement the placer chose (forced ones not counted)."""
        return sum(1 for s in self.pending if not self._forced(s))

    def choose(self, value: int) -> None:
        """Set the current step to `value` (already known legal), then fill forced steps."""
        step = self.step()
        assert step is not None
        self.choose_value(step, value)
        self._autofill()

    def _autofill(self) -> None:
        while True:
            step = self.step()
            if step is None:
                self._commit()
                return
            if not self._forced(step):
                return
            assert self.placements is not None
            self.choose_value(step, int(self.placements.rows[self.rows[0], step]))

    def choose_value(self, step: int, value: int) -> None:
        """Record `value` for `step` and keep the placements that agree with it."""
        assert self.placements is not None
        self.pending[step] = value
        self.rows = self.rows[self.placements.rows[self.rows, step] == value]

    def plan(self) -> Plan:
        """The plan the pending choices describe (once holes and sides are known)."""
        p = self.pending
        kind = p[KIND]
        if self.model.kinds[kind].is_joint:
            return Plan(kind, (p[FIRST], p[SECOND]), (p[SIDES] // 2, p[SIDES] % 2))
        return Plan(kind, (p[FIRST],), (p[SIDES],), p[ROT])

    # --- committing ----------------------------------------------------------------------------
    def _commit(self) -> None:
        assert self.placements is not None and len(self.rows) == 1
        touch = bool(self.placements.touch[self.rows[0]])
        plan = self.plan()
        tag = self.pending.get(TAG, -1)
        phase, placer = self.phase, self.placer
        self.placements, self.pending, self.asked = None, {}, None
        what = msg("game.hau_la.what", piece=self._piece(plan.kind),
                   holes="–".join(self.building.names[h] for h in plan.holes))
        if phase == PLACE:
            self._commit_turn(plan, tag, touch, what)
        elif phase == HANDOVER:
            self._place_or_discard(plan, touch, what, bonus=False)
            self._next_turn()
        elif phase == BONUS and touch:
            self._log("bonus_touched", who=self._who(placer), what=what,
                      other=self._who(self.ranking[1]))
            if not self._begin(BONUS_HANDOVER, self.ranking[1], self._bonus_ask()):
                self._log("fits_nowhere")
                self.start_round(self.ranking[0])
        else:
            self._place_or_discard(plan, touch, what, bonus=True)
            self.start_round(self.ranking[0])

    def _place_or_discard(self, plan: Plan, touch: bool, what: Message, bonus: bool) -> None:
        who = self._who(self.placer)
        if touch:
            self._log("touched_too", who=who, what=what)
            return
        self.building = building_with(self.building, plan, self.placer, bonus)
        self._log("places_bonus" if bonus else "places", who=who, what=what)

    def _commit_turn(self, plan: Plan, tag: int, touch: bool, what: Message) -> None:
        seat = self.placer
        self.active = True
        if self.extra[seat] == plan.kind:
            self.extra[seat] = -1
        else:
            self.hands[seat][plan.kind] -= 1
        if touch:
            ranking = self.live_ranking()
            to = ranking[1] if ranking[0] == seat else ranking[0]
            self._log("touched", who=self._who(seat), what=what, to=self._who(to))
            self.culprit = seat
            ask = Ask((plan.kind,), self.free_holes(), self.free_holes(), tag=False)
            if not self._begin(HANDOVER, to, ask, kind=plan.kind):
                self._log("fits_nowhere")
                self._next_turn()
            return
        mine = [t for t in self.tags if t.owner == seat]
        lifted = [t for t in mine if t.hole in plan.holes]
        moving = next((t for t in lifted if t.hole == plan.holes[0]), None)
        if moving is None:
            moving = next(t for t in mine if t.hole == HAND)
        for t in lifted:
            if t is not moving:
                t.hole = OUT
                self._log("tag_out", who=self._who(seat))
        self.building = building_with(self.building, plan, seat, False)
        piece = self.building.pieces[-1]
        moving.hole, moving.face = piece.first_hole + tag // 2, tag % 2
        height = self.tag_height(self.tags.index(moving))
        self._log("places_tag", who=self._who(seat), what=what,
                  hole=self.building.names[moving.hole], height=str(height))
        self._next_turn()


_BUILDINGS: OrderedDict[object, Building] = OrderedDict()


def building_with(b: Building, plan: Plan, placer: int, bonus: bool) -> Building:
    """`b` plus a piece, shared between states that reach the same building."""
    key = (b.signature, (plan, placer, bonus))
    with _LOCK:
        found = _BUILDINGS.get(key)
    if found is None:
        found = b.add(plan, placer, bonus)
        with _LOCK:
            _BUILDINGS[key] = found
            while len(_BUILDINGS) > 64:
                _BUILDINGS.popitem(last=False)
    return found


def placements_for(b: Building, spots: list[tuple[int, int]], ask: Ask) -> Placements:
    """Enumerate (or recall) every placement for `ask` on `b` with tags at `spots`."""
    key = (b.signature, tuple(spots), ask)
    with _LOCK:
        found = _CACHE.get(key)
        if found is not None:
            _CACHE.move_to_end(key)
    if found is None:
        found = enumerate_placements(b, Tags.of(b, spots), ask)
        found.rows.setflags(write=False)
        found.touch.setflags(write=False)
        found.height.setflags(write=False)
        with _LOCK:
            _CACHE[key] = found
            while len(_CACHE) > _CACHE_SIZE:
                _CACHE.popitem(last=False)
    return found
