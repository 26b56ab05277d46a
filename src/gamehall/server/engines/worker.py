"""A bot worker process: reads jobs as JSON lines on stdin, answers each with one line on stdout.

    python -m gamehall.server.engines.worker PARENT_PID [PLUGIN ...]

Started and, when a job overruns its deadline, killed by the server's `BotPool`. A job is
``{"spec", "state" (State.to_json()), "seed", "seconds"}``; the answer ``{"action": int}`` or
``{"error": text}``. ``seconds`` caps a bot that stops by itself (MCTS) below the deadline, so
that killing is only the last resort; a named level (`mcts:hard`) is capped by its own ceiling
too (`gamehall.ai.levels.CEILINGS`), whichever is lower. The worker says ``ready`` once it can
take jobs, and exits when its parent dies (even by kill -9) or closes its stdin.
"""

from __future__ import annotations

import importlib
import json
import os
import signal
import sys
import threading
import time
from collections.abc import Callable
from typing import Any, TextIO


def choose(job: dict[str, Any]) -> int:
    from gamehall.ai import MCTSBot, TurnSearchBot, make_bot
    from gamehall.ai.levels import LevelBot
    from gamehall.core import state_from_json

    state = state_from_json(job["state"])
    bot = make_bot(str(job["spec"]), int(job["seed"]))
    cap = job.get("seconds")
    if isinstance(bot, LevelBot):  # a named level: its own safety ceiling as well
        cap = bot.ceiling if not isinstance(cap, int | float) else min(cap, bot.ceiling)
    if isinstance(bot, MCTSBot | TurnSearchBot) and isinstance(cap, int | float):
        bot.seconds = cap if bot.seconds is None else min(bot.seconds, cap)
    return bot.choose(state)


def _preload() -> None:
    """Import the bots and every game now, so that no job pays for an import."""
    import gamehall.ai  # noqa: F401
    from gamehall.core import GamehallError, game_class, list_games

    for name in list_games():
        try:
            game_class(name)
        except (GamehallError, ImportError):
            continue  # the job for that game reports the error


def _watch_parent(parent: int) -> None:
    while os.getppid() == parent:
        time.sleep(0.5)
    os._exit(0)


def serve(jobs: TextIO, out: TextIO) -> None:
    for line in jobs:
        try:
            reply: dict[str, Any] = {"action": choose(json.loads(line))}
        except Exception as exc:  # a bot's failure is reported; the worker goes on
            reply = {"error": f"{type(exc).__name__}: {exc}"[:500]}
        out.write(json.dumps(reply) + "\n")
        out.flush()


def main(argv: list[str], serve: Callable[[TextIO, TextIO], None] = serve) -> None:
    """Start a worker: watch the parent, import the plug-ins and games, say ``ready``, then
    `serve` the jobs (a review worker passes its own)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the server decides when its workers stop
    out = os.fdopen(os.dup(1), "w")
    os.dup2(2, 1)  # whatever a bot prints goes to stderr, never into the answers
    parent, plugins = int(argv[0]), argv[1:]
    threading.Thread(target=_watch_parent, args=(parent,), daemon=True,
                     name="gamehall-parent-watch").start()
    for name in plugins:
        importlib.import_module(name)
    _preload()

    out.write("ready\n")
    out.flush()
    serve(sys.stdin, out)


if __name__ == "__main__":
    main(sys.argv[1:])
