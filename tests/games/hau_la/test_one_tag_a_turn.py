"""A Hau La turn holds one tag step at most (issue 43: "a turn with a bonus joint asks for two
confirmations"). The page composes a turn up to the server's `open: false`, which comes where the
next step starts a turn of its own (`starts_turn`) or another seat moves; the page asks for a
confirmation only at a tag step. A bonus joint is a placement of its own, after the tag that ended
the round's last turn, and has no tag step: so no turn can ask twice."""

from __future__ import annotations

import random

import pytest

from gamehall.core import load_game
from gamehall.games.hau_la.turns import BONUS, BONUS_HANDOVER

PHASES = (BONUS, BONUS_HANDOVER)


@pytest.mark.parametrize("players", [2, 3])
def test_no_turn_holds_two_tag_steps_and_a_bonus_joint_none(players: int) -> None:
    game = load_game("hau_la", players=players)
    bonus_turns = 0
    for seed in range(3):
        rng = random.Random(seed)
        state = game.new_initial_state(seed)
        turn: list[str] = []
        bonus = False
        while not state.is_terminal():
            action = rng.choice(state.legal_actions())
            if game.starts_turn(state, action):
                assert sum(step.startswith("tag") for step in turn) <= 1, turn
                if bonus:
                    assert not any(step.startswith("tag") for step in turn), turn
                bonus = state.table.phase in PHASES
                bonus_turns += bonus
                turn = []
            turn.append(state.action_to_string(action))
            state.apply_action(action)
    assert bonus_turns, "no bonus joint was placed: the test saw no such turn"
