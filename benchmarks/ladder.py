"""The ladder of issue 31: each level against the one below and `hard` against the reference,
in every game, each pairing stopped by its sequential test.

    nice -n 19 python -m benchmarks.ladder [--log benchmarks/ladder.jsonl] [--games 60]
        [--sprt 0.5,0.7] [--seed 1] [--only hula/hard-medium,halali] [--no-adjudicate]
        [-o players=3] [--cpu-prior [GAME=]SECONDS]

One pairing at a time, one process (the machine is shared). Each game played is appended to the
log as a JSON line (``"kind": "game"``) as it ends, and each pairing's summary once its test
decides or its games run out (``"kind": "pairing"``: games, W-D-L of the first bot, score with
its 95% Wilson interval, LLR, bounds, verdict, CPU seconds). A pairing already summarised in the
log is skipped, so a stopped run resumes where it was: a pairing cut off midway goes on from the
first game not in the log (games logged with their seed, since 2026-12-04; resume with the same
levels only).
`python -m benchmarks.ladder --table` prints the log's summaries as the Markdown table of
benchmarks/README.md, with pairings begun and unfinished said so.

The reference step is `hard` against plain UCT at equal *simulations* (``hard-reference``:
``uct:hard``) where that fits a session, and at equal *CPU time* (``hard-reference-cpu``:
``uct:cpuX``, X CPU seconds a move) in the games of `CPU_PRIOR` (Hotu Matua's 10,000 random
rollouts of ~2,000-action games, Hau La's 300 random games a move: hours a game). X is `hard`'s
mean CPU a searched move there, measured beforehand (`CPU_PRIOR`, or ``--cpu-prior``); each game
logs both bots' CPU and searched moves, and the table says what each bot spent a searched move,
so the equality is checked, not assumed.
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path
from typing import Any

from gamehall.ai.levels import LEVEL_NAMES, LEVEL_ROLLOUT, level_simulations, split_level
from gamehall.ai.reference import uct_cpu_seconds
from gamehall.core import load_game
from gamehall.play.ratings import Standings
from gamehall.play.selfplay import (
    Adjudication,
    GameResult,
    Tournament,
    cpu_seconds,
    play_one,
    sprt_counts,
)
from gamehall.play.sprt import SPRT, parse_sprt

GAMES = ("hula", "haugaz", "halali", "hau_la", "hotu_matua")
STEPS = {
    "medium-easy": ("mcts:medium", "mcts:easy"),
    "hard-medium": ("mcts:hard", "mcts:medium"),
    "hard-reference": ("mcts:hard", "uct:hard"),
    "hard-reference-cpu": ("mcts:hard", "uct:cpu"),
}
CPU_PRIOR: dict[str, float] = {"hau_la": 0.135, "hotu_matua": 1.1}
"""`hard`'s mean CPU seconds a searched move, per game whose reference step runs at equal CPU
(``uct:cpuX`` with this X): `python -m benchmarks.levels --levels hard --only GAME`
(benchmarks/README.md: Hau La 0.135 over 76 moves, Hotu Matua 1.11 over 50). Per game only: Hau
La's `hard` at 4 players plays out its turns and spends about 0.3 s, given by ``--cpu-prior
hau_la=0.31`` there; in Hotu Matua `hard` spent 0.54 s a searched move in the ladder's games,
so 1.1 favours the reference (the table shows both sides' CPU)."""
LOG = Path(__file__).with_name("ladder.jsonl")


SLOW = ("hotu_matua",)
"""Games whose pairings run after every other game's (a Hotu Matua game is ~1,800 actions)."""


def pairings(only: str) -> list[tuple[str, str]]:
    """(game, step) in the order run: cheapest steps first, each over every game, the slow
    games' pairings last."""
    wanted = [w for w in only.split(",") if w]
    out = []
    for slow in (False, True):
        for step in STEPS:
            for game in GAMES:
                if (game in SLOW) != slow:
                    continue
                if f"{game}/{step}" in wanted or ((not wanted or game in wanted)
                                                  and default_step(game, step)):
                    out.append((game, step))
    return out


def default_step(game: str, step: str) -> bool:
    """Whether a game's ladder has `step` unless asked by name: its reference step is at equal
    CPU in the games of `CPU_PRIOR`, at equal simulations in the others."""
    if step.startswith("hard-reference"):
        return (step == "hard-reference-cpu") == (game in CPU_PRIOR)
    return True


def step_bots(game: str, step: str, priors: dict[str, float]) -> tuple[str, str]:
    """The step's two bot specs in `game`: ``uct:cpu`` becomes ``uct:cpuX`` with X the
    game's prior (``--cpu-prior``, else `CPU_PRIOR`)."""
    first, second = STEPS[step]
    if second == "uct:cpu":
        prior = priors.get(game, CPU_PRIOR.get(game))
        if prior is None:
            raise SystemExit(f"no CPU prior for {game}: give --cpu-prior {game}=SECONDS")
        second = f"uct:cpu{prior:g}"
    return first, second


def parse_priors(given: list[str]) -> dict[str, float]:
    """``--cpu-prior`` values: ``GAME=SECONDS`` for one game, ``SECONDS`` for every game."""
    priors: dict[str, float] = {}
    for item in given:
        game, _, value = item.rpartition("=")
        seconds = float(value)
        if seconds <= 0:
            raise SystemExit(f"--cpu-prior {item}: seconds must be positive")
        for name in [game] if game else [*GAMES, *CPU_PRIOR]:
            priors[name] = seconds
    return priors


def append(log: Path, entry: dict[str, Any]) -> None:
    with log.open("a", encoding="utf-8") as f:
        f.write(json.dumps(entry) + "\n")


def log_game(log: Path, fields: dict[str, Any], r: GameResult,
             cpu: float | None = None) -> None:
    """Append a finished game to the log (`fields` name its pairing; `cpu`: the CPU seconds
    it took) and say it on stdout."""
    append(log, {"kind": "game", **fields, "index": r.index, "seats": r.seat_bots,
                 "returns": r.returns, "moves": r.moves, "adjudicated": r.adjudicated,
                 "seconds": round(r.seconds, 1),
                 **({"cpu_s": round(cpu, 1)} if cpu is not None else {}),
                 "think_cpu": [round(c, 2) for c in r.think_cpu],
                 "searched": r.think_searched})
    label = " ".join(str(fields[k]) for k in ("game", "step", "seed") if k in fields)
    print(f"  {label} game {r.index + 1}: {r.returns} "
          f"({r.moves} actions{', adjudicated' if r.adjudicated else ''}, {r.seconds:.0f} s)",
          flush=True)


def read_log(log: Path) -> list[dict[str, Any]]:
    if not log.exists():
        return []
    return [json.loads(line) for line in log.read_text(encoding="utf-8").splitlines() if line]


def summary(game: str, step: str, tour: Tournament, test: SPRT, results: list[GameResult],
            cpu: float, wall: float) -> dict[str, Any]:
    g = load_game(game)
    table = Standings(tour.labels(), lo=g.min_utility, hi=g.max_utility)
    for r in results:
        table.add_game(r.seat_bots, r.returns)
    pair = table.pair_interval(0, 1) or (0.0, 0.0, 1.0)
    wins, draws, losses = sprt_counts(results)
    return {"kind": "pairing", "game": game, "step": step, "bots": list(tour.bots),
            "seed": tour.seed, "games": len(results), "max_games": tour.games,
            "wdl": [wins, draws, losses], "score": pair[1], "interval": [pair[0], pair[2]],
            "llr": test.llr(wins, draws, losses), "bounds": [test.lower, test.upper],
            "sprt": [test.s0, test.s1], "verdict": test.verdict(wins, draws, losses),
            "adjudicated": sum(r.adjudicated for r in results),
            "cpu_s": round(cpu, 1), "wall_s": round(wall, 1), "at": time.strftime("%F %T"),
            "cpu_a_searched_move": cpu_a_move(results)}


def simulations(spec: str, game: str) -> int | None:
    """The simulations a move of bot `spec` in `game` (a level's budget, ``uct:hard``'s, or a
    count); None for a bot without one (``random``, a time budget)."""
    kind, _, level = spec.partition(":")
    base = (split_level(level)[0] if kind == "mcts" else level) or ""
    if base in LEVEL_NAMES:
        return level_simulations(base, game)
    if kind == "uct" and base in ("", "hard"):
        return level_simulations("hard", game)
    return int(base) if base.isdigit() else None


def setup(game: str, bots: tuple[str, str], adjudicate: bool,
          options: dict[str, str] | None = None) -> dict[str, Any]:
    """What a pairing's games depend on besides their seed: the bots' budgets, whether games
    are adjudicated and the game's options where any are given (logged with each game, so a
    resumed run never mixes games of another)."""
    found: dict[str, Any] = {"simulations": [simulations(b, game) for b in bots],
                             "adjudicate": adjudicate}
    cpu = [uct_cpu_seconds(b.partition(":")[2]) if b.startswith("uct:") else None
           for b in bots]
    if any(c is not None for c in cpu):
        found["cpu_budget"] = cpu
    players = load_game(game, **(options or {})).num_players
    playouts = [LEVEL_ROLLOUT.get(game, {}).get(players, {}).get(b.partition(":")[2])
                if b.startswith("mcts:") else None for b in bots]
    if any(p is not None for p in playouts):
        found["playouts"] = playouts  # the level plays out turns there: not its simulations
    if options:
        found["options"] = options
    return found


def resumed(log: Path, game: str, step: str, seed: int,
            like: dict[str, Any]) -> list[dict[str, Any]]:
    """The games of an unfinished pairing already in the log: a pairing's games are seeded by
    their index, so a stopped run goes on from the next one instead of playing them again.
    Only games logged with the same `setup` count (the code itself the log does not know)."""
    return in_order(read_log(log), game, step, seed, like)


def in_order(entries: list[dict[str, Any]], game: str, step: str, seed: int,
             like: dict[str, Any] | None = None) -> list[dict[str, Any]]:
    """The pairing's games logged with their seed (and, where logged, the setup `like`),
    index 0, 1, ... up to the first gap."""
    games = {e["index"]: e for e in entries if e["kind"] == "game" and e["game"] == game
             and e["step"] == step and e.get("seed") == seed
             and all(e.get(k, v) == v for k, v in (like or {}).items())}
    out: list[dict[str, Any]] = []
    while len(out) in games:
        out.append(games[len(out)])
    return out


def run_pairing(game: str, step: str, args: argparse.Namespace, test: SPRT) -> None:
    """Play the pairing's games from the first not in the log until the test decides or the
    games run out; log each game (with the CPU it took) and the summary."""
    bots = step_bots(game, step, args.priors)
    rule = None if args.no_adjudicate else Adjudication()
    options = dict(o.split("=", 1) for o in args.option)
    tour = Tournament(game, options, bots, args.games, args.seed, adjudication=rule)
    like = setup(game, bots, rule is not None, options)
    before = resumed(args.log, game, step, args.seed, like)
    results = [as_result(e) for e in before]
    cpu = sum(e.get("cpu_s", 0.0) for e in before)
    unlogged = sum("cpu_s" not in e for e in before)
    wall = sum(e["seconds"] for e in before)
    append(args.log, {"kind": "start", "game": game, "step": step, "bots": list(bots),
                      "seed": args.seed, **like, "resumed": len(before),
                      "at": time.strftime("%F %T")})
    while len(results) < tour.games and test.verdict(*sprt_counts(results)) is None:
        start = cpu_seconds()
        r = play_one(tour, len(results))
        spent = cpu_seconds() - start
        cpu, wall = cpu + spent, wall + r.seconds
        log_game(args.log, {"game": game, "step": step, "seed": args.seed, **like}, r, spent)
        results.append(r)
    entry = {**summary(game, step, tour, test, results, cpu, wall), **like}
    if unlogged:
        entry["cpu_unlogged_games"] = unlogged  # resumed games logged before their CPU was
    append(args.log, entry)
    print(json.dumps(entry), flush=True)


def as_result(e: dict[str, Any]) -> GameResult:
    """A logged game as the result it was (CPU and searched moves where logged)."""
    return GameResult(e["index"], e["seats"], e["returns"], e["moves"], e["seconds"],
                      adjudicated=e["adjudicated"], think_cpu=e.get("think_cpu", []),
                      think_searched=e.get("searched", []))


def cpu_a_move(results: list[GameResult], bots: int = 2) -> list[float] | None:
    """Each bot's CPU seconds a searched move over the games that logged them (None: none
    did): an equal-CPU step's check that both sides thought alike."""
    cpu, moves = [0.0] * bots, [0] * bots
    for r in results:
        if not r.think_cpu:
            continue
        for seat, b in enumerate(r.seat_bots):
            cpu[b] += r.think_cpu[seat]
            moves[b] += r.think_searched[seat]
    if not any(moves):
        return None
    return [round(c / m, 3) if m else 0.0 for c, m in zip(cpu, moves, strict=True)]


def reference_words(e: dict[str, Any]) -> str:
    """How a pairing's reference was budgeted, for the table: equal simulations or equal CPU."""
    if "cpu_budget" in e:
        given = next(c for c in e["cpu_budget"] if c is not None)
        return f"equal CPU ({given:g} s a move)"
    if e["bots"][1].startswith("uct:"):
        return f"equal simulations ({e['simulations'][1]:,})" if e.get("simulations") else \
            "equal simulations"
    return "—"


def table(log: Path) -> str:
    """The log as a Markdown table: every pairing summarised, and those begun but unfinished;
    the reference column says whether `hard` met it at equal simulations or equal CPU, the last
    column what each bot spent a searched move (where the games logged it)."""
    entries = read_log(log)
    rows = ["| game | pairing | reference at | seed | games | W-D-L (first bot) | score (95% CI) "
            "| LLR (bounds) | SPRT verdict | adjudicated | CPU s | CPU s a searched move |",
            "|---|---|---|---|---|---|---|---|---|---|---|---|"]
    done = set()
    for e in entries:
        if e["kind"] != "pairing":
            continue
        done.add((e["game"], e["step"], e["seed"]))
        verdict = {"H1": "**H1 accepted** (stronger)", "H0": "H0 accepted (not stronger)"}.get(
            e["verdict"], f"no decision in {e['max_games']} games")
        w, d, losses = e["wdl"]
        rows.append(f"| {e['game']} | `{e['bots'][0]}` vs `{e['bots'][1]}` | "
                    f"{reference_words(e)} | {e['seed']} | {e['games']} | "
                    f"{w}-{d}-{losses} | {e['score']:.2f} ({e['interval'][0]:.2f}–"
                    f"{e['interval'][1]:.2f}) | {e['llr']:+.2f} ({e['bounds'][0]:.2f}, "
                    f"{e['bounds'][1]:.2f}) | {verdict} | {e['adjudicated']} | {e['cpu_s']:.0f}"
                    + (f" + {e['cpu_unlogged_games']} games not logged" if
                       e.get("cpu_unlogged_games") else "")
                    + f" | {per_move(e.get('cpu_a_searched_move'))} |")
    test = SPRT(0.5, 0.7)
    for at, e in enumerate(entries):
        if e["kind"] != "start" or (e["game"], e["step"], e["seed"]) in done:
            continue
        later = [s for s in entries[at + 1:] if s["kind"] == "start" and s["game"] == e["game"]
                 and s["step"] == e["step"] and s["seed"] == e["seed"]]
        if later:
            continue  # started again: the last start is the one to report
        logged = (in_order(entries, e["game"], e["step"], e["seed"]) if "resumed" in e else
                  [g for g in entries[at + 1:] if g["kind"] == "game" and g["game"] == e["game"]
                   and g["step"] == e["step"]])
        games = [as_result(g) for g in logged]
        w, d, losses = sprt_counts(games)
        cpu = sum(g.get("cpu_s", 0.0) for g in logged)
        rows.append(f"| {e['game']} | `{e['bots'][0]}` vs `{e['bots'][1]}` | "
                    f"{reference_words(e)} | {e['seed']} | {len(games)} | {w}-{d}-{losses} | | "
                    f"{test.llr(w, d, losses):+.2f} | **unfinished** (stopped) | "
                    f"{sum(g.adjudicated for g in games)} | {cpu:.0f} | "
                    f"{per_move(cpu_a_move(games))} |")
        done.add((e["game"], e["step"], e["seed"]))
    return "\n".join(rows)


def per_move(cpu: list[float] | None) -> str:
    return " / ".join(f"{c:.3f}" for c in cpu) if cpu else ""


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--log", type=Path, default=LOG)
    parser.add_argument("--games", type=int, default=60, help="most games a pairing plays")
    parser.add_argument("--sprt", default="0.5,0.7", help="score bounds S0,S1")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--only", default="", help="games or GAME/STEP, comma-separated")
    parser.add_argument("--no-adjudicate", action="store_true")
    parser.add_argument("--option", "-o", action="append", default=[],
                        help="game option key=value (players=3: one log per option set)")
    parser.add_argument("--cpu-prior", action="append", default=[], metavar="[GAME=]SECONDS",
                        help="CPU seconds a move of uct:cpu in hard-reference-cpu (default: "
                        "CPU_PRIOR, hard's mean measured by benchmarks.levels)")
    parser.add_argument("--table", action="store_true", help="print the log as a table")
    args = parser.parse_args(argv)
    if args.table:
        print(table(args.log))
        return
    test = parse_sprt(args.sprt)
    args.priors = parse_priors(args.cpu_prior)
    finished = {(e["game"], e["step"], e["seed"]) for e in read_log(args.log)
                if e["kind"] == "pairing"}
    for game, step in pairings(args.only):
        if (game, step, args.seed) not in finished:
            run_pairing(game, step, args, test)


if __name__ == "__main__":
    main()
