"""`HauLaState`: the game contract over a `Table` (turns.py) — actions and notation."""

from __future__ import annotations

from functools import cache
from typing import Any

from gamehall.core import TERMINAL, Game, State
from gamehall.core.messages import Message, msg
from gamehall.games.hau_la.building import Building, PlanError
from gamehall.games.hau_la.data import model
from gamehall.games.hau_la.notation import (
    extra_parts,
    hole_parts,
    kind_parts,
    layout,
    parts_text,
    rotation_parts,
    sides_parts,
    tag_parts,
)
from gamehall.games.hau_la.placements import FIRST, KIND, ROT, SECOND, TAG
from gamehall.games.hau_la.placements import SIDES as SIDES_STEP
from gamehall.games.hau_la.turns import EXTRAS, OVER, Table

STEP_RANGE = {KIND: "kind", FIRST: "hole", SECOND: "hole", ROT: "rot", SIDES_STEP: "sides",
              TAG: "tag"}
STEP_KEYS = {KIND: "kind", FIRST: "first", SECOND: "second", ROT: "rotation",
             SIDES_STEP: "sides", TAG: "tag"}
"""The step being chosen, as ``game.hau_la.expect.step`` selects its words (and the JSON form's
``pending.step`` names it)."""


@cache
def start_building() -> Building:
    """The building every game starts from (shared: buildings are never changed in place)."""
    return Building.start(model())


class HauLaState(State):
    """A position of Hau La. The rules live in `Table`; this class speaks the contract."""

    def __init__(self, game: Game, seed: int | None = None,
                 table: Table | None = None) -> None:
        super().__init__(game, seed)
        self.model = model()
        if table is None:
            table = Table.new(self.model, int(game.options["players"]), game.seat_names,
                              start_building())
        self.table = table
        self.ranges = layout(self.model)
        self._legal: list[int] | None = None
        self._turns: list[tuple[int, ...]] | None = None

    # --- contract ------------------------------------------------------------------------------
    def current_player(self) -> int:
        return TERMINAL if self.table.phase == OVER else self.table.placer

    def legal_actions(self) -> list[int]:
        if self._legal is None:
            t = self.table
            if t.phase == OVER:
                self._legal = []
            elif t.phase == EXTRAS:
                self._legal = [self.ranges["extra"] + i for i in range(len(t.extras_left))]
            else:
                step = t.step()
                assert step is not None
                base = self.ranges[STEP_RANGE[step]]
                self._legal = [base + v for v in t.choices()]
        return list(self._legal)

    def _is_legal(self, action: int) -> bool:
        if self._legal is None:
            self.legal_actions()
        assert self._legal is not None
        return action in self._legal

    def _apply(self, action: int) -> None:
        t = self.table
        if t.phase == EXTRAS:
            t.take_extra(action - self.ranges["extra"])
        else:
            step = t.step()
            assert step is not None
            t.choose(action - self.ranges[STEP_RANGE[step]])
        self._legal = self._turns = None

    def turn_moves(self) -> list[tuple[int, ...]]:
        """Every way to finish the placement under way (`gamehall.core.TurnMoves`): one action
        sequence per open placement, in the table's row order (`Table.completions`); in the
        3-player choice of first-turn pieces, each take on its own. Listed once per position
        (a search asks again to score them)."""
        if self._turns is None:
            self._turns = self._turn_moves()
        return list(self._turns)

    def _turn_moves(self) -> list[tuple[int, ...]]:
        t = self.table
        if t.phase == OVER:
            return []
        if t.phase == EXTRAS:
            return [(a,) for a in self.legal_actions()]
        lay = self.ranges
        base = {step: lay[name] for step, name in STEP_RANGE.items()}
        return [tuple(base[step] + value for step, value in row) for row in t.completions()]

    def returns(self) -> list[float]:
        t = self.table
        if t.phase != OVER:
            return [0.0] * t.n
        return [1.0 if s == t.ranking[0] else 0.0 for s in range(t.n)]

    def clone(self) -> HauLaState:
        c = self._clone_base()
        c.table = self.table.clone()
        return c

    # --- notation ------------------------------------------------------------------------------
    def action_to_string(self, action: int) -> str:
        parts = self.action_parts(action)
        # notation is only defined for this position's steps
        return parts_text(parts) if parts else f"#{action}"

    def action_parts(self, action: int) -> dict[str, Any]:
        try:
            return self._parts(action)
        except (IndexError, KeyError):
            return {}

    def _parts(self, action: int) -> dict[str, Any]:
        t = self.table
        m = self.model
        lay = self.ranges
        if t.phase == EXTRAS:
            i = action - lay["extra"]
            return extra_parts(m.kinds[t.extras_left[i]].code) if i >= 0 else {}
        step = t.step()
        if step is None:
            return {}
        v = action - lay[STEP_RANGE[step]]
        if not 0 <= v < self._range_size(STEP_RANGE[step]):
            return {}
        if step == KIND:
            return kind_parts(m.kinds[v].code)
        if step in (FIRST, SECOND):
            return hole_parts(t.building.names[v], m.kinds[t.pending[KIND]].code)
        if step == ROT:
            return rotation_parts(m.rotations_deg[v])
        if step == SIDES_STEP:
            return sides_parts(v, m.kinds[t.pending[KIND]].is_joint)
        return tag_parts(len(t.building.pieces) + 1, v)

    def _range_size(self, name: str) -> int:
        names = [k for k in self.ranges if k != "size"]
        i = names.index(name)
        end = self.ranges[names[i + 1]] if i + 1 < len(names) else self.ranges["size"]
        return end - self.ranges[name]

    def typed_hole(self, text: str) -> int | None:
        """The hole `text` names while a hole is being chosen (None otherwise)."""
        t = self.table
        if t.phase == EXTRAS or t.step() not in (FIRST, SECOND):
            return None
        try:
            return t.building.hole_id(text)
        except PlanError:
            return None

    def expecting_message(self) -> Message:
        """What the player to move is choosing now, as a sentence."""
        t = self.table
        if t.phase == OVER:
            return msg("game.hau_la.expect.over")
        if t.phase == EXTRAS:
            return msg("game.hau_la.expect.extra")
        step = t.step()
        assert step is not None
        return msg("game.hau_la.expect.step", step=STEP_KEYS[step])

    def expecting(self) -> str:
        """What the player to move is choosing now, in English words."""
        return self.expecting_message().text
