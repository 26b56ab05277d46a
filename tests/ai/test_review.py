"""Reviews of game records (`gamehall.ai.review`), the search's per-seat root returns, and
``gamehall review``. Budgets are a few dozen to a few hundred simulations a position: the marks
tested are drops from a won position to a lost one, which such searches already see or prove."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from gamehall.ai import MCTSBot
from gamehall.ai.levels import LEVEL_RAVE, RAVE_K, WIDENING, Extras, split_level
from gamehall.ai.review import (
    ReviewBudget,
    choice_positions,
    review_budget,
    review_record,
    search_position,
)
from gamehall.ai.review_levels import REVIEW_SIMULATIONS, review_simulations
from gamehall.cli import app
from gamehall.core import GamehallError, GameRecord, State, load_game
from tests.ai.toy_games import FACE, HOLD, ROLL


def played(game: str, moves: list[str], **options: object) -> State:
    """The position after `moves` (notation) from the start of `game`."""
    state = load_game(game, **options).new_initial_state()
    for move in moves:
        state.apply_action(state.string_to_action(move))
    return state


TTT_BLUNDER = ["a1", "a2", "b1", "b2", "a3", "c2"]
"""Tic-tac-toe (cells a1..c3, row 1 first): x holds a1 b1 and wins at once with c1 at move 5;
it plays a3 instead, and o, holding a2 b2, wins with c2."""

HULA_RING = ["d4", "d5", "e4", "e6", "f4"]
"""Hula size 5 (centre e5): five of the six cells around the centre; f5 closes the ring."""
HULA_FAR = ["b2", "b4", "d7", "f7", "h3", "h5"]
"""First's other stones, three rings out, touching nothing that matters."""
HULA_RING2 = ["c3", "c4", "c5", "d3", "d6", "e3", "e7", "f3", "f6", "g3", "g4"]
"""Eleven of the twelve cells two rings out (g5 left open) for second."""


def hula_blunder() -> State:
    """Hula size 5, no pie: at move 23 first closes its ring with f5 and wins; it plays a1, and
    second closes its own, wider ring with g5."""
    first = HULA_RING + HULA_FAR
    moves = [m for pair in zip(first, HULA_RING2, strict=True) for m in pair]
    return played("hula", [*moves, "a1", "g5"], size=5, pie=False)


def test_hand_made_records_end_as_described() -> None:
    ttt = played("t_tictactoe", TTT_BLUNDER)
    assert ttt.returns() == [-1.0, 1.0]
    won = played("t_tictactoe", [*TTT_BLUNDER[:4], "c1"])
    assert won.returns() == [1.0, -1.0]
    hula = hula_blunder()
    assert hula.returns() == [-1.0, 1.0]
    closing = hula.game.new_initial_state()
    for action in hula.history()[:22]:
        closing.apply_action(action)
    closing.apply_action(closing.string_to_action("f5"))
    assert closing.returns() == [1.0, -1.0]


# --- the search's root returns per seat -------------------------------------------------------
def test_root_returns_track_every_seat_without_changing_the_search() -> None:
    state = load_game("t_race", players=3, target=10).new_initial_state()
    plain = MCTSBot(5, simulations=300, reuse=False)
    tracked = MCTSBot(5, simulations=300, reuse=False, track_root_returns=True)
    a, b = plain.search(state), tracked.search(state)
    assert plain.best_action(a, state) == tracked.best_action(b, state)
    assert {k: c.n for k, c in a.children.items()} == {k: c.n for k, c in b.children.items()}
    children = tracked.root_returns
    assert sum(c.visits for c in children.values()) == 300
    for action, child in children.items():
        assert len(child.mean) == 3
        assert sum(child.mean) == pytest.approx(1.0)  # one winner: chances sum to 1
        node = b.children[action]
        assert child.mean[0] == pytest.approx(node.w / node.n)  # the mover's, as the node has
    with pytest.raises(GamehallError, match="track_root_returns"):
        _ = plain.root_returns


def test_root_returns_of_a_proven_child_are_exact() -> None:
    state = played("t_tictactoe", TTT_BLUNDER[:4])  # x to move, c1 wins at once
    bot = MCTSBot(1, simulations=50, reuse=False, track_root_returns=True)
    root = bot.search(state)
    win = state.string_to_action("c1")
    assert bot.best_action(root, state) == win
    assert bot.root_returns[win].proven and bot.root_returns[win].mean == (1.0, 0.0)


def test_a_chance_node_can_be_searched_for_its_value() -> None:
    """After a roll is asked for, the position's value is the mean over the rolls."""
    state = load_game("t_pig").new_initial_state()
    state.apply_action(ROLL)  # first rolls: a chance node
    found = search_position(state, simulations=120, seed=1)
    assert found.best == -1 and found.root.visits == 120
    assert set(found.children) <= set(range(FACE, FACE + 6))
    assert sum(found.root.chances) == pytest.approx(1.0)
    with pytest.raises(GamehallError, match="over"):
        MCTSBot(1, simulations=5).search(played("t_tictactoe", TTT_BLUNDER))


# --- reviews ----------------------------------------------------------------------------------
def test_a_blunder_from_a_won_position_is_marked() -> None:
    review = review_record(GameRecord.from_state(played("t_tictactoe", TTT_BLUNDER)),
                           simulations=50, seed=1)
    step = review.steps[4]
    assert (step.seat, step.move, step.best) == (0, "a3", "c1")
    assert step.before[0] == 1.0 and step.after[0] == 0.0  # both proven
    assert step.mark == "blunder" and step.accuracy == 0.0
    assert review.marks(0)["blunder"] == 1
    assert review.steps[5].mark is None  # o's winning move
    assert review.final == (0.0, 1.0)
    assert review.accuracy[0] is not None and review.accuracy[1] is not None
    assert review.accuracy[0] < review.accuracy[1]


def test_hula_blunder_is_marked() -> None:
    review = review_record(GameRecord.from_state(hula_blunder()), simulations=100, seed=1,
                           positions=range(20, 24))
    step = review.steps[22]
    assert (step.seat, step.move, step.best) == (0, "a1", "f5")
    assert step.mark == "blunder"
    assert review.steps[0].best is None and not review.steps[0].sure  # not searched


def test_review_is_deterministic_under_a_seed() -> None:
    record = GameRecord.from_state(played("t_tictactoe", TTT_BLUNDER))
    first = review_record(record, simulations=40, seed=7).to_dict()
    again = review_record(record, simulations=40, seed=7).to_dict()
    assert first == again
    assert json.loads(json.dumps(first)) == first  # JSON-ready as it is
    other = review_record(record, simulations=40, seed=8).to_dict()
    assert other["steps"][4]["mark"] == "blunder"  # another seed, the same verdict here


def test_a_slice_gives_the_same_figures_as_the_whole_review() -> None:
    record = GameRecord.from_state(hula_blunder())
    whole = review_record(record, simulations=30, seed=3)
    part = review_record(record, simulations=30, seed=3, positions=[10, 11, 12])
    assert part.steps[10] == whole.steps[10] and part.steps[11] == whole.steps[11]
    assert part.steps[13].best is None


def test_progress_counts_every_action_and_may_stop_the_review() -> None:
    record = GameRecord.from_state(played("t_tictactoe", TTT_BLUNDER))
    seen: list[tuple[int, int]] = []
    review_record(record, simulations=10, progress=lambda done, total: seen.append((done, total)))
    assert seen == [(i, 6) for i in range(1, 7)]

    class Cancelled(Exception):
        pass

    def cancel(done: int, total: int) -> None:
        if done == 2:
            raise Cancelled

    with pytest.raises(Cancelled):
        review_record(record, simulations=10, progress=cancel)


def test_chance_and_forced_steps_are_never_marked() -> None:
    """Pig: first rolls (a 1: the turn's points are lost), the forced roll of the next turn."""
    state = load_game("t_pig").new_initial_state()
    for action in (ROLL, FACE + 5, ROLL, FACE + 0, ROLL, FACE + 3, HOLD, ROLL, FACE + 1):
        state.apply_action(action)
    record = GameRecord.from_state(state)
    review = review_record(record, simulations=30, seed=1)
    kinds = [s.kind for s in review.steps]
    assert choice_positions(record) == [2, 6]
    assert kinds == ["forced", "chance", "move", "chance", "forced", "chance", "move",
                     "forced", "chance"]
    for step in review.steps:
        if step.kind != "move":
            assert step.mark is None and step.accuracy is None and step.best is None
            assert step.seat is (None if step.kind == "chance" else step.seat)
    assert [s.seat for s in review.steps if s.kind == "chance"] == [None] * 4
    assert len(review.chances()) == len(review.steps) + 1
    assert not review.finished


def test_three_players_chances_are_expected_returns() -> None:
    state = load_game("t_race", players=3, target=6).new_initial_state()
    for action in (1, 1, 2, 1, 1):  # p1 1, p2 2, p3 4, p1 5, p2 6: p2 wins
        state.apply_action(action)
    review = review_record(GameRecord.from_state(state), simulations=60, seed=2)
    for step in review.steps:
        assert len(step.before) == 3 and sum(step.before) == pytest.approx(1.0)
    assert len(review.accuracy) == 3
    assert review.final == (0.0, 1.0, 0.0)
    assert review.steps[3].mark == "blunder"  # p1 at 4 takes +1, not +2 to win; p2 wins


def test_suffixes_are_a_set_and_a_level_searches_as_its_bot() -> None:
    """``+pw`` is kept whatever follows it; a named level takes its game's RAVE as the bot
    does (a count stays plain UCT unless it asks); a capped level's word reads back alike."""
    for word in ("medium+pw+rave", "medium+rave+pw"):
        assert review_budget(word, "hula") == ReviewBudget(
            review_simulations("medium", "hula"), WIDENING, RAVE_K)
    assert review_budget("medium+pw+rave300", "hula").rave == 300.0
    assert review_budget("500+rave", "hula") == ReviewBudget(500, None, RAVE_K)
    medium = review_budget("medium+pw", "hula")
    assert medium.widening == WIDENING and medium.rave == LEVEL_RAVE["hula"]
    assert review_budget(f"200{medium.extras().suffix()}", "hula") == ReviewBudget(
        200, WIDENING, LEVEL_RAVE["hula"])
    assert split_level("hard+rave250+pw") == ("hard", Extras(True, 250.0))
    for bad in ("medium+pw+pw", "medium+fast", "medium+rave+rave9"):
        with pytest.raises(GamehallError, match="suffix"):
            review_budget(bad, "hula")


def test_budgets_and_bad_arguments() -> None:
    """A review level's simulations are the review's own table (`REVIEW_SIMULATIONS`), not the
    bots' levels: a review reads values, a bot only needs a good move."""
    assert review_budget("medium", "hula") == ReviewBudget(
        review_simulations("medium", "hula"), None, LEVEL_RAVE["hula"])
    assert review_budget("easy", "hau_la") == ReviewBudget(
        review_simulations("easy", "hau_la"), None, None)
    assert review_budget("hard", "haugaz") == ReviewBudget(
        review_simulations("hard", "haugaz"), None, None)
    assert review_budget("300+pw", "hula") == ReviewBudget(300, WIDENING, None)
    with pytest.raises(GamehallError, match="RAVE"):
        review_budget("medium+rave", "hau_la")
    with pytest.raises(GamehallError, match="time budget"):
        review_budget("2s", "hula")
    record = GameRecord.from_state(played("t_tictactoe", TTT_BLUNDER))
    with pytest.raises(GamehallError, match="at least 1"):
        review_record(record, simulations=0)


# --- the command ------------------------------------------------------------------------------
def test_cli_review_prints_marks_and_accuracy(tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    path.write_text(json.dumps(GameRecord.from_state(
        played("t_tictactoe", TTT_BLUNDER)).to_dict()))
    runner = CliRunner()
    out = runner.invoke(app, ["review", str(path), "--level", "50", "--seed", "1"])
    assert out.exit_code == 0, out.output
    assert "?? blunder" in out.output and "a3" in out.output and "c1" in out.output
    assert "accuracy" in out.output
    data = runner.invoke(app, ["review", str(path), "--level", "50", "--json"])
    assert data.exit_code == 0, data.output
    parsed = json.loads(data.stdout)
    assert parsed["format"] == "gamehall-review/1" and parsed["steps"][4]["mark"] == "blunder"
    assert parsed["marks"][0]["blunder"] == 1
    bad = runner.invoke(app, ["review", str(path), "--level", "2s"])
    assert bad.exit_code == 2 and "time budget" in bad.output
    (tmp_path / "bad.json").write_text('{"game": "t_tictactoe", "actions": ["a1", "a1"]}')
    wrong = runner.invoke(app, ["review", str(tmp_path / "bad.json")])
    assert wrong.exit_code == 2 and "move 2" in wrong.output


def test_the_command_is_listed_with_help() -> None:
    out = CliRunner().invoke(app, ["review", "--help"], env={"COLUMNS": "400"})
    assert out.exit_code == 0 and "--level" in out.output and "--seed" in out.output
    # the help is written from the review's table, so it cannot drift from it (issue 42)
    text = " ".join(out.output.split())
    for game, levels in REVIEW_SIMULATIONS.items():
        assert f"{game} {levels['easy']:,}/{levels['medium']:,}/{levels['hard']:,}" in text


def test_a_step_order_the_turn_makes_good_is_no_mistake() -> None:
    """Issue 42: a Hotu Matua step order that won two steps later read "100% → 47% ??" because
    the position after the first step was not proven yet. A step is judged by the lesser of its
    own drop and its turn's from it on, so the same step is a blunder only where the turn ends
    lost."""
    from gamehall.ai.review import Estimate, PositionSearch, _assemble, _Position

    won = Estimate((1.0, 0.0), 50, True)
    unsure = Estimate((0.47, 0.53), 1000, False)
    final = load_game("t_tictactoe").new_initial_state()

    def steps(turn_end: Estimate) -> list:
        search = PositionSearch(best=1, root=won, children={})
        mid = PositionSearch(best=3, root=unsure, children={})
        positions = [_Position(0, 1, 0, 2, "x", "move", True, 2, search, "y"),
                     _Position(1, 1, 0, 3, "z", "move", True, 2, mid, "z")]
        return _assemble(positions, turn_end, final, 10, 0.5)

    kept = steps(won)
    assert kept[0].drop > 0.5 and kept[0].mark is None and kept[0].accuracy == 100.0
    lost = steps(Estimate((0.0, 1.0), 0, True))
    assert lost[0].mark == "blunder"


def test_the_preferred_move_is_valued_by_the_search_after_it() -> None:
    """Issue 42: a most-visited child's mean reads high for its mover, so the move a step is held
    against is valued as the played one is, by a search of the position after it, seeded as the
    position after the played move; where the preferred move is played, its drop is 0."""
    from gamehall.ai.review import position_seed

    record = GameRecord.from_state(played("t_tictactoe", TTT_BLUNDER))
    simulations, seed = 12, 5
    review = review_record(record, simulations=simulations, seed=seed)
    history = record.replay().history()
    other = same = 0
    for step in review.steps:
        if step.kind != "move" or step.seat is None or step.best_action is None:
            continue
        state = load_game("t_tictactoe").new_initial_state()
        for action in history[:step.index]:
            state.apply_action(action)
        if step.best_action == step.action:
            same += 1
            assert step.before == step.after and step.drop == 0.0
            continue
        first = search_position(state, simulations=simulations,
                                seed=position_seed(seed, step.index))
        if first.root.exact:
            continue
        other += 1
        state.apply_action(step.best_action)
        if state.is_terminal():
            continue
        after_best = search_position(state, simulations=simulations,
                                     seed=position_seed(seed, step.index + 1))
        assert step.before == after_best.root.chances
    assert other and same


TTT_LOST = ["a1", "c1", "a2", "b3", "b1", "a3", "b2", "c3"]
"""Tic-tac-toe: o wins; x's last move is made from a proven loss (found by full minimax), and
o's b3 from one too (x could win after a2)."""


def test_a_lost_players_moves_do_not_count_in_its_accuracy() -> None:
    """A move whose mover had less than 0.1 to lose gets no accuracy, as a forced one does not:
    the moves from a proven loss are left out, the others counted."""
    review = review_record(GameRecord.from_state(played("t_tictactoe", TTT_LOST)),
                           simulations=200, seed=1)
    judged = [s for s in review.steps if s.kind == "move" and s.sure and s.seat is not None]
    left_out = [s for s in judged if s.accuracy is None]
    assert left_out and len(left_out) < len(judged)
    for step in judged:
        assert step.seat is not None
        assert (step.accuracy is None) == (step.before[step.seat] < 0.1), step
    assert all(s.seat is not None and s.before[s.seat] == 0.0 for s in left_out)  # proven


def test_values_are_compared_only_where_the_same_side_is_to_move() -> None:
    """Issue 42: a searched value reads high for the side to move, so a step that ends the
    turn (a pass) is not held against a preferred step after which the turn goes on, unless
    a value is proven; a step held against a preferred step of the same kind is judged."""
    from gamehall.ai.review import Estimate, PositionSearch, _assemble, _Position

    final = load_game("t_tictactoe").new_initial_state()
    root = Estimate((0.6, 0.4), 500, False)
    ended = Estimate((0.3, 0.7), 500, False)  # the opponent's search after the pass
    search = PositionSearch(best=1, root=root, children={})

    def step(reference: Estimate, own: bool) -> Any:
        pos = _Position(0, 1, 0, 2, "pass", "move", True, 1, search, "place", reference, own)
        return _assemble([pos], ended, final, 10, 0.02)[0]

    mixed = step(Estimate((0.62, 0.38), 500, False), True)  # the turn goes on after it
    assert not mixed.sure and mixed.mark is None and mixed.accuracy is None
    alike = step(Estimate((0.62, 0.38), 500, False), False)
    assert alike.sure and alike.mark == "blunder"
    proven = step(Estimate((1.0, 0.0), 40, True), True)
    assert proven.sure and proven.mark == "blunder" and proven.accuracy is not None


def _nim_search(state: State, **_: object) -> Any:
    """A stand-in for the review's search in Step Nim (`t_nim`, a turn takes 1-3 stones, then
    "stop"; the last stone wins): the perfect step, and a value that reads the side to move
    high, as the review's searches do (a won position 0.9 for its mover, a lost one 0.4), never
    proven, so only values read with the same side to move compare."""
    from gamehall.ai.review import Estimate, PositionSearch
    from tests.ai.toy_games import STOP, TAKE

    heap, taken, mover = state.heap, state.taken, state.to_move  # type: ignore[attr-defined]
    wins = heap % 4 != 0 if taken == 0 else heap % 4 == 0 or heap % 4 <= 3 - taken
    best = STOP if taken == 3 or (taken and heap % 4 == 0) else TAKE
    own = 0.9 if wins else 0.4
    chances = (own, 1 - own) if mover == 0 else (1 - own, own)
    return PositionSearch(best=best, root=Estimate(chances, 1000, False), children={})


def test_a_turn_given_up_early_is_held_against_the_turn_the_search_would_make(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 42: a random Hotu Matua player's ``end`` after two of its steps was never judged:
    the position after it (chance next) and after the preferred step (the mover's turn going
    on) are read with different sides to move, and a search reads the side to move high. The
    preferred turn is played on by the search's own steps to where it ends, and the turn given
    up is held against that: first takes 1 of 11 stones and stops (10 left: lost), where taking
    3 (8 left) wins."""
    import gamehall.ai.review as review_module

    monkeypatch.setattr(review_module, "search_position", _nim_search)
    record = GameRecord.from_state(played("t_nim", ["take", "stop", "take", "take", "stop"],
                                          heap=11))
    review = review_record(record, simulations=1000, seed=1)
    stop = review.steps[1]
    assert stop.move == "stop" and stop.best == "take" and stop.sure
    assert stop.before[0] == pytest.approx(0.6)  # the won turn's end: second to move, 8 left
    assert stop.after[0] == pytest.approx(0.1)  # 10 left, second to move: lost
    assert stop.mark == "blunder"
    # second's turn: the search's own steps (take, take, stop) are never held against it
    assert [s.mark for s in review.steps[2:]] == [None, None, None]


def test_a_turn_counts_once_in_the_accuracy() -> None:
    """Issue 42: a turn of several steps is one move in a player's accuracy, as lichess counts
    a move: its drop the sum of its steps' (a random Hotu Matua player's turns gave up 0.1-0.15
    each, spread over steps that cost little each and steps that cost nothing)."""
    from gamehall.ai.accuracy import move_accuracy
    from gamehall.ai.review import ReviewStep, turn_moves

    def step(index: int, turn: int, seat: int, sure_drop: float) -> ReviewStep:
        return ReviewStep(index, turn, seat, 0, "x", "move", 0, "x", (0.5, 0.5), (0.5, 0.5),
                          sure_drop, sure_drop, 100, True, None, move_accuracy(sure_drop))

    steps = [step(0, 1, 0, 0.05), step(1, 1, 0, 0.0), step(2, 1, 0, 0.05),
             step(3, 2, 1, 0.0), step(4, 3, 0, 0.02)]
    weights = [1.0, 2.0, 3.0, 4.0, 5.0]
    assert turn_moves(steps, 0, weights) == [(move_accuracy(0.1), 1.0),
                                             (move_accuracy(0.02), 5.0)]
    assert turn_moves(steps, 1, weights) == [(100.0, 4.0)]
