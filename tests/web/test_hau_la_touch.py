"""The page's touch warning for Hau La previews agrees with the engine's touch check.

The browser estimates whether a ghost (piece plus tag) touches the building from the geometry in
the view; the engine decides after the move. Random games give positions at the tag step, where
each remaining placement is one row with the engine's own touch flag; the page's module must
reach the same verdict for every tag choice.
"""

from __future__ import annotations

import random
from typing import Any

import numpy as np

from gamehall.core import load_game
from gamehall.games.hau_la.placements import TAG
from tests.web.conftest import Pages


def _tag_step_cases(games: int, seed: int, per_game: int) -> list[dict[str, Any]]:
    rng = random.Random(seed)
    cases: list[dict[str, Any]] = []
    for n in range(games):
        state = load_game("hau_la", players=rng.choice([2, 3, 4])).new_initial_state(n)
        found = 0
        while not state.is_terminal() and found < per_game:
            view = state.view(None)
            table = state.table  # type: ignore[attr-defined]
            if view["pending"] and view["pending"]["step"] == "tag":
                rows = table.placements.rows[table.rows]
                touch = table.placements.touch[table.rows]
                labels = {c["choice"] for c in view["pending"]["ghosts"][0]["tags"]}
                flags = {}
                for row, touched in zip(rows, touch, strict=True):
                    value = int(row[TAG])
                    hole, face = "abcdefghij"[value // 2], "ud"[value % 2]
                    label = next(x for x in labels if x.endswith(f"{hole} {face}"))
                    flags[label] = bool(touched)
                cases.append({"view": view, "flags": flags})
                found += 1
            state.apply_action(rng.choice(state.legal_actions()))
    return cases


def test_touch_warning_agrees_with_the_engine(pages: Pages) -> None:
    cases = _tag_step_cases(games=4, seed=7, per_game=8)
    flags = [f for c in cases for f in c["flags"].values()]
    assert len(flags) > 60 and 0 < np.mean(flags) < 1  # both verdicts are exercised
    page = pages.new()
    verdicts = page.evaluate("""async (cases) => {
        const { touches } = await import("/js/boards/hau_la_touch.js");
        return cases.map((c) => {
            const ghost = c.view.pending.ghosts[0];
            const out = {};
            for (const t of ghost.tags) {
                if (t.choice in c.flags) {
                    out[t.choice] = touches(c.view, { points: ghost.points,
                                                      tagPosition: t.position }).length > 0;
                }
            }
            return out;
        });
    }""", cases)
    wrong = [(i, k) for i, (c, v) in enumerate(zip(cases, verdicts, strict=True))
             for k in c["flags"] if c["flags"][k] != v[k]]
    assert wrong == [], f"{len(wrong)} of {len(flags)} verdicts differ: {wrong[:5]}"
