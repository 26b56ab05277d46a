"""RAVE / AMAF for `MCTSBot` (Gelly & Silver 2007): "all moves as first" statistics per action.

In a placement game a stone on a cell is worth about as much whenever it is played, so every
simulation through a node also says something about each action its seat played *later* in
that simulation (in the tree and in the rollout): those actions' AMAF counts and sums at the
node grow by one and by the seat's return. Selection blends a child's own mean with its AMAF
mean, `beta = sqrt(k / (3n + k))` weighting the AMAF side (1 while unvisited, fading as the
child gets visits of its own), so a few hundred simulations rank a node's hundred actions instead of
trying each once first.

That only makes sense where an action means the same move in every position and seats take
turns one action each with no chance (the seat of a rollout action follows from its place in the
history): `AMAF_GAMES`. Elsewhere (Hau La's actions are step-relative choices — a rotation, a
side, a hole of the piece being placed) a RAVE bot refuses with a clear error.

A RAVE node keeps one (5, A) array over the game's A distinct actions, rows `ROWS`: selection is
a few vectorised operations whatever the width, and an AMAF update is one fancy-indexed add.
"""

from __future__ import annotations

import math

import numpy as np

from gamehall.core import GamehallError

AMAF_GAMES: set[str] = {"hula"}
"""Games (registry names) whose actions are position-independent moves of two seats taking turns
one action each, without chance; only these accept RAVE (`allow_amaf` adds one, as tests do)."""
BASE, BETA, ISQ, AMAF_N, AMAF_W = range(5)
ROWS = 5
"""Rows of a node's RAVE array, kept so that selection is two multiply-adds: `BASE` is
(1 - beta)·(the child's own mean) for a legal action (-inf for any other; the exact value once
proven), `BETA` the child's beta (1 while unvisited, 0 once proven), `ISQ` 1/sqrt(the child's
visits) (1 while unvisited, as for one visit: an untried action must not lose to a tried one by
the bonus alone; 0 once proven), and `AMAF_N`, `AMAF_W` the AMAF count and sum, both starting
at a vanishing prior (`PRIOR` samples worth about `FIRST_PLAY`) so that their ratio is defined
everywhere and an update is two in-place adds."""
FIRST_PLAY = 1.0
"""The AMAF mean of a legal action no simulation has played yet (optimistic: it gets one soon)."""
PRIOR = 1e-9
EXPLORATION = 0.25
"""The UCT constant while RAVE is on (in place of the bot's `uct_c`): AMAF already spreads the
simulations over the actions, and a bonus as large as plain UCT's would drown its ranking."""
JITTER = 1e-6
"""Spread of the first-play values, drawn per node from the bot's generator: ties among untried
actions are broken at random, not towards low action numbers."""


def allow_amaf(game_name: str) -> None:
    """Let RAVE bots play `game_name` (its actions must be position-independent moves)."""
    AMAF_GAMES.add(game_name)


def check_game(game_name: str) -> None:
    """Refuse RAVE in a game whose actions do not mean the same move across positions."""
    if game_name not in AMAF_GAMES:
        known = ", ".join(sorted(AMAF_GAMES))
        raise GamehallError(
            f"RAVE (+rave) needs actions that mean the same move in every position and two seats "
            f"taking turns; {game_name} is not declared so (RAVE games: {known})")


def new_table(width: int, legal: list[int], rng: np.random.Generator) -> np.ndarray:
    """The RAVE array of a fresh decision node with these legal actions."""
    table = np.zeros((ROWS, width))
    table[BASE] = -math.inf
    table[BASE, legal] = 0.0
    table[BETA] = 1.0
    table[ISQ] = 1.0
    table[AMAF_N] = PRIOR
    table[AMAF_W] = PRIOR * (FIRST_PLAY + JITTER * rng.random(width))
    return table


def select(table: np.ndarray, n: int, c: float) -> int:
    """The action to follow at a node visited `n` times: the best blend of own mean and AMAF
    mean, (1 - beta)·own + beta·amaf, plus the UCT bonus of a visited child (`c` its constant)."""
    value = table[AMAF_W] / table[AMAF_N]
    value *= table[BETA]
    value += table[BASE]
    if n > 1 and c > 0:
        value += (c * math.sqrt(math.log(n))) * table[ISQ]
    return int(value.argmax())


def record_child(table: np.ndarray, action: int, k: float, visits: int, mean: float) -> None:
    """Mirror a child's backed-up statistics: `visits` of its own (its beta is
    sqrt(k / (3·visits + k))) and their `mean`."""
    beta = math.sqrt(k / (3.0 * visits + k))
    table[BASE, action] = (1.0 - beta) * mean
    table[BETA, action] = beta
    table[ISQ, action] = 1.0 / math.sqrt(visits)


def record_proven(table: np.ndarray, action: int, value: float) -> None:
    """A child proven worth `value`: its exact value, no AMAF, no bonus."""
    table[BASE, action] = value
    table[BETA, action] = 0.0
    table[ISQ, action] = 0.0


def update(table: np.ndarray, later: np.ndarray, value: float) -> None:
    """One simulation's AMAF update at a node: `later` are the actions its seat played after it
    (each cell once in a placement game; a repeated action would count once)."""
    counts = table[AMAF_N]
    counts[later] += 1.0
    sums = table[AMAF_W]
    sums[later] += value
