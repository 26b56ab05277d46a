"""Tournament pairing at scale, in simulated time: ``python -m benchmarks.tournaments``.

An arena of 200 bot players over 60 simulated minutes (games of 3–9 minutes, results drawn from
the players' ratings, 8% draws), paired as the director pairs it: whoever waits, once someone
has waited `arena_wait` or everyone waits; and a Swiss of 500 over 9 rounds, one player
withdrawing after round 3 so that byes are due. Reported: the cost of one pairing (median, p99,
max), repeated pairs (an arena's rematch of the game just played; a Swiss's pair met twice), and
byes per player. The pairing code is the hall's (server/tournaments); no server runs.
"""

from __future__ import annotations

import argparse
import heapq
import random
import statistics
import time
from collections import Counter
from fractions import Fraction

from gamehall.server.tournaments.arena_pairing import Waiting, pair_arena
from gamehall.server.tournaments.director import arena_wait
from gamehall.server.tournaments.scoring import DRAW, LOSS, WIN, ArenaGame, arena_score
from gamehall.server.tournaments.swiss_pairing import BLACK, WHITE, SwissPlayer, pair_swiss


def _result(rng: random.Random, a: int, b: int) -> tuple[str, str]:
    """Outcomes for a and b by the Elo expectation, 8% draws."""
    if rng.random() < 0.08:
        return DRAW, DRAW
    win = rng.random() < 1 / (1 + 10 ** ((b - a) / 400))
    return (WIN, LOSS) if win else (LOSS, WIN)


def _ms(xs: list[float]) -> str:
    xs = sorted(xs)
    p99 = xs[min(len(xs) - 1, int(0.99 * len(xs)))]
    return (
        f"median {1000 * statistics.median(xs):.1f} ms, p99 {1000 * p99:.1f} ms, "
        f"max {1000 * xs[-1]:.1f} ms over {len(xs)} pairings"
    )


def arena(players: int, minutes: int, rng: random.Random) -> None:
    rating = {p: int(rng.gauss(1500, 300)) for p in range(players)}
    sheets: dict[int, list[ArenaGame]] = {p: [] for p in range(players)}
    last: dict[int, int] = {}
    waiting_since = {p: 0.0 for p in range(players)}
    ends: list[tuple[float, int, int]] = []
    costs: list[float] = []
    rematches = pairs = 0
    wait = arena_wait("5+3")
    now, end = 0.0, minutes * 60.0
    while now < end:
        if len(waiting_since) >= 2 and (
            len(waiting_since) == players or now - min(waiting_since.values()) >= wait
        ):
            points = {p: arena_score(sheets[p]).points for p in range(players)}
            order = sorted(range(players), key=lambda p: -points[p])
            rank = {p: i + 1 for i, p in enumerate(order)}
            pool = [Waiting(p, rank[p], rating[p], last.get(p)) for p in waiting_since]
            t = time.perf_counter()
            found = pair_arena(pool)
            costs.append(time.perf_counter() - t)
            for a, b in found:
                pairs += 1
                rematches += last.get(a) == b
                del waiting_since[a], waiting_since[b]
                heapq.heappush(ends, (now + rng.uniform(180, 540), a, b))
        now += 2.0  # the director looks every couple of seconds
        while ends and ends[0][0] <= now:
            at, a, b = heapq.heappop(ends)
            ra, rb = _result(rng, rating[a], rating[b])
            moves = rng.randint(6, 60)
            sheets[a].append(ArenaGame(ra, moves))
            sheets[b].append(ArenaGame(rb, moves))
            last[a], last[b] = b, a
            waiting_since[a] = waiting_since[b] = at
    games = [len(s) for s in sheets.values()]
    print(
        f"arena of {players}, {minutes} simulated minutes: {pairs} games paired, "
        f"games per player {min(games)}-{max(games)} (median {statistics.median(games)})"
    )
    print(f"  one pairing: {_ms(costs)}")
    print(f"  rematches of the game just played: {rematches}")


def swiss(players: int, rounds: int, rng: random.Random) -> None:
    rating = {p: int(rng.gauss(1500, 300)) for p in range(1, players + 1)}
    score = {p: Fraction(0) for p in rating}
    colours: dict[int, list[str | None]] = {p: [] for p in rating}
    met: dict[int, set[int]] = {p: set() for p in rating}
    byes: Counter[int] = Counter()
    active = sorted(rating, key=lambda p: -rating[p])
    costs: list[float] = []
    repeats = 0
    for r in range(1, rounds + 1):
        if r == 4:
            active = active[:-1]  # one withdraws: an odd field, a bye each round
        field = [
            SwissPlayer(
                p,
                score[p],
                rating[p],
                i,
                tuple(colours[p]),
                ("none",) * (r - 1),
                byes[p],
                frozenset(met[p]),
            )
            for i, p in enumerate(active, 1)
        ]
        t = time.perf_counter()
        paired = pair_swiss(field, r, rounds)
        costs.append(time.perf_counter() - t)
        for p in paired.byes:
            byes[p] += 1
            score[p] += 1
            colours[p].append(None)
        for a, b in paired.tables:
            repeats += b in met[a]
            met[a].add(b)
            met[b].add(a)
            colours[a].append(WHITE)
            colours[b].append(BLACK)
            ra, _ = _result(rng, rating[a], rating[b])
            score[a] += {WIN: 1, DRAW: Fraction(1, 2), LOSS: 0}[ra]
            score[b] += {WIN: 0, DRAW: Fraction(1, 2), LOSS: 1}[ra]
    per = Counter(byes.values())
    print(f"Swiss of {players}, {rounds} rounds (one withdrawing after round 3):")
    print(f"  one round's pairing: {_ms(costs)}")
    print(
        f"  pairs met twice: {repeats}; byes: {sum(byes.values())}, players with one bye "
        f"{per[1]}, with two or more {sum(n for k, n in per.items() if k > 1)}"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--arena-players", type=int, default=200)
    parser.add_argument("--minutes", type=int, default=60)
    parser.add_argument("--swiss-players", type=int, default=500)
    parser.add_argument("--rounds", type=int, default=9)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    arena(args.arena_players, args.minutes, random.Random(args.seed))
    swiss(args.swiss_players, args.rounds, random.Random(args.seed))


if __name__ == "__main__":
    main()
