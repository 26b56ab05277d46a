"""The two-game match: roles swap, scores and tiles taken add up per seat."""

from __future__ import annotations

import random

from gamehall.core import load_game
from tests.games.halali.helpers import board, play, position


def test_first_game_end_sets_up_the_second_with_roles_swapped() -> None:
    state = position(board(a1="L", g7="F"), match=True, end=1,
                     captured={"humans": ["B", "D"], "beasts": ["H^"]})
    assert state.side_of_seat(0) == 0 and state.current_player() == 0
    play(state, "a1-a2")
    assert not state.is_terminal()
    view = state.view(0)
    assert view["match_game"] == 2 and view["first_game"] == {"scores": [12, 5], "taken": [2, 1]}
    assert view["side"] == "beasts" and view["seats"] == {"humans": 1, "beasts": 0}
    assert view["face_down"] == 48 and view["captured"] == {"humans": [], "beasts": []}
    assert state.current_player() == 0  # seat 0 now plays the beasts, who move first
    assert view["to_move"] == "beasts" and view["end_phase_turns_left"] is None
    assert view["seat_totals"] == {"scores": [12, 5], "taken": [2, 1]}


def test_match_result_adds_both_games_per_seat() -> None:
    # Second game: seat 0 plays the beasts and has taken 3 points; seat 1 (humans) has 12.
    # Totals: seat 0 = 12 + 3 = 15, seat 1 = 5 + 12 = 17 -> seat 1 wins the match.
    rows = board(a1="L", g7="F")
    state = position(rows, match=True, match_game=2, end=1, to_move="humans",
                     first_game={"scores": [12, 5], "taken": [2, 1]},
                     captured={"beasts": ["P"], "humans": ["B", "D"]})
    assert state.current_player() == 1
    play(state, "a1-a2")
    assert state.is_terminal() and state.returns() == [-1.0, 1.0]
    assert "seat 1 (beasts in game 1) wins the match, 17 to 15 points" in state.outcome_text()


def test_match_tie_break_counts_tiles_over_both_games() -> None:
    rows = board(a1="L", g7="F")
    state = position(rows, match=True, match_game=2, end=1, to_move="humans",
                     first_game={"scores": [10, 10], "taken": [1, 3]},
                     captured={"beasts": ["B"], "humans": ["F", "F"]})
    play(state, "a1-a2")
    # scores 20 to 20; tiles 1+1 = 2 against 3+2 = 5
    assert state.returns() == [-1.0, 1.0] and "on tiles taken (5 to 2)" in state.outcome_text()


def test_a_seeded_random_match_plays_both_games() -> None:
    game = load_game("halali", match=True)
    state = game.new_initial_state(seed=4)
    rng = random.Random(4)
    seen_games = set()
    first_mover = {}
    while not state.is_terminal():
        seen_games.add(state.game_no)
        if state.turns == 0 and not state.is_chance_node():
            first_mover[state.game_no] = state.current_player()
        if state.is_chance_node():
            state.apply_action(state.sample_chance())
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    assert seen_games == {0, 1} and first_mover == {0: 1, 1: 0}
    scores, taken = state.totals()
    assert state.first_game is not None and scores[0] >= state.first_game[0][0]
    assert sum(state.returns()) == 0
