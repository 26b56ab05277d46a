"""Verify the planted blunders independently of the review's search (issue 42).

    python -m benchmarks.verify_blunders [GAME ...] [--games 20] [--bot mcts:200]

Each record in ``tests/ai/data/blunder_GAME.json`` names its blunder (``blunder``: the action's
index) and the better move (``better``: notation, a whole turn of steps where it takes several).
Two independent checks, neither using the review:

- exhaustive, one ply: after the blunder the opponent has a move that wins at once, or after
  the better move the mover has won or wins at once;
- games played out: `--games` games from the position after the blunder and as many from the
  position after the better move, both seats played by `--bot`, each seeded; the mover's score
  (win 1, draw ½) after each.

The verdicts are written to ``benchmarks/review_truth/verified.json``; a blunder counts as
verified where the exhaustive check holds, or the played-out score drops by at least 0.3.
"""

from __future__ import annotations

import argparse
import json
import random
from pathlib import Path

from gamehall.ai import make_bot
from gamehall.core import CHANCE, GameRecord, State

DATA = Path(__file__).parent.parent / "tests" / "ai" / "data"
OUT = Path(__file__).parent / "review_truth" / "verified.json"
LEAST_DROP = 0.3


def planted(game: str) -> tuple[State, int, list[int], int, dict]:
    """The position before the blunder, its mover, the better turn's actions, the blunder."""
    data = json.loads((DATA / f"blunder_{game}.json").read_text())
    record = GameRecord.from_dict(data)
    final = record.replay()
    k = int(data["blunder"])
    state = final.game.new_initial_state(record.seed)
    for action in final.history()[:k]:
        state.apply_action(action)
    better, probe = [], state.clone()
    for move in data["better"]:
        action = probe.string_to_action(move)
        better.append(action)
        probe.apply_action(action)
    return state, state.current_player(), better, final.history()[k], data


def score(state: State, seat: int) -> float:
    """`seat`'s normalised result of a finished game (win 1, draw ½, loss 0)."""
    r = state.returns()
    top = max(r)
    return 0.0 if r[seat] < top else 1.0 / r.count(top)


def wins_at_once(state: State, seat: int) -> bool:
    """`seat` has won, or is to move and has a move that wins at once (checked exhaustively)."""
    if state.is_terminal():
        return score(state, seat) == 1.0
    if state.current_player() != seat:
        return False
    for action in state.legal_actions():
        nxt = state.clone()
        nxt.apply_action(action)
        if nxt.is_terminal() and score(nxt, seat) == 1.0:
            return True
    return False


def play_out(state: State, seat: int, spec: str, games: int, seed: int) -> float:
    """`seat`'s mean score over `games` seeded games from `state`, both seats by `spec`."""
    total = 0.0
    for g in range(games):
        rng = random.Random(seed * 1000 + g)
        game = state.clone()
        bots = [make_bot(spec, rng.randrange(2**31)) for _ in range(game.game.num_players)]
        while not game.is_terminal():
            player = game.current_player()
            game.apply_action(game.sample_chance(rng) if player == CHANCE
                              else bots[player].choose(game))
        total += score(game, seat)
    return total / games


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("games", nargs="*")
    parser.add_argument("--games", type=int, default=20, dest="count")
    parser.add_argument("--bot", default="mcts:200")
    args = parser.parse_args(argv)
    names = args.games or sorted(p.stem.removeprefix("blunder_") for p in DATA.glob("blunder_*"))
    verdicts = json.loads(OUT.read_text()) if OUT.exists() else {}
    for name in names:
        state, seat, better, blunder, data = planted(name)
        worse, good = state.clone(), state.clone()
        worse.apply_action(blunder)
        for action in better:
            good.apply_action(action)
        opponent_wins = (not worse.is_terminal() and worse.current_player() not in (seat, CHANCE)
                         and wins_at_once(worse, worse.current_player()))
        lost_at_once = worse.is_terminal() and score(worse, seat) == 0.0
        exhaustive = (opponent_wins or lost_at_once) and wins_at_once(good, seat)
        after_good = play_out(good, seat, args.bot, args.count, 1)
        after_worse = play_out(worse, seat, args.bot, args.count, 2)
        verified = exhaustive or after_good - after_worse >= LEAST_DROP
        verdicts[name] = {
            "blunder": int(data["blunder"]), "move": state.action_to_string(blunder),
            "better": data["better"], "exhaustive": exhaustive, "bot": args.bot,
            "games": args.count, "score_after_better": round(after_good, 3),
            "score_after_blunder": round(after_worse, 3), "verified": verified}
        print(name, verdicts[name], flush=True)
        OUT.parent.mkdir(exist_ok=True)
        OUT.write_text(json.dumps(verdicts, indent=1, sort_keys=True) + "\n")


if __name__ == "__main__":
    main()
