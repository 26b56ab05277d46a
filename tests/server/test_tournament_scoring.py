"""Tournament scoring, standings and pairings (server/tournaments), each checked against
results worked out by hand."""

from __future__ import annotations

import itertools
from collections import Counter
from fractions import Fraction as F

from gamehall.server.tournaments.arena_pairing import REPEAT_COST, Waiting, pair_arena, pair_cost
from gamehall.server.tournaments.round_robin import (
    berger_rounds,
    covering_tables,
    divisions,
    schedule,
)
from gamehall.server.tournaments.scoring import (
    DRAW,
    LOSS,
    WIN,
    ArenaGame,
    arena_score,
    place_points,
)
from gamehall.server.tournaments.standings import Entrant, Played, standings
from gamehall.server.tournaments.swiss_pairing import (
    SwissPlayer,
    pair_dutch,
    pair_tables,
    table_sizes,
)


def test_arena_streaks_berserk_and_quick_draws() -> None:
    games = [
        ArenaGame(WIN),
        ArenaGame(WIN),
        ArenaGame(WIN),  # 2, 2, then on fire: 4
        ArenaGame(DRAW),  # on fire: 2, fire out
        ArenaGame(WIN, berserk=True),  # 2 + 1
        ArenaGame(WIN, moves=3, berserk=True),  # quick finish: 2, no bonus
        ArenaGame(WIN, berserk=True),  # on fire: 4 + 1
        ArenaGame(DRAW, moves=4),  # quick draw: 0
        ArenaGame(LOSS),
    ]
    score = arena_score(games)
    assert score.sheet == (2, 2, 4, 2, 3, 2, 5, 0, 0)
    assert score.points == 20 and not score.on_fire
    assert arena_score([ArenaGame(WIN), ArenaGame(WIN)]).on_fire


def test_arena_tables_of_three_and_four_score_twice_the_place_points() -> None:
    games = [
        ArenaGame(WIN, share=F(3, 4)),  # level at the top of three: 3/2
        ArenaGame(WIN, share=F(1)),  # alone at the top: 2
        ArenaGame(WIN, share=F(2, 3), berserk=True),  # on fire, level at the top of four:
        # 2 × 2/3 × 2 + 1 = 11/3
        ArenaGame(LOSS, share=F(1, 3)),  # still on fire: 2 × 1/3 × 2 = 4/3, then fire out
    ]
    score = arena_score(games)
    assert score.sheet == (F(3, 2), 2, F(11, 3), F(4, 3))
    assert score.points == F(17, 2) and not score.on_fire


def test_points_by_place_count_a_game_as_one_whatever_the_table() -> None:
    assert [place_points([1, -1], s) for s in (0, 1)] == [1, 0]
    assert [place_points([0, 0], s) for s in (0, 1)] == [F(1, 2), F(1, 2)]
    assert [place_points([3, 2, 1], s) for s in range(3)] == [1, F(1, 2), 0]
    assert [place_points([9, 5, 5, 1], s) for s in range(4)] == [1, F(1, 2), F(1, 2), 0]
    assert [place_points([4, 3, 2, 1], s) for s in range(4)] == [1, F(2, 3), F(1, 3), 0]


def test_swiss_standings_with_sonneborn_berger_and_buchholz_by_hand() -> None:
    a, b, c, d = (Entrant(i, n, 1500) for i, n in enumerate("abcd", 1))
    games = [
        Played((1, 2), (1, -1)),
        Played((3, 4), (0, 0)),  # round 1: a>b, c=d
        Played((1, 3), (0, 0)),
        Played((2, 4), (1, -1)),
    ]  # round 2: a=c, b>d
    # points: a 1.5, b 1, c 1, d 0.5
    # SB: a = 1·b(1) + ½·c(1) = 1.5; b = 1·d(.5) = .5; c = ½·d(.5) + ½·a(1.5) = 1; d = ½·c = .5
    # Buchholz: a = 1 + 1 = 2; b = 1.5 + .5 = 2; c = .5 + 1.5 = 2; d = 1 + 1 = 2
    table = standings("swiss", [a, b, c, d], games)
    got = [
        (s.rank, s.player.name, s.points, s.tiebreaks["sonneborn_berger"], s.tiebreaks["buchholz"])
        for s in table
    ]
    assert got == [
        (1, "a", F(3, 2), F(3, 2), 2),
        (2, "c", 1, 1, 2),
        (3, "b", 1, F(1, 2), 2),
        (4, "d", F(1, 2), F(1, 2), 2),
    ]


def test_a_bye_is_a_point_and_level_players_share_a_rank() -> None:
    a, b, c = (Entrant(i, n, 1500) for i, n in enumerate("abc", 1))
    table = standings("swiss", [a, b, c], [Played((1, 2), (0, 0))], byes=[3])
    assert [(s.rank, s.player.name, s.points) for s in table] == [
        (1, "c", 1),
        (2, "a", F(1, 2)),
        (2, "b", F(1, 2)),
    ]


def test_arena_standings_by_points_then_performance() -> None:
    a, b, c = Entrant(1, "a", 1600), Entrant(2, "b", 1500), Entrant(3, "c", 1400)
    games = [Played((1, 2), (1, -1)), Played((2, 3), (1, -1)), Played((3, 1), (1, -1))]
    # each 2 points; performance a: (1500+500 + 1400-500)/2 = 1450; b: (1600-500+1400+500)/2
    # = 1500; c: (1500-500 + 1600+500)/2 = 1550
    table = standings("arena", [a, b, c], games)
    assert [(s.player.name, s.points, s.tiebreaks["performance"]) for s in table] == [
        ("c", 2, 1550),
        ("b", 2, 1500),
        ("a", 2, 1450),
    ]


def test_arena_pairs_by_rank_and_never_the_last_opponent_while_another_waits() -> None:
    w = [
        Waiting(1, 1, 1500, last_opponent=2),
        Waiting(2, 2, 1500, last_opponent=1),
        Waiting(3, 3, 1500),
        Waiting(4, 4, 1500),
    ]
    assert pair_arena(w) == [(1, 3), (2, 4)]
    alone = [Waiting(1, 1, 1500, last_opponent=2), Waiting(2, 2, 1500, last_opponent=1)]
    assert pair_arena(alone) == [(1, 2)]
    assert pair_cost(alone[0], alone[1], 2) == 1 * (300 + 1700 * 1 // 2) + REPEAT_COST
    # the leaders meet each other; the rest by rating
    w = [Waiting(1, 1, 2000), Waiting(2, 2, 1200), Waiting(3, 3, 1900), Waiting(4, 4, 1300)]
    assert pair_arena(w) == [(1, 2), (3, 4)]
    assert len(pair_arena([Waiting(i, i, 1500) for i in range(1, 8)])) == 3


def _swiss(n: int) -> list[SwissPlayer]:
    return [SwissPlayer(i, F(0), 2000 - 10 * i, i) for i in range(1, n + 1)]


def test_dutch_round_one_splits_the_field_and_gives_the_bye_to_the_last() -> None:
    paired = pair_dutch(_swiss(7), 1, 3)
    # FIDE Dutch: S1 = 1..3 against S2 = 4..6, player 7 (lowest) gets the bye
    assert sorted(tuple(sorted(t)) for t in paired.tables) == [(1, 4), (2, 5), (3, 6)]
    assert paired.byes == [7]


def test_byes_never_twice_while_another_can_take_it() -> None:
    players = _swiss(7)
    had = Counter[int]()
    for r in range(1, 8):
        paired = pair_dutch(players, r, 7)
        for b in paired.byes:
            had[b] += 1
        met = {p: set() for p in range(1, 8)}
        for x, y in paired.tables:
            met[x].add(y)
            met[y].add(x)
        players = [
            SwissPlayer(
                p.id,
                p.score + (1 if p.id in paired.byes else 0),
                p.rating,
                p.start,
                p.colours,
                (*p.floats, "none"),
                p.byes + had[p.id] - p.byes,
                p.opponents | met[p.id],
            )
            for p in players
        ]
    assert sorted(had.values()) == [1] * 7


def test_tables_of_three_and_four_by_standing() -> None:
    assert table_sizes(7, 4) == [4, 3] and table_sizes(6, 4) == [3, 3]
    assert table_sizes(8, 4) == [4, 4] and table_sizes(5, 4) is None
    assert table_sizes(7, 3) is None and table_sizes(9, 3) == [3, 3, 3]
    players = [SwissPlayer(i, F(7 - i), 1500, i) for i in range(1, 8)]
    assert pair_tables(players, 4).tables == [(1, 2, 3, 4), (5, 6, 7)]
    five = pair_tables(
        [SwissPlayer(i, F(5 - i), 1500, i, byes=int(i == 5)) for i in range(1, 6)], 4
    )
    assert five.byes == [4] and five.tables == [(1, 2, 3, 5)]
    # repeats avoided between neighbouring tables: 1-2 and 3-4 met; 5-8 met
    met = {1: {2}, 2: {1}, 3: {4}, 4: {3}}
    players = [
        SwissPlayer(i, F(0), 2000 - i, i, opponents=frozenset(met.get(i, ()))) for i in range(1, 7)
    ]
    tables = pair_tables(players, 3).tables
    assert all(
        not any(b in met.get(a, ()) for a, b in itertools.combinations(t, 2)) for t in tables
    )


def test_round_robin_divisions_and_everyone_meets_everyone() -> None:
    assert [len(d) for d in divisions(list(range(23)))] == [8, 8, 7]
    assert divisions(list(range(10))) == [list(range(10))]
    rounds = berger_rounds([1, 2, 3, 4, 5])
    pairs = [frozenset(g) for r in rounds for g in r]
    assert len(rounds) == 5 and len(pairs) == 10 == len(set(pairs))
    assert all(len({p for g in r for p in g}) == 2 * len(r) for r in rounds)
    firsts = Counter(g[0] for r in rounds for g in r)
    assert max(firsts.values()) - min(firsts.values()) <= 2
    for n, seats in ((4, 3), (7, 3), (10, 4), (6, 4)):
        tables = covering_tables(list(range(n)), seats)
        met = {frozenset(p) for t in tables for p in itertools.combinations(t, 2)}
        assert len(met) == n * (n - 1) // 2, (n, seats)
        assert all(len(t) == seats for t in tables)
    assert covering_tables([1, 2, 3, 4], 4) == [(1, 2, 3, 4)]
    plan = schedule([1, 2, 3, 4], 2)
    assert len(plan) == 3 and all(len(r) == 2 for r in plan)


def test_a_large_swiss_pairs_by_score_groups_without_rematches() -> None:
    from gamehall.server.tournaments.swiss_pairing import DUTCH_MAX, pair_swiss

    n = DUTCH_MAX * 2 + 1  # past the Dutch engine's size: the matching, and a bye
    players = [SwissPlayer(i, F(i % 3, 2), 2000 - i, i, byes=int(i == n)) for i in range(1, n + 1)]
    first = pair_swiss(players, 2, 5)
    assert len(first.tables) == DUTCH_MAX and len(first.byes) == 1 and first.byes != [n]
    met = {p: set() for p in range(1, n + 1)}
    for a, b in first.tables:
        met[a].add(b)
        met[b].add(a)
        assert abs(players[a - 1].score - players[b - 1].score) <= F(1, 2)
    again = [
        SwissPlayer(p.id, p.score, p.rating, p.start, opponents=frozenset(met[p.id]))
        for p in players
    ]
    second = pair_swiss(again, 3, 5)
    assert not any(b in met[a] for a, b in second.tables)
