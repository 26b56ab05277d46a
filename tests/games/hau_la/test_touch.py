"""Touch detection on constructed buildings: crossing strips, a tag against a strip, tangent but
apart, passing inside a tube, the exclusion radius at plug joints, and the grid vs brute force."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

from gamehall.games.hau_la.building import Building, Plan
from gamehall.games.hau_la.data import Model, model
from gamehall.games.hau_la.geometry import segment_distance
from gamehall.games.hau_la.placements import ROT, SIDES, TAG, Ask, Tags, enumerate_placements
from gamehall.games.hau_la.touch import Joints, SegmentGrid, piece_contacts
from tools.hau_la_audit import contacts

M = model()
BE, SE = M.kind_index("BE"), M.kind_index("SE")


def board(*holes: tuple[float, float]) -> Model:
    """The model with other board holes and no starting building, for constructed cases."""
    return dataclasses.replace(M, board=tuple(holes), start=())


def upright(m: Model, *holes: int) -> Building:
    """Big ends standing straight up in the given board holes (rotation 0)."""
    b = Building(m, ())
    for h in holes:
        b = b.add(Plan(BE, (h,), (0,), 0), placer=0, bonus=False)
    return b


def arm_placements(dy: float, tag: bool = False) -> tuple[Building, object]:
    """A small end sticking out east at z = 4 from an upright at the origin, past another upright
    standing at (2.5, dy): the arm passes `dy` from its centre line."""
    b = upright(board((2.5, dy), (0.0, 0.0)), 0, 1)
    half = b.pieces[1].first_hole  # the origin upright's 1/2 hole, axis east at rotation 0
    found = enumerate_placements(b, Tags.of(b, []), Ask((SE,), (half,), (half,), tag=tag))
    return b, found


def test_crossing_strips_touch() -> None:
    _, found = arm_placements(0.5)  # 0.5 apart: closer than 2r = 0.7 but not inside (r = 0.35)
    east = found.rows[:, SIDES] == 0
    assert east.any() and found.touch[east].all()
    assert not found.touch[~east].any()  # pointing west, away from it: no touch


def test_tangent_but_apart_does_not_touch() -> None:
    _, found = arm_placements(0.75)
    assert len(found) == 8 and not found.touch.any()  # 2 sides x 4 rotations


def test_passing_inside_another_tube_is_impossible() -> None:
    _, found = arm_placements(0.3)  # closer than r: the strip would pass through the other one
    assert len(found) > 0
    assert set(found.rows[:, SIDES]) == {1}  # only west is possible


def test_tag_against_a_strip_touches() -> None:
    # the arm's tip at (5, 0, 4); at rotation 0 its hole axis is the upright's tangent (z), so a
    # tag sits at (5, 0, 4 ± 0.85). An upright at x = 5.8: 0.8 from the arm (no touch) but
    # 0.8 < r + tag radius = 0.85 from the tag.
    for dx, touches in ((0.8, True), (0.9, False)):
        b = upright(board((5.0 + dx, 0.0), (0.0, 0.0)), 0, 1)
        half = b.pieces[1].first_hole
        found = enumerate_placements(b, Tags.of(b, []), Ask((SE,), (half,), (half,)))
        rows = (found.rows[:, SIDES] == 0) & (found.rows[:, ROT] == 0)
        assert set(found.rows[rows, TAG]) == {0, 1}
        assert list(found.touch[rows]) == [touches, touches]
        assert not found.touch[(found.rows[:, SIDES] == 0) & (found.rows[:, ROT] == 2)].any()


def test_tags_touching_each_other() -> None:
    # an upright at the origin with a tag at its tip, east face: centre (0.85, 0, 8). A new
    # upright at x = 2.6 with its tag on the west face: centre (1.75, 0, 8), 0.9 < 2 x 0.5 away.
    b = upright(board((0.0, 0.0), (2.6, 0.0)), 0)
    tags = Tags.of(b, [(b.pieces[0].first_hole + 1, 0)])
    assert tags.centres[0] == pytest.approx([0.85, 0, 8])
    found = enumerate_placements(b, tags, Ask((BE,), (1,), (1,)))
    by_tag = {int(r[TAG]): bool(t) for r, t in zip(found.rows, found.touch, strict=True)
              if r[ROT] == 0}
    assert by_tag == {0: False, 1: False, 2: False, 3: True}  # tip hole (index 1), face d


def test_exclusion_radius_at_plug_joint() -> None:
    # a strip leaving its host at a right angle starts inside the host's tube
    host0, host1 = np.array([[-3.0, 0, 2]]), np.array([[3.0, 0, 2]])
    grid = SegmentGrid.build(host0, host1, np.array([0]), reach=1.0, max_len=6.0, cell=1.0)
    q = np.array([[0.0, 0, 2], [0, 0, 2.4], [0, 0, 2.8], [0, 0, 3.2]])
    q0, q1 = q[:-1], q[1:]
    owner = np.zeros(3, dtype=np.int64)
    plugged = Joints(np.array([[[0.0, 0, 2]]]), np.array([[0]]))
    loose = Joints(np.array([[[0.0, 0, 2]]]), np.array([[-1]]))
    assert piece_contacts(grid, q0, q1, owner, plugged, 1, M.r, M.r_ex) == ([False], [False])
    inside, touch = piece_contacts(grid, q0, q1, owner, loose, 1, M.r, M.r_ex)
    assert inside[0] and touch[0]


def test_grid_agrees_with_brute_force() -> None:
    rng = np.random.default_rng(7)
    p0 = rng.uniform(-4, 4, (300, 3))
    p1 = p0 + rng.normal(size=(300, 3)) * 0.2
    grid = SegmentGrid.build(p0, p1, np.arange(300), reach=2 * M.r + 0.21, max_len=1.0)
    q0 = rng.uniform(-4, 4, (400, 3))
    step = rng.normal(size=(400, 3))
    q1 = q0 + step / np.linalg.norm(step, axis=1, keepdims=True) * 0.4
    owner = np.arange(400, dtype=np.int64)
    none = Joints(np.zeros((400, 1, 3)), np.full((400, 1), -1))
    inside, touch = piece_contacts(grid, q0, q1, owner, none, 400, M.r, M.r_ex)
    d = segment_distance(q0[:, None], q1[:, None], p0[None], p1[None]).min(axis=1)
    assert list(touch) == list(d < 2 * M.r)
    assert list(inside) == list(d < M.r)
    assert 0 < touch.sum() < 400


def test_grid_grown_piece_by_piece_is_the_grid_built_at_once() -> None:
    rng = np.random.default_rng(3)
    segs = [rng.uniform(-4, 4, (n, 3)) for n in (20, 1, 30, 12)]
    parts = [(s, s + rng.normal(size=s.shape) * 0.2) for s in segs]
    grown = SegmentGrid.build(parts[0][0], parts[0][1], np.zeros(20, dtype=np.int64),
                              reach=2 * M.r + 0.21, max_len=0.5)
    for i, (p0, p1) in enumerate(parts[1:], start=1):
        grown = grown.extended(p0, p1, i)
    p0, p1 = np.concatenate([p for p, _ in parts]), np.concatenate([q for _, q in parts])
    piece = np.repeat(np.arange(4), [len(s) for s in segs])
    whole = SegmentGrid.build(p0, p1, piece, reach=2 * M.r + 0.21, max_len=0.5)
    for f in dataclasses.fields(SegmentGrid):
        assert np.array_equal(getattr(grown, f.name), getattr(whole, f.name)), f.name


def test_starting_building_is_touch_free() -> None:
    assert contacts(Building.start(M), []) == []
