"""MCTS levels: names for simulation budgets per game, and the ``mcts[:LEVEL]`` bot factory.

A level is a number of simulations a move, one per game (`LEVEL_SIMULATIONS`), so its moves for
a seed are the same on any machine, whatever its speed or load. `hard` is the largest budget
that answers within 2 s of one core of the development machine (``python -m benchmarks.levels``,
figures in benchmarks/README.md; Halali!'s were set before its evaluator made a simulation ~20×
cheaper, and kept so that ``uct:hard`` stays 600 rollouts there); `medium` is a fifth of it and
`easy` a twenty-fifth, except Hotu Matua (40 / 120 / 10,000: `LEVEL_SIMULATIONS`) and Hau La
(4 / 40 / 300: `easy` is plain UCT over a turn's steps,
`medium` and `hard` search whole turns, `LEVEL_TURNS`). A game not listed (a plug-in) gets
`DEFAULT_SIMULATIONS`. Each level also has a safety ceiling in seconds (`CEILINGS`) that only the
hall applies (a slow or loaded server must still answer); self-play and terminal play search the
simulations exactly.

``mcts:N`` asks for exactly N simulations (no time cap) and ``mcts:Xs`` for X seconds. A
trailing ``+pw`` (``mcts:hard+pw``, ``mcts:300+pw``) switches on progressive widening at chance
nodes (`WIDENING`), so its effect can be measured with ``gamehall selfplay``; ``+rave``
(``mcts:2000+rave``, or ``+rave300`` for k = 300) switches on RAVE/AMAF (`ai/rave.py`, games
with position-independent actions only) with equivalence parameter `RAVE_K`; ``+order``
(``+order2`` for k = 2) switches on evaluator-ordered progressive widening at decision nodes
(`ai/ordering.py`, games whose evaluator scores actions: Hau La) with `ORDERING`. Suffixes
combine (``mcts:hard+rave+pw``), each at most once (``+order`` and ``+rave`` exclude each other).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from gamehall.ai.floor import floor_actions
from gamehall.ai.mcts import MCTSBot, Node
from gamehall.ai.turn_rollout import TurnRolloutBot
from gamehall.ai.turn_search import TurnSearchBot
from gamehall.core import GamehallError, State, TurnMoves, offers

LEVEL_NAMES = ("easy", "medium", "hard")
LEVEL_SIMULATIONS: dict[str, dict[str, int]] = {
    "hula": {"easy": 400, "medium": 2000, "hard": 10000},
    "haugaz": {"easy": 32, "medium": 160, "hard": 800},
    "halali": {"easy": 24, "medium": 120, "hard": 600},
    "hau_la": {"easy": 4, "medium": 40, "hard": 300},
    "hotu_matua": {"easy": 40, "medium": 120, "hard": 10000},
}
"""Simulations a move per game (registry name) and level. Hotu Matua's `easy` and `medium` are
below the fifth/twenty-fifth rule: since its evaluator reads a taken pearl's field as sea
(c12a092) 400, 2000 and 10,000 played alike (ladder 29-0-26, 30-0-27, H0), while 120 beat 40
6-0-0 and 10,000 beat 120 14-0-4 (selfplay SPRTs, benchmarks/README.md, "Hotu Matua's levels
re-sized")."""
LEVEL_RAVE: dict[str, float] = {"hula": 1000.0}
"""RAVE's k for every level of these games (accepted by the sequential test: benchmarks/README.md,
"RAVE in the placement games"); ``+rave[K]`` on a level overrides it, a plain ``mcts:N`` stays
plain UCT."""
DEFAULT_SIMULATIONS = {"easy": 40, "medium": 200, "hard": 1000}
"""The budgets of a game that `LEVEL_SIMULATIONS` does not list."""
CEILINGS = {"easy": 0.5, "medium": 1.0, "hard": 2.0}
"""Seconds a level may think in the hall at most (applied by its bot workers, never elsewhere)."""


@dataclass(frozen=True)
class Budget:
    """Simulations and/or seconds per move (whichever runs out first), or a named level.

    For a level, `simulations` is None (the count depends on the game: `level_simulations`)
    and `seconds` is its hall ceiling."""

    simulations: int | None
    seconds: float | None
    level: str | None = None


LEVELS: dict[str, Budget] = {
    name: Budget(simulations=None, seconds=CEILINGS[name], level=name) for name in LEVEL_NAMES}
DEFAULT_LEVEL = "medium"
WIDENING = (1.0, 0.5)
"""(k, alpha) of ``+pw``: a chance node visited n times keeps ceil(sqrt(n + 1)) outcomes."""
PW_SUFFIX = "+pw"
RAVE_SUFFIX = "+rave"
ORDER_SUFFIX = "+order"
ORDERING = (1.0, 0.5)
"""(k, alpha) of ``+order`` (``+orderK``: k = K): a decision node visited n times keeps at most
ceil(k·(n+1)^alpha) children, expanded best-scored first."""
LEVEL_ORDER: dict[str, dict[str, tuple[float, float]]] = {}
"""Ordered widening's (k, alpha) per game and level (none now: Hau La's `hard`, which had it,
searches whole turns, `LEVEL_TURNS`). Hau La before that (benchmarks/README.md, "The ladder
table (issue 31)"), all measured without adjudication: plain UCT is strongest near 12 simulations
(12 over 4: 6-0-0; 18 and 24 lost to 12: 4-0-11, 1-0-10; 60 lost 2-0-8), ``+order`` at 40 lost to
plain 12 (0-0-9) and at 300 scored 12-0-15 against it; so `easy` and `medium` are plain 4 and 12
and `hard` keeps ``+order`` at 300 (beating a 40 with it 16-0-5, level with plain 12): a
`hard` clearly stronger than `medium` in Hau La is still to be found. ``+order[K]`` on a level
overrides it, a plain ``mcts:N`` stays plain UCT."""
LEVEL_TURNS: dict[str, dict[str, float]] = {"hau_la": {"medium": 0.1, "hard": 0.1}}
"""Levels that search whole turns (`ai/turn_search.py`, games that list their turns), with
UCT's constant, per game and level; the level's simulations are then turn-search simulations
(widening `ai.turn_search.WIDENING`). Hau La (benchmarks/README.md, "A search over whole
placements"): 300 over 40 accepted 16-0-5, 100 over plain UCT's 12 27-0-12; in the ladder
`hard` over `medium` accepted at 2 and 3 players (14-0-4, 33-0-16), not at 4 (18-0-19, H0),
`medium` over plain `easy` at all three (6-0-0 each)."""
LEVEL_ROLLOUT: dict[str, dict[int, dict[str, int]]] = {"hau_la": {4: {"hard": 48}}}
"""Levels that judge whole turns by greedy playouts to the end (`ai/turn_rollout.py`), per game,
player count and level: the playouts a move (they replace `LEVEL_TURNS` there). Hau La at 4
players (benchmarks/README.md, "Hau La's hard at 4 players"): the turn search did not gain from
simulations there (`turns:1000` 18-0-19 against `medium`), the playouts did."""
RAVE_K = 1000.0
"""k of ``+rave`` without a number: beta = sqrt(k / (3n + k)), a child's own mean and its AMAF
mean weighing alike near n = k/3 visits."""


def level_simulations(level: str, game: str) -> int:
    """The simulations a move of `level` in the game registered as `game`."""
    return LEVEL_SIMULATIONS.get(game, DEFAULT_SIMULATIONS)[level]


def max_hard_simulations() -> int:
    """The most simulations `hard` runs in any game (what ``uct:hard`` may cost a move)."""
    return max(t["hard"] for t in (*LEVEL_SIMULATIONS.values(), DEFAULT_SIMULATIONS))


def level_ordering(level: str | None, asked: float | None,
                   game: str) -> tuple[float, float] | None:
    """Ordered widening's (k, alpha) of a search at `level` in `game`, as `level_rave` reads
    RAVE's k: the spec's ``+order[K]`` (k = K, `ORDERING`'s alpha), else a named level's
    `LEVEL_ORDER`."""
    if asked is not None:
        return (asked, ORDERING[1])
    return LEVEL_ORDER.get(game, {}).get(level) if level is not None else None


def level_rave(level: str | None, asked: float | None, game: str) -> float | None:
    """RAVE's k of a search at `level` (a level name, or None for a count or a time) in `game`:
    the one its spec asked for (``+rave[K]``), else for a named level the game's `LEVEL_RAVE`
    (a plain ``mcts:N`` stays plain UCT). Bots, reviews and hints at a level search alike."""
    if asked is not None:
        return asked
    return LEVEL_RAVE.get(game) if level is not None else None


class LevelBot(MCTSBot):
    """`MCTSBot` at a named level: its simulation budget is looked up for each game it plays;
    no time cap of its own (`ceiling` is what the hall caps it at); it chooses above the floor
    (`ai/floor.py`: the game's rule of thumb, no move that loses at once while another exists)."""

    def __init__(self, seed: int | None, level: str,
                 chance_widening: tuple[float, float] | None = None,
                 rave: float | None = None, order: float | None = None) -> None:
        super().__init__(seed, simulations=DEFAULT_SIMULATIONS[level], seconds=None,
                         chance_widening=chance_widening, rave=rave,
                         ordering=level_ordering(None, order, ""), floor=floor_actions)
        self.level = level
        self.ceiling = CEILINGS[level]
        self.asked_rave = rave
        """RAVE's k from the spec (``+rave``), else the game's `LEVEL_RAVE` (if any) applies."""
        self.asked_order = order
        """Ordered widening's k from the spec (``+order``), else the game's `LEVEL_ORDER`."""
        self._turns: TurnSearchBot | None = None
        """The search over whole turns, made at the first move of a game in `LEVEL_TURNS` (or
        `LEVEL_ROLLOUT`)."""

    def choose(self, state: State) -> int:
        """A level of a game in `LEVEL_TURNS` searches whole turns (`TurnSearchBot`, with this
        level's simulations and the hall's time cap, above the floor); every other one
        searches actions."""
        name = state.game.name
        c = LEVEL_TURNS.get(name, {}).get(self.level)
        playouts = LEVEL_ROLLOUT.get(name, {}).get(state.game.num_players, {}).get(self.level)
        if (c is None and playouts is None) or not offers(state, TurnMoves):
            return super().choose(state)
        bot = self._turns
        if playouts is not None:
            if not isinstance(bot, TurnRolloutBot):
                bot = self._turns = TurnRolloutBot(self.rng.getrandbits(32))
            bot.simulations = playouts
        else:
            assert c is not None
            if bot is None or isinstance(bot, TurnRolloutBot):
                bot = self._turns = TurnSearchBot(self.rng.getrandbits(32))
            bot.simulations, bot.uct_c = level_simulations(self.level, name), c
        bot.seconds, bot.clock = self.seconds, self.clock
        legal = state.legal_actions()
        allowed = floor_actions(state, legal) if len(legal) > 1 else legal
        action = bot.choose(state, allowed if len(allowed) < len(legal) else None)
        self.stats = bot.stats
        return action

    def reset(self) -> None:
        super().reset()
        if self._turns is not None:
            self._turns.reset()

    def search(self, state: State, deadline: float | None = None) -> Node:
        name = state.game.name
        self.simulations = level_simulations(self.level, name)
        self.rave = level_rave(self.level, self.asked_rave, name)
        self.ordering = level_ordering(self.level, self.asked_order, name)
        return super().search(state, deadline)


@dataclass(frozen=True)
class Extras:
    """The suffixes of a level spec: chance widening, RAVE's k and ordered widening's k (None
    where absent)."""

    widening: bool = False
    rave: float | None = None
    order: float | None = None

    def suffix(self) -> str:
        """The suffixes that ask for these extras (``+rave300+pw``): `split_level` reads them
        back as they are."""
        rave = f"{RAVE_SUFFIX}{self.rave:g}" if self.rave is not None else ""
        order = f"{ORDER_SUFFIX}{self.order:g}" if self.order is not None else ""
        return rave + order + (PW_SUFFIX if self.widening else "")


SUFFIXES_HELP = ("+pw: progressive widening at chance nodes; +rave or +raveK: RAVE/AMAF with "
                 f"k = {RAVE_K:g} or K (Hula only); +order or +orderK: evaluator-ordered "
                 f"widening with k = {ORDERING[0]:g} or K (Hau La only); in any order, each at "
                 "most once")
"""The suffixes a level spec takes, in words (command help)."""


def split_level(level: str | None) -> tuple[str | None, Extras]:
    """The level without its suffixes (``+pw``, ``+rave[K]``, ``+order[K]``, in any order, each
    at most once: read as a set, so ``medium+pw+rave`` and ``medium+rave+pw`` ask the same), and
    what they ask for; GamehallError for an unknown or repeated suffix, or ``+rave`` with
    ``+order``. The one place specs' suffixes are read: bots, reviews and hints all go through
    it."""
    text = (level or "").strip().lower()
    base, *suffixes = text.split("+")
    if not suffixes:
        return level, Extras()
    found: dict[str, float] = {}
    for word in suffixes:
        match = re.fullmatch(r"(pw)|(rave|order)(\d+(?:\.\d*)?)?", word)
        kind = (match.group(1) or match.group(2)) if match else None
        if match is None or kind is None or kind in found:
            why = "repeated" if kind is not None else "unknown"
            raise GamehallError(f"{why} suffix +{word} in {level!r} ({SUFFIXES_HELP})")
        number = match.group(3)
        found[kind] = (float(number) if number else
                       {"pw": 1.0, "rave": RAVE_K, "order": ORDERING[0]}[kind])
        if found[kind] <= 0:
            name = "RAVE's k" if kind == "rave" else "ordered widening's k"
            raise GamehallError(f"{name} must be positive in {level!r}")
    if "rave" in found and "order" in found:
        raise GamehallError(f"+rave and +order do not combine in {level!r} ({SUFFIXES_HELP})")
    return base or None, Extras("pw" in found, found.get("rave"), found.get("order"))


def parse_level(level: str | None) -> Budget:
    """A level name, ``N`` simulations, or ``Xs`` seconds (``+pw`` allowed), as a budget."""
    text = (split_level(level)[0] or DEFAULT_LEVEL).strip().lower()
    if text in LEVELS:
        return LEVELS[text]
    if re.fullmatch(r"\d+", text) and int(text) > 0:
        return Budget(simulations=int(text), seconds=None)
    match = re.fullmatch(r"(\d+(?:\.\d*)?|\.\d+)s", text)
    if match and float(match.group(1)) > 0:
        return Budget(simulations=None, seconds=float(match.group(1)))
    names = ", ".join(LEVELS)
    raise GamehallError(
        f"no MCTS level {level!r} (levels: {names}; or a number of simulations like mcts:500, "
        "or seconds like mcts:2.5s)")


def make_mcts(level: str | None, seed: int | None) -> MCTSBot:
    """The ``mcts`` entry of the bot factory."""
    budget = parse_level(level)
    extras = split_level(level)[1]
    widening = WIDENING if extras.widening else None
    if budget.level is not None:
        return LevelBot(seed, budget.level, chance_widening=widening, rave=extras.rave,
                        order=extras.order)
    return MCTSBot(seed, simulations=budget.simulations, seconds=budget.seconds,
                   chance_widening=widening, rave=extras.rave,
                   ordering=level_ordering(None, extras.order, ""))
