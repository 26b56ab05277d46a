"""The floor under every level: the moves a level's bot never chooses while another exists.

A search with a few dozen simulations spreads them over every legal action and may pick any of
them, so `easy` could pass with a board full of placements or hand the opponent the game. The
floor narrows the root's choice before the search, in two layers:

1. the game's rule of thumb, where it declares one (`gamehall.core.RuleOfThumb`, from the
   ``gamehall.floors`` entry-point group or `register_rule_of_thumb`): Haugaz never passes while
   a placement exists unless passing wins, and never hands stacks over on balance when a move
   keeps them;
2. a short exact search, the same in every game: an action after which the game is over with
   the mover at the bottom, or (two players, no chance in between) after which the opponent
   has a reply that ends it so, is dropped while an action that does not lose at once remains.

Levels search with it (`LevelBot`); a plain ``mcts:N``, the reference ``uct:N`` and reviews
do not, so what they measure is unchanged.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from gamehall.ai.plugins import GamePlugins
from gamehall.core import CHANCE, Game, GamehallError, RuleOfThumb, State

GROUP = "gamehall.floors"
REPLY_LIMIT = 20_000
"""Most positions the reply check may visit a move (actions × replies): Hula's 90 × 89 fit;
beyond it only the mover's own action is checked, so the floor stays cheap beside any level."""

RuleFactory = Callable[[Game], RuleOfThumb]
_plugins: GamePlugins[RuleOfThumb] = GamePlugins(GROUP)


def register_rule_of_thumb(game_name: str, factory: RuleFactory) -> None:
    """Use `factory(game)` as the rule of thumb of `game_name` (tests, plug-in games)."""
    _plugins.register(game_name, factory)


def rule_of_thumb(game: Game) -> RuleOfThumb | None:
    """The game's registered rule of thumb, or None where it has none."""
    factory = _plugins.factory(game)
    if factory is None:
        return None
    rule = factory(game)
    if not isinstance(rule, RuleOfThumb):
        raise GamehallError(f"the rule of thumb registered for {game.name} has no sensible method")
    return rule


def floor_actions(state: State, actions: Sequence[int]) -> list[int]:
    """The actions of `actions` (legal at the decision node `state`) a level may choose: the
    game's rule of thumb, then those that do not lose at once (all of them if every one does)."""
    rule = rule_of_thumb(state.game)
    kept = rule.sensible(state, actions) if rule is not None else list(actions)
    if not kept:
        raise GamehallError(f"the rule of thumb of {state.game.name} left no action")
    return not_losing_at_once(state, kept)


def not_losing_at_once(state: State, actions: Sequence[int]) -> list[int]:
    """`actions` less those that lose at once (`loses_at_once`), unless every one does."""
    seat = state.current_player()
    replies = REPLY_LIMIT // max(1, len(actions))
    kept = []
    for action in actions:
        after = state.clone()
        after.apply_action(action)
        if not loses_at_once(after, seat, replies):
            kept.append(action)
    return kept or list(actions)


def loses_at_once(state: State, seat: int, replies: int) -> bool:
    """Whether `seat` has lost at `state` (the game over, its return the game's lowest), or, in a
    2-player game where the opponent moves next, the opponent has a reply that makes it so
    (checked only where it has at most `replies` actions)."""
    game = state.game
    if state.is_terminal():
        return state.returns()[seat] <= game.min_utility
    mover = state.current_player()
    if mover in (CHANCE, seat) or game.num_players != 2:
        return False
    legal = state.legal_actions()
    if len(legal) > replies:
        return False
    for reply in legal:
        after = state.clone()
        after.apply_action(reply)
        if after.is_terminal() and after.returns()[seat] <= game.min_utility:
            return True
    return False
