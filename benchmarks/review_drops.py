"""Where a player's accuracy comes from: each judged move's drop, and what the drops add up to.

    python -m benchmarks.review_drops GAME [--kind random] [--level medium] [--seed 1]
        [--simulations N] [--moves]

Reviews ``benchmarks/review_truth/KIND_GAME.json`` (as `benchmarks.review_truth` does) and
prints, per seat: its counted turns, the accuracy, the sum of its turns' sure drops against its
whole loss (its chance at its first counted turn less its result), and the accuracy that the
lichess formula gives a player who loses that much in equal steps over as many turns (what a
loss spread thin reads: 0.5 over 30 turns is 1.7 points a turn, 93 each).
``--moves`` lists every judged move: before, after, sure drop, accuracy and mark.

It answers the question of issue 42 for a game whose random player reads accurate: whether the
search does not see its losses (its drops add up to much less than its loss: values too flat,
the loss charged to chance or to nobody) or whether it sees them and they are small each (the
drops add up to the loss, spread over many turns).
"""

from __future__ import annotations

import argparse
import time

from benchmarks.review_truth import HERE, load
from gamehall.ai.accuracy import game_accuracy, move_accuracy, volatility_weights
from gamehall.ai.review import Review, review_budget, review_record, turn_moves


def even_steps_accuracy(loss: float, turns: int) -> float:
    """The game accuracy of `turns` turns that lose `loss` (0..1) in equal steps."""
    if turns < 1:
        return 100.0
    each = move_accuracy(max(0.0, loss) / turns)
    return game_accuracy([(each, 1.0)] * turns) or 100.0


def seat_lines(found: Review, seat: int, label: str) -> list[str]:
    """The seat's accounting: turns, accuracy, drops against loss, the even-steps accuracy, and
    the mean drop a counted turn (lichess's average centipawn loss, on the chance scale)."""
    weights = volatility_weights([c[seat] for c in found.chances()])
    turns = turn_moves(found.steps, seat, weights)
    counted = [s for s in found.steps if s.seat == seat and s.accuracy is not None]
    drops = sum(s.sure_drop for s in counted)
    start = counted[0].before[seat] if counted else found.final[seat]
    loss = start - found.final[seat]
    accuracy = found.accuracy[seat]
    shown = "-" if accuracy is None else f"{accuracy:.1f}"
    return [
        f"{label}: {len(turns)} turns counted, accuracy {shown}; sure drops {drops:.2f} "
        f"against a loss of {loss:.2f} ({start:.2f} at its first counted turn, "
        f"{found.final[seat]:.2f} at the end); the same loss in equal steps: "
        f"{even_steps_accuracy(loss, len(turns)):.1f}; on average "
        f"{100 * drops / max(1, len(turns)):.1f} points of chance a counted turn"
    ]


def move_lines(found: Review) -> list[str]:
    """Every judged move: mover, move, preferred move, before, after, sure drop, accuracy."""
    out = []
    for s in found.steps:
        if s.seat is None or s.kind != "move":
            continue
        p = s.seat
        acc = "-" if s.accuracy is None else f"{s.accuracy:.0f}"
        out.append(
            f"{s.index:4d} t{s.turn:<3d} seat {p} {s.move:14s} best {s.best or '-':14s} "
            f"{s.before[p]:.3f} -> {s.after[p]:.3f}  sure drop {s.sure_drop:.3f}  "
            f"acc {acc:>3s}  {s.mark or ''}"
        )
    return out


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("game")
    parser.add_argument("--kind", default="random", help="random or clean")
    parser.add_argument("--level", default="medium")
    parser.add_argument("--simulations", type=int, default=None, help="instead of the level's")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--moves", action="store_true")
    args = parser.parse_args(argv)
    record = load(HERE / f"{args.kind}_{args.game}.json")
    budget = review_budget(args.level, record.game)
    sims = args.simulations or budget.simulations
    began = time.process_time()
    found = review_record(
        record, simulations=sims, seed=args.seed, chance_widening=budget.widening, rave=budget.rave
    )
    print(
        f"{args.kind}_{args.game}: {sims} simulations, seed {args.seed}, "
        f"{time.process_time() - began:.1f} CPU s"
    )
    if args.moves:
        print("\n".join(move_lines(found)))
    for seat, who in enumerate(record.players):
        print("\n".join(seat_lines(found, seat, f"seat {seat} ({who})")))


if __name__ == "__main__":
    main()
