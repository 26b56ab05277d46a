"""Bots for every registered game: they use only the game contract, never a specific game."""

from gamehall.ai.bot import Bot
from gamehall.ai.factory import bot_kinds, make_bot, register_bot
from gamehall.ai.random_bot import RandomBot

__all__ = ["Bot", "RandomBot", "bot_kinds", "make_bot", "register_bot"]
