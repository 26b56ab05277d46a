"""The floor under every level (issue 46): from positions where an absurd move loses at once,
no level chooses it while another move exists.

Positions come from seeded random games; which moves lose at once is decided here by brute
force over the contract (the game over with the mover at the bottom after the move, or after a
reply of the opponent), independently of `gamehall.ai.floor`. Bots search exact simulation
counts under fixed seeds, so every test is deterministic.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator

import pytest

from gamehall.ai import make_bot
from gamehall.core import CHANCE, State, load_game


def lost(state: State, seat: int) -> bool:
    """The game is over and `seat` has the game's lowest return."""
    return state.is_terminal() and state.returns()[seat] <= state.game.min_utility


def loses_at_once(state: State, action: int) -> bool:
    """After `action` the mover has lost, or (two players) the opponent can make it so at once."""
    seat = state.current_player()
    after = state.clone()
    after.apply_action(action)
    if lost(after, seat):
        return True
    mover = after.current_player()
    if after.is_terminal() or mover in (CHANCE, seat) or state.game.num_players != 2:
        return False
    for reply in after.legal_actions():
        again = after.clone()
        again.apply_action(reply)
        if lost(again, seat):
            return True
    return False


def positions(game: str, games: int, wanted: Callable[[State], bool],
              **options: object) -> Iterator[State]:
    """Decision positions with a choice, met in `games` seeded random games, where `wanted`."""
    g = load_game(game, **options)
    for index in range(games):
        state = g.new_initial_state(seed=index)
        rng = random.Random(index)
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(state.sample_chance(rng))
                continue
            legal = state.legal_actions()
            if len(legal) > 1 and wanted(state):
                yield state.clone()
            state.apply_action(rng.choice(legal))


def losing_moves(state: State) -> set[int]:
    return {a for a in state.legal_actions() if loses_at_once(state, a)}


def with_a_losing_move(state: State) -> bool:
    """Some legal move loses at once and another does not."""
    losing = losing_moves(state)
    return 0 < len(losing) < len(state.legal_actions())


# (game, random games searched for positions, levels tried): `easy` everywhere, the others where
# a move is cheap enough for a test.
CASES = [
    ("hula", 6, ("easy",)),
    ("haugaz", 2, ("easy", "medium")),
    ("halali", 30, ("easy", "medium")),
    ("hotu_matua", 3, ("easy",)),
    ("hau_la", 3, ("easy", "medium")),
]


@pytest.mark.parametrize(("game", "games", "levels"), CASES, ids=[c[0] for c in CASES])
def test_no_level_plays_a_move_that_loses_at_once(game: str, games: int,
                                                  levels: tuple[str, ...]) -> None:
    found = list(positions(game, games, with_a_losing_move))
    assert found, f"no position with a move that loses at once in {games} {game} games"
    for level in levels:
        for i, state in enumerate(found):
            action = make_bot(f"mcts:{level}", seed=i).choose(state)
            assert action not in losing_moves(state), (
                f"{game} {level} played {state.action_to_string(action)}, which loses at once, "
                f"after {state.history()}")


def haugaz_turn_start(state: State) -> bool:
    """A Haugaz turn's start with a placement to make (not only `pass`)."""
    return any(state.action_to_string(a) == "pass" for a in state.legal_actions())


@pytest.mark.parametrize(("level", "games"), [("easy", 4), ("medium", 2)])
def test_haugaz_never_passes_while_a_placement_exists(level: str, games: int) -> None:
    """A pass that does not win at once gives the game away (a new player saw `easy` pass on
    its first turn and lose three turns later)."""
    found = list(positions("haugaz", games, haugaz_turn_start))
    assert len(found) > 10
    for i, state in enumerate(found):
        action = make_bot(f"mcts:{level}", seed=i).choose(state)
        if state.action_to_string(action) == "pass":
            after = state.clone()
            after.apply_action(action)
            assert after.is_terminal() and after.returns()[state.current_player()] > 0, (
                f"{level} passed with placements left after {state.history()}")


def stack_balance(state: State, seat: int) -> int:
    """Stacks `seat` owns less its opponent's, read from the public JSON form."""
    data = state.to_json()
    colour = "black" if data["black_seat"] == seat else "white"
    owners = [stack[-1] for stack in data["stacks"].values() if stack]
    return sum(o == colour for o in owners) - sum(o != colour for o in owners)


def feeding_moves(state: State) -> set[int]:
    """The moves whose growth hands stacks to the opponent on balance."""
    seat = state.current_player()
    before = stack_balance(state, seat)
    out = set()
    for move in state.legal_actions():
        after = state.clone()
        after.apply_action(move)
        if stack_balance(after, seat) < before:
            out.add(move)
    return out


def haugaz_move_step_with_a_choice(state: State) -> bool:
    """A Haugaz move step where some moves feed the opponent and others do not."""
    if haugaz_turn_start(state) or state.to_json().get("phase") != "play":
        return False
    feeding = feeding_moves(state)
    return 0 < len(feeding) < len(state.legal_actions())


def test_haugaz_easy_does_not_feed_its_stacks() -> None:
    """A new player saw `easy` hand over every stack it had."""
    found = list(positions("haugaz", 4, haugaz_move_step_with_a_choice))
    assert len(found) > 20
    for i, state in enumerate(found):
        action = make_bot("mcts:easy", seed=i).choose(state)
        assert action not in feeding_moves(state), (
            f"easy fed stacks with {state.action_to_string(action)} after {state.history()}")
