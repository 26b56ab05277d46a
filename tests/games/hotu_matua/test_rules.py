"""The rules file's "must get right" list, each on constructed positions of the default board."""

from __future__ import annotations

import pytest

from gamehall.core import CHANCE, IllegalActionError, NotationError
from gamehall.games.hotu_matua.notation import END, roll_action
from tests.games.hotu_matua.helpers import BOARD, GAME, moves, number, play, position

PEARLS = ["f22", "f26", "f28", "f30", "f34"]


def roll(state, *values: int):  # noqa: ANN001, ANN201 - a state in, the same state out
    for v in values:
        assert state.current_player() == CHANCE
        state.apply_action(roll_action(v))
    return state


# --- dice: the first turn, carry-over ----------------------------------------------------------

def test_first_turn_rolls_five_dice() -> None:
    state = GAME.new_initial_state(seed=1)
    assert state.current_player() == CHANCE and state.to_roll == 5 and state.extra == 0
    assert state.chance_outcomes() == [(roll_action(v), 0.25) for v in range(1, 5)]
    roll(state, 1, 4, 4, 1)
    assert state.current_player() == CHANCE, "four dice rolled, one to go"
    roll(state, 1)
    assert state.current_player() == 0 and state.rolled == [1, 4, 4, 1, 1]


@pytest.mark.parametrize(("left", "next_roll"),
                         [(0, 5), (1, 6), (2, 7), (3, 8), (4, 8), (5, 8)])
def test_unused_dice_pass_on_at_most_three(left: int, next_roll: int) -> None:
    state = position(unused=[2] * left, carried_over=0)
    assert state.passing_on() == min(left, 3)
    state.apply_action(END)
    assert state.current_player() == CHANCE and state.player == 1
    assert state.to_roll == next_roll and state.extra == next_roll - 5
    assert state.view(None)["dice"]["carried_over"] == next_roll - 5


def test_rulebook_carry_over_example() -> None:
    # A rolls 5 and uses 4; B rolls 6 and uses 4; A rolls 7 and uses all; B rolls 5.
    a = position(unused=[4], carried_over=0)
    a.apply_action(END)
    assert a.to_roll == 6
    b = position(to_move="south", unused=[4, 4], carried_over=1)
    b.apply_action(END)
    assert b.to_roll == 7
    c = position(to_move="north", unused=[], carried_over=2)
    c.apply_action(END)
    assert c.to_roll == 5 and c.extra == 0


def test_eight_dice_is_the_most_and_all_are_rolled() -> None:
    state = position(unused=[1, 2, 3, 4, 1], carried_over=3)
    state.apply_action(END)
    assert state.to_roll == 8
    roll(state, *[1] * 8)
    assert state.player == 1 and len(state.rolled) == 8 and sum(state.unused) == 8


def test_turn_ends_by_itself_when_no_die_can_be_used() -> None:
    # On the start fields every line out is numbered 1 or 4: a roll of 2s and 3s is useless.
    state = GAME.new_initial_state(seed=0)
    roll(state, 2, 3, 3, 2, 2)
    assert state.player == 1 and state.to_roll == 8 and state.turn == 1


# --- start fields, blocked fields, no back and forth ------------------------------------------

def test_start_fields_are_left_only_with_1_or_4() -> None:
    for seat in (0, 1):
        for f in BOARD.start[seat]:
            for line in BOARD.sides[f]:
                if line >= 0:
                    assert BOARD.line_number[line] in (1, 4)
    state = position(unused=[2, 2, 3, 3, 3])
    assert moves(state) == ["end"]
    state = position(unused=[1, 2, 3, 3, 3])
    ships = state.to_json()["ships"]
    steps = [m.split(">") for m in moves(state) if m != "end"]
    assert steps and all(number(ships[label], to) == 1 for label, to in steps)


def test_ship_and_pearl_fields_are_blocked() -> None:
    # N1 on f17 (3,1): f22 below holds a pearl, f16 holds S1 (an opponent), f12 holds N2.
    state = position({"N1": "f17", "N2": "f12", "S1": "f16", "N3": "f3"},
                     unused=[number("f17", x) for x in ("f22", "f16", "f12", "f18")])
    legal = moves(state)
    assert "N1>f18" in legal
    for target in ("f22", "f16", "f12"):
        assert f"N1>{target}" not in legal
    with pytest.raises(NotationError, match="f22 holds a pearl"):
        state.string_to_action("N1>f22")
    with pytest.raises(NotationError, match="f16 is occupied by S1"):
        state.string_to_action("N1>f16")
    with pytest.raises(NotationError, match="f12 is occupied by N2"):
        state.string_to_action("N1 > f12")


def test_a_taken_pearl_leaves_ordinary_sea() -> None:
    state = position({"N1": "f17"}, pearls=["f26", "f28", "f30", "f34"],
                     owned={"north": 0, "south": 1}, unused=[number("f17", "f22")])
    play(state, "N1>f22")
    assert state.to_json()["ships"]["N1"] == "f22"


def test_no_ship_crosses_the_same_line_twice_in_a_turn() -> None:
    n = number("f13", "f18")
    state = position({"N1": "f13"}, unused=[n, n, 1])  # the 1 keeps the turn going (N2>f7)
    play(state, "N1>f18")
    assert state.current_player() == 0
    assert "N1>f13" not in moves(state)
    with pytest.raises(NotationError, match="crossed the line f13-f18 already"):
        state.string_to_action("N1>f13")
    # another ship may cross that line (the rule is about one ship going back and forth)
    moved = position({"N1": "f19", "N2": "f13"}, unused=[n], crossed={"N1": ["f13-f18"]})
    assert "N2>f18" in moves(moved)


def test_crossing_back_is_allowed_again_next_turn() -> None:
    n = number("f13", "f18")
    state = position({"N1": "f13"}, unused=[n, 3, 3, 3, 3])  # f18-f17 is a 3: no auto end
    play(state, "N1>f18", "end")
    assert state.crossed == [set(), set(), set(), set()]
    roll(state, 2, 3, 2, 3, 2, 3, 2, 3)  # south, all on start fields, cannot use 2s and 3s
    assert state.player == 0 and state.to_roll == 8
    roll(state, n, 2, 2, 2, 2, 2, 2, 2)
    assert "N1>f13" in moves(state)


def test_two_lines_with_the_same_number_stay_two_moves() -> None:
    # f2 (a start field) has two lines numbered 4: to f1 and to f3.
    assert number("f2", "f1") == number("f2", "f3") == 4
    state = position({"N1": "f6"}, unused=[4])
    legal = moves(state)
    assert "N2>f1" in legal and "N2>f3" in legal
    a1, a3 = state.string_to_action("N2>f1"), state.string_to_action("N2>f3")
    assert a1 != a3


# --- conquest ----------------------------------------------------------------------------------

def test_conquest_needs_all_four_ships_chained_by_sides() -> None:
    # f11 f16 f17 in a chain, f17 next to the pearl f22; N4 comes from f8.
    n1, n2 = number("f8", "f13"), number("f13", "f12")
    state = position({"N1": "f11", "N2": "f16", "N3": "f17", "N4": "f8"}, unused=[n1, n2])
    play(state, "N4>f13")
    # f13 touches f17 only at a corner: no chain, no pearl
    assert state.pearls == [BOARD.field_index(p) for p in PEARLS] and state.owned == [0, 0]
    play(state, "N4>f12")
    assert state.owned == [1, 0]
    assert "f22" not in state.to_json()["pearls"]


def test_no_conquest_without_a_ship_next_to_a_pearl() -> None:
    n = number("f7", "f12")
    state = position({"N1": "f6", "N2": "f11", "N3": "f16", "N4": "f7"}, unused=[n, 2])
    play(state, "N4>f12")
    assert state.chained([state.ship_field(0, k) for k in range(4)])
    assert state.owned == [0, 0]


def test_conquest_right_after_the_roll() -> None:
    state = position({"N1": "f18", "N2": "f19", "N3": "f24", "N4": "f25"},
                     to_roll=1, unused=[2, 2, 2, 2])
    assert state.owned == [0, 0]
    roll(state, 3)
    assert state.owned == [1, 0] and "f30" not in state.to_json()["pearls"]


def test_only_the_player_to_move_conquers() -> None:
    # South's ships are chained next to f30, but it is north who moves.
    state = position({"S1": "f18", "S2": "f19", "S3": "f24", "S4": "f25", "N1": "f6"},
                     unused=[number("f6", "f11"), 2])
    play(state, "N1>f11")
    assert state.owned == [0, 0]


def test_several_pearls_at_once() -> None:
    # f21 is next to two pearls (f22, f26); the chain closes when N4 reaches f12.
    state = position({"N1": "f11", "N2": "f16", "N3": "f21", "N4": "f13"},
                     unused=[number("f13", "f12"), 2, 2])
    play(state, "N4>f12")
    assert state.owned == [2, 0]
    assert sorted(state.to_json()["pearls"]) == ["f28", "f30", "f34"]
    assert not state.is_terminal()


def test_several_pearls_one_after_the_other_and_the_win_at_three() -> None:
    a, b = number("f20", "f25"), number("f18", "f23")
    state = position({"N1": "f18", "N2": "f19", "N3": "f24", "N4": "f20"}, unused=[a, b])
    play(state, "N4>f25")
    assert state.owned == [1, 0] and not state.is_terminal()
    play(state, "N1>f23")  # f23 is next to f22 and f28: two more, three in all
    assert state.owned == [3, 0]
    assert state.is_terminal() and state.returns() == [1.0, -1.0]
    assert "north wins (three pearls" in state.outcome_text()


def test_the_win_at_three_for_south() -> None:
    # South owns two; its chain reaches the pearl f34 (6,3) from f39 (7,3).
    n = number("f44", "f39")
    state = position({"S1": "f38", "S2": "f43", "S3": "f44", "S4": "f48"}, to_move="south",
                     pearls=["f22", "f26", "f28", "f34"], owned={"north": 0, "south": 1},
                     unused=[n])
    assert state.owned == [0, 1]
    play(state, "S3>f39")
    assert state.owned == [0, 2] and not state.is_terminal()
    state2 = position({"S1": "f38", "S2": "f43", "S3": "f44", "S4": "f48"}, to_move="south",
                      pearls=["f26", "f28", "f34"], owned={"north": 0, "south": 2},
                      unused=[n])
    play(state2, "S3>f39")
    assert state2.is_terminal() and state2.returns() == [-1.0, 1.0]
    with pytest.raises(IllegalActionError, match="the game is over"):
        state2.apply_action(END)


# --- the turn limit -----------------------------------------------------------------------------

def test_turn_limit_more_pearls_wins() -> None:
    game = type(GAME)(turn_limit=10)
    state = position(turn=9, pearls=["f22", "f26", "f28", "f30"],
                     owned={"north": 1, "south": 0}, game=game)
    state.apply_action(END)
    assert state.is_terminal() and state.returns() == [1.0, -1.0]
    assert "turn limit" in state.outcome_text()


def test_turn_limit_equal_pearls_is_a_draw() -> None:
    game = type(GAME)(turn_limit=10)
    state = position(turn=9, to_move="south", pearls=["f22", "f26", "f28"],
                     owned={"north": 1, "south": 1}, game=game)
    state.apply_action(END)
    assert state.is_terminal() and state.returns() == [0.0, 0.0]
    assert state.outcome_text().startswith("draw")


def test_turn_limit_counts_turns_of_both_players() -> None:
    game = type(GAME)(turn_limit=4)
    state = game.new_initial_state(seed=3)
    turns = 0
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(state.sample_chance())
        else:
            state.apply_action(END)
            turns += 1
    assert state.turn == 4 and turns <= 4
