"""The ladder's reference at equal CPU time (``hard-reference-cpu``, ``uct:cpuX``): which games
run it, the budget it gives the reference, what each game logs, and how the table says it.
No test reads real time: the reference's process clock is a fake one."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from benchmarks import ladder

from gamehall.ai import reference
from tests.ai.clock import FakeClock


def _entries(log: Path) -> list[dict[str, object]]:
    return [json.loads(line) for line in log.read_text().splitlines()]


def test_slow_games_take_the_reference_at_equal_cpu_the_others_at_equal_simulations() -> None:
    steps = ladder.pairings("")
    for game in ("hau_la", "hotu_matua"):
        assert (game, "hard-reference-cpu") in steps and (game, "hard-reference") not in steps
    for game in ("hula", "haugaz", "halali"):
        assert (game, "hard-reference") in steps and (game, "hard-reference-cpu") not in steps
    assert ladder.pairings("hau_la") == [
        ("hau_la", "medium-easy"),
        ("hau_la", "hard-medium"),
        ("hau_la", "hard-reference-cpu"),
    ]
    # asked by name, either step runs in any game
    assert ladder.pairings("hau_la/hard-reference,hula/hard-reference-cpu") == [
        ("hau_la", "hard-reference"),
        ("hula", "hard-reference-cpu"),
    ]


def test_the_reference_gets_the_games_prior_or_the_one_given() -> None:
    assert ladder.step_bots("hau_la", "hard-reference-cpu", {}) == (
        "mcts:hard",
        f"uct:cpu{ladder.CPU_PRIOR['hau_la']:g}",
    )
    priors = ladder.parse_priors(["hotu_matua=0.8"])
    assert ladder.step_bots("hotu_matua", "hard-reference-cpu", priors) == (
        "mcts:hard",
        "uct:cpu0.8",
    )
    assert (
        ladder.step_bots("hau_la", "hard-reference-cpu", priors)[1]
        == f"uct:cpu{ladder.CPU_PRIOR['hau_la']:g}"
    )
    assert ladder.parse_priors(["0.3"])["hula"] == 0.3
    assert ladder.step_bots("hula", "hard-reference", {}) == ("mcts:hard", "uct:hard")
    with pytest.raises(SystemExit, match="--cpu-prior hula="):
        ladder.step_bots("hula", "hard-reference-cpu", {})
    with pytest.raises(SystemExit, match="positive"):
        ladder.parse_priors(["hau_la=0"])


def test_an_equal_cpu_pairing_logs_both_bots_cpu_and_its_budget_and_resumes_only_into_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(ladder, "STEPS", {"cpu-step": ("random", "uct:cpu")})
    monkeypatch.setattr(reference, "CPU_CLOCK", FakeClock(0.01))
    log = tmp_path / "ladder.jsonl"
    args = ["--log", str(log), "--only", "hula/cpu-step", "--games", "2", "--seed", "4"]
    ladder.main([*args, "--cpu-prior", "hula=0.05"])
    entries = _entries(log)
    assert [e["kind"] for e in entries] == ["start", "game", "game", "pairing"]
    games = entries[1:3]
    for g in games:
        assert g["cpu_budget"] == [None, 0.05]
        assert len(g["think_cpu"]) == len(g["searched"]) == 2  # type: ignore[arg-type]
        assert sum(g["searched"]) > 0  # type: ignore[arg-type]
    summary = entries[-1]
    assert summary["bots"] == ["random", "uct:cpu0.05"]
    assert summary["cpu_budget"] == [None, 0.05]
    assert len(summary["cpu_a_searched_move"]) == 2  # type: ignore[arg-type]
    row = ladder.table(log).splitlines()[-1]
    assert "`random` vs `uct:cpu0.05`" in row and "equal CPU (0.05 s a move)" in row
    # stopped after one game: only a run with the same budget goes on from it
    log.write_text("".join(json.dumps(e) + "\n" for e in entries[:2]))
    kept = log.read_text()
    ladder.main([*args, "--cpu-prior", "hula=0.1"])
    assert _entries(log)[2]["resumed"] == 0
    log.write_text(kept)
    ladder.main([*args, "--cpu-prior", "hula=0.05"])
    assert _entries(log)[2]["resumed"] == 1


def test_the_table_says_which_reference_steps_are_equal_simulations(tmp_path: Path) -> None:
    log = tmp_path / "ladder.jsonl"
    common = {
        "kind": "pairing",
        "seed": 1,
        "games": 6,
        "max_games": 60,
        "wdl": [6, 0, 0],
        "score": 1.0,
        "interval": [0.61, 1.0],
        "llr": 3.06,
        "bounds": [-2.94, 2.94],
        "verdict": "H1",
        "adjudicated": 0,
        "cpu_s": 10.0,
    }
    rows = [
        {
            **common,
            "game": "hula",
            "step": "hard-reference",
            "bots": ["mcts:hard", "uct:hard"],
            "simulations": [10000, 10000],
        },
        {
            **common,
            "game": "hula",
            "step": "hard-medium",
            "bots": ["mcts:hard", "mcts:medium"],
            "simulations": [10000, 2000],
        },
        {
            **common,
            "game": "hau_la",
            "step": "hard-reference-cpu",
            "bots": ["mcts:hard", "uct:cpu0.135"],
            "simulations": [300, None],
            "cpu_budget": [None, 0.135],
            "cpu_a_searched_move": [0.12, 0.14],
        },
    ]
    log.write_text("".join(json.dumps(r) + "\n" for r in rows))
    lines = ladder.table(log).splitlines()[2:]
    assert "equal simulations (10,000)" in lines[0]
    assert "| — |" in lines[1]
    assert "equal CPU (0.135 s a move)" in lines[2] and "0.120 / 0.140" in lines[2]
    assert all(line.split(" | ")[3] == "1" for line in lines)


def test_a_level_that_plays_out_its_turns_is_logged_so() -> None:
    four = ladder.setup("hau_la", ("mcts:hard", "mcts:medium"), False, {"players": "4"})
    assert four["playouts"] == [ladder.LEVEL_ROLLOUT["hau_la"][4]["hard"], None]
    assert "playouts" not in ladder.setup("hau_la", ("mcts:hard", "mcts:medium"), False)
