"""`HauLaState`: the game contract over a `Table` (turns.py) — actions, notation, JSON."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from gamehall.core import TERMINAL, NotationError, State, normalise_notation
from gamehall.games.hau_la.building import PlanError
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

if TYPE_CHECKING:
    from gamehall.games.hau_la.game import HauLaGame

STEP_RANGE = {KIND: "kind", FIRST: "hole", SECOND: "hole", ROT: "rot", SIDES_STEP: "sides",
              TAG: "tag"}
STEP_WORDS = {KIND: "a piece", FIRST: "the first hole", SECOND: "the second hole",
              ROT: "a rotation", SIDES_STEP: "the plug side(s)", TAG: "a hole for your tag"}


class HauLaState(State):
    """A position of Hau La. The rules live in `Table`; this class speaks the contract."""

    game: HauLaGame

    def __init__(self, game: HauLaGame, seed: int | None = None,
                 table: Table | None = None) -> None:
        super().__init__(game, seed)
        self.table = table if table is not None else game.new_table()
        self._layout = layout(game.model)
        self._legal: list[int] | None = None
        self._by_text: dict[str, int] | None = None

    # --- contract ------------------------------------------------------------------------------
    def current_player(self) -> int:
        return TERMINAL if self.table.phase == OVER else self.table.placer

    def legal_actions(self) -> list[int]:
        if self._legal is None:
            t = self.table
            if t.phase == OVER:
                self._legal = []
            elif t.phase == EXTRAS:
                self._legal = [self._layout["extra"] + i for i in range(len(t.extras_left))]
            else:
                step = t.step()
                assert step is not None
                base = self._layout[STEP_RANGE[step]]
                self._legal = [base + v for v in t.choices()]
        return list(self._legal)

    def is_legal(self, action: int) -> bool:
        if not isinstance(action, int) or isinstance(action, bool):
            return False
        if self._legal is None:
            self.legal_actions()
        assert self._legal is not None
        return action in self._legal

    def _apply(self, action: int) -> None:
        t = self.table
        if t.phase == EXTRAS:
            t.take_extra(action - self._layout["extra"])
        else:
            step = t.step()
            assert step is not None
            t.choose(action - self._layout[STEP_RANGE[step]])
        self._legal = None
        self._by_text = None

    def returns(self) -> list[float]:
        t = self.table
        if t.phase != OVER:
            return [0.0] * t.n
        return [1.0 if s == t.ranking[0] else 0.0 for s in range(t.n)]

    def outcome_text(self) -> str:
        from gamehall.games.hau_la.view import outcome_text

        return outcome_text(self)

    def clone(self) -> HauLaState:
        c = HauLaState.__new__(HauLaState)
        c.game = self.game
        c._history = list(self._history)
        c.rng = type(self.rng)()
        c.rng.setstate(self.rng.getstate())
        c.table = self.table.clone()
        c._layout = self._layout
        c._legal = self._legal
        c._by_text = self._by_text
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
        m = self.game.model
        lay = self._layout
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
            return hole_parts(t.building.names[v])
        if step == ROT:
            return rotation_parts(m.rotations_deg[v])
        if step == SIDES_STEP:
            return sides_parts(v, m.kinds[t.pending[KIND]].is_joint)
        return tag_parts(len(t.building.pieces) + 1, v)

    def _range_size(self, name: str) -> int:
        names = [k for k in self._layout if k != "size"]
        i = names.index(name)
        end = self._layout[names[i + 1]] if i + 1 < len(names) else self._layout["size"]
        return end - self._layout[name]

    def string_to_action(self, text: str) -> int:
        wanted = normalise_notation(text)
        if not wanted:
            raise NotationError("type a move")
        if self.is_terminal():
            raise NotationError("the game is over")
        if self._by_text is None:
            self._by_text = {normalise_notation(self.action_to_string(a)): a
                             for a in self.legal_actions()}
        if wanted in self._by_text:
            return self._by_text[wanted]
        hole = self._typed_hole(text)
        if hole is not None:
            raise NotationError(self.explain_illegal(self._layout["hole"] + hole))
        raise NotationError(f"{text.strip()} is not a legal move here ({self.expecting()})")

    def _typed_hole(self, text: str) -> int | None:
        """The hole `text` names while a hole is being chosen (None otherwise)."""
        t = self.table
        if t.phase == EXTRAS or t.step() not in (FIRST, SECOND):
            return None
        try:
            return t.building.hole_id(text)
        except PlanError:
            return None

    def expecting(self) -> str:
        """What the player to move is choosing now, in words."""
        t = self.table
        if t.phase == OVER:
            return "the game is over"
        if t.phase == EXTRAS:
            return "choose your first-turn piece"
        step = t.step()
        assert step is not None
        return f"choose {STEP_WORDS[step]}"

    def explain_illegal(self, action: object) -> str:
        base = super().explain_illegal(action)
        if self.is_terminal() or not isinstance(action, int) or isinstance(action, bool):
            return base
        t = self.table
        step = t.step() if t.phase != EXTRAS else None
        if step in (FIRST, SECOND):
            h = action - self._layout["hole"]
            b = t.building
            if 0 <= h < b.n_holes:
                what = t.occupant().get(h)
                if what is not None and h not in t.ask().firsts + t.ask().seconds:
                    return f"{b.names[h]} is occupied ({what})"
                return f"the piece cannot go into {b.names[h]} from here"
        return f"{base}: {self.expecting()}"

    # --- data ----------------------------------------------------------------------------------
    def to_json(self) -> dict[str, Any]:
        from gamehall.games.hau_la.jsonform import state_to_json

        return state_to_json(self)

    def view(self, seat: int | None) -> dict[str, Any]:
        from gamehall.games.hau_la.view import state_view

        return state_view(self, seat)

