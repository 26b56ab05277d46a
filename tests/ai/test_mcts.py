"""MCTS on the toy games: determinism, forced wins, the solver, chance, 3–4 players, multi-step
turns, budgets, tree reuse, levels and evaluator plug-ins."""

from __future__ import annotations

import math
import random
import time
from collections.abc import Sequence

import pytest

from gamehall.ai import MCTSBot, RandomBot, make_bot, mcts, parse_level, register_evaluator
from gamehall.ai.evaluators import _registered
from gamehall.ai.mcts import Node
from gamehall.core import CHANCE, GamehallError, State, load_game
from tests.ai.clock import FakeClock
from tests.ai.toy_games import FACE, HOLD, ROLL, STOP, TAKE, FastTicTacToe


def ttt(board: str, to_move: int) -> State:
    game = load_game("t_tictactoe")
    return game.state_from_json({"game": game.name, "options": {}, "board": board,
                                 "to_move": to_move})


def race(total: int, to_move: int, players: int, target: int = 10) -> State:
    game = load_game("t_race", players=players, target=target)
    return game.state_from_json({"game": "t_race", "options": dict(game.options),
                                 "total": total, "to_move": to_move})


def nim(heap: int, taken: int, to_move: int = 0) -> State:
    game = load_game("t_nim", heap=20)
    return game.state_from_json({"game": "t_nim", "options": {"heap": 20}, "heap": heap,
                                 "taken": taken, "to_move": to_move})


def pig(scores: list[int], turn_total: int, to_move: int = 0, **options: object) -> State:
    game = load_game("t_pig", **options)
    return game.state_from_json({"game": "t_pig", "options": dict(game.options),
                                 "scores": scores, "turn_total": turn_total, "to_move": to_move,
                                 "rolling": False, "moves": 0})


def play_out(state: State, bots: Sequence[MCTSBot | RandomBot], rng: random.Random) -> State:
    while not state.is_terminal():
        player = state.current_player()
        action = state.sample_chance(rng) if player == CHANCE else bots[player].choose(state)
        state.apply_action(action)
    return state


# --- determinism ------------------------------------------------------------------------------
@pytest.mark.parametrize("game, options", [("t_tictactoe", {}), ("t_pig", {}),
                                           ("t_race", {"players": 4})])
def test_same_seed_same_game(game: str, options: dict[str, object]) -> None:
    def run(seed: int) -> list[int]:
        g = load_game(game, **options)
        bots = [MCTSBot(seed + s, simulations=60) for s in range(g.num_players)]
        return play_out(g.new_initial_state(7), bots, random.Random(3)).history()

    assert run(1) == run(1)
    assert run(1) != run(2) or run(1) != run(5)


def test_same_seed_same_tree_statistics() -> None:
    a, b = MCTSBot(4, simulations=300), MCTSBot(4, simulations=300)
    state = pig([3, 5], 4)
    ra, rb = a.search(state), b.search(state)
    assert [(c.action, c.n, c.w) for c in ra.children.values()] == \
        [(c.action, c.n, c.w) for c in rb.children.values()]


def tree(node: Node) -> list[object]:
    """A subtree's statistics, children in expansion order."""
    return [node.action, node.n, node.w, node.proven,
            [tree(child) for child in node.children.values()]]


@pytest.mark.parametrize("position", ["tictactoe", "tictactoe-solved", "pig"])
def test_wide_nodes_select_exactly_as_narrow_ones(position: str,
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    # Selection runs in numpy from WIDE children on; the arrays (kept up to date by the backup
    # and by the solver's proofs) must give the very same search as the per-child loop.
    state = {"tictactoe": lambda: ttt("." * 9, 0), "tictactoe-solved": lambda: ttt("x...o....", 0),
             "pig": lambda: pig([3, 5], 4)}[position]()
    monkeypatch.setattr(mcts, "WIDE", 10**9)
    narrow = tree(MCTSBot(3, simulations=3000).search(state))
    monkeypatch.setattr(mcts, "WIDE", 2)
    assert tree(MCTSBot(3, simulations=3000).search(state)) == narrow


# --- forced wins in one -------------------------------------------------------------------------
def test_tictactoe_takes_the_win_rather_than_blocking() -> None:
    # x: a1 b1 (wins at c1); o: a2 b2 (threatens c2). x must play c1 (action 2).
    state = ttt("xx.oo....", 0)
    for seed in range(5):
        assert MCTSBot(seed, simulations=50).choose(state) == 2


@pytest.mark.parametrize("players", [2, 3, 4])
def test_race_takes_the_win_for_every_player_count(players: int) -> None:
    for mover in range(players):
        state = race(8, mover, players)
        assert MCTSBot(mover, simulations=40).choose(state) == 2
        root = MCTSBot(mover, simulations=40, solve=False).search(state)
        # statistics are kept for the seat that chose the edge: +2 wins, +1 hands the win on
        assert root.children[2].w / root.children[2].n == 1.0
        assert root.children[1].w == 0.0


def test_pig_holds_to_win_despite_chance() -> None:
    state = pig([14, 0], 3)
    for seed in range(5):
        assert MCTSBot(seed, simulations=30).choose(state) == HOLD


def test_multi_step_nim_finishes_the_turn_correctly() -> None:
    # heap 4 after taking one: stop (leave a multiple of 4)
    assert MCTSBot(1, simulations=200).choose(nim(4, 1)) == STOP
    # heap 6 after taking one: take again (6 -> 5 -> 4, then stop)
    assert MCTSBot(1, simulations=400).choose(nim(6, 1)) == TAKE


# --- solver ------------------------------------------------------------------------------------
def test_solver_proves_nim_positions_and_stops_early() -> None:
    win = MCTSBot(1, simulations=100_000)
    root = win.search(nim(5, 0))
    assert win.stats.solved and win.stats.simulations < 100_000
    assert root.proven == [1.0, -1.0]
    assert win.choose(nim(4, 1)) == STOP  # the proven plan: take one, stop, leave four
    lose = MCTSBot(1, simulations=100_000)
    lose_root = lose.search(nim(8, 0, to_move=1))
    assert lose.stats.solved and lose_root.proven == [1.0, -1.0]  # seat 1 loses


def minimax(state: State) -> list[float]:
    if state.is_terminal():
        return state.returns()
    player = state.current_player()
    best: list[float] | None = None
    for action in state.legal_actions():
        child = state.clone()
        child.apply_action(action)
        value = minimax(child)
        if best is None or value[player] > best[player]:
            best = value
    assert best is not None
    return best


def test_solver_agrees_with_minimax_on_tictactoe() -> None:
    rng = random.Random(11)
    proved_decisive = 0
    for _ in range(12):
        state = ttt("." * 9, 0)
        for _ in range(rng.randint(3, 5)):
            state.apply_action(rng.choice(state.legal_actions()))
        if state.is_terminal():
            continue
        exact = minimax(state)
        root = MCTSBot(rng.randrange(100), simulations=20_000).search(state)
        if exact != [0.0, 0.0]:
            assert root.proven == exact  # wins and losses get proven
            proved_decisive += 1
        elif root.proven is not None:
            assert root.proven == exact
    assert proved_decisive >= 3


def test_no_solver_for_three_players_only_exact_terminals() -> None:
    bot = MCTSBot(1, simulations=2000)
    root = bot.search(race(5, 0, 3))
    assert root.proven is None and not bot.stats.solved


# --- chance -------------------------------------------------------------------------------------
def test_chance_outcomes_are_sampled_with_their_probabilities() -> None:
    state = pig([0, 0], 0, loaded=True)  # only ROLL is legal; a 1 comes up half the time
    root = MCTSBot(2, simulations=2500, solve=False).search(state)
    chance = root.children[ROLL]
    assert chance.player == CHANCE
    share = {a: c.n / chance.n for a, c in chance.children.items()}
    assert abs(share[FACE] - 0.5) < 0.05
    for face in range(FACE + 1, FACE + 6):
        assert abs(share[face] - 0.1) < 0.035


def test_mcts_beats_random_at_pig() -> None:
    game = load_game("t_pig", target=15)
    rng = random.Random(0)
    score = 0.0
    for i in range(12):
        seats = [MCTSBot(i, simulations=150), RandomBot(i)]
        if i % 2:
            seats.reverse()
        end = play_out(game.new_initial_state(i), seats, rng)
        score += end.returns()[i % 2] > 0
    assert score >= 9


# --- budgets -----------------------------------------------------------------------------------
class SlowEvaluator:
    """Takes 1/64 s of the bot's (fake) clock per leaf: a stand-in for a slow game."""

    def __init__(self, clock: FakeClock) -> None:
        self.clock = clock
        self.calls = 0

    def evaluate(self, state: State, rng: random.Random,
                 deadline: float | None = None) -> list[float]:
        self.calls += 1
        self.clock.now += 1 / 64
        return [0.0] * state.game.num_players


def test_time_budget_is_respected() -> None:
    """A 1/4 s budget and 1/64 s a simulation: 15 simulations end in time, and the search stops
    rather than start a 16th that, as slow as the slowest so far, would end at the deadline."""
    clock = FakeClock(0.0)
    slow = SlowEvaluator(clock)
    bot = MCTSBot(1, simulations=None, seconds=0.25, evaluator=slow, clock=clock)
    bot.choose(pig([0, 0], 5))
    assert slow.calls == bot.stats.simulations == 15  # type: ignore[attr-defined]
    assert bot.stats.seconds == 15 / 64  # type: ignore[attr-defined]


def test_contract_rollouts_stop_at_the_deadline() -> None:
    from gamehall.ai.evaluators import playout

    state = load_game("t_pig", target=100, limit=100_000).new_initial_state()
    assert playout(state, random.Random(1), deadline=time.perf_counter() - 1) is None


def test_levels_search_their_games_simulations_whatever_the_clock() -> None:
    """A level is a simulation budget per game: on a clock that moves on a minute a reading (a
    time cap would stop at once) each level searches exactly its game's simulations."""
    from gamehall.ai.levels import DEFAULT_SIMULATIONS, LEVEL_SIMULATIONS, level_simulations

    for level in ("easy", "medium", "hard"):
        bot = make_bot(f"mcts:{level}", 1)
        assert isinstance(bot, MCTSBot) and bot.seconds is None
        bot.clock = FakeClock(60.0)
        bot.choose(pig([0, 0], 5, target=60))
        assert bot.stats.simulations == DEFAULT_SIMULATIONS[level] == \
            level_simulations(level, "t_pig")
        assert level_simulations(level, "hula") == LEVEL_SIMULATIONS["hula"][level]
    for table in (*LEVEL_SIMULATIONS.values(), DEFAULT_SIMULATIONS):
        assert table["easy"] < table["medium"] < table["hard"]


def test_a_level_bot_follows_the_game_it_plays() -> None:
    from gamehall.ai.levels import LEVEL_SIMULATIONS

    LEVEL_SIMULATIONS["t_tictactoe"] = {"easy": 7, "medium": 11, "hard": 13}
    try:
        bot = make_bot("mcts:medium", 2)
        bot.choose(ttt(".........", 0))
        assert bot.stats.simulations == 11  # type: ignore[attr-defined]
        bot.choose(pig([0, 0], 5, target=60))
        assert bot.stats.simulations == 200  # type: ignore[attr-defined]
    finally:
        del LEVEL_SIMULATIONS["t_tictactoe"]


def test_the_hall_caps_a_level_at_its_ceiling() -> None:
    """Only the hall's workers apply a level's ceiling (and the operator's, whichever is
    lower); on a clock that moves on 1 ms a reading the search stops there."""
    from gamehall.ai.levels import CEILINGS
    from gamehall.server.engines import worker as botworker

    made: list[MCTSBot] = []

    def spy(spec: str, seed: int) -> MCTSBot:
        bot = make_bot(spec, seed)
        assert isinstance(bot, MCTSBot)
        bot.clock = FakeClock(0.001)
        made.append(bot)
        return bot

    state = pig([0, 0], 5, target=60)
    job = {"spec": "mcts:hard", "state": state.to_json(), "seed": 1, "seconds": 3.0}
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr("gamehall.ai.make_bot", spy)
        botworker.choose(job)
        botworker.choose({**job, "seconds": 0.5})
    assert [b.seconds for b in made] == [CEILINGS["hard"], 0.5]
    assert all(b.stats.seconds <= b.seconds + 0.01 for b in made if b.seconds)
    assert made[0].stats.simulations < 1000  # cut by the ceiling before its budget


def test_levels_and_specs() -> None:
    assert parse_level("easy").level == "easy" and parse_level("easy").simulations is None
    assert parse_level("hard").seconds == 2.0
    assert parse_level("250").simulations == 250 and parse_level("250").seconds is None
    assert parse_level("0.5s").seconds == 0.5
    assert isinstance(make_bot("mcts", 1), MCTSBot)
    assert parse_level("300+pw") == parse_level("300") and parse_level("+pw").level == "medium"
    widened = make_bot("mcts:hard+PW", 1)
    assert isinstance(widened, MCTSBot) and widened.chance_widening == (1.0, 0.5)
    assert widened.seconds is None
    plain = make_bot("mcts:hard", 1)
    assert isinstance(plain, MCTSBot) and plain.chance_widening is None
    with pytest.raises(GamehallError, match=r"repeated suffix \+pw"):
        make_bot("mcts:300+pw+pw", 1)
    with pytest.raises(GamehallError, match="no MCTS level"):
        make_bot("mcts:brutal", 1)
    with pytest.raises(GamehallError):
        MCTSBot(1, simulations=None, seconds=None)


# --- tree reuse ---------------------------------------------------------------------------------
def test_tree_is_reused_after_both_moves() -> None:
    game = load_game("t_tictactoe")
    state = game.new_initial_state()
    bot = MCTSBot(3, simulations=500, solve=False)
    first = bot.search(state)
    action = bot.choose(state)
    state.apply_action(action)
    reply = sorted(state.legal_actions())[0]
    expected = first.children[action].children[reply].n
    state.apply_action(reply)
    root = bot.search(state)
    assert expected > 0 and bot.stats.reused_visits == expected
    assert root.n == expected + 500
    assert set(root.children) <= set(state.legal_actions())


def test_tree_reuse_with_multi_step_turns_and_chance() -> None:
    state = load_game("t_pig", target=25).new_initial_state()
    bot = MCTSBot(5, simulations=150)
    rng = random.Random(1)
    reused = decisions = 0
    for _ in range(60):
        if state.is_terminal():
            break
        if state.is_chance_node():
            state.apply_action(state.sample_chance(rng))
            continue
        action = bot.choose(state)
        assert action in state.legal_actions()
        if len(state.legal_actions()) > 1:  # forced steps are answered without a search
            reused += bot.stats.reused_visits > 0
            decisions += 1
        state.apply_action(action)
    assert decisions > 10 and reused >= 0.8 * (decisions - 1)


def test_tree_not_reused_for_a_different_position() -> None:
    bot = MCTSBot(3, simulations=200, solve=False)
    state = ttt("." * 9, 0)
    bot.choose(state)
    # same history length + 1 but a different board: must start afresh
    other = ttt("o" + "." * 8, 0)
    other._history = [*state.history(), 4]
    bot.choose(other)
    assert bot.stats.reused_visits == 0
    # a state rebuilt from JSON (empty history) is searched afresh
    bot.choose(ttt("x...o....", 0))
    assert bot.stats.reused_visits == 0


def test_reset_forgets_the_tree() -> None:
    bot = MCTSBot(3, simulations=100, solve=False)
    state = load_game("t_tictactoe").new_initial_state()
    bot.choose(state)
    bot.choose(state)
    assert bot.stats.reused_visits == 100
    bot.reset()
    bot.choose(state)
    assert bot.stats.reused_visits == 0


# --- evaluators ---------------------------------------------------------------------------------
def test_engine_random_playout_is_used_when_offered() -> None:
    FastTicTacToe.playouts = 0
    MCTSBot(1, simulations=100, solve=False).choose(
        load_game("t_tictactoe_fast").new_initial_state())
    assert FastTicTacToe.playouts > 50


def test_registered_evaluator_is_the_default() -> None:
    slow = SlowEvaluator(FakeClock(0.0))
    register_evaluator("t_race", lambda game: slow)
    try:
        MCTSBot(1, simulations=10).choose(race(0, 0, 3))
        assert slow.calls >= 5
    finally:
        _registered.pop("t_race")


def test_a_forced_step_is_answered_without_searching() -> None:
    state = nim(5, 3)  # three taken: only "stop" is legal
    bot = MCTSBot(1, simulations=None, seconds=1.0)
    assert bot.choose(state) == STOP
    assert bot.stats.simulations == 0, "a forced step spends none of the budget"


# --- chance widening ----------------------------------------------------------------------------
@pytest.mark.parametrize("k, alpha", [(1.0, 0.5), (0.5, 0.25), (2.0, 0.0)])
def test_chance_widening_bounds_the_outcomes_of_a_chance_node(k: float, alpha: float) -> None:
    state = pig([0, 0], 0)  # only ROLL is legal: the root's one child is a six-outcome chance node
    for sims in (1, 3, 10, 40, 400):
        root = MCTSBot(3, simulations=sims, solve=False, chance_widening=(k, alpha)).search(state)
        chance = root.children[ROLL]
        # the first visit valued the chance node itself; each later one went to an outcome
        assert sum(c.n for c in chance.children.values()) == chance.n - 1
        assert len(chance.children) <= min(6, math.ceil(k * chance.n ** alpha))
        assert len(chance.children) >= (1 if chance.n > 1 else 0)


def test_chance_widening_keeps_the_distribution_among_the_outcomes_it_keeps() -> None:
    state = pig([0, 0], 0, loaded=True)  # FACE has probability 0.5, the others 0.1 each
    root = MCTSBot(4, simulations=3000, solve=False, chance_widening=(1.0, 0.1)).search(state)
    chance = root.children[ROLL]
    kept = list(chance.children)
    assert len(kept) < 6
    probs = {FACE: 0.5, **{a: 0.1 for a in range(FACE + 1, FACE + 6)}}
    total = sum(probs[a] for a in kept)
    for a in kept:
        assert abs(chance.children[a].n / chance.n - probs[a] / total) < 0.05


def test_chance_widening_is_deterministic_and_off_by_default() -> None:
    state = pig([3, 5], 4)
    def visits(bot: MCTSBot) -> list[tuple[int, int]]:
        root = bot.search(state)
        return sorted((a, c.n) for a, c in root.children[ROLL].children.items())
    assert visits(MCTSBot(5, simulations=300, chance_widening=(1.0, 0.5))) == visits(
        MCTSBot(5, simulations=300, chance_widening=(1.0, 0.5)))
    assert MCTSBot(5).chance_widening is None
    with pytest.raises(GamehallError):
        MCTSBot(5, chance_widening=(0.0, 0.5))
    with pytest.raises(GamehallError):
        MCTSBot(5, chance_widening=(1.0, 1.5))


def test_root_value_of_the_last_search() -> None:
    bot = MCTSBot(1, simulations=300)
    assert bot.root_value() is None
    bot.choose(ttt("xx.oo....", 0))  # x wins at once: the solver proves the root
    assert bot.root_value() == 1.0
    bot.choose(ttt(".........", 0))
    value = bot.root_value()
    assert value is not None and 0.3 < value < 1.0
    bot.choose(ttt("xoxoxoox.", 0))  # one square left: a forced move, not searched
    assert bot.root_value() is None
