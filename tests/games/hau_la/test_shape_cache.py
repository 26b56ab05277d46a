"""The joint-shape cache: it never changes an enumeration, and it stays within its capacity."""

from __future__ import annotations

import dataclasses
import random

import numpy as np
import pytest

from gamehall.core import load_game
from gamehall.games.hau_la import turns
from gamehall.games.hau_la.building import Building
from gamehall.games.hau_la.curves import fit_joints
from gamehall.games.hau_la.data import model
from gamehall.games.hau_la.placements import Ask, Placements, Tags, enumerate_placements
from gamehall.games.hau_la.shapes import ShapeCache, joint_shapes_cached, joint_shapes_groups

Case = tuple[Building, Tags, Ask]


def _cases(players: int, seed: int) -> list[Case]:
    """Every enumeration a seeded random game asks for (all phases: first turns, normal turns,
    hand-overs, bonus joints)."""
    seen: list[Case] = []
    plain = turns.placements_for

    def spy(b: Building, spots: list[tuple[int, int]], ask: Ask) -> Placements:
        seen.append((b, Tags.of(b, spots), ask))
        return plain(b, spots, ask)

    turns.placements_for = spy
    try:
        rng = random.Random(seed)
        state = load_game("hau_la", players=players).new_initial_state(seed)
        while not state.is_terminal():
            if state.is_chance_node():
                actions, probs = zip(*state.chance_outcomes(), strict=True)
                action = rng.choices(actions, probs)[0]
            else:
                action = rng.choice(state.legal_actions())
            state.apply_action(action)
    finally:
        turns.placements_for = plain
    return seen


@pytest.fixture(scope="module")
def cases() -> list[Case]:
    return _cases(2, 5) + _cases(3, 6)


def _raw(p: Placements) -> tuple[bytes, ...]:
    return tuple(x.dtype.str.encode() + str(x.shape).encode() + x.tobytes()
                 for x in (p.rows, p.touch, p.height))


def test_cached_enumeration_is_the_uncached_one_bit_for_bit(cases: list[Case]) -> None:
    kinds = {(a.bonus, a.firsts == a.seconds) for _, _, a in cases}
    assert len(kinds) >= 3, "the games should reach normal, free and bonus placements"
    fresh = [_raw(enumerate_placements(b, t, a, cache=None)) for b, t, a in cases]
    big, tiny = ShapeCache(), ShapeCache(capacity=7)
    for cache in (big, tiny):
        for _ in range(2):  # cold, then warm: both give the same bytes
            assert [_raw(enumerate_placements(b, t, a, cache)) for b, t, a in cases] == fresh
    assert big.hits > big.misses > 0
    assert tiny.misses > big.misses  # evictions: entries were computed again, and agreed


def test_cache_stays_within_its_capacity(cases: list[Case]) -> None:
    cache = ShapeCache(capacity=50)
    for b, t, a in cases:
        enumerate_placements(b, t, a, cache)
        assert len(cache) <= 50
    assert len(cache) == 50
    cache.clear()
    assert len(cache) == 0 and cache.hits == cache.misses == 0


def test_cache_is_least_recently_used_first_out() -> None:
    cache = ShapeCache(capacity=2)
    cache.store([(b"a", b"1"), (b"b", b"2")])
    assert cache.recall([b"a"]) == [b"1"]  # a is now the most recent
    cache.store([(b"c", b"3")])
    assert cache.recall([b"a", b"b", b"c"]) == [b"1", None, b"3"]


def test_key_holds_every_input_a_shape_depends_on() -> None:
    """The same geometry with one input changed (a plug on the board or not, another kind, a
    direction one ulp off) is a new entry, never a hit."""
    m = model()
    big, small = m.kinds[m.kind_index("BJ")], m.kinds[m.kind_index("SJ")]
    a, b = np.array([[0.0, 0.0, 0.0]]), np.array([[4.0, 0.0, 0.0]])
    up = np.array([[0.0, 0.0, 1.0]])
    tilted = np.array([[0.0, np.nextafter(0.0, 1.0), 1.0]])
    no, yes = np.array([False]), np.array([True])
    cache = ShapeCache()
    variants = [(big, up, yes), (big, up, no), (small, up, yes), (big, tilted, yes)]
    oks = []
    for spec, da, a_board in variants:
        got = joint_shapes_cached(cache, m, [spec], a, da, b, up, a_board, yes, [1])[0]
        want = joint_shapes_groups(m, [spec], a, da, b, up, a_board, yes, [1])[0]
        assert got.ok.tolist() == want.ok.tolist()
        assert got.shape.points.tobytes() == want.shape.points.tobytes()
        oks.append(bool(got.ok[0]))
    assert oks == [True, False, True, True]  # off the board, the joint's start dips below it
    assert cache.hits == 0 and len(cache) == len(variants)
    joint_shapes_cached(cache, m, [big], a, up, b, up, yes, yes, [1])
    assert cache.hits == 1


def test_screened_fit_keeps_every_fitting_joint_bit_for_bit(cases: list[Case]) -> None:
    """`fit_joints(screen=True)` (what enumerations use) finds the same fitting joints with
    the same numbers as the full fit, over every hole pair and plug side of the games'
    buildings, though most pairs are given up on a few curvature samples."""
    m = model()
    for spec in (m.kinds[m.kind_index("BJ")], m.kinds[m.kind_index("SJ")]):
        for b in {id(b): b for b, _, _ in cases[::4]}.values():
            lo, hi = np.triu_indices(b.n_holes, k=1)
            sides = np.arange(4 * len(lo)) % 4
            lo, hi = np.repeat(lo, 4), np.repeat(hi, 4)
            a, da = b.pos[lo], np.where((sides // 2 == 0)[:, None], b.axis[lo], -b.axis[lo])
            bb, db = b.pos[hi], np.where((sides % 2 == 0)[:, None], b.axis[hi], -b.axis[hi])
            full = fit_joints(m, a, da, bb, db, spec.length)
            quick = fit_joints(m, a, da, bb, db, spec.length, screen=True)
            assert quick.ok.tobytes() == full.ok.tobytes()
            assert 0 < full.ok.sum() < len(full.ok)
            ok = np.flatnonzero(full.ok)
            for x, y in zip(dataclasses.astuple(quick.take(ok)), dataclasses.astuple(full.take(ok)),
                            strict=True):
                assert x.tobytes() == y.tobytes()
