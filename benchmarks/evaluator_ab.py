"""Is a leaf evaluator stronger than random rollouts? A sequential test at equal simulations,
run before an evaluator is registered for a game's levels (and again whenever it changes).

    nice -n 19 python -m benchmarks.evaluator_ab halali --simulations 600 [--games 60]
        [--sprt 0.5,0.7] [--seed 1] [--no-adjudicate] [--log benchmarks/evaluator-ab.jsonl]

Plays ``eval:N`` (MCTS with the game's evaluator, `CANDIDATES`) against ``rollout:N`` (the same
search with one random rollout a leaf: what the game's levels do without an evaluator), N
simulations a move each, seats alternating, stopped by the sequential test, adjudicated as the
ladder is. Every game and the summary are appended to the log as JSON lines, like the ladder's.
"""

from __future__ import annotations

import argparse
import json
import time
from collections.abc import Callable
from pathlib import Path

from benchmarks.ladder import append, log_game
from gamehall.ai import MCTSBot
from gamehall.ai.evaluators import RandomRollout
from gamehall.ai.factory import register_bot
from gamehall.core import Evaluator, Game, load_game
from gamehall.games.halali.evaluator import HalaliEvaluator
from gamehall.games.haugaz.evaluator import HaugazEvaluator
from gamehall.play.selfplay import (
    Adjudication,
    GameResult,
    Tournament,
    cpu_seconds,
    run_tournament,
    sprt_counts,
)
from gamehall.play.sprt import parse_sprt

CANDIDATES: dict[str, Callable[[Game], Evaluator]] = {
    "halali": HalaliEvaluator, "haugaz": HaugazEvaluator}
"""Evaluators on trial, by game (Halali!'s: accepted at 600 simulations, 6-0-0 adjudicated and,
after two fixes, 9-0-1 with `--no-adjudicate`, and registered: benchmarks/README.md, "The ladder
table (issue 31)"; Haugaz's: accepted at 160 simulations, 11-0-2 with `--no-adjudicate`, not
registered: benchmarks/README.md, "Why random reads accurate in Halali! and Haugaz")."""
LOG = Path(__file__).with_name("evaluator-ab.jsonl")


def register(game: Game) -> None:
    """``eval:N`` and ``rollout:N`` as bot kinds of this process."""
    evaluator = CANDIDATES[game.name](game)
    register_bot("eval", lambda level, seed: MCTSBot(
        seed, simulations=int(level or 100), seconds=None, evaluator=evaluator))
    register_bot("rollout", lambda level, seed: MCTSBot(
        seed, simulations=int(level or 100), seconds=None, evaluator=RandomRollout()))


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("game", choices=sorted(CANDIDATES))
    parser.add_argument("--simulations", type=int, default=600, help="simulations a move, each")
    parser.add_argument("--games", type=int, default=60, help="most games")
    parser.add_argument("--sprt", default="0.5,0.7", help="score bounds S0,S1")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--no-adjudicate", action="store_true")
    parser.add_argument("--log", type=Path, default=LOG)
    args = parser.parse_args(argv)
    game = load_game(args.game)
    register(game)
    test = parse_sprt(args.sprt)
    bots = (f"eval:{args.simulations}", f"rollout:{args.simulations}")
    rule = None if args.no_adjudicate else Adjudication()
    tour = Tournament(args.game, {}, bots, args.games, args.seed, adjudication=rule)
    append(args.log, {"kind": "start", "game": args.game, "bots": list(bots), "seed": args.seed,
                      "at": time.strftime("%F %T")})
    cpu, wall = cpu_seconds(), time.perf_counter()

    def played(r: GameResult) -> None:
        log_game(args.log, {"game": args.game}, r)

    results = run_tournament(tour, 1, played,
                             lambda prefix: test.verdict(*sprt_counts(prefix)) is not None)
    wins, draws, losses = sprt_counts(results)
    entry = {"kind": "pairing", "game": args.game, "bots": list(bots), "seed": args.seed,
             "games": len(results), "wdl": [wins, draws, losses],
             "llr": test.llr(wins, draws, losses), "verdict": test.verdict(wins, draws, losses),
             "adjudicated": sum(r.adjudicated for r in results),
             "cpu_s": round(cpu_seconds() - cpu, 1),
             "wall_s": round(time.perf_counter() - wall, 1), "at": time.strftime("%F %T")}
    append(args.log, entry)
    print(json.dumps(entry), flush=True)


if __name__ == "__main__":
    main()
