"""Server-side bots: levels by name, and a worker-process pool so thinking never blocks the hall.

A bot gets the position as `State.to_json()` (which by the game contract holds no hidden
information) and returns an action. The random bot answers in microseconds and runs in the event
loop; every other bot runs in a separate process.
"""

from __future__ import annotations

import asyncio
import importlib
import logging
import os
import threading
import time
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from multiprocessing import get_context
from typing import Any

from gamehall.ai import bot_kinds, make_bot
from gamehall.core import GamehallError, State, state_from_json
from gamehall.server.rooms import RoomError

log = logging.getLogger("gamehall.server")

LEVELS = ("easy", "medium", "hard")


def bot_spec(level: str | None) -> str:
    """The `make_bot` spec for a level the players typed: random, easy, medium, hard, or a spec."""
    has_mcts = "mcts" in bot_kinds()
    word = (level or ("medium" if has_mcts else "random")).strip().lower()
    if word in LEVELS:
        if not has_mcts:
            raise RoomError("bad_bot", "only the random bot is installed here (/bot random)")
        word = f"mcts:{word}"
    try:
        make_bot(word, 0)
    except GamehallError as exc:
        raise RoomError("bad_bot", f"{exc}; levels: random, {', '.join(LEVELS)}") from None
    return word


def is_bot_word(word: str) -> bool:
    """True when `word` names a bot level or kind (used to read ``/bot [level] [seat]``)."""
    w = word.strip().lower()
    return w in LEVELS or w.partition(":")[0] in bot_kinds()


class BotPool:
    """Runs bots' `choose` in worker processes (spawned on first use)."""

    def __init__(self, workers: int, plugins: Sequence[str] = ()) -> None:
        self.workers = max(1, workers)
        self.plugins = tuple(plugins)
        self._pool: ProcessPoolExecutor | None = None

    def _executor(self) -> ProcessPoolExecutor:
        if self._pool is None:
            self._pool = ProcessPoolExecutor(
                self.workers, mp_context=get_context("spawn"), initializer=_init_worker,
                initargs=(self.plugins, os.getpid()))
        return self._pool

    async def choose(self, spec: str, state: State, seed: int) -> int | None:
        """The bot's action for `state`, or None when the bot failed (the hall then plays a
        random legal move). The state is read before the first await, so it may change after."""
        try:
            if spec == "random":
                return make_bot(spec, seed).choose(state)
            data = state.to_json()
            loop = asyncio.get_running_loop()
            action = await loop.run_in_executor(self._executor(), _choose, spec, data, seed)
            return action if isinstance(action, int) else None
        except BrokenProcessPool:
            log.error("bot worker died; starting a new pool")
            self._pool = None
        except Exception:
            log.exception("bot %s failed", spec)
        return None

    def close(self) -> None:
        if self._pool is not None:
            self._pool.shutdown(wait=False, cancel_futures=True)
            self._pool = None


def _init_worker(plugins: Sequence[str], parent: int) -> None:
    """Worker set-up: load plug-in games, and exit when the server dies (even by kill -9)."""
    for name in plugins:
        importlib.import_module(name)

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(0.5)
        os._exit(0)

    threading.Thread(target=watch, daemon=True, name="gamehall-parent-watch").start()


def _choose(spec: str, data: dict[str, Any], seed: int) -> int:
    state = state_from_json(data)
    return make_bot(spec, seed).choose(state)
