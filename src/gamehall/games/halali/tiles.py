"""Halali!'s tiles and board: kinds, sides, points, counts, captures, squares and exits.

Everything is a small integer so move generation stays a tight loop over plain lists:
a board square holds EMPTY, HIDDEN (face down) or a face-up tile code. A face-up tile code is
``2 + outcome`` where `outcome` indexes OUTCOMES, so a hunter's code also carries its rifle.
"""

from __future__ import annotations

from typing import Final

# --- sides -------------------------------------------------------------------------------------
HUMANS: Final = 0
BEASTS: Final = 1
SIDE_NAMES: Final = ("humans", "beasts")

# --- squares -----------------------------------------------------------------------------------
SIZE: Final = 7
SQUARES: Final = SIZE * SIZE
FILES: Final = "abcdefg"
CENTRE: Final = 3 * SIZE + 3  # d4, empty at the start


def square(file: int, rank: int) -> int:
    """Square index of file 0..6 (a..g) and rank 0..6 (1..7): a1 = 0, g1 = 6, a2 = 7, g7 = 48."""
    return rank * SIZE + file


def square_name(sq: int) -> str:
    return f"{FILES[sq % SIZE]}{sq // SIZE + 1}"


def parse_square(text: str) -> int | None:
    """`c3` -> its index, or None if `text` names no square."""
    t = text.strip().lower()
    if len(t) != 2 or t[0] not in FILES or t[1] not in "1234567":
        return None
    return square(FILES.index(t[0]), int(t[1]) - 1)


# --- directions --------------------------------------------------------------------------------
# 0 = up the board (towards rank 7), 1 = right (towards file g), 2 = down, 3 = left.
ARROWS: Final = "^>v<"
DIRECTION_WORDS: Final = ("up (towards rank 7)", "right (towards file g)",
                          "down (towards rank 1)", "left (towards file a)")
_STEP: Final = ((0, 1), (1, 0), (0, -1), (-1, 0))


def _ray(sq: int, d: int) -> tuple[int, ...]:
    f, r = sq % SIZE, sq // SIZE
    df, dr = _STEP[d]
    out = []
    f, r = f + df, r + dr
    while 0 <= f < SIZE and 0 <= r < SIZE:
        out.append(square(f, r))
        f, r = f + df, r + dr
    return tuple(out)


RAYS: Final = tuple(tuple(_ray(sq, d) for d in range(4)) for sq in range(SQUARES))
"""RAYS[sq][d]: the squares from `sq` outwards in direction `d`, nearest first."""

EXIT_EDGE: Final = (square(3, 6), square(6, 3), square(3, 0), square(0, 3))
"""Per direction, the edge square an exit sits beyond: d7 (up), g4 (right), d1 (down), a4 (left)."""


def exit_steps(sq: int, d: int) -> int:
    """Squares a tile on `sq` travels to leave through the exit in direction `d`; 0 if none."""
    ray = RAYS[sq][d]
    last = ray[-1] if ray else sq
    return len(ray) + 1 if last == EXIT_EDGE[d] else 0


# --- tiles -------------------------------------------------------------------------------------
EMPTY: Final = 0
HIDDEN: Final = 1
BEAR, FOX, LUMBERJACK = 2, 3, 4
HUNTER_UP, HUNTER_RIGHT, HUNTER_DOWN, HUNTER_LEFT = 5, 6, 7, 8
PHEASANT, DUCK, TREE = 9, 10, 11
HUNTERS: Final = (HUNTER_UP, HUNTER_RIGHT, HUNTER_DOWN, HUNTER_LEFT)
CODES: Final = tuple(range(2, 12))

OUTCOMES: Final = ("bear", "fox", "lumberjack", "hunter^", "hunter>", "hunterv", "hunter<",
                   "pheasant", "duck", "tree")
"""Chance outcome names, in outcome order; tile code = 2 + outcome index."""
HUNTER_OUTCOME: Final = 3  # the first hunter outcome; with rifles=random it holds all hunters

KINDS: Final = ("bear", "fox", "lumberjack", "hunter", "pheasant", "duck", "tree")
COUNTS: Final = {"bear": 2, "fox": 6, "lumberjack": 2, "hunter": 8, "pheasant": 8, "duck": 7,
                 "tree": 15}
POINTS: Final = {"bear": 10, "fox": 5, "lumberjack": 5, "hunter": 5, "pheasant": 3, "duck": 2,
                 "tree": 2}
HUNTERS_PER_RIFLE: Final = 2  # rifles=two_each

KIND_OF: Final = {BEAR: "bear", FOX: "fox", LUMBERJACK: "lumberjack", HUNTER_UP: "hunter",
                  HUNTER_RIGHT: "hunter", HUNTER_DOWN: "hunter", HUNTER_LEFT: "hunter",
                  PHEASANT: "pheasant", DUCK: "duck", TREE: "tree"}
CODE_POINTS: Final = {code: POINTS[kind] for code, kind in KIND_OF.items()}

OWN: Final = (frozenset({LUMBERJACK, *HUNTERS}), frozenset({BEAR, FOX}))
"""OWN[side]: the tile codes of that side."""
GREEN_MOVABLE: Final = frozenset({PHEASANT, DUCK})
SHORT_MOVERS: Final = frozenset({BEAR, LUMBERJACK})
MAX_STEPS: Final = {code: 1 if code in SHORT_MOVERS else SIZE for code in CODES}
"""How far a tile may travel, leaving the board included (a fox may cross a whole rank and exit)."""

_PREY: Final = {
    "bear": {"hunter", "lumberjack"},
    "fox": {"duck", "pheasant"},
    "lumberjack": {"tree"},
    "hunter": {"bear", "fox", "duck", "pheasant"},
}


def _captures(code: int, d: int) -> frozenset[int]:
    kind = KIND_OF[code]
    if kind == "hunter" and HUNTERS[d] != code:
        return frozenset()
    prey = _PREY.get(kind, set())
    return frozenset(c for c in CODES if KIND_OF[c] in prey)


CAPTURES: Final = {code: tuple(_captures(code, d) for d in range(4)) for code in CODES}
"""CAPTURES[code][d]: tile codes that a tile `code` moving in direction `d` may capture."""

TOKENS: Final = {EMPTY: ".", HIDDEN: "?", BEAR: "B", FOX: "F", LUMBERJACK: "L",
                 HUNTER_UP: "H^", HUNTER_RIGHT: "H>", HUNTER_DOWN: "Hv", HUNTER_LEFT: "H<",
                 PHEASANT: "P", DUCK: "D", TREE: "T"}
"""The token of each square content in the JSON form and on the terminal board."""
FROM_TOKEN: Final = {tok.lower(): code for code, tok in TOKENS.items()}


def side_of(code: int) -> int | None:
    """HUMANS or BEASTS for a side's own tile; None for green tiles (and empty/hidden)."""
    if code in OWN[HUMANS]:
        return HUMANS
    if code in OWN[BEASTS]:
        return BEASTS
    return None


def tile_name(code: int) -> str:
    """'bear', 'hunter^' ... — for messages and the view."""
    return OUTCOMES[code - 2]
