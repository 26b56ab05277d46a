"""Bots for every registered game: they use only the game contract, never a specific game."""

from gamehall.ai.bot import Bot
from gamehall.ai.evaluators import Evaluator, RandomRollout, register_evaluator
from gamehall.ai.factory import bot_kinds, make_bot, register_bot
from gamehall.ai.levels import LEVELS, make_mcts, parse_level
from gamehall.ai.mcts import MCTSBot, SearchStats
from gamehall.ai.random_bot import RandomBot
from gamehall.ai.reference import UCTBot, make_uct, parse_uct, uct_cpu_seconds
from gamehall.ai.turn_rollout import TurnRolloutBot, make_rollout
from gamehall.ai.turn_search import TurnSearchBot, make_turns

register_bot("mcts", make_mcts)
register_bot("uct", make_uct)
register_bot("turns", make_turns)
register_bot("rollout", make_rollout)

__all__ = [
    "LEVELS",
    "Bot",
    "Evaluator",
    "MCTSBot",
    "RandomBot",
    "RandomRollout",
    "SearchStats",
    "TurnRolloutBot",
    "TurnSearchBot",
    "UCTBot",
    "bot_kinds",
    "make_bot",
    "make_mcts",
    "make_rollout",
    "make_turns",
    "make_uct",
    "parse_level",
    "parse_uct",
    "register_bot",
    "register_evaluator",
    "uct_cpu_seconds",
]
