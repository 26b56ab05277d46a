"""Points for one game of a tournament: lichess's arena (a win 2, a draw 1; "on fire" after two
wins in a row doubles them; berserk adds a point to a win; a quick draw scores nothing) and the
Swiss and round robin's 1/½/0, generalised to tables of 3–4 as points by place.

Pure functions over results (a room's `result`: one number per seat, higher is better), so the
standings and the benchmark score exactly as the director does.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction

WIN, DRAW, LOSS = "win", "draw", "loss"

QUICK_MOVES = 10
"""A draw in fewer moves than this is a quick draw: it scores nothing in an arena (lichess)."""
BERSERK_MIN_MOVES = 7
"""A berserk win earns its bonus point only after this many moves (no bonus for a quick
finish)."""
FIRE_AFTER = 2
"""Wins in a row after which an arena player is on fire (their points count double)."""
BYE_POINTS = Fraction(1)
"""A Swiss or round robin bye: a full point."""


def head_to_head(result: Sequence[float], seat: int, other: int) -> Fraction:
    """What `seat` scored against `other` at one table: 1 ahead, ½ level, 0 behind."""
    if result[seat] > result[other]:
        return Fraction(1)
    if result[seat] == result[other]:
        return Fraction(1, 2)
    return Fraction(0)


def place_points(result: Sequence[float], seat: int) -> Fraction:
    """Points by place for `seat`: the share of the others it finished ahead of (level ones count
    half). 1/½/0 with two seats; 1, ½, 0 at a table of three; 1, ⅔, ⅓, 0 at a table of four, so
    a game is worth the same whatever the size of its table."""
    others = [o for o in range(len(result)) if o != seat]
    if not others:
        return Fraction(0)
    return sum((head_to_head(result, seat, o) for o in others), Fraction(0)) / len(others)


def outcome(result: Sequence[float], seat: int) -> str:
    """win (alone or shared at the top of a table of three or more, never level with all),
    draw (level with every other seat), loss."""
    mine = result[seat]
    if all(r == mine for r in result):
        return DRAW
    return WIN if mine == max(result) else LOSS


@dataclass(frozen=True)
class ArenaGame:
    """One arena game of a player, in the order played: its outcome, whether the player went
    berserk, and how many moves the game lasted."""

    outcome: str
    moves: int = QUICK_MOVES
    berserk: bool = False
    share: Fraction | None = None
    """At a table of 3–4 (Hau La): the player's points by place (`place_points`), which the
    arena doubles in place of 2/1/0 (a win is at the top of the table)."""


@dataclass(frozen=True)
class ArenaScore:
    points: Fraction
    on_fire: bool
    """Whether the player's next game counts double."""
    sheet: tuple[Fraction, ...]
    """Each game's points, in order (lichess's score sheet)."""


def arena_score(games: Sequence[ArenaGame]) -> ArenaScore:
    """A player's arena points from their games in order. On fire (the two previous games both
    won) a win is 4 and a draw 2; a berserk win after `BERSERK_MIN_MOVES` moves adds 1 (not
    doubled); a draw in fewer than `QUICK_MOVES` moves is 0 and, like any non-win, puts the
    fire out."""
    sheet: list[Fraction] = []
    streak = 0
    for g in games:
        fire = streak >= FIRE_AFTER
        won = g.outcome == WIN
        if g.outcome == DRAW and g.moves < QUICK_MOVES:
            points, streak = Fraction(0), 0
        else:
            base = Fraction(2 if won else 1 if g.outcome == DRAW else 0)
            if g.share is not None:
                base = 2 * g.share
            bonus = 1 if won and g.berserk and g.moves >= BERSERK_MIN_MOVES else 0
            points = base * (2 if fire else 1) + bonus
            streak = streak + 1 if won else 0
        sheet.append(points)
    return ArenaScore(sum(sheet, Fraction(0)), streak >= FIRE_AFTER, tuple(sheet))
