"""A pool's wave (server/pairing/wave.py), checked by hand on small cases: the cheapest
pairs, ranges respected, the last opponent avoided while another choice exists, the bonus of
those who waited, and Hau La's tables seated by rating."""

from __future__ import annotations

import random

from gamehall.server.pairing.wave import Candidate, cost, pair_tables, pair_two, pair_wave


def c(name: str, rating: float, player: int | None = None, **kw: object) -> Candidate:
    return Candidate(name, player if player is not None else hash(name) % 10**6, rating,
                     **kw)  # type: ignore[arg-type]


def names(tables: list[tuple[Candidate, ...]]) -> set[frozenset[str]]:
    return {frozenset(x.entry for x in t) for t in tables}


def test_nearest_ratings_are_paired() -> None:
    got = pair_two([c("a", 1500), c("b", 1900), c("c", 1520), c("d", 1880)])
    # a-c (20) + b-d (20) = 40 beats a-b + c-d (760) and a-d + b-c (760)
    assert names([tuple(p) for p in got]) == {frozenset("ac"), frozenset("bd")}
    assert [p[0].entry for p in got] == ["b", "c"]  # higher first, best table first


def test_a_range_excludes_a_pair_even_when_it_is_cheapest() -> None:
    got = pair_two([c("a", 1500, range=(1600, 2000)), c("b", 1480), c("d", 1700)])
    assert names([tuple(p) for p in got]) == {frozenset("ad")}


def test_a_gap_too_wide_is_no_pair_until_they_waited() -> None:
    far = [c("a", 1000), c("b", 1900)]
    assert pair_two(far) == []
    waited = [c("a", 1000, waves=4), c("b", 1900)]
    assert names([tuple(p) for p in pair_two(waited)]) == {frozenset("ab")}


def test_the_last_opponent_is_avoided_when_there_is_another_choice() -> None:
    a, b, d = c("a", 1500, 1, last=frozenset({2})), c("b", 1500, 2, last=frozenset({1})), \
        c("d", 1600, 3)
    pairs = pair_two([a, b, d])
    assert len(pairs) == 1 and names([tuple(p) for p in pairs]) != {frozenset("ab")}
    # alone together, they play again rather than wait
    assert names([tuple(p) for p in pair_two([a, b])]) == {frozenset("ab")}


def test_waves_waited_lower_the_cost_and_favour_the_waiting() -> None:
    assert cost(c("a", 1500, waves=2), c("b", 1600)) == 100 - 24
    # d waited three waves: a (who sits between b and d) is paired with d, b waits
    got = pair_two([c("b", 1480), c("a", 1500), c("d", 1530, waves=3)])
    assert names([tuple(p) for p in got]) == {frozenset("ad")}


def test_everyone_is_paired_when_all_are_compatible_and_nobody_twice() -> None:
    rng = random.Random(7)
    people = [c(f"p{i}", rng.gauss(1500, 150), i) for i in range(200)]
    pairs = pair_two(people)
    seen = [x.entry for p in pairs for x in p]
    assert len(seen) == len(set(seen)) == 200


def test_a_wave_of_a_thousand_pairs_everyone_with_near_neighbours() -> None:
    rng = random.Random(3)
    people = [c(f"p{i}", rng.gauss(1500, 300), i) for i in range(1000)]
    pairs = pair_two(people)  # matched 64 at a time, the unmatched carried on
    assert len({x.entry for p in pairs for x in p}) == 1000
    gaps = sorted(p[0].rating - p[1].rating for p in pairs)
    assert gaps[0] >= 0 and gaps[len(gaps) // 2] < 5 and gaps[-1] <= 400  # BASE_GAP


def test_hau_la_tables_are_filled_in_rating_order() -> None:
    people = [c(n, r) for n, r in [("a", 1900), ("b", 1500), ("d", 1880), ("e", 1510),
                                   ("f", 1860), ("g", 1490), ("h", 1000)]]
    tables = pair_tables(people, 3)
    assert [[x.entry for x in t] for t in tables] == [["a", "d", "f"], ["e", "b", "g"]]


def test_a_hau_la_table_respects_everyone_s_range() -> None:
    people = [c("a", 1900), c("b", 1880, range=(1890, 2000)), c("d", 1870), c("e", 1860)]
    tables = pair_wave(people, 3)
    assert [[x.entry for x in t] for t in tables] == [["a", "d", "e"]]  # b waits
    assert pair_wave(people[:3], 3) == []  # b refuses d: no table of three yet
