"""Hotu Matua boards as data: load a board file, check every rule it must follow, index it.

The printed map of the physical game is not available, so the package ships a reconstruction
(``board.json``, made by ``tools/hotu_matua_board.py`` in the checkout) and reads any other file
of the same format, so that a table owning the game can enter the real map. Every check names the
exact problem.

The ``board`` option is a path, or the board's JSON itself (text starting with ``{``): the hall
passes only data (boards it offers, or JSON a client sent), never a client's path.
"""

from __future__ import annotations

import hashlib
import json
import math
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import cache, lru_cache
from importlib import resources
from pathlib import Path
from typing import Any

from gamehall.core import InvalidOptionError

FORMAT = "hotu-matua-board/1"
SEATS = ("north", "south")
START_NUMBERS = (1, 4)
NUM_START = 4
NUM_PEARLS = 5
MAX_FIELDS = 200
"""More fields than any real map has (the shipped one has 55): bounds the work of a check."""
_ID = re.compile(r"^[A-Za-z][A-Za-z0-9_]{0,15}$")

Point = tuple[float, float]


class BoardError(InvalidOptionError):
    """A board file that cannot be used; the message names the problem."""


@dataclass(frozen=True, eq=False)
class Board:
    """A validated board, indexed for the engine: fields and lines are small integers."""

    name: str
    ids: tuple[str, ...]
    """Field ids in file order; a field's index is its position here."""
    polygons: tuple[tuple[Point, ...], ...]
    grid: tuple[tuple[int, int], ...] | None
    """(row, col) of every field when the file gives a consistent grid (for the text map)."""
    line_fields: tuple[tuple[int, int], ...]
    line_number: tuple[int, ...]
    sides: tuple[tuple[int, ...], ...]
    """Per field, per polygon side (side i runs from corner i to corner i+1): line index or -1."""
    start: tuple[tuple[int, ...], tuple[int, ...]]
    """Start ("sail") fields per seat, in file order: ship k of a seat starts on the k-th."""
    pearls: tuple[int, ...]
    image: tuple[int, ...]
    """The field each field turns into under the half turn."""
    size: tuple[float, float, float, float]
    """Bounding box: min x, min y, max x, max y."""
    digest: str
    """Short hash of the file's content: states name it so they are not read on another board."""
    data: Mapping[str, Any]
    """The normalised file content (JSON-ready), for views and the browser."""
    text: str
    """`data` as compact JSON text: the ``board`` option's value that reproduces this board."""

    @property
    def num_fields(self) -> int:
        return len(self.ids)

    def field_index(self, field_id: str) -> int:
        """The index of a field id (case-insensitive); KeyError if there is none."""
        return self._lower_index()[field_id.strip().lower()]

    def _lower_index(self) -> dict[str, int]:
        return _lower_index(self.ids)

    def other_end(self, line: int, field: int) -> int:
        a, b = self.line_fields[line]
        return b if a == field else a

    def neighbours(self, field: int) -> list[int]:
        return [self.other_end(line, field) for line in self.sides[field] if line >= 0]

    def line_name(self, line: int) -> str:
        a, b = self.line_fields[line]
        return f"{self.ids[a]}-{self.ids[b]}"


@cache
def _lower_index(ids: tuple[str, ...]) -> dict[str, int]:
    return {f.lower(): i for i, f in enumerate(ids)}


# --- loading ------------------------------------------------------------------------------------

DEFAULT_FILE = "board.json"


def load_board(option: str) -> Board:
    """The board named by the ``board`` option: "" is the shipped board, text starting with
    ``{`` the board's JSON itself, anything else a path."""
    text = option.strip()
    if not text or text.lower() == "default":
        return default_board()
    if text.startswith("{"):
        return board_from_text(text)
    path = Path(text).expanduser()
    try:
        stat = path.stat()
    except OSError:
        raise BoardError(f"board file {text!r} not found") from None
    return _load_path(str(path.resolve()), stat.st_mtime_ns, stat.st_size)


@cache
def default_board() -> Board:
    raw = resources.files(__package__).joinpath(DEFAULT_FILE).read_text(encoding="utf-8")
    return parse_board(json.loads(raw))


@cache
def _load_path(path: str, mtime_ns: int, size: int) -> Board:
    """Load once per file version (the key includes the modification time and size)."""
    try:
        raw = Path(path).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise BoardError(f"cannot read board file {path}: {exc}") from None
    return _parse_text(raw, f"board file {path}")


@lru_cache(maxsize=64)
def board_from_text(text: str) -> Board:
    """A board from its JSON text (a few recent ones are kept: rooms rebuild their games often)."""
    return _parse_text(text, "the board")


def _parse_text(raw: str, what: str) -> Board:
    try:
        data = json.loads(raw)
    except json.JSONDecodeError as exc:
        raise BoardError(f"{what} is not JSON: line {exc.lineno}: {exc.msg}") from None
    except RecursionError:
        raise BoardError(f"{what} is not a board: it nests too deeply") from None
    return parse_board(data)


def parse_board(data: object) -> Board:
    """Validate board data (the parsed JSON of a board file) and index it."""
    if not isinstance(data, Mapping):
        raise BoardError("a board file holds one JSON object")
    if data.get("format") != FORMAT:
        raise BoardError(f"a board file says \"format\": \"{FORMAT}\", not {data.get('format')!r}")
    ids, polygons, grid = _fields(data.get("fields"))
    raw_polygons = [[list(p) for p in f["polygon"]] for f in data["fields"]]
    index = {f: i for i, f in enumerate(ids)}
    line_fields, numbers = _lines(data.get("lines"), index, ids)
    sides = _sides(ids, polygons, line_fields)
    start = _start(data.get("start"), index)
    pearls = _pearls(data.get("pearls"), index, start)
    _check_connected(ids, sides, line_fields)
    box = _box(polygons)
    image = _half_turn(ids, polygons, box)
    _check_symmetry(ids, image, line_fields, numbers, start, pearls)
    _check_start_numbers(ids, line_fields, numbers, start)
    normal: dict[str, Any] = {
        "format": FORMAT,
        "name": str(data.get("name", "")),
        "note": str(data.get("note", "")),
        "fields": [
            {"id": f, "polygon": poly,
             **({"row": grid[i][0], "col": grid[i][1]} if grid else {})}
            for i, (f, poly) in enumerate(zip(ids, raw_polygons, strict=True))],
        "lines": [{"fields": [ids[a], ids[b]], "number": n}
                  for (a, b), n in zip(line_fields, numbers, strict=True)],
        "start": {seat: [ids[f] for f in start[s]] for s, seat in enumerate(SEATS)},
        "pearls": [ids[f] for f in pearls],
    }
    digest = hashlib.sha256(json.dumps(normal, sort_keys=True).encode()).hexdigest()[:16]
    text = json.dumps(normal, ensure_ascii=False, separators=(",", ":"))
    return Board(
        name=normal["name"], ids=ids, polygons=polygons,
        grid=grid if grid and _grid_consistent(grid, line_fields) else None,
        line_fields=line_fields, line_number=numbers, sides=sides, start=start, pearls=pearls,
        image=image, size=box, digest=digest, data=normal, text=text,
    )


def _fields(raw: object) -> tuple[tuple[str, ...], tuple[tuple[Point, ...], ...],
                                   tuple[tuple[int, int], ...] | None]:
    if not isinstance(raw, list) or not raw:
        raise BoardError("a board file needs \"fields\": a non-empty list")
    if len(raw) > MAX_FIELDS:
        raise BoardError(f"a board has at most {MAX_FIELDS} fields, not {len(raw)}")
    ids: list[str] = []
    polygons: list[tuple[Point, ...]] = []
    grid: list[tuple[int, int]] | None = []
    seen: dict[str, str] = {}
    for n, item in enumerate(raw, start=1):
        if not isinstance(item, Mapping):
            raise BoardError(f"field {n} is not an object")
        fid = item.get("id")
        if not isinstance(fid, str) or not _ID.match(fid):
            raise BoardError(f"field {n} has id {fid!r}; an id is a letter then letters, digits "
                             "or _ (at most 16)")
        if fid.lower() in seen:
            raise BoardError(f"field id {fid!r} is used twice (ids ignore case: "
                             f"{seen[fid.lower()]!r})")
        seen[fid.lower()] = fid
        polygons.append(_polygon(fid, item.get("polygon")))
        ids.append(fid)
        row, col = item.get("row"), item.get("col")
        if grid is not None and _is_int(row) and _is_int(col):
            grid.append((int(row), int(col)))  # type: ignore[arg-type]
        else:
            grid = None
    if grid is not None and len(set(grid)) != len(grid):
        grid = None
    return tuple(ids), tuple(polygons), tuple(grid) if grid else None


def _is_int(x: object) -> bool:
    return isinstance(x, int) and not isinstance(x, bool)


def _polygon(fid: str, raw: object) -> tuple[Point, ...]:
    if not isinstance(raw, list):
        raise BoardError(f"field {fid} needs a \"polygon\": a list of four [x, y] corners")
    if len(raw) != 4:
        raise BoardError(f"field {fid} has {len(raw)} sides; every field has four")
    points: list[Point] = []
    for p in raw:
        if (not isinstance(p, list) or len(p) != 2
                or not all(isinstance(v, int | float) and not isinstance(v, bool)
                           and math.isfinite(v) for v in p)):
            raise BoardError(f"field {fid}: a corner is [x, y] with two numbers, not {p!r}")
        points.append((float(p[0]), float(p[1])))
    area = sum(points[i][0] * points[(i + 1) % 4][1] - points[(i + 1) % 4][0] * points[i][1]
               for i in range(4))
    if abs(area) < 1e-9:
        raise BoardError(f"field {fid} has no area (its corners lie on one line)")
    return tuple(points)


def _lines(raw: object, index: Mapping[str, int], ids: Sequence[str]
           ) -> tuple[tuple[tuple[int, int], ...], tuple[int, ...]]:
    if not isinstance(raw, list) or not raw:
        raise BoardError("a board file needs \"lines\": a non-empty list")
    pairs: list[tuple[int, int]] = []
    numbers: list[int] = []
    seen: set[frozenset[int]] = set()
    for n, item in enumerate(raw, start=1):
        if not isinstance(item, Mapping):
            raise BoardError(f"line {n} is not an object")
        ends = item.get("fields")
        if not isinstance(ends, list) or len(ends) != 2:
            raise BoardError(f"line {n} needs \"fields\": the ids of the two fields it separates")
        for end in ends:
            if not isinstance(end, str) or end not in index:
                raise BoardError(f"line {n} names an unknown field {end!r}")
        a, b = index[ends[0]], index[ends[1]]
        name = f"{ids[a]}-{ids[b]}"
        if a == b:
            raise BoardError(f"line {n} joins {ids[a]} to itself")
        if frozenset((a, b)) in seen:
            raise BoardError(f"{ids[a]} and {ids[b]} are joined by two lines")
        seen.add(frozenset((a, b)))
        number = item.get("number")
        if not _is_int(number) or not 1 <= number <= 4:  # type: ignore[operator]
            raise BoardError(f"line {name} is numbered {number!r}; a line carries 1, 2, 3 or 4")
        pairs.append((a, b))
        numbers.append(int(number))  # type: ignore[arg-type]
    return tuple(pairs), tuple(numbers)


def _tolerance(polygons: Sequence[Sequence[Point]]) -> float:
    x0, y0, x1, y1 = _box(polygons)
    return 0.002 * math.hypot(x1 - x0, y1 - y0)


def _same_side(p: Sequence[Point], q: Sequence[Point], tol: float) -> bool:
    def near(u: Point, v: Point) -> bool:
        return abs(u[0] - v[0]) <= tol and abs(u[1] - v[1]) <= tol

    return ((near(p[0], q[0]) and near(p[1], q[1]))
            or (near(p[0], q[1]) and near(p[1], q[0])))


def _sides(ids: Sequence[str], polygons: Sequence[Sequence[Point]],
           line_fields: Sequence[tuple[int, int]]) -> tuple[tuple[int, ...], ...]:
    """Put every line on the polygon side the two fields share; find shared sides with no line."""
    tol = _tolerance(polygons)

    def side(f: int, i: int) -> tuple[Point, Point]:
        return polygons[f][i], polygons[f][(i + 1) % 4]

    sides = [[-1] * 4 for _ in ids]
    for line, (a, b) in enumerate(line_fields):
        found = [(i, j) for i in range(4) for j in range(4)
                 if _same_side(side(a, i), side(b, j), tol)]
        if not found:
            raise BoardError(f"line {ids[a]}-{ids[b]}: the two fields share no side")
        i, j = found[0]
        for f, k in ((a, i), (b, j)):
            if sides[f][k] >= 0:
                other = line_fields[sides[f][k]]
                raise BoardError(f"side {k + 1} of {ids[f]} carries two lines "
                                 f"({ids[other[0]]}-{ids[other[1]]} and {ids[a]}-{ids[b]})")
            sides[f][k] = line
    free = [(f, i) for f in range(len(ids)) for i in range(4) if sides[f][i] < 0]
    grid = _Grid([_middle(side(f, i)) for f, i in free], tol)
    for a, i in free:
        partner = next((free[k][0] for k in grid.near(_middle(side(a, i)))
                        if free[k][0] != a and _same_side(side(a, i), side(*free[k]), tol)), None)
        if partner is not None:
            raise BoardError(f"{ids[a]} and {ids[partner]} share a side but no line joins "
                             "them (add the line with its number)")
    return tuple(tuple(s) for s in sides)


def _middle(side: tuple[Point, Point]) -> Point:
    return (side[0][0] + side[1][0]) / 2, (side[0][1] + side[1][1]) / 2


class _Grid:
    """Points bucketed by squares of side `tol`, so finding those within `tol` of a point (in each
    coordinate) looks at nine buckets instead of every point: checks stay linear in the fields."""

    def __init__(self, points: Sequence[Point], tol: float) -> None:
        self.points, self.tol = points, tol
        self.cell = tol if tol > 0 else 1.0
        self.buckets: dict[tuple[int, int], list[int]] = {}
        for k, p in enumerate(points):
            self.buckets.setdefault(self._key(p), []).append(k)

    def _key(self, p: Point) -> tuple[int, int]:
        return math.floor(p[0] / self.cell), math.floor(p[1] / self.cell)

    def near(self, p: Point) -> list[int]:
        """Indices of the points within `tol` of `p` in both coordinates, ascending."""
        kx, ky = self._key(p)
        found = [k for dx in (-1, 0, 1) for dy in (-1, 0, 1)
                 for k in self.buckets.get((kx + dx, ky + dy), ())
                 if abs(self.points[k][0] - p[0]) <= self.tol
                 and abs(self.points[k][1] - p[1]) <= self.tol]
        return sorted(found)


def _id_list(raw: object, what: str, index: Mapping[str, int], count: int) -> tuple[int, ...]:
    if not isinstance(raw, list):
        raise BoardError(f"{what} is a list of field ids")
    for f in raw:
        if not isinstance(f, str) or f not in index:
            raise BoardError(f"{what} names an unknown field {f!r}")
    if len(set(raw)) != len(raw):
        raise BoardError(f"{what} names a field twice")
    if len(raw) != count:
        raise BoardError(f"{what} lists {len(raw)} fields, not {count}")
    return tuple(index[f] for f in raw)


def _start(raw: object, index: Mapping[str, int]) -> tuple[tuple[int, ...], tuple[int, ...]]:
    if not isinstance(raw, Mapping) or set(raw) != set(SEATS):
        raise BoardError("a board file needs \"start\": {\"north\": [...], \"south\": [...]}, "
                         "four start (sail) fields for each player")
    north = _id_list(raw["north"], "the north start fields", index, NUM_START)
    south = _id_list(raw["south"], "the south start fields", index, NUM_START)
    both = set(north) & set(south)
    if both:
        names = [k for k, v in index.items() if v in both]
        raise BoardError(f"{names[0]} is a start field of both players")
    return north, south


def _pearls(raw: object, index: Mapping[str, int],
            start: tuple[tuple[int, ...], tuple[int, ...]]) -> tuple[int, ...]:
    pearls = _id_list(raw, "\"pearls\"", index, NUM_PEARLS)
    for name, f in index.items():
        if f in pearls and (f in start[0] or f in start[1]):
            raise BoardError(f"{name} is both a start field and a pearl field")
    return pearls


def _check_start_numbers(ids: Sequence[str], line_fields: Sequence[tuple[int, int]],
                         numbers: Sequence[int],
                         start: tuple[tuple[int, ...], tuple[int, ...]]) -> None:
    starts = set(start[0]) | set(start[1])
    for (a, b), n in zip(line_fields, numbers, strict=True):
        if n not in START_NUMBERS and (a in starts or b in starts):
            f = ids[a] if a in starts else ids[b]
            raise BoardError(f"line {ids[a]}-{ids[b]} leaves start field {f} but is numbered "
                             f"{n}; start fields are left only with 1 or 4")


def _check_connected(ids: Sequence[str], sides: Sequence[Sequence[int]],
                     line_fields: Sequence[tuple[int, int]]) -> None:
    seen = {0}
    todo = [0]
    while todo:
        f = todo.pop()
        for line in sides[f]:
            if line >= 0:
                a, b = line_fields[line]
                g = b if a == f else a
                if g not in seen:
                    seen.add(g)
                    todo.append(g)
    if len(seen) != len(ids):
        lost = next(ids[f] for f in range(len(ids)) if f not in seen)
        raise BoardError(f"the sea falls apart: {lost} cannot be reached from {ids[0]}")


def _box(polygons: Sequence[Sequence[Point]]) -> tuple[float, float, float, float]:
    xs = [p[0] for poly in polygons for p in poly]
    ys = [p[1] for poly in polygons for p in poly]
    return min(xs), min(ys), max(xs), max(ys)


def _half_turn(ids: Sequence[str], polygons: Sequence[Sequence[Point]],
               box: tuple[float, float, float, float]) -> tuple[int, ...]:
    """Map every field to the field its shape turns into under a half turn about the centre."""
    cx, cy = (box[0] + box[2]) / 2, (box[1] + box[3]) / 2
    tol = _tolerance(polygons)

    def centroid(poly: Sequence[Point]) -> Point:
        return sum(p[0] for p in poly) / 4, sum(p[1] for p in poly) / 4

    centres = [centroid(p) for p in polygons]
    grid = _Grid(centres, tol)
    image: list[int] = []
    for f, (x, y) in enumerate(centres):
        match = grid.near((2 * cx - x, 2 * cy - y))
        if not match:
            raise BoardError(f"the board is not symmetric under a half turn: {ids[f]} has no "
                             "counterpart on the other side")
        image.append(match[0])
    return tuple(image)


def _check_symmetry(ids: Sequence[str], image: Sequence[int],
                    line_fields: Sequence[tuple[int, int]], numbers: Sequence[int],
                    start: tuple[tuple[int, ...], tuple[int, ...]],
                    pearls: Sequence[int]) -> None:
    """The two players must see the same board: numbers, start and pearl fields turn alike."""
    number_of = {frozenset(p): n for p, n in zip(line_fields, numbers, strict=True)}
    for (a, b), n in zip(line_fields, numbers, strict=True):
        turned = frozenset((image[a], image[b]))
        other = number_of.get(turned)
        if other is None:
            raise BoardError(f"the board is not symmetric: line {ids[a]}-{ids[b]} turns into "
                             f"{ids[image[a]]}-{ids[image[b]]}, which is no line")
        if other != n:
            raise BoardError(f"the board is not symmetric: line {ids[a]}-{ids[b]} is numbered "
                             f"{n} but its half-turn image {ids[image[a]]}-{ids[image[b]]} is "
                             f"numbered {other}")
    for f in start[0]:
        if image[f] not in start[1]:
            raise BoardError(f"the start fields are not symmetric: north's {ids[f]} turns into "
                             f"{ids[image[f]]}, which is not a south start field")
    for f in pearls:
        if image[f] not in pearls:
            raise BoardError(f"the pearl fields are not symmetric: {ids[f]} turns into "
                             f"{ids[image[f]]}, which holds no pearl")


def _grid_consistent(grid: Sequence[tuple[int, int]],
                     line_fields: Sequence[tuple[int, int]]) -> bool:
    """True when the lines are exactly the joins of grid neighbours (so a text map is faithful)."""
    joins = {frozenset((a, b)) for a, b in line_fields}
    at = {rc: i for i, rc in enumerate(grid)}
    expected = set()
    for (r, c), i in at.items():
        for rc in ((r + 1, c), (r, c + 1)):
            if rc in at:
                expected.add(frozenset((i, at[rc])))
    return joins == expected
