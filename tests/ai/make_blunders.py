"""Make the review tests' blunder records: `python -m tests.ai.make_blunders GAME [--seed S]`.

Not a test. It plays a game between two MCTS bots and walks back from its end to a position
where the mover has a move that wins at once or a search gives them at least `--won`, and
another move after which they lose by force: the game ends at once with their loss, or the
opponent then has a move that wins at once, or (chance or a longer fight between) a strong
search gives the mover at most `--lost`. It plays that move,
lets the bots finish, keeps the game only if the blunderer lost, and writes the record with
``blunder`` (the action's index) and ``note`` to ``tests/ai/data/blunder_GAME.json``.
"""

from __future__ import annotations

import argparse
import json
import random
from pathlib import Path

from gamehall.ai import MCTSBot
from gamehall.ai.review import search_position
from gamehall.core import CHANCE, GameRecord, State, load_game

BOTS = 100
ORACLE = 2000
SCOUT = 500
"""The search that picks the positions (a won one) and the moves (the worst few) to check."""
CANDIDATES = 3
DATA = Path(__file__).parent / "data"


def play(state: State, rng: random.Random, sims: int) -> State:
    bots = [MCTSBot(rng.randrange(2**31), simulations=sims) for _ in range(state.game.num_players)]
    while not state.is_terminal():
        player = state.current_player()
        state.apply_action(state.sample_chance(rng) if player == CHANCE
                           else bots[player].choose(state))
    return state


def after(state: State, action: int) -> State:
    nxt = state.clone()
    nxt.apply_action(action)
    return nxt


def wins(state: State, seat: int) -> bool:
    """Over, and `seat` alone has the best return."""
    r = state.returns()
    return state.is_terminal() and r[seat] == max(r) and r.count(max(r)) == 1


def loses(state: State, seat: int) -> bool:
    r = state.returns()
    return state.is_terminal() and r[seat] < max(r)


def winning_moves(state: State, seat: int) -> list[int]:
    return [a for a in state.legal_actions() if wins(after(state, a), seat)]


def forced_loss(state: State, action: int, p: int, lost: float, seed: int) -> str | None:
    """Why `action` loses by force for `p`, or None: the game ends with p's loss, the opponent
    then wins at once, or (chance or a longer fight between) a strong search gives p at most
    `lost`."""
    nxt = after(state, action)
    if loses(nxt, p):
        return "the game ends with the mover's loss"
    if nxt.is_terminal():
        return None
    q = nxt.current_player()
    if q >= 0 and q != p and any(loses(after(nxt, b), p) for b in nxt.legal_actions()):
        return "the opponent then wins at once"
    value = search_position(nxt, simulations=ORACLE, seed=seed).root  # a roll: over all rolls
    if value.chances[p] <= lost:
        proof = " (proven)" if value.exact else ""
        return f"a {ORACLE}-simulation search then gives the mover {value.chances[p]:.2f}{proof}"
    return None


def find(game_name: str, seed: int, window: int, won: float, lost: float,
         options: dict[str, str]) -> dict[str, object] | None:
    rng = random.Random(seed)
    game = load_game(game_name, **options)
    end = play(game.new_initial_state(seed), rng, BOTS)
    history = end.history()
    for k in range(len(history) - 1, max(-1, len(history) - 1 - window), -1):
        state = game.new_initial_state(seed)
        for a in history[:k]:
            state.apply_action(a)
        p = state.current_player()
        if p < 0 or len(state.legal_actions()) < 2:
            continue
        good = winning_moves(state, p)
        look = search_position(state, simulations=SCOUT, seed=seed + k)
        if not good and look.root.chances[p] < won:
            continue
        worst = [a for a, _ in sorted(look.children.items(), key=lambda kv: kv[1].mean[p])]
        if look.root.exact:  # the search stopped at once: its children say little, try all
            worst += [a for a in state.legal_actions() if a not in worst]
        else:
            worst = worst[:CANDIDATES]
        for action in worst:
            if action in good:
                continue
            why = forced_loss(state, action, p, lost, seed + k)
            if why is None:
                continue
            finish = play(after(state, action), rng, BOTS)
            if not loses(finish, p):
                continue
            rec = GameRecord.from_state(finish, seed=seed).to_dict()
            rec["blunder"] = k
            best = good[0] if good else look.best
            rec["note"] = (f"move {k + 1}: {state.action_to_string(best)} "
                           + ("wins at once" if good else
                              f"keeps a {look.root.chances[p]:.2f} chance")
                           + f"; {state.action_to_string(action)} is played instead and {why}")
            return rec
    return None


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("game")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--tries", type=int, default=5)
    parser.add_argument("--window", type=int, default=40, help="actions from the end to try")
    parser.add_argument("--option", "-o", action="append", default=[], help="game option k=v")
    parser.add_argument("--won", type=float, default=0.9, help="least chance before, by search")
    parser.add_argument("--lost", type=float, default=0.1, help="most chance after, by search")
    args = parser.parse_args()
    for seed in range(args.seed, args.seed + args.tries):
        rec = find(args.game, seed, args.window, args.won, args.lost,
                   dict(o.split("=", 1) for o in args.option))
        if rec is not None:
            DATA.mkdir(exist_ok=True)
            path = DATA / f"blunder_{args.game}.json"
            path.write_text(json.dumps(rec, indent=1) + "\n")
            print(f"wrote {path}: {rec['note']}", flush=True)
            return
        print(f"seed {seed}: no blunder found", flush=True)


if __name__ == "__main__":
    main()
