"""The JSON form of a Hau La position, and reading it back.

The rules depend only on the discrete part (plans of pieces, tags, hands, round, pending
choices); the geometry (points, holes, heights, ghosts) is derived from it, rounded to 4
decimals, for renderers. Reading a state rebuilds the geometry from the discrete part, so a
round trip is exact.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np

from gamehall.core import Game, StateFormatError
from gamehall.core.messages import Message, catalogue
from gamehall.games.hau_la.building import SIDES, Building, Plan, PlanError, rounded
from gamehall.games.hau_la.data import model
from gamehall.games.hau_la.notation import sides_text, tag_text
from gamehall.games.hau_la.placements import FIRST, KIND, ROT, SECOND, TAG
from gamehall.games.hau_la.placements import SIDES as SIDES_STEP
from gamehall.games.hau_la.rules import STEP_KEYS, HauLaState
from gamehall.games.hau_la.turns import (
    HAND,
    OUT,
    PLACING,
    Table,
    Tag,
    building_with,
    placements_for,
)

STEP_NAMES = STEP_KEYS


def _holes_json(t: Table, ids: range, occ: dict[int, str]) -> list[dict[str, Any]]:
    b = t.building
    pos, axis = b.holes_json
    return [{"id": h, "name": b.names[h], "position": list(pos[h]),
             "axis": list(axis[h]), "occupant": occ.get(h)} for h in ids]


def _piece_json(t: Table, i: int, occ: dict[int, str]) -> dict[str, Any]:
    m, b = t.model, t.building
    p = b.pieces[i]
    spec = m.kinds[p.plan.kind]
    return {
        "number": p.number, "kind": spec.code, "name": spec.name,
        "placer": t.names[p.placer] if p.placer >= 0 else None, "bonus": p.bonus,
        "plugs": [{"hole": b.names[h], "side": SIDES[s]}
                  for h, s in zip(p.plan.holes, p.plan.sides, strict=True)],
        "rotation": m.rotations_deg[p.plan.rot] if p.plan.rot >= 0 else None,
        "length": spec.length, "radius": m.r,
        "points": [list(x) for x in p.points_json],
        "holes": _holes_json(t, range(p.first_hole, p.first_hole + len(p.hole_pos)), occ),
    }


def _tag_state(hole: int) -> str:
    return "board" if hole >= 0 else ("hand" if hole == HAND else "out")


def state_to_json(state: HauLaState) -> dict[str, Any]:
    game, t = state.game, state.table
    m, b = t.model, t.building
    occ = t.occupant()
    heights = t.heights()
    over = t.phase == "over"
    tags = []
    for i, tag in enumerate(t.tags):
        on = tag.hole >= 0
        tags.append({
            "colour": m.colours[i], "owner": t.names[tag.owner], "state": _tag_state(tag.hole),
            "hole": b.names[tag.hole] if on else None, "face": SIDES[tag.face] if on else None,
            "position": rounded(b.tag_centre(tag.hole, tag.face)) if on else None,
            "height": t.tag_height(i), "radius": m.tag_r})
    return {
        "game": game.name,
        "options": dict(game.options),
        "phase": t.phase,
        "round": t.round,
        "order": [t.names[s] for s in t.order],
        "turn": t.pos,
        "placed_this_round": t.active,
        "to_move": None if over else t.names[t.placer],
        "culprit": t.names[t.culprit] if t.culprit >= 0 else None,
        "piece": m.kinds[t.kind].code if t.kind >= 0 else None,
        "stock": t.stock,
        "hands": {t.names[s]: {**{k.code: t.hands[s][j] for j, k in enumerate(m.kinds)},
                               "first_turn": m.kinds[t.extra[s]].code if t.extra[s] >= 0
                               else None} for s in range(t.n)},
        "extras_left": [m.kinds[k].code for k in t.extras_left],
        "tags": tags,
        "heights": {t.names[s]: heights[s] for s in range(t.n)},
        "ranking": [t.names[s] for s in t.live_ranking()],
        "last_judging": [t.names[s] for s in t.ranking],
        "winner": t.names[t.ranking[0]] if over else None,
        "board": {"holes": _holes_json(t, range(b.n_board), occ), "radius": 10.0,
                  "exclusion_radius": m.r_ex},
        "pieces": [_piece_json(t, i, occ) for i in range(len(b.pieces))],
        "pending": _pending_json(t) if t.phase in PLACING else None,
        "events": [{"text": e.text, **e.to_json()} for e in t.events],
    }


def _pending_json(t: Table) -> dict[str, Any]:
    m, b = t.model, t.building
    p = t.pending
    kind = p.get(KIND)
    joint = kind is not None and m.kinds[kind].is_joint
    step = t.step()
    out: dict[str, Any] = {
        "placer": t.names[t.placer], "mode": t.phase,
        "step": STEP_NAMES[step] if step is not None else None,
        "tag": t.phase == "place",
        "kind": m.kinds[kind].code if kind is not None else None,
        "first": b.names[p[FIRST]] if FIRST in p else None,
        "second": b.names[p[SECOND]] if SECOND in p else None,
        "rotation": m.rotations_deg[p[ROT]] if ROT in p else None,
        "sides": sides_text(p[SIDES_STEP], joint) if SIDES_STEP in p else None,
    }
    out["ghosts"] = _ghosts(t, step)
    return out


def _ghost(t: Table, plan: Plan, label: str) -> dict[str, Any]:
    s = t.building.shape(plan)
    return {"choice": label, "points": rounded(s.points[0]), "holes": [
        {"position": rounded(pos), "axis": rounded(ax)}
        for pos, ax in zip(s.hole_pos[0], s.hole_axis[0], strict=True)]}


def _ghosts(t: Table, step: int | None) -> list[dict[str, Any]]:
    """Preview shapes for the current step's choices (sides, rotation) or the chosen piece."""
    if step not in (SIDES_STEP, ROT, TAG) or t.placements is None:
        return []
    m = t.model
    rows = t.placements.rows[t.rows]
    out = []
    if step == TAG:
        ghost = _ghost(t, t.plan(), "piece")
        ghost["tags"] = [{"choice": tag_text(len(t.building.pieces) + 1, int(v)),
                          "position": rounded(np.asarray(ghost["holes"][v // 2]["position"])
                                              + (1 - 2 * (v % 2)) * m.tag_offset
                                              * np.asarray(ghost["holes"][v // 2]["axis"]))}
                         for v in np.unique(rows[:, TAG])]
        return [ghost]
    kind = t.pending[KIND]
    combos = np.unique(rows[:, [ROT, SIDES_STEP]], axis=0).tolist()
    for rot, sides in combos:
        joint = m.kinds[kind].is_joint
        if joint:
            plan = Plan(kind, (t.pending[FIRST], t.pending[SECOND]), (sides // 2, sides % 2))
            label = sides_text(sides, True)
        else:
            plan = Plan(kind, (t.pending[FIRST],), (sides,), rot)
            label = f"r{m.rotations_deg[rot]} {SIDES[sides]}"
        ghost = _ghost(t, plan, label)
        # the choice in parts, as the legal moves' parts name them (rotation, sides)
        ghost["rotation"] = None if joint else m.rotations_deg[rot]
        ghost["sides"] = sides_text(sides, joint)
        out.append(ghost)
    return out


# --- reading ---------------------------------------------------------------------------------
def state_from_json(game: Game, data: Mapping[str, Any]) -> HauLaState:
    """Read a position (the discrete part; the geometry is rebuilt from it)."""
    game.check_json_header(data)
    try:
        return HauLaState(game, None, _read(game, data))
    except StateFormatError:
        raise
    except (KeyError, TypeError, ValueError, IndexError, AttributeError, PlanError) as exc:
        raise StateFormatError(f"not a Hau La position: {exc}") from exc


def _seat(game: Game, name: Any) -> int:
    return game.seat_index(str(name))


def _read(game: Game, data: Mapping[str, Any]) -> Table:
    m = model()
    players = int(game.options["players"])
    codes = [k.code for k in m.kinds]
    b = Building(m, ())
    for pj in data["pieces"]:
        kind = codes.index(pj["kind"])
        holes = tuple(b.hole_id(str(x["hole"])) for x in pj["plugs"])
        sides = tuple(SIDES.index(x["side"]) for x in pj["plugs"])
        rot = m.rotations_deg.index(int(pj["rotation"])) if pj["rotation"] is not None else -1
        if len(holes) != (2 if m.kinds[kind].is_joint else 1) or (rot < 0) == (len(holes) == 1):
            raise StateFormatError(f"piece {pj.get('number')} is not a valid {pj['kind']}")
        placer = _seat(game, pj["placer"]) if pj["placer"] is not None else -1
        b = building_with(b, Plan(kind, holes, sides, rot), placer, bool(pj["bonus"]))
    prep = m.preparations[players]
    tags = []
    for i, tj in enumerate(data["tags"]):
        state = tj["state"]
        hole = b.hole_id(tj["hole"]) if state == "board" else (HAND if state == "hand" else OUT)
        if state not in ("board", "hand", "out"):
            raise StateFormatError(f"tag state {state!r}")
        face = SIDES.index(tj["face"]) if state == "board" else 0
        tags.append(Tag(prep.tag_owners[i], hole, face))
    if len(tags) != len(prep.tag_owners):
        raise StateFormatError("wrong number of tags")
    hands, extra = [], []
    for s in range(players):
        hj = data["hands"][game.seat_names[s]]
        hands.append([int(hj[c]) for c in codes])
        extra.append(codes.index(hj["first_turn"]) if hj["first_turn"] is not None else -1)
    table = Table(
        m, players, game.seat_names, b, tags, hands, extra,
        extras_left=[codes.index(c) for c in data["extras_left"]],
        stock=int(data["stock"]), phase=str(data["phase"]), round=int(data["round"]),
        order=[_seat(game, s) for s in data["order"]], pos=int(data["turn"]),
        active=bool(data["placed_this_round"]),
        placer=_seat(game, data["to_move"]) if data["to_move"] is not None else 0,
        culprit=_seat(game, data["culprit"]) if data["culprit"] is not None else -1,
        kind=codes.index(data["piece"]) if data["piece"] is not None else -1,
        ranking=[_seat(game, s) for s in data["last_judging"]],
        events=[_event(e) for e in data["events"]])
    _check(table)
    if table.phase in PLACING:
        _restore_pending(table, data["pending"] or {}, codes)
    return table


def _event(data: Any) -> Message:
    """An event as `state_to_json` writes it (``{text, key, args}``); an older form's plain
    English line is kept as it is (``game.outcome.verbatim``)."""
    if isinstance(data, str):
        return Message("game.outcome.verbatim", {"text": data})
    if not isinstance(data, Mapping) or not isinstance(data.get("key"), str) \
            or data["key"] not in catalogue("en"):
        raise StateFormatError(f"an event is {{text, key, args}}, not {data!r}")
    return Message.from_json(data)


def _check(t: Table) -> None:
    """Consistency a hand-written position must have."""
    if t.phase not in ("extras", "over", *PLACING):
        raise StateFormatError(f"unknown phase {t.phase!r}")
    holes = [x.hole for x in t.tags if x.hole >= 0]
    if len(set(holes)) != len(holes) or any(t.building.plug[h] >= 0 for h in holes):
        raise StateFormatError("a hole holds one thing: a plug or a tag")
    if any(c < 0 for hand in t.hands for c in hand) or t.stock < 0:
        raise StateFormatError("negative piece counts")
    if t.phase in ("place", "handover") and not 0 <= t.pos < len(t.order):
        raise StateFormatError("the turn is outside the round's order")


def _restore_pending(t: Table, pj: Mapping[str, Any], codes: list[str]) -> None:
    m, b = t.model, t.building
    found = placements_for(b, t.tag_spots(), t.ask())
    if len(found) == 0:
        raise StateFormatError("the player to move has no possible placement")
    t.placements, t.rows, t.pending = found, np.arange(len(found)), {}
    readers = {
        KIND: lambda v: codes.index(v),
        FIRST: b.hole_id, SECOND: b.hole_id,
        ROT: lambda v: m.rotations_deg.index(int(v)),
        SIDES_STEP: lambda v: (SIDES.index(v[0]) * 2 + SIDES.index(v[1])) if len(v) == 2
        else SIDES.index(v),
    }
    while True:
        step = t.step()
        if step is None or step == TAG or pj.get(STEP_NAMES[step]) is None:
            break
        value = readers[step](pj[STEP_NAMES[step]])
        if value not in t.choices():
            raise StateFormatError(f"pending {STEP_NAMES[step]} {pj[STEP_NAMES[step]]} is not "
                                   "possible")
        t.choose_value(step, value)
