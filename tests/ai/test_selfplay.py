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


# --- sequential test and adjudication ------------------------------------------------------------
def test_sprt_stops_a_lopsided_pairing_early() -> None:
    result = CliRunner().invoke(app, ["selfplay", "t_tictactoe", "--bots", "mcts:200,random",
                                      "--games", "60", "--seed", "1", "--sprt", "0.5,0.7"])
    assert result.exit_code == 0, result.output
    text = " ".join(result.output.split())
    assert "H1 accepted: mcts:200 scores 0.7 or more" in text
    played = int(text.split(" games in ")[0].split()[-1])
    assert played < 60
    assert "bounds [-2.94, 2.94]" in text and "LLR +" in text


def test_sprt_judges_games_in_order_whatever_the_jobs() -> None:
    from gamehall.play.selfplay import sprt_counts
    from gamehall.play.sprt import SPRT

    test = SPRT(0.5, 0.7)
    tour = Tournament("hula", {}, ("mcts:40", "random"), 30, 2)

    def stop(prefix: list) -> bool:
        return test.verdict(*sprt_counts(prefix)) is not None

    one = run_tournament(tour, 1, stop=stop)
    two = run_tournament(tour, 2, stop=stop)
    assert [r.index for r in one] == list(range(len(one))) and len(one) < 30
    assert [(r.index, r.returns) for r in one] == [(r.index, r.returns) for r in two]
    assert test.verdict(*sprt_counts(one)) == "H1"
    assert test.verdict(*sprt_counts(one[:-1])) is None  # it stopped at the first decision


def test_sprt_needs_two_bots_and_good_bounds() -> None:
    for args, message in ((["--bots", "mcts:20,random,random", "--sprt", "0.5,0.7"],
                           "exactly two bots"),
                          (["--bots", "mcts:20,random", "--sprt", "0.7,0.5"], "0 < s0 < s1 < 1")):
        result = CliRunner().invoke(app, ["selfplay", "t_tictactoe", "--games", "2", *args])
        assert result.exit_code == 2 and message in result.output


def test_adjudication_ends_a_decided_game_as_its_win() -> None:
    """Hula, a strong search against a weak one: adjudicated once both agree, the game is
    shorter than played out, and counted as the win the full game also ends in."""
    from gamehall.play.selfplay import Adjudication, play_one

    bots = ("mcts:300", "mcts:30")
    plain = Tournament("hula", {}, bots, 4, 5)
    judged = Tournament("hula", {}, bots, 4, 5, adjudication=Adjudication(0.9, 3))
    ended_early = 0
    for i in range(4):
        full, short = play_one(plain, i), play_one(judged, i)
        assert not full.adjudicated
        if short.adjudicated:
            ended_early += 1
            assert short.moves < full.moves
            assert short.returns == full.returns
        else:
            assert (short.moves, short.returns) == (full.moves, full.returns)
    assert ended_early >= 2


def test_the_judge_needs_both_searches_to_agree() -> None:
    from gamehall.ai import MCTSBot
    from gamehall.play.selfplay import Adjudication, Judge

    class Valued(MCTSBot):
        value: float | None = None

        def root_value(self) -> float | None:
            return self.value

    a, b = Valued(1), Valued(2)
    judge = Judge(Adjudication(0.9, 2), 2)
    seen = []
    for va, vb in ((0.95, 0.05), (0.97, 0.5), (0.96, 0.04), (0.99, 0.02)):
        a.value, b.value = va, vb
        seen += [judge.see(0, a), judge.see(1, b)]
    # b's 0.5 keeps the agreement off until b's last two searches both agree again
    assert seen == [None] * 7 + [0]
    b.value = None  # a move b did not search (forced) changes nothing
    assert judge.see(1, b) is None and judge.see(0, a) == 0


def test_the_judge_never_rules_on_a_search_whose_value_is_a_best_continuation() -> None:
    from gamehall.ai import MCTSBot
    from gamehall.play.selfplay import Adjudication, Judge

    class Valued(MCTSBot):
        value: float | None = None

        def root_value(self) -> float | None:
            return self.value

    plain, ordered = Valued(1), Valued(2, ordering=(1.0, 0.5))
    judge = Judge(Adjudication(0.9, 1), 2)
    plain.value, ordered.value = 0.05, 0.99
    assert judge.see(0, plain) is None and judge.see(1, ordered) is None
    assert judge.see(0, plain) is None  # off for the rest of the game
