"""The ladder (benchmarks/ladder.py) goes on from a stopped pairing's last logged game."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from benchmarks import ladder


def _entries(log: Path) -> list[dict[str, object]]:
    return [json.loads(line) for line in log.read_text().splitlines()]


def test_a_stopped_pairing_resumes_from_its_next_game_and_counts_the_games_before(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(ladder, "STEPS", {"random-random": ("random", "random")})
    log = tmp_path / "ladder.jsonl"
    args = ["--log", str(log), "--seed", "3", "--only", "hula/random-random", "--games"]
    ladder.main([*args, "2"])
    first = _entries(log)
    assert [e["kind"] for e in first] == ["start", "game", "game", "pairing"]
    # as if stopped after two games: the summary never written
    log.write_text("".join(json.dumps(e) + "\n" for e in first[:-1]))
    truncated = log.read_text()
    ladder.main([*args, "4", "--no-adjudicate"])  # another setup: nothing to resume from
    assert _entries(log)[3]["resumed"] == 0
    log.write_text(truncated)
    ladder.main([*args, "4"])
    entries = _entries(log)
    assert [e["kind"] for e in entries] == ["start", "game", "game", "start", "game", "game",
                                            "pairing"]
    assert entries[3]["resumed"] == 2
    assert [e["index"] for e in entries if e["kind"] == "game"] == [0, 1, 2, 3]
    summary = entries[-1]
    assert summary["games"] == 4 and sum(summary["wdl"]) == 4  # type: ignore[arg-type]
    # the same four games as one run that was never stopped
    again = tmp_path / "again.jsonl"
    ladder.main(["--log", str(again), "--seed", "3", "--only", "hula/random-random",
                 "--games", "4"])
    once = [e for e in _entries(again) if e["kind"] == "game"]
    resumed = [e for e in entries if e["kind"] == "game"]
    assert [(e["seats"], e["returns"], e["moves"]) for e in once] == \
        [(e["seats"], e["returns"], e["moves"]) for e in resumed]


def test_game_options_reach_the_games_and_the_log(tmp_path: Path,
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(ladder, "STEPS", {"random-random": ("random", "random")})
    log = tmp_path / "ladder.jsonl"
    ladder.main(["--log", str(log), "--only", "hau_la/random-random", "--games", "1",
                 "-o", "players=3"])
    games = [e for e in _entries(log) if e["kind"] == "game"]
    assert len(games) == 1 and len(games[0]["seats"]) == 3  # type: ignore[arg-type]
    assert games[0]["options"] == {"players": "3"}
