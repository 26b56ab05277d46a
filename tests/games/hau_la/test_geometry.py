"""The geometry model: joint fit limits, exact arc length, hole axes, the board, the start."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

from gamehall.games.hau_la.building import Building, Plan, PlanError
from gamehall.games.hau_la.curves import fit_joints
from gamehall.games.hau_la.data import model
from gamehall.games.hau_la.geometry import norm
from gamehall.games.hau_la.placements import FIRST, SIDES, Ask, Tags, enumerate_placements
from gamehall.games.hau_la.shapes import end_shapes, end_shapes_groups, rotation_table

UP = (0.0, 0.0, 1.0)
NORTH = (0.0, 1.0, 0.0)
M = model()


def fit(a, da, b, db, length=12.0):  # noqa: ANN001, ANN201 - test helper
    arr = [np.array([v], dtype=float) for v in (a, da, b, db)]
    arr[1] /= norm(arr[1])[:, None]
    arr[3] /= norm(arr[3])[:, None]
    return fit_joints(M, arr[0], arr[1], arr[2], arr[3], length)


def test_joint_span_lower_limit_is_0_3_L() -> None:
    # same gentle shape (peak curvature ~0.67, far below 1/(2r)); only the span differs
    assert fit((0, 0, 5), UP, (3.65, 0, 5), NORTH).ok[0]
    short = fit((0, 0, 5), UP, (3.55, 0, 5), NORTH)
    assert not short.ok[0]
    assert short.peak_kappa[0] * 2 * M.r < 1.0


def test_joint_span_upper_limit_is_0_95_L() -> None:
    out = (1.0, 0.0, 0.3)
    back = (-1.0, 0.0, 0.3)
    assert fit((0, 0, 3), out, (11.4, 0, 3), back).ok[0]
    long = fit((0, 0, 3), out, (11.41, 0, 3), back)
    assert not long.ok[0]
    assert long.peak_kappa[0] * 2 * M.r < 1.0


def test_joint_bend_radius_at_least_2r() -> None:
    ok = fit((0, 0, 0), UP, (3.7, 0, 0), UP)  # tight arch: peak curvature 1.38 < 1/0.7
    tight = fit((0, 0, 0), UP, (3.61, 0, 0), UP)  # span allowed, but radius < 0.7
    assert ok.ok[0] and ok.peak_kappa[0] <= 1 / (2 * M.r)
    assert not tight.ok[0] and tight.peak_kappa[0] > 1 / (2 * M.r)


@pytest.mark.parametrize("da,b,db", [
    (UP, (0, 0, 9), UP),            # B straight above A, plug from below into B
    (UP, (0, 0, 9), (0, 0, -1)),
    ((1, 0, 0), (4, 0, 3), (1, 0, 0)),
])
def test_collinear_joint_is_degenerate_and_does_not_fit(da, b, db) -> None:  # noqa: ANN001
    assert not fit((0, 0, 3), da, b, db).ok[0]


def test_joint_arc_length_is_exact_and_least_bent() -> None:
    b = Building(M, ())
    b = b.add(Plan(0, (0, 1), (0, 0)), placer=-1, bonus=False)
    pts = b.pieces[0].points
    polyline = float(norm(np.diff(pts, axis=0)).sum())
    assert polyline == pytest.approx(12.0, abs=0.01)  # chords fall short of the arc by < 0.01
    steps = norm(np.diff(pts, axis=0))
    assert steps.max() - steps.min() < 0.01  # evenly spaced by arc length
    # the start arch: apex near z = 4.1, symmetric, holes at 1/4, 1/2, 3/4
    assert pts[:, 2].max() == pytest.approx(4.06, abs=0.01)
    holes = b.pieces[0].hole_pos
    assert holes[1] == pytest.approx([0, 0, 4.06], abs=0.01)
    assert holes[0][2] == pytest.approx(holes[2][2], abs=1e-9)


def test_hole_axis_is_principal_normal_with_upper_sign() -> None:
    b = Building.start(M)
    apex = b.hole_id("1b")
    assert b.axis[apex] == pytest.approx([0, 0, 1], abs=1e-6)  # arch top: normal points down/up
    for h in range(b.n_holes):
        assert abs(float(np.dot(b.axis[h], b.tan[h]))) < 1e-6  # axis across the strip
        assert b.axis[h][2] >= -1e-9  # canonical sign: the "u" face is the upper one


def test_end_piece_rotations_turn_hole_axes_about_the_strip() -> None:
    b = Building.start(M)
    h = b.hole_id("g5")
    axes = []
    for rot in range(4):
        piece = b.add(Plan(M.kind_index("BE"), (h,), (0,), rot), 0, False).pieces[-1]
        assert piece.points[-1] == pytest.approx(b.pos[h] + [0, 0, 8])  # stands straight up
        axes.append(piece.hole_axis[0])
    assert axes[0] == pytest.approx([1, 0, 0])  # 0°: along the board's reference (east)
    assert axes[2] == pytest.approx([0, 1, 0], abs=1e-12)
    assert axes[1] == pytest.approx([np.sqrt(0.5), np.sqrt(0.5), 0])


def test_starting_building_holes_and_heights() -> None:
    b = Building.start(M)
    free = sorted(round(float(b.pos[h][2]), 1) for h in range(b.n_board, b.n_holes)
                  if b.plug[h] < 0)
    assert len(free) == 7
    assert free[:4] == pytest.approx([2.9] * 4, abs=0.15)
    assert free[4:6] == pytest.approx([5.7, 5.7], abs=0.05)
    assert free[6] == pytest.approx(7.7, abs=0.05)
    assert [b.names[h] for h in range(b.n_board)] == [f"g{i}" for i in range(1, 11)]


def test_below_the_board_is_impossible_not_penalised() -> None:
    b = Building.start(M)
    big_end = M.kind_index("BE")
    low = b.hole_id("1a")  # z = 2.81, axis tilted: the "d" side points down and out
    with pytest.raises(PlanError, match="below the board"):
        b.add(Plan(big_end, (low,), (1,), 0), 0, False)
    b.add(Plan(big_end, (low,), (0,), 0), 0, False)  # the upper side is fine
    found = enumerate_placements(b, Tags.of(b, []), Ask((big_end,), (low,), (low,)))
    assert len(found) > 0
    assert set(found.rows[:, SIDES]) == {0}
    for p in (b.add(Plan(big_end, (low,), (0,), r), 0, False).pieces[-1] for r in range(4)):
        assert p.points[:, 2].min() >= M.r - 1e-9


def test_hole_occupancy() -> None:
    b = Building.start(M)
    taken = b.hole_id("1b")
    with pytest.raises(PlanError, match="already holds a plug"):
        b.add(Plan(M.kind_index("SE"), (taken,), (0,), 0), 0, False)
    free = tuple(int(h) for h in np.flatnonzero(b.plug < 0))
    assert taken not in free
    found = enumerate_placements(b, Tags.of(b, []), Ask((0, 1, 2, 3), free, free, tag=False))
    used = set(found.rows[:, FIRST]) | set(found.rows[:, 2])
    assert not used & {int(h) for h in np.flatnonzero(b.plug >= 0)}


def test_same_choices_same_building_bit_for_bit() -> None:
    one = Building.start(M).add(Plan(0, (4, 10), (0, 1)), 0, False)
    two = Building.start(M).add(Plan(0, (4, 10), (0, 1)), 0, False)
    assert np.array_equal(one.pieces[-1].points, two.pieces[-1].points)
    reverse = Building.start(M).add(Plan(0, (10, 4), (1, 0)), 0, False)
    assert np.array_equal(reverse.pieces[-1].points, one.pieces[-1].points[::-1])


def hairpin(radius: float, n: int = 31) -> np.ndarray:
    """Out 5 along x, a half turn of `radius`, back: samples every seg_len along the arc."""
    arc = np.arange(n) * M.seg_len
    turn = np.pi * radius
    pts = []
    for s in arc:
        if s <= 5:
            pts.append((s, 0.0, 3.0))
        elif s <= 5 + turn:
            a = (s - 5) / radius
            pts.append((5 + radius * np.sin(a), radius - radius * np.cos(a), 3.0))
        else:
            pts.append((5 - (s - 5 - turn), 2 * radius, 3.0))
    return np.array(pts)


def test_fold_back_through_itself() -> None:
    from gamehall.games.hau_la.curves import fold_back

    straight = np.array([(i * M.seg_len, 0.0, 3.0) for i in range(31)])
    tight = hairpin(0.3)  # legs 0.6 apart: closer than 2r
    wide = hairpin(0.6)  # legs 1.2 apart
    found = fold_back(np.stack([straight, tight, wide]), M.seg_len, M.r)
    assert list(found) == [False, True, False]


def test_end_pieces_of_all_kinds_in_one_batch_are_each_kind_alone() -> None:
    """`end_shapes_groups` (one batch for every end kind in hand, padded to the longest) gives
    each kind the bytes a batch of its own gives, below-board verdicts included."""
    b = Building.start(M)
    holes = np.repeat(np.arange(b.n_holes), 2)
    sides = np.arange(len(holes)) % 2
    d = np.where((sides == 0)[:, None], b.axis[holes], -b.axis[holes])
    turn = rotation_table(M)[np.arange(len(holes)) % len(M.rotations_deg)]
    board = holes < b.n_board
    specs = [k for k in M.kinds if not k.is_joint]
    together = end_shapes_groups(M, specs, b.pos[holes], d, b.tan[holes], turn, board)
    oks = []
    for spec, (ok, shape) in zip(specs, together, strict=True):
        alone_ok, alone = end_shapes(M, spec, b.pos[holes], d, b.tan[holes], turn, board)
        assert ok.tobytes() == alone_ok.tobytes()
        for x, y in zip(dataclasses.astuple(shape), dataclasses.astuple(alone), strict=True):
            assert x.shape == y.shape and x.tobytes() == np.ascontiguousarray(y).tobytes()
        oks.append(ok)
    assert all(0 < ok.sum() < len(ok) for ok in oks)  # some end pieces would dip below the board
