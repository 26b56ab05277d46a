"""Hau La: time a full enumeration of one player's choices, touch checks included.

    python -m benchmarks.hau_la_placements [--pieces 26] [--repeat 20] [--seed 3]
    python -m benchmarks.hau_la_placements --games 4 [--repeat 10] [--seed 1]

Builds a late-game building by adding random touch-free pieces to the starting building (the
box holds only 22 pieces, so a building this big cannot arise in a real game: it is a stress
case), puts four tags on it, and times:
- a normal turn: the mover's tag is on the board, all four piece kinds in hand;
- a free placement (first turn, or a penalty hand-over of a big joint): any two free holes.
Each enumeration is computed from scratch (the engine's cache is bypassed).

With `--games N`: the normal turns (from the mover's tags on the board) of N seeded random
two-player games (seeds seed … seed+N-1), each timed from scratch; prints the median and the
slowest position's median CPU time.

"From scratch" means cold: the joint-shape cache (`shapes.SHAPES`) is emptied before every timed
call, outside the timer, so each enumeration fits and samples every joint candidate itself.

With `--search MOVES`: a seeded two-player game played by `--bot` (default `mcts:200`) for
MOVES of its decisions; every enumeration the search makes is timed where it happens (CPU),
with the shape cache as the engine uses it (`--no-cache`: without it), by position class.
"""

from __future__ import annotations

import argparse
import math
import random
import statistics
import time
from collections.abc import Callable

import numpy as np

from gamehall.core import State
from gamehall.games.hau_la import shapes
from gamehall.games.hau_la.building import Building, Plan
from gamehall.games.hau_la.data import model
from gamehall.games.hau_la.placements import (
    FIRST,
    KIND,
    ROT,
    SECOND,
    SIDES,
    Ask,
    Placements,
    Tags,
    enumerate_placements,
)
from tools.hau_la_audit import contacts


def free_holes(b: Building, tag_holes: set[int]) -> tuple[int, ...]:
    return tuple(int(h) for h in np.flatnonzero(b.plug < 0) if int(h) not in tag_holes)


def late_building(pieces: int, seed: int) -> Building:
    """Grow the start building with random touch-free, tag-less placements (any kind)."""
    rng = random.Random(seed)
    b = Building.start(model())
    kinds = tuple(range(len(b.model.kinds)))
    while len(b.pieces) < pieces:
        free = free_holes(b, set())
        found = enumerate_placements(b, Tags.of(b, []), Ask(kinds, free, free, tag=False))
        ok = np.flatnonzero(~found.touch)
        row = found.rows[ok[rng.randrange(len(ok))]]
        kind = int(row[KIND])
        if b.model.kinds[kind].is_joint:
            plan = Plan(kind, (int(row[FIRST]), int(row[SECOND])),
                        (int(row[SIDES]) // 2, int(row[SIDES]) % 2))
        else:
            plan = Plan(kind, (int(row[FIRST]),), (int(row[SIDES]),), int(row[ROT]))
        b = b.add(plan, placer=len(b.pieces) % 4, bonus=False)
    return b


def timed(fn: object, repeat: int) -> tuple[list[float], list[float]]:
    """Wall-clock and CPU milliseconds per cold call (CPU time is steadier on a shared machine);
    the shape cache is emptied before each call, outside the timing."""
    wall, cpu = [], []
    for _ in range(repeat):
        shapes.SHAPES.clear()
        start, start_cpu = time.perf_counter(), time.process_time()
        fn()  # type: ignore[operator]
        wall.append((time.perf_counter() - start) * 1000)
        cpu.append((time.process_time() - start_cpu) * 1000)
    return wall, cpu


def play(state: State, rng: random.Random, choose: Callable[[State], int],
         decisions: float = math.inf) -> int:
    """Play `state` on in place (chance by its odds from `rng`, seats by `choose`) to the end or
    for `decisions` of `choose`; return how many it made."""
    made = 0
    while not state.is_terminal() and made < decisions:
        if state.is_chance_node():
            actions, probs = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(rng.choices(actions, probs)[0])
        else:
            state.apply_action(choose(state))
            made += 1
    return made


def uniform(rng: random.Random) -> Callable[[State], int]:
    """A seat that picks uniformly among the legal actions."""
    return lambda state: rng.choice(state.legal_actions())


def game_turns(games: int, seed: int) -> list[tuple[Building, Tags, Ask]]:
    """The normal-turn enumerations (building, tags, ask) met in seeded random games."""
    import gamehall
    from gamehall.games.hau_la import turns

    seen: list[tuple[Building, Tags, Ask]] = []
    plain = turns.placements_for

    def spy(b: Building, spots: list[tuple[int, int]], ask: Ask) -> Placements:
        if ask.tag and ask.firsts != ask.seconds:  # a normal turn: from the mover's tag holes
            seen.append((b, Tags.of(b, spots), ask))
        return plain(b, spots, ask)

    turns.placements_for = spy
    try:
        for g in range(games):
            rng = random.Random(seed + g)
            state = gamehall.load_game("hau_la").new_initial_state(seed=seed + g)
            play(state, rng, uniform(rng))
    finally:
        turns.placements_for = plain
    unique = {(id(b), tuple(t.holes), a): (b, t, a) for b, t, a in seen}
    return list(unique.values())


def positions(args: argparse.Namespace) -> None:
    cases = game_turns(args.games, args.seed)
    medians = []
    for b, tags, ask in cases:
        _, cpu = timed(lambda b=b, t=tags, a=ask: enumerate_placements(b, t, a), args.repeat)
        medians.append(statistics.median(cpu))
    sizes = [len(enumerate_placements(b, t, a)) for b, t, a in cases]
    print(f"{len(cases)} normal turns from {args.games} random games (seeds {args.seed}–"
          f"{args.seed + args.games - 1}), {min(sizes)}–{max(sizes)} placements each: CPU "
          f"median {statistics.median(medians):.2f} ms, mean {statistics.mean(medians):.2f} ms, "
          f"slowest position {max(medians):.2f} ms")


def position_class(ask: Ask) -> str:
    """normal turn (from the mover's tags on the board), free (any two free holes: a first turn,
    a hand-over), or bonus (a big joint with one plug on the board)."""
    if ask.bonus:
        return "bonus"
    return "free" if ask.firsts == ask.seconds else "normal turn"


def search(args: argparse.Namespace) -> None:
    """Time every enumeration a bot's search makes, where it makes it."""
    import gamehall
    from gamehall.ai import make_bot
    from gamehall.games.hau_la import turns

    times: dict[str, list[float]] = {}
    plain = turns.enumerate_placements
    cache = None if args.no_cache else shapes.SHAPES

    def spy(b: Building, tags: Tags, ask: Ask) -> Placements:
        start = time.process_time()
        found = plain(b, tags, ask, cache)
        times.setdefault(position_class(ask), []).append((time.process_time() - start) * 1000)
        return found

    shapes.SHAPES.clear()
    turns.enumerate_placements = spy  # type: ignore[assignment]
    rng = random.Random(args.seed)
    state = gamehall.load_game("hau_la").new_initial_state(seed=args.seed)
    bot = make_bot(args.bot, seed=args.seed)
    start = time.process_time()
    try:
        moves = play(state, rng, bot.choose, args.search)
    finally:
        turns.enumerate_placements = plain
    total = time.process_time() - start
    spent = sum(sum(v) for v in times.values()) / 1000
    hits, misses = shapes.SHAPES.hits, shapes.SHAPES.misses
    print(f"{args.bot}, seed {args.seed}, {moves} decisions, cache "
          f"{'off' if args.no_cache else 'on'}: {total:.1f} s CPU, {spent:.1f} s of it in "
          f"enumerations; joint candidates from the cache {hits}/{hits + misses}")
    for label, cpu in sorted(times.items()):
        print(f"  {label:<12} {len(cpu):>5} enumerations: CPU median {statistics.median(cpu):.2f}"
              f" ms, mean {statistics.mean(cpu):.2f} ms, slowest {max(cpu):.2f} ms")


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pieces", type=int, default=26)
    parser.add_argument("--repeat", type=int, default=20)
    parser.add_argument("--seed", type=int, default=3)
    parser.add_argument("--games", type=int, default=0,
                        help="time the normal turns of this many seeded random games instead")
    parser.add_argument("--search", type=int, default=0, metavar="MOVES",
                        help="time the enumerations of a bot's search for this many decisions")
    parser.add_argument("--bot", default="mcts:200")
    parser.add_argument("--no-cache", action="store_true",
                        help="with --search: enumerate without the shape cache")
    args = parser.parse_args(argv)
    if args.search:
        search(args)
        return
    if args.games:
        positions(args)
        return
    b = late_building(args.pieces, args.seed)
    free = free_holes(b, set())
    by_height = sorted(free, key=lambda h: -b.pos[h][2])
    spots = [(h, 0) for h in by_height[:4] if h >= b.n_board]
    tags = Tags.of(b, spots)
    mover = spots[0][0]
    rest = tuple(h for h in free if h not in {h for h, _ in spots})
    kinds = tuple(range(len(b.model.kinds)))
    turn = Ask(kinds, (mover,), tuple(sorted((*rest, mover))))
    hand_over = Ask((b.model.kind_index("BJ"),), rest, rest, tag=False)
    n_turn = enumerate_placements(b, tags, turn)
    n_free = enumerate_placements(b, tags, hand_over)
    print(f"building: {len(b.pieces)} pieces, {b.n_holes} holes ({len(free)} free), "
          f"top hole at z = {b.pos[by_height[0]][2]:.2f}, touches: {len(contacts(b, spots))}")
    for label, ask, found in (("normal turn (tag on board, 4 kinds)", turn, n_turn),
                              ("free big joint (hand-over)", hand_over, n_free)):
        wall, cpu = timed(lambda a=ask: enumerate_placements(b, tags, a), args.repeat)
        print(f"{label:<38} {len(found):>4} placements ({found.touch.mean():.0%} touch)  "
              f"wall median {statistics.median(wall):5.1f} ms, min {min(wall):5.1f} ms; "
              f"CPU median {statistics.median(cpu):5.1f} ms")


if __name__ == "__main__":
    main()
