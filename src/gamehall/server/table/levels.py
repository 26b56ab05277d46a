"""The words that name a house bot's level at a table (``/bot easy``, ``/bot mcts:hard``): read by
the chat commands here, and turned into a bot by the engines (`engines.pool.bot_spec`)."""

from __future__ import annotations

from gamehall.ai.factory import bot_kinds

LEVELS = ("easy", "medium", "hard")


def is_bot_word(word: str) -> bool:
    """True when `word` names a bot level or kind (used to read ``/bot [level] [seat]``)."""
    w = word.strip().lower()
    return w in LEVELS or w.partition(":")[0] in bot_kinds()
