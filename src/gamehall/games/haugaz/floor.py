"""Haugaz's rule of thumb for bots (`gamehall.core.RuleOfThumb`, the ``gamehall.floors`` entry):
what no player with the least sense does, so that even the `easy` bot never does it.

- **No pass while a placement exists**, unless the pass wins at once (the opponent passed and
  the mover is ahead): a pass gives the turn away, and a second one ends the game as it stands.
- **No feeding**: the move step never hands stacks to the opponent on balance (its growth
  turning more of the mover's stacks to the opponent than the other way) while a move exists
  that does not. A tested new player saw `easy` feed every stack it had.
"""

from __future__ import annotations

from collections.abc import Sequence

from gamehall.core import Game, State
from gamehall.games.haugaz.rules import HaugazState


class HaugazRule:
    """The rule of thumb above, for any options of the game."""

    def __init__(self, game: Game) -> None:
        self.game = game

    def sensible(self, state: State, actions: Sequence[int]) -> list[int]:
        assert isinstance(state, HaugazState)
        pass_ = state.lay.pass_
        if pass_ in actions and len(actions) > 1:
            return [a for a in actions if a != pass_ or passing_wins(state)]
        if state.placed >= 0:
            return not_feeding(state, actions)
        return list(actions)


def passing_wins(state: HaugazState) -> bool:
    """Whether passing now ends the game with the mover ahead."""
    seat = state.current_player()
    after = state.clone()
    after.apply_action(state.lay.pass_)
    return after.is_terminal() and after.returns()[seat] > 0


def balance(state: HaugazState, colour: int) -> int:
    """Stacks `colour` owns less those its opponent owns."""
    owner = state.owner
    return sum(1 for o in owner if o == colour) - sum(1 for o in owner if o == 1 - colour)


def not_feeding(state: HaugazState, moves: Sequence[int]) -> list[int]:
    """The move actions whose growth hands no stacks over on balance; if every one does, those
    that hand over the fewest."""
    colour = state.to_move
    given: dict[int, int] = {}
    for move in moves:
        after = state.clone()
        after.apply_action(move)
        given[move] = -balance(after, colour)
    least = min(given.values(), default=0)
    limit = max(least, -balance(state, colour))
    return [m for m in moves if given[m] <= limit]
