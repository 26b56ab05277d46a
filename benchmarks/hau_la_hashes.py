"""Hau La: one hash of everything play shows, to check that an engine change kept it bit for bit.

    python -m benchmarks.hau_la_hashes [--games 12]

Plays `--games` seeded uniformly random games at each of 2, 3 and 4 players through the contract
and hashes: the legal actions at every step; the placement table (rows, touch flags, tag heights)
and the open rows at every third step; the JSON form of every seventh position, read back, its
legal actions and its JSON again; and at the end every piece's plan and geometry (raw float
bytes), the returns and the final JSON. Prints one short hash per game and the total.

Run it in two trees and compare the totals (the before tree from `git archive COMMIT | tar -x -C
DIR`; `cd DIR && PYTHONPATH=DIR/src:DIR python -m benchmarks.hau_la_hashes`). Only files of this
tree are read: the script uses the public contract, the JSON form and the table's arrays, which
every version since the batched enumeration has.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import random
from typing import Any

from gamehall.core import load_game


def game_hash(players: int, seed: int) -> tuple[int, str]:
    """(steps, hex digest) of one seeded random game."""
    game = load_game("hau_la", players=players)
    h = hashlib.sha256()
    rng = random.Random(1000 * players + seed)
    state: Any = game.new_initial_state(seed)
    n = 0
    while not state.is_terminal():
        legal = state.legal_actions()
        h.update(repr(legal).encode())
        table = state.table
        if table.placements is not None and n % 3 == 0:
            p = table.placements
            for part in (p.rows, p.touch, p.height, table.rows):
                h.update(part.tobytes())
        if n % 7 == 0:
            text = json.dumps(game.state_to_json(state), sort_keys=True)
            h.update(text.encode())
            back = game.state_from_json(json.loads(text))
            h.update(repr(back.legal_actions()).encode())
            h.update(json.dumps(game.state_to_json(back), sort_keys=True).encode())
        state.apply_action(rng.choice(legal))
        n += 1
    for piece in state.table.building.pieces:
        h.update(repr(piece.plan).encode())
        for part in (piece.points, piece.hole_pos, piece.hole_tan, piece.hole_axis):
            h.update(part.tobytes())
    h.update(repr(state.returns()).encode())
    h.update(json.dumps(game.state_to_json(state), sort_keys=True).encode())
    return n, h.hexdigest()


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=12, help="games per player count")
    args = parser.parse_args(argv)
    total = hashlib.sha256()
    for players in (2, 3, 4):
        for seed in range(args.games):
            steps, digest = game_hash(players, seed)
            print(f"{players} players, seed {seed}: {steps} steps, {digest[:12]}")
            total.update(bytes.fromhex(digest))
    print(f"total {total.hexdigest()}")


if __name__ == "__main__":
    main()
