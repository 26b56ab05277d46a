"""Self-play tournaments, ratings, and the ``gamehall selfplay`` command end to end."""

from __future__ import annotations

import json
import math
from pathlib import Path

import pytest
from typer.testing import CliRunner

from gamehall.cli import app
from gamehall.core import GameRecord, load_game
from gamehall.play.ratings import Standings, elo_from_score, wilson_interval
from gamehall.play.selfplay import Tournament, derived_seed, run_tournament, seating


def test_seating_rotates_every_order() -> None:
    assert [seating(i, 2, 2) for i in range(4)] == [[0, 1], [1, 0], [0, 1], [1, 0]]
    orders = {tuple(seating(i, 3, 3)) for i in range(6)}
    assert len(orders) == 6
    assert [seating(i, 2, 4) for i in range(2)] == [[0, 1, 0, 1], [1, 0, 1, 0]]


def test_derived_seeds_are_stable_and_distinct() -> None:
    assert derived_seed(1, 5, "game") == derived_seed(1, 5, "game")
    assert len({derived_seed(1, i, "game") for i in range(100)}) == 100


def test_wilson_interval_and_elo() -> None:
    low, high = wilson_interval(0.5, 100)
    assert math.isclose(low, 0.4038, abs_tol=1e-3) and math.isclose(high, 0.5962, abs_tol=1e-3)
    assert wilson_interval(1.0, 20)[1] == 1.0 and wilson_interval(1.0, 20)[0] > 0.8
    assert math.isclose(elo_from_score(0.75), 190.8, abs_tol=0.1)
    assert elo_from_score(1.0) == math.inf


def test_standings_count_wins_draws_and_fit_elo() -> None:
    st = Standings(["a", "b"], lo=-1, hi=1)
    for i in range(30):
        seats = [0, 1] if i % 2 == 0 else [1, 0]
        a_seat = seats.index(0)
        result = [0.0, 0.0]
        if i % 3:  # a wins two games in three, the rest are draws
            result[a_seat], result[1 - a_seat] = 1.0, -1.0
        st.add_game(seats, result)
    a, b = st.tallies
    assert (a.wins, a.draws, a.losses) == (20, 10, 0)
    assert math.isclose(a.score, 25 / 30)
    elo = st.elo(anchor=1)
    # 25/30 plus one virtual draw: 25.5/31
    assert elo[1] == 0 and math.isclose(elo[0], elo_from_score(25.5 / 31), abs_tol=1.0)


def test_shared_first_place_is_a_draw_for_three_players() -> None:
    st = Standings(["a", "b", "c"], lo=0, hi=1)
    st.add_game([0, 1, 2], [0.5, 0.5, 0.0])
    assert [(t.wins, t.draws, t.losses) for t in st.tallies] == [(0, 1, 0), (0, 1, 0), (0, 0, 1)]
    assert st.pair_score[0, 1] == 0.5 and st.pair_score[0, 2] == 1.0


def test_results_do_not_depend_on_jobs() -> None:
    tour = Tournament("t_tictactoe", {}, ("mcts:30", "random"), 6, seed=3)
    one = run_tournament(tour, jobs=1)
    two = run_tournament(tour, jobs=2)
    assert [(r.seat_bots, r.returns, r.moves) for r in one] == \
        [(r.seat_bots, r.returns, r.moves) for r in two]


def test_four_player_tournament() -> None:
    tour = Tournament("t_race", {"players": 4}, ("mcts:40", "random"), 4, seed=1)
    results = run_tournament(tour)
    assert all(len(r.returns) == 4 and sum(r.returns) == 1.0 for r in results)
    assert results[0].seat_bots == [0, 1, 0, 1]


def test_selfplay_command_end_to_end(tmp_path: Path) -> None:
    records = tmp_path / "recs"
    result = CliRunner().invoke(app, [
        "selfplay", "t_pig", "--bots", "mcts:40,random", "--games", "4", "--seed", "2",
        "--jobs", "2", "--records", str(records), "--option", "target=10"])
    assert result.exit_code == 0, result.output
    assert "4/4" in result.output and "W-D-L" in result.output and "Elo" in result.output
    files = sorted(records.glob("*.json"))
    assert len(files) == 4
    for path in files:
        record = GameRecord.from_dict(json.loads(path.read_text()))
        assert record.options["target"] == 10 and record.players[0] in ("mcts:40", "random")
        assert record.replay().is_terminal()


@pytest.mark.parametrize("args, message", [
    (["--bots", "mcts:nope"], "no MCTS level"),
    (["--games", "0"], "at least 1"),
    (["--bots", "alien"], "no bot called"),
])
def test_selfplay_command_rejects_bad_input(args: list[str], message: str) -> None:
    result = CliRunner().invoke(app, ["selfplay", "t_tictactoe", *args])
    assert result.exit_code == 2
    assert message in result.output


def test_play_against_mcts_in_the_terminal() -> None:
    # a person types moves; the bot answers with a legal move each time
    game = load_game("t_tictactoe")
    result = CliRunner().invoke(app, ["play", game.name, "--vs", "mcts:easy", "--seed", "1"],
                                input="b2\nmoves\na1\nc1\na3\nc3\nb1\nb3\nquit\n")
    assert result.exit_code == 0, result.output
    assert "(mcts:easy) plays" in result.output
