"""The game contract: every game, bot, server and adapter speaks only these types."""

from gamehall.core.abilities import (
    ActionScorer,
    Evaluator,
    FastPlayout,
    ObservationBounds,
    ObservationShape,
    ObservationTensor,
    RuleOfThumb,
    StepRenderer,
    TurnMoves,
    TurnScorer,
    offers,
)
from gamehall.core.errors import (
    GamehallError,
    IllegalActionError,
    InvalidOptionError,
    NotationError,
    RecordError,
    StateFormatError,
    UnknownGameError,
)
from gamehall.core.game import Game
from gamehall.core.options import Option, OptionValue
from gamehall.core.players import CHANCE, TERMINAL
from gamehall.core.record import GameRecord
from gamehall.core.registry import (
    game_class,
    list_games,
    load_game,
    register_game,
    state_from_json,
    unregister_game,
)
from gamehall.core.state import State, normalise_notation

__all__ = [
    "CHANCE",
    "TERMINAL",
    "ActionScorer",
    "Evaluator",
    "FastPlayout",
    "Game",
    "GameRecord",
    "GamehallError",
    "IllegalActionError",
    "InvalidOptionError",
    "NotationError",
    "ObservationBounds",
    "ObservationShape",
    "ObservationTensor",
    "Option",
    "OptionValue",
    "RecordError",
    "RuleOfThumb",
    "State",
    "StateFormatError",
    "StepRenderer",
    "TurnMoves",
    "TurnScorer",
    "UnknownGameError",
    "game_class",
    "list_games",
    "load_game",
    "normalise_notation",
    "offers",
    "register_game",
    "state_from_json",
    "unregister_game",
]
