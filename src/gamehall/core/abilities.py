"""Optional abilities a game may offer beyond the contract, declared once as protocols.

A game that has one just defines the method; bots, terminal play and the adapters check for it
with ``isinstance`` (the protocols are runtime-checkable) and fall back on the plain contract
where it is missing. They are structural, so a game package never imports the code that uses
them.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any, Protocol, runtime_checkable

from gamehall.core.state import State


@runtime_checkable
class FastPlayout(Protocol):
    """A state that plays itself to the end at random faster than a loop over the contract."""

    def random_playout(self, rng: random.Random) -> int:
        """Play uniformly random legal actions (chance by its odds) to the end, in place, with the
        same distribution as picking from `legal_actions()` each turn; return how many."""
        ...


@runtime_checkable
class ObservationShape(Protocol):
    """A game whose states encode themselves as tensors (see `ObservationTensor`)."""

    @property
    def observation_shape(self) -> tuple[int, ...]:
        """The shape of every `observation_tensor` of this game's states."""
        ...


@runtime_checkable
class ObservationBounds(Protocol):
    """A game whose observation tensors lie in another range than 0 to 1."""

    @property
    def observation_bounds(self) -> tuple[float, float]:
        """(low, high) of every value of an `observation_tensor`."""
        ...


@runtime_checkable
class ObservationTensor(Protocol):
    """A state that encodes itself for learning code (the adapters' observation)."""

    def observation_tensor(self, seat: int) -> Any:
        """Numbers of the game's `observation_shape` (or flat of that size), as `seat` sees."""
        ...


@runtime_checkable
class StepRenderer(Protocol):
    """A game with a compact status between the steps of a turn under way (terminal play)."""

    def render_step(self, state: State, seat: int | None) -> str | None:
        """Rich markup for `seat` in the middle of its own turn; None: draw the whole board."""
        ...


@runtime_checkable
class Evaluator(Protocol):
    """Estimates every seat's return at a leaf of a search tree (MCTS)."""

    def evaluate(self, state: State, rng: random.Random,
                 deadline: float | None = None) -> Sequence[float] | None:
        """Every seat's estimated return (in the game's utility range) from `state`.

        `state` is a scratch copy and may be changed. `deadline` is a `time.perf_counter()`
        value; an evaluator that cannot finish by then may return None (the simulation is then
        dropped). Evaluators that are always quick may ignore it.
        """
        ...


@runtime_checkable
class ActionScorer(Protocol):
    """An evaluator that also values each action of a position without playing it, so a search
    can try the promising ones first (MCTS's ``+order``: evaluator-ordered widening)."""

    def score_actions(self, state: State, actions: Sequence[int]) -> Sequence[float]:
        """The estimated return of the seat to move at `state` after each of `actions` (legal
        there), on the game's utility range, as `evaluate` would give it for the position after
        the action. `state` is the search's own position: it must be left unchanged."""
        ...


@runtime_checkable
class TurnMoves(Protocol):
    """A state whose turns take several actions of one seat and can list every way to finish
    the turn under way, so a search can treat a whole turn as one move (Hau La's placements)."""

    def turn_moves(self) -> list[tuple[int, ...]]:
        """Every distinct way the seat to move can finish its turn from here: each a sequence of
        actions, legal one after the other, after which the turn is over (the next turn, another
        seat's or its own, has begun, or the game is over). Never empty at a decision node."""
        ...


@runtime_checkable
class TurnScorer(Protocol):
    """An evaluator that also values each whole turn of a position without playing it (the
    turns of `TurnMoves`), so a search over turns can try the promising ones first."""

    def score_turns(self, state: State, moves: Sequence[tuple[int, ...]]) -> Sequence[float]:
        """The estimated return of the seat to move at `state` after each of `moves` (from
        `state.turn_moves()`), on the game's utility range. `state` must be left unchanged."""
        ...


@runtime_checkable
class RuleOfThumb(Protocol):
    """A game's floor for bots: which legal actions no player with the least sense would choose
    (passing while a placement exists, handing stacks over...), so that even `easy` never plays
    them. Declared per game in the ``gamehall.floors`` entry-point group (`gamehall.ai.floor`)."""

    def sensible(self, state: State, actions: Sequence[int]) -> list[int]:
        """The actions of `actions` (legal at `state`, a decision node) that keep to the rule, in
        their order; never empty when `actions` is not. `state` must be left unchanged."""
        ...


_known: dict[tuple[type, type], bool] = {}


def offers(obj: object, ability: type) -> bool:
    """``isinstance(obj, ability)`` for one of the protocols above, remembered per class: a
    protocol check costs tens of microseconds, and a bot asks once per simulation."""
    key = (type(obj), ability)
    known = _known.get(key)
    if known is None:
        known = _known[key] = isinstance(obj, ability)
    return known
