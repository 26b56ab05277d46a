"""Make Hotu Matua's shipped default board, ``board.json`` (run once; kept so the board can be
re-made, and so a test can check the file is what it makes). Not part of the installed package:

    python -m tools.hotu_matua_board [--check]

The printed map of the 1991 game is not available, so this builds a reconstruction meeting the
rules file: an 11 x 5 rectangle of 55 skewed four-sided fields (most of them almost triangular),
lines numbered 1-4 about equally often with all four numbers around every field the start fields
allow, four start fields per player on their short edge (every line leaving one numbered 1 or 4),
five pearl fields in the middle band, and the whole board symmetric under a half turn.
Everything is drawn from a fixed seed, so running it again writes the same file.
With ``--check`` it only verifies that the shipped file is what the script makes.
"""

from __future__ import annotations

import argparse
import json
import math
import random
import sys
from importlib import resources
from pathlib import Path

from gamehall.games.hotu_matua.board import FORMAT, parse_board

ROWS, COLS = 11, 5
CELL_W, CELL_H = 100.0, 80.0
START_COLS = (0, 1, 3, 4)
"""North's start fields are these columns of row 0; south's are their half-turn images."""
PEARLS = ((4, 1), (5, 0), (5, 2), (5, 4), (6, 3))
SEED = 1991
RESTARTS, STEPS, COOLING = 3, 12000, 0.9993
"""Annealing effort for the numbers: enough to reach the best found with far more."""
OUT = Path(str(resources.files("gamehall.games.hotu_matua") / "board.json"))

Cell = tuple[int, int]
Vertex = tuple[int, int]
Point = tuple[float, float]


def fid(cell: Cell) -> str:
    return f"f{cell[0] * COLS + cell[1] + 1}"


def turn_cell(cell: Cell) -> Cell:
    return ROWS - 1 - cell[0], COLS - 1 - cell[1]


def turn_vertex(v: Vertex) -> Vertex:
    return ROWS - v[0], COLS - v[1]


def corners(cell: Cell) -> list[Vertex]:
    """The four corners of a cell, clockwise on screen (y grows downwards) from the top left."""
    r, c = cell
    return [(r, c), (r, c + 1), (r + 1, c + 1), (r + 1, c)]


# --- geometry -----------------------------------------------------------------------------------

def _base(rng: random.Random) -> dict[Vertex, Point]:
    """A regular grid whose edge vertices slide a little along the coast, symmetrically."""
    pos: dict[Vertex, Point] = {}
    for i in range(ROWS + 1):
        for j in range(COLS + 1):
            pos[(i, j)] = (j * CELL_W, i * CELL_H)
    for j in range(1, COLS):
        d = rng.uniform(-0.12, 0.12) * CELL_W
        pos[(0, j)] = (j * CELL_W + d, 0.0)
        pos[(ROWS, COLS - j)] = ((COLS - j) * CELL_W - d, ROWS * CELL_H)
    for i in range(1, ROWS):
        d = rng.uniform(-0.12, 0.12) * CELL_H
        pos[(i, 0)] = (0.0, i * CELL_H + d)
        pos[(ROWS - i, COLS)] = (COLS * CELL_W, (ROWS - i) * CELL_H - d)
    return pos


def _interior(v: Vertex) -> bool:
    return 0 < v[0] < ROWS and 0 < v[1] < COLS


def _cells_at(v: Vertex) -> list[Cell]:
    return [(r, c) for r in (v[0] - 1, v[0]) for c in (v[1] - 1, v[1])
            if 0 <= r < ROWS and 0 <= c < COLS]


def geometry(rng: random.Random, pull: float) -> dict[Vertex, Point]:
    """Vertex positions. Cell by cell (with its half-turn twin), one interior corner moves towards
    the middle of its two neighbours in that cell, so the cell's angle there opens towards 180
    degrees (an almost triangular field); a move that would spoil a field is not made."""
    pos = _base(rng)
    cells = [(r, c) for r in range(ROWS) for c in range(COLS)]
    orbits = sorted({min(cell, turn_cell(cell)) for cell in cells if cell != turn_cell(cell)})
    rng.shuffle(orbits)
    used: set[Vertex] = set()
    for cell in orbits:
        ring = corners(cell)
        free = [v for v in ring if _interior(v) and v not in used and turn_vertex(v) not in used]
        rng.shuffle(free)
        for v in free:
            k = ring.index(v)
            a, b = pos[ring[k - 1]], pos[ring[(k + 1) % 4]]
            mx, my = (a[0] + b[0]) / 2, (a[1] + b[1]) / 2
            x, y = pos[v][0] + pull * (mx - pos[v][0]), pos[v][1] + pull * (my - pos[v][1])
            trial = dict(pos)
            trial[v] = (x, y)
            trial[turn_vertex(v)] = (COLS * CELL_W - x, ROWS * CELL_H - y)
            touched = _cells_at(v) + _cells_at(turn_vertex(v))
            if all(_fits([trial[u] for u in corners(c)]) for c in touched):
                pos = trial
                used.update((v, turn_vertex(v)))
                break
    return pos


def _fits(poly: list[Point]) -> bool:
    """No dent, no very sharp corner, no side too short to carry its number, a size near the
    average, and room in the middle for a ship or a pearl."""
    ang = angles(poly)
    if max(ang) > 168 or min(ang) < 18:
        return False
    if min(math.dist(poly[k], poly[(k + 1) % 4]) for k in range(4)) < 0.35 * CELL_H:
        return False
    area = abs(sum(poly[k][0] * poly[(k + 1) % 4][1] - poly[(k + 1) % 4][0] * poly[k][1]
                   for k in range(4))) / 2
    if not 0.55 <= area / (CELL_W * CELL_H) <= 1.6:
        return False
    cx, cy = sum(p[0] for p in poly) / 4, sum(p[1] for p in poly) / 4
    return min(_distance_to_side((cx, cy), poly[k], poly[(k + 1) % 4]) for k in range(4)) >= 17


def _distance_to_side(p: Point, a: Point, b: Point) -> float:
    ax, ay = b[0] - a[0], b[1] - a[1]
    return abs(ax * (p[1] - a[1]) - ay * (p[0] - a[0])) / math.hypot(ax, ay)


def angles(poly: list[Point]) -> list[float]:
    """Interior angles in degrees; a negative turn (a dent) gives an angle above 180."""
    out = []
    for k in range(4):
        p, q, s = poly[k - 1], poly[k], poly[(k + 1) % 4]
        a1 = math.atan2(p[1] - q[1], p[0] - q[0])
        a2 = math.atan2(s[1] - q[1], s[0] - q[0])
        out.append(math.degrees((a1 - a2) % (2 * math.pi)))
    return out


def quality(pos: dict[Vertex, Point]) -> int | None:
    """How many fields are almost triangular (an angle of 140 degrees or more); None if a field
    does not fit (see `_fits`)."""
    polys = [[pos[v] for v in corners((r, c))] for r in range(ROWS) for c in range(COLS)]
    if not all(_fits(p) for p in polys):
        return None
    return sum(max(angles(p)) >= 140 for p in polys)


# --- numbers ------------------------------------------------------------------------------------

def all_lines() -> list[tuple[Cell, Cell]]:
    out = []
    for r in range(ROWS):
        for c in range(COLS):
            if c + 1 < COLS:
                out.append(((r, c), (r, c + 1)))
            if r + 1 < ROWS:
                out.append(((r, c), (r + 1, c)))
    return out


def start_cells() -> tuple[list[Cell], list[Cell]]:
    north = [(0, c) for c in START_COLS]
    return north, [turn_cell(cell) for cell in north]


def number_lines(rng: random.Random) -> dict[frozenset[Cell], int]:
    """Numbers for every line by simulated annealing: half-turn twins share a number, lines out of
    start fields carry 1 or 4, no number repeats around a field where avoidable, and the four
    numbers are used about equally often (cost: 10 per repeat plus the spread of the counts)."""
    pairs = all_lines()
    index = {frozenset(p): i for i, p in enumerate(pairs)}
    orbits: list[tuple[int, ...]] = sorted(
        {tuple(sorted({i, index[frozenset(turn_cell(c) for c in p)]}))
         for i, p in enumerate(pairs)})
    starts = set(sum(start_cells(), []))
    domains = [(1, 4) if any(c in starts for k in orbit for c in pairs[k]) else (1, 2, 3, 4)
               for orbit in orbits]
    ends = [[c[0] * COLS + c[1] for c in p] for p in pairs]
    search = _Search(orbits, ends)
    best: list[int] = []
    best_cost = math.inf
    for _ in range(RESTARTS):
        cost = search.reset([rng.choice(d) for d in domains])
        temp = 4.0
        for _ in range(STEPS):
            o = rng.randrange(len(orbits))
            old = search.value[o]
            new_cost = search.change(o, rng.choice([n for n in domains[o] if n != old]))
            if new_cost <= cost or rng.random() < math.exp((cost - new_cost) / temp):
                cost = new_cost
            else:
                search.change(o, old)
            temp = max(0.05, temp * COOLING)
        if cost < best_cost:
            best, best_cost = list(search.value), cost
    out: dict[frozenset[Cell], int] = {}
    for orbit, v in zip(orbits, best, strict=True):
        for k in orbit:
            out[frozenset(pairs[k])] = v
    return out


class _Search:
    """Numbers per orbit of lines, with per-field counts kept up to date for a quick cost."""

    def __init__(self, orbits: list[tuple[int, ...]], ends: list[list[int]]) -> None:
        self.orbits = orbits
        self.ends = ends
        self.value: list[int] = []
        self.cnt: list[list[int]] = []
        self.counts: list[int] = []
        self.repeats = 0

    def reset(self, value: list[int]) -> int:
        self.value = list(value)
        self.cnt = [[0] * 5 for _ in range(ROWS * COLS)]
        self.counts = [0] * 5
        for o, v in enumerate(value):
            self._put(o, v, 1)
        self.repeats = sum(max(0, n - 1) for row in self.cnt for n in row)
        return self.cost()

    def cost(self) -> int:
        return 10 * self.repeats + max(self.counts[1:]) - min(self.counts[1:])

    def change(self, o: int, v: int) -> int:
        """Give orbit `o` the number `v`; return the new cost."""
        fields = {f for k in self.orbits[o] for f in self.ends[k]}
        before = sum(max(0, n - 1) for f in fields for n in self.cnt[f])
        self._put(o, self.value[o], -1)
        self._put(o, v, 1)
        self.value[o] = v
        self.repeats += sum(max(0, n - 1) for f in fields for n in self.cnt[f]) - before
        return self.cost()

    def _put(self, o: int, v: int, sign: int) -> None:
        for k in self.orbits[o]:
            self.counts[v] += sign
            for f in self.ends[k]:
                self.cnt[f][v] += sign


# --- the file -----------------------------------------------------------------------------------

def build(seed: int = SEED) -> dict[str, object]:
    """The board file content for `seed`: the best-looking valid geometry of many tries."""
    rng = random.Random(seed)
    best_pos: dict[Vertex, Point] | None = None
    best_q = -1
    for _ in range(60):
        pos = geometry(rng, pull=rng.uniform(0.7, 0.9))
        q = quality(pos)
        if q is not None and q > best_q:
            best_pos, best_q = pos, q
    assert best_pos is not None, "no valid geometry found"
    numbers = number_lines(rng)
    north, south = start_cells()
    cells = [(r, c) for r in range(ROWS) for c in range(COLS)]
    return {
        "format": FORMAT,
        "name": "gamehall reconstruction",
        "note": "Not the printed map of the 1991 game (which is not published): a reconstruction "
                "by gamehall that follows the rules, made by make_board.py.",
        "fields": [
            {"id": fid(cell), "row": cell[0], "col": cell[1],
             "polygon": [[round(best_pos[v][0]), round(best_pos[v][1])]
                         for v in corners(cell)]}
            for cell in cells],
        "lines": [{"fields": [fid(a), fid(b)], "number": numbers[frozenset((a, b))]}
                  for a, b in all_lines()],
        "start": {"north": [fid(c) for c in north], "south": [fid(c) for c in south]},
        "pearls": [fid(c) for c in PEARLS],
    }


def dump(data: dict[str, object]) -> str:
    """One field or line per text line: small diffs, and still readable by people."""
    def rows(key: str) -> str:
        items = data[key]
        assert isinstance(items, list)
        return ",\n".join("    " + json.dumps(item) for item in items)

    head = {k: data[k] for k in ("format", "name", "note")}
    body = ",\n".join(f"  {json.dumps(k)}: {json.dumps(v)}" for k, v in head.items())
    tail = ",\n".join(f"  {json.dumps(k)}: {json.dumps(data[k])}" for k in ("start", "pearls"))
    return ("{\n" + body + ",\n"
            + '  "fields": [\n' + rows("fields") + "\n  ],\n"
            + '  "lines": [\n' + rows("lines") + "\n  ],\n"
            + tail + "\n}\n")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Make the default Hotu Matua board file.")
    parser.add_argument("--check", action="store_true",
                        help="only check that the shipped file is what this script makes")
    args = parser.parse_args(argv)
    text = dump(build())
    parse_board(json.loads(text))  # the loader's checks: the file must pass them
    if args.check:
        same = OUT.read_text(encoding="utf-8") == text
        print("board.json is up to date" if same
              else "board.json differs from what tools/hotu_matua_board.py makes")
        return 0 if same else 1
    OUT.write_text(text, encoding="utf-8")
    print(f"wrote {OUT}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
