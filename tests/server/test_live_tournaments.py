"""Tournaments end to end through a real `gamehall serve` whose clock the test sets: an arena of
8, a Swiss of 7 with a bye, a correspondence round robin of 4 and a Hau La Swiss with tables of
three and four. Each game is decided by the test (the higher-numbered player resigns, or a
drawn game is played out), and the standings and tiebreaks are checked against numbers worked
out by hand from the pairings, written out below."""

from __future__ import annotations

import itertools
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.server.live import TimedServer, running
from tests.server.tournament_play import (
    START,
    STARTS_AT,
    account,
    create,
    draw_line,
    games,
    join,
    read,
    resign,
    round_games,
    wait_for,
)


@pytest.fixture
def hall(tmp_path: Path) -> Iterator[TimedServer]:
    with running(
        TimedServer(tmp_path, "--tournament-tick", "0.1", "--tournament-no-show-seconds", "60")
    ) as server:
        yield server


def number(name: str) -> int:
    return int(name[1:])


def play(
    server: TimedServer,
    tokens: dict[str, str],
    found: list[dict[str, Any]],
    draws: frozenset[frozenset[str]] = frozenset(),
) -> list[tuple[str, ...]]:
    """End each game: a pair in `draws` plays testline's draw, else the highest-numbered
    player resigns. The tables played (players by seat), byes as 1-tuples."""
    for g in found:
        if g["bye"]:
            continue
        if frozenset(g["players"]) in draws:
            draw_line(server, g["room"], (tokens[g["players"][0]], tokens[g["players"][1]]))
        else:
            resign(server, tokens[max(g["players"], key=number)], g["room"])
    return [tuple(g["players"]) for g in found]


def table(t: dict[str, Any], *keys: str) -> list[tuple[Any, ...]]:
    return [
        (s["rank"], s["player"], s["points"], *(s["tiebreaks"][k] for k in keys))
        for s in t["standings"]
    ]


def players(server: TimedServer, tid: str, prefix: str, n: int) -> dict[str, str]:
    tokens = {f"{prefix}{i}": account(server, f"{prefix}{i}") for i in range(1, n + 1)}
    for token in tokens.values():
        join(server, tid, token)
    return tokens


def finished(server: TimedServer, tid: str) -> dict[str, Any]:
    return dict(
        wait_for(lambda: (t := read(server, tid))["status"] == "finished" and t, f"{tid} finished")
    )


def test_a_swiss_of_seven_pairs_by_the_dutch_system_with_one_bye_each(hall: TimedServer) -> None:
    boss = account(hall, "boss")
    tid = create(
        hall,
        boss,
        name="Swiss 7",
        game="testline",
        clock="5+3",
        system="swiss",
        rounds=3,
        starts_at=STARTS_AT,
    )
    tokens = players(hall, tid, "s", 7)
    assert read(hall, tid)["status"] == "created"
    hall.at(START)  # starts on time
    draw = frozenset({frozenset({"s1", "s2"})})
    rounds = [play(hall, tokens, round_games(hall, tid, r), draw) for r in (1, 2, 3)]
    # FIDE Dutch: round 1 top half against bottom half, the lowest (s7) has the bye; round 2
    # s1 and s7 swap for colours (s1 and s3 both had the first seat); byes to the lowest of
    # the lowest score group, never twice
    assert rounds == [
        [("s7",), ("s1", "s4"), ("s5", "s2"), ("s3", "s6")],
        [("s6",), ("s7", "s1"), ("s2", "s3"), ("s4", "s5")],
        [("s5",), ("s1", "s2"), ("s3", "s7"), ("s6", "s4")],
    ]
    t = finished(hall, tid)
    # by hand: s1 beat s4 and s7, drew s2: 2.5; s2 beat s5 and s3, drew s1: 2.5;
    # s3 beat s6 and s7: 2; s4 beat s5 and s6: 2; s5, s6, s7 a bye each: 1.
    # Sonneborn-Berger s1 = s4 (2) + s7 (1) + ½ s2 (2.5) = 4.25, s2 = s5 (1) + s3 (2) + ½ s1
    # = 4.25, s3 = s6 + s7 = 2, s4 = s5 + s6 = 2, the rest beat nobody: 0.
    # Buchholz (a bye adds nothing): s1 = 2 + 1 + 2.5 = 5.5, s2 = 1 + 2 + 2.5 = 5.5,
    # s3 = 1 + 2.5 + 1 = 4.5, s4 = 2.5 + 1 + 1 = 4.5, s5 = 2.5 + 2 = 4.5, s6 = 2 + 2 = 4,
    # s7 = 2.5 + 2 = 4.5
    assert table(t, "sonneborn_berger", "buchholz") == [
        (1, "s1", 2.5, 4.25, 5.5),
        (1, "s2", 2.5, 4.25, 5.5),
        (3, "s3", 2, 2, 4.5),
        (3, "s4", 2, 2, 4.5),
        (5, "s5", 1, 0, 4.5),
        (5, "s7", 1, 0, 4.5),
        (7, "s6", 1, 0, 4),
    ]
    assert [k["key"] for k in t["tiebreak_order"]] == ["sonneborn_berger", "buchholz"]
    assert all(k["name"] and k["explain"] for k in t["tiebreak_order"])
    assert t["winner"] == "s1"
    profile = httpx.get(f"{hall.http}/api/players/s6").json()
    assert [(x["id"], x["place"]) for x in profile["tournaments"]] == [(tid, 7)]


def started_arena(
    server: TimedServer, name: str, prefix: str, n: int, **terms: Any
) -> tuple[str, dict[str, str]]:
    """A 30-minute arena (testline 5+3 unless `terms` say otherwise) with `n` players named
    `prefix`1…, begun: its id and the players' tokens."""
    boss = account(server, "boss")
    body = {"game": "testline", "clock": "5+3", **terms}
    tid = create(server, boss, name=name, system="arena", minutes=30, starts_at=STARTS_AT, **body)
    tokens = players(server, tid, prefix, n)
    server.at(START)
    return tid, tokens


def test_an_arena_of_eight_scores_streaks_and_quick_draws(hall: TimedServer) -> None:
    tid, tokens = started_arena(hall, "Arena 8", "a", 8)
    quick_draw = frozenset({frozenset({"a7", "a8"})})
    waves = [play(hall, tokens, round_games(hall, tid, w), quick_draw) for w in (1, 2, 3)]
    # everyone waits once a wave is over, so each wave pairs at once: by rank (the leaders
    # meet), never the last opponent again
    assert waves == [
        [("a1", "a8"), ("a2", "a7"), ("a3", "a6"), ("a4", "a5")],
        [("a1", "a4"), ("a2", "a3"), ("a5", "a8"), ("a6", "a7")],
        [("a1", "a2"), ("a3", "a6"), ("a4", "a5"), ("a7", "a8")],
    ]
    # wave 4 is paired at once, the clock standing still (the director pairs after the last
    # game's end wakes it, so the tables are waited for, not read the moment wave 3 ends)
    fourth = round_games(hall, tid, 4)
    now = read(hall, tid)
    assert now["status"] == "running" and now["waiting"] == []
    (game,) = [g for g in fourth if "a1" in g["players"]]
    rival = next(p for p in game["players"] if p != "a1")
    resign(hall, tokens[rival], game["room"])  # a1 wins a fourth game in a row, on fire
    queue = wait_for(lambda: (x := read(hall, tid))["waiting"] and x, "a1 and its rival waiting")
    # the others still play: the two wait 48 s (clamp(5 min + 40 × 3 s) / 10 + 6, 15, 50))
    assert sorted(queue["waiting"]) == sorted(game["players"])
    assert queue["next_pairing"] == "1970-01-01T00:20:48.000Z"
    hall.at(START + 30 * 60)
    t = finished(hall, tid)
    # by hand: a1 won 4 (2, 2, then on fire 4 and 4) = 12 (wave 4: a3 resigned to a1; the
    # other wave-4 games were still on at the end and do not count); a2 and a4 won, won,
    # lost: 4; a3 won, lost, won, lost: 4; a5 and a6 lost, won, lost: 2; a7 and a8 lost
    # twice and drew in 9 moves (a quick draw): 0. Performance (all rated 1500): ±500 a win
    # or loss, averaged: a1 2000; a2, a4 (2000 + 2000 + 1000) / 3 = 1667; a3 1500; a5, a6
    # 1333; a7, a8 (1000 + 1000 + 1500) / 3 = 1167
    assert table(t, "performance") == [
        (1, "a1", 12, 2000),
        (2, "a2", 4, 1667),
        (2, "a4", 4, 1667),
        (4, "a3", 4, 1500),
        (5, "a5", 2, 1333),
        (5, "a6", 2, 1333),
        (7, "a7", 0, 1167),
        (7, "a8", 0, 1167),
    ]


def test_a_correspondence_round_robin_of_four_plays_every_game_at_once(hall: TimedServer) -> None:
    boss = account(hall, "boss")
    tid = create(
        hall,
        boss,
        name="RR 4",
        game="testline",
        clock="2d",
        system="round_robin",
        starts_at=STARTS_AT,
    )
    tokens = players(hall, tid, "r", 4)
    hall.at(START)
    everything = wait_for(
        lambda: len(g := [x for x in games(hall, tid) if x["status"] == "playing"]) == 6 and g,
        "all six games",
    )
    assert sorted(tuple(sorted(g["players"])) for g in everything) == [
        ("r1", "r2"),
        ("r1", "r3"),
        ("r1", "r4"),
        ("r2", "r3"),
        ("r2", "r4"),
        ("r3", "r4"),
    ]
    draw = frozenset({frozenset({"r2", "r3"})})
    for r in (1, 2, 3):
        play(hall, tokens, round_games(hall, tid, r), draw)
    t = finished(hall, tid)
    # by hand: r1 beat everyone: 3; r2 and r3 drew and beat r4: 1.5; r4 0.
    # Sonneborn-Berger r1 = 0 + 1.5 + 1.5 = 3; r2 = ½ r3 (1.5) + r4 (0) = 0.75, r3 alike
    assert table(t, "sonneborn_berger", "wins") == [
        (1, "r1", 3, 3, 3),
        (2, "r2", 1.5, 0.75, 1),
        (2, "r3", 1.5, 0.75, 1),
        (4, "r4", 0, 0, 0),
    ]


def test_a_hau_la_swiss_seats_tables_of_four_and_three_by_standing(hall: TimedServer) -> None:
    boss = account(hall, "boss")
    tid = create(
        hall,
        boss,
        name="Hau La",
        game="hau_la",
        clock="10+5",
        system="swiss",
        seats=4,
        rounds=2,
        starts_at=STARTS_AT,
    )
    tokens = players(hall, tid, "h", 7)
    hall.at(START)
    rounds = [play(hall, tokens, round_games(hall, tid, r)) for r in (1, 2)]
    # round 2 by standing: h5, h6 (¾) and h1, h2 (⅔) at the first table, h3 (⅔), h4, h7 (0) at
    # the second; who sat first least often sits first
    assert rounds == [
        [("h1", "h2", "h3", "h4"), ("h5", "h6", "h7")],
        [("h2", "h6", "h1", "h5"), ("h3", "h4", "h7")],
    ]
    t = finished(hall, tid)
    # by hand, the last seat of each table resigned (the others level): at a table of 4 the
    # others score ⅔ (one beaten, two level: (1 + ½ + ½) / 3), of 3 they score ¾.
    # h1, h2 ⅔ + ⅔ = 4/3; h3, h5 ⅔ + ¾ = 17/12; h4, h6 ¾; h7 0.
    # Sonneborn-Berger, each opponent's points × the score against them / (n − 1):
    # h3 = ½·(4/3)/3 ×2 + (¾)/3 + ½·(¾)/2 = 127/144; h5 the same; h1 = 2/9 + 17/72 + 1/4 +
    # 2/9 + 1/4 + 17/72 = 17/12; h4 = ½·(17/12)/2 = 17/48, h6 alike.
    # Buchholz, opponents' points / (n − 1): h3 = (4/3 + 4/3 + ¾)/3 + (¾ + 0)/2 = 109/72;
    # h1 = 7/6 + 7/6 = 7/3; h4 = 49/36 + 17/24 = 149/72; h7 = 13/12 + 13/12 = 13/6
    want = [
        (1, "h3", 17 / 12, 127 / 144, 109 / 72),
        (1, "h5", 17 / 12, 127 / 144, 109 / 72),
        (3, "h1", 4 / 3, 17 / 12, 7 / 3),
        (3, "h2", 4 / 3, 17 / 12, 7 / 3),
        (5, "h4", 3 / 4, 17 / 48, 149 / 72),
        (5, "h6", 3 / 4, 17 / 48, 149 / 72),
        (7, "h7", 0, 0, 13 / 6),
    ]
    got = table(t, "sonneborn_berger", "buchholz")
    assert [g[:2] for g in got] == [w[:2] for w in want]
    assert [g[2:] for g in got] == [pytest.approx(w[2:], abs=1e-3) for w in want]


def test_a_live_round_robin_of_tables_of_three_meets_everyone_round_by_round(
    hall: TimedServer,
) -> None:
    boss = account(hall, "boss")
    tid = create(
        hall,
        boss,
        name="Trio",
        game="testtrio",
        clock="5+3",
        system="round_robin",
        seats=3,
        starts_at=STARTS_AT,
    )
    tokens = players(hall, tid, "t", 4)
    hall.at(START)
    first = round_games(hall, tid, 1)
    later = [g for g in games(hall, tid) if g["round"] > 1]
    assert later and all(g["status"] == "later" for g in later)  # live: round by round
    rounds = [play(hall, tokens, first)] + [
        play(hall, tokens, round_games(hall, tid, r)) for r in (2, 3)
    ]
    assert rounds == [[("t1", "t2", "t3")], [("t1", "t2", "t4")], [("t1", "t3", "t4")]]
    t = finished(hall, tid)
    # by hand, the last seat resigned at each table (the other two level: ¾ each, one beaten
    # and one level of two): t1 ¾ × 3 = 2.25, t2 1.5, t3 0.75, t4 0. Sonneborn-Berger, each
    # opponent's points × the score against them / 2: t1 = ½·1.5/2 + 0.75/2 + ½·1.5/2 + 0 +
    # ½·0.75/2 + 0 = 1.3125; t2 = ½·2.25/2 + 0.75/2 + ½·2.25/2 = 1.5; t3 = ½·2.25/2 = 0.5625.
    # Wins (first at the table, alone or shared): t1 3, t2 2, t3 1
    want = [
        (1, "t1", 2.25, 1.3125, 3),
        (2, "t2", 1.5, 1.5, 2),
        (3, "t3", 0.75, 0.5625, 1),
        (4, "t4", 0, 0, 0),
    ]
    got = table(t, "sonneborn_berger", "wins")
    assert [g[:2] for g in got] == [w[:2] for w in want]
    assert [g[2:] for g in got] == [pytest.approx(w[2:], abs=1e-3) for w in want]
    met = {frozenset(p) for r in rounds for g in r for p in itertools.combinations(g, 2)}
    assert len(met) == 6  # every pair of the four met


def test_an_arena_berserk_halves_one_clock_and_wins_a_bonus_point(hall: TimedServer) -> None:
    tid, tokens = started_arena(hall, "Berserk", "k", 2)
    (game,) = round_games(hall, tid, 1)
    room = game["room"]
    first, second = (tokens[p] for p in game["players"])

    r = hall.act(first, room, "berserk")
    assert r.status_code == 200, r.text
    # both players see it in the state: the berserk seat's time halved, the other's untouched
    for token in (first, second):
        clock = hall.act(token, room, "sync").json()["state"]["clock"]
        assert clock["berserk"] == [0]
        assert clock["remaining_ms"] == [150_000, 300_000]
    again = hall.act(first, room, "berserk")
    assert (again.status_code, again.json()["code"]) == (409, "berserk_already")

    # X wins column a on the seventh move: a1 b2 c3 c1 a3 b1 a2
    line = ["a1", "b2", "c3", "c1", "a3", "b1", "a2"]
    for i, move in enumerate(line):
        r = hall.act(first if i % 2 == 0 else second, room, "move", move=move, version=i)
        assert r.status_code == 200, r.text
        if i == 1:  # the second player has moved: too late for them
            late = hall.act(second, room, "berserk")
            assert (late.status_code, late.json()["code"]) == (409, "berserk_too_late")
            # no time passed; the berserk seat got no increment, the other its 3 s
            clock = r.json()["state"]["clock"]
            assert clock["remaining_ms"] == [150_000, 303_000]
    assert r.json()["state"]["status"] == "finished"

    hall.at(START + 30 * 60)
    t = finished(hall, tid)
    # by hand: the berserk winner 2 + 1 bonus (a win after 7 moves) = 3, the other 0 (the
    # rematch they were paired into at once was still on at the end: it does not count);
    # performance 1500 ± 500
    assert table(t, "performance") == [
        (1, game["players"][0], 3, 2000),
        (2, game["players"][1], 0, 1000),
    ]


def test_berserk_is_refused_outside_an_arena(hall: TimedServer) -> None:
    ann, bea = hall.session("ann"), hall.session("bea")
    room = hall.create_room(ann, "testline", clock="5+3")
    for token in (ann, bea):
        assert hall.act(token, room, "join").status_code == 200
    assert hall.act(ann, room, "start").status_code == 200
    r = hall.act(ann, room, "berserk")
    assert (r.status_code, r.json()["code"]) == (409, "no_berserk")
    clock = hall.act(bea, room, "sync").json()["state"]["clock"]
    assert "berserk" not in clock and clock["remaining_ms"] == [300_000, 300_000]


def test_a_hau_la_arena_seats_tables_of_three_by_rank_with_points_by_place(
    hall: TimedServer,
) -> None:
    tid, tokens = started_arena(hall, "Hau La arena", "r", 6, game="hau_la", clock="10+5", seats=3)
    waves = [play(hall, tokens, round_games(hall, tid, w)) for w in (1, 2)]
    # wave 1: everyone level, by joining order; wave 2 by rank (r1, r2, r4, r5 ahead after
    # wave 1), the one who sat first least often sits first
    assert waves == [
        [("r1", "r2", "r3"), ("r4", "r5", "r6")],
        [("r2", "r1", "r4"), ("r5", "r3", "r6")],
    ]
    hall.at(START + 30 * 60)
    t = finished(hall, tid)
    # by hand: the last of each table resigned, the other two level at the top: points by
    # place ¾ (one beaten, one level: (1 + ½) / 2), doubled as an arena's win = 3/2 a game.
    # r1, r2, r5 won twice: 3; r3, r4 once: 3/2; r6 never: 0 (wave 3 was still on at the end)
    points = {s["player"]: s["points"] for s in t["standings"]}
    assert points == pytest.approx({"r1": 3, "r2": 3, "r5": 3, "r3": 1.5, "r4": 1.5, "r6": 0})
    assert [s["player"] for s in t["standings"]][-1] == "r6"


def test_raced_berserks_halve_a_clock_once(hall: TimedServer) -> None:
    """Eight berserks of one seat sent at once (a double tap, a script retrying): one is
    applied, the others are told `berserk_already`, and the clock is halved once, not twice."""
    tid, tokens = started_arena(hall, "Berserk race", "z", 2)
    (game,) = round_games(hall, tid, 1)
    room = game["room"]
    first = tokens[game["players"][0]]
    with ThreadPoolExecutor(8) as pool:
        answers = list(pool.map(lambda _: hall.act(first, room, "berserk"), range(8)))
    codes = sorted(
        "ok" if a.status_code == 200 else f"{a.status_code} {a.json()['code']}" for a in answers
    )
    assert codes == ["409 berserk_already"] * 7 + ["ok"]
    clock = hall.act(first, room, "sync").json()["state"]["clock"]
    assert (clock["berserk"], clock["remaining_ms"]) == ([0], [150_000, 300_000])
