"""The OpenSpiel adapter: OpenSpiel's own checks and bots on every game, and what it declares."""

from __future__ import annotations

import json
import pickle
import random
import time
from collections.abc import Iterator

import numpy as np
import pytest

from gamehall.core import (
    GameRecord,
    IllegalActionError,
    load_game,
    register_game,
    unregister_game,
)
from tests.adapters.configs import ALL, REAL_GAMES, TOY, AdapterConfig, ids
from tests.adapters.parallel import SimRunner
from tests.adapters.toys import LyingNim

pyspiel = pytest.importorskip(
    "pyspiel", reason="open-spiel is not installed (pip install 'gamehall[openspiel]')")
gos = pytest.importorskip("gamehall.adapters.openspiel")
mcts = pytest.importorskip("open_spiel.python.algorithms.mcts")

Type = pyspiel.GameType


def _load(cfg: AdapterConfig):  # noqa: ANN202 - a pyspiel game
    gos.register(cfg.game)
    return pyspiel.load_game(gos.PREFIX + cfg.game, cfg.kwargs)


@pytest.fixture(scope="module")
def sim_runner() -> Iterator[SimRunner]:
    runner = SimRunner(ALL)
    yield runner
    runner.close()


@pytest.mark.parametrize("cfg", ALL, ids=ids)
def test_random_sim_test_passes(cfg: AdapterConfig, sim_runner: SimRunner) -> None:
    """``pyspiel.random_sim_test(game, num_sims=50, serialize=True)``, in a worker process."""
    failure = sim_runner.result(cfg)
    assert failure is None, failure


def test_a_failing_check_is_reported(sim_runner: SimRunner) -> None:
    """A game that breaks its own facts fails OpenSpiel's test through the adapter and runner."""
    register_game(LyingNim)  # here for a run in this process; the pool's workers have it too
    try:
        failure = sim_runner.result(AdapterConfig("toy_lying_nim"))
    finally:
        unregister_game(LyingNim.name)
    assert failure is not None and "SpielError" in failure, failure


def _playout(game, rng: random.Random) -> tuple[int, float]:  # noqa: ANN001
    """Length of one random game on the engine, and the seconds it took."""
    start = time.perf_counter()
    state = game.engine.new_initial_state(0)
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(state.sample_chance(rng))
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    return len(state.history()), time.perf_counter() - start


MCTS_SECONDS = 3.0
"""About how long the engine may spend in MCTS rollouts for one game (it sizes the search)."""


@pytest.mark.parametrize("cfg", TOY[::2] + [AdapterConfig(g) for g in REAL_GAMES], ids=ids)
def test_mcts_bot_plays_a_whole_game(cfg: AdapterConfig) -> None:
    """OpenSpiel's MCTSBot in every seat with random rollouts. Simulations and rollout length are
    sized from one timed random game, so that a long or slow game still takes seconds."""
    game = _load(cfg)
    length, seconds = _playout(game, random.Random(0))
    length = max(length, 2)
    rollout = min(length, 20)
    step = seconds / length
    sims = max(2, min(40, int(MCTS_SECONDS / (length * rollout * step + 1e-9))))
    rng = np.random.RandomState(7)
    evaluator = mcts.RandomRolloutEvaluator(1, rng, max_length=rollout)
    bot = mcts.MCTSBot(game, uct_c=2.0, max_simulations=sims, evaluator=evaluator,
                       random_state=rng)
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            actions, probs = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(int(rng.choice(actions, p=probs)))
        else:
            action = bot.step(state)
            assert action in state.legal_actions()
            state.apply_action(action)
    returns = state.returns()
    assert returns == state.engine_state.returns()
    if game.get_type().utility != Type.Utility.GENERAL_SUM:
        assert sum(returns) == pytest.approx(game.utility_sum())


def test_mcts_beats_random_at_nim() -> None:
    """The returns reach MCTS the right way round: it wins a won Nim position against random."""
    game = _load(AdapterConfig("toy_nim", (("stones", 13),)))
    rng = np.random.RandomState(3)
    wins = 0
    for _ in range(6):
        bot = mcts.MCTSBot(game, uct_c=2.0, max_simulations=150,
                           evaluator=mcts.RandomRolloutEvaluator(2, rng), random_state=rng)
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.current_player() == 0:
                state.apply_action(bot.step(state))
            else:
                state.apply_action(int(rng.choice(state.legal_actions())))
        wins += state.returns()[0] > 0
    assert wins >= 5


@pytest.mark.parametrize(("name", "chance", "utility", "players"), [
    ("toy_nim", Type.ChanceMode.DETERMINISTIC, Type.Utility.ZERO_SUM, (2, 2)),
    ("toy_pig", Type.ChanceMode.EXPLICIT_STOCHASTIC, Type.Utility.ZERO_SUM, (2, 2)),
    ("toy_claim", Type.ChanceMode.DETERMINISTIC, Type.Utility.CONSTANT_SUM, (2, 4)),
    ("toy_pairs", Type.ChanceMode.DETERMINISTIC, Type.Utility.GENERAL_SUM, (2, 2)),
])
def test_game_type_is_truthful(name: str, chance: object, utility: object,
                               players: tuple[int, int]) -> None:
    game_type = _load(AdapterConfig(name)).get_type()
    assert game_type.short_name == f"gamehall_{name}"
    assert game_type.dynamics == Type.Dynamics.SEQUENTIAL
    assert game_type.information == Type.Information.PERFECT_INFORMATION
    assert game_type.reward_model == Type.RewardModel.TERMINAL
    assert game_type.chance_mode == chance
    assert game_type.utility == utility
    assert (game_type.min_num_players, game_type.max_num_players) == players
    assert game_type.provides_observation_tensor and game_type.provides_observation_string


@pytest.mark.parametrize("name", REAL_GAMES)
def test_real_game_types_follow_the_engine(name: str) -> None:
    game = _load(AdapterConfig(name))
    engine = load_game(name)
    game_type = game.get_type()
    expected_chance = (Type.ChanceMode.EXPLICIT_STOCHASTIC if engine.has_chance
                       else Type.ChanceMode.DETERMINISTIC)
    assert game_type.chance_mode == expected_chance
    assert game_type.min_num_players <= engine.num_players <= game_type.max_num_players
    assert game_type.parameter_specification == {o.name: o.default for o in engine.OPTIONS}


def test_game_info_and_parameters_come_from_the_options() -> None:
    game = pyspiel.load_game("gamehall_toy_claim(cells=13,players=4)")
    assert game.num_players() == 4
    assert game.num_distinct_actions() == 13
    assert game.max_game_length() == 13
    assert (game.min_utility(), game.max_utility(), game.utility_sum()) == (0.0, 1.0, 1.0)
    assert game.engine == load_game("toy_claim", cells=13, players=4)
    assert pyspiel.load_game(str(game)).engine == game.engine
    pig = pyspiel.load_game("gamehall_toy_pig", {"target": 12})
    assert pig.max_chance_outcomes() == 6
    assert pig.engine.options == {"target": 12, "turn_limit": 30}
    pairs = pyspiel.load_game("gamehall_toy_pairs", {"scoring": "max"})
    assert pairs.engine.options["scoring"] == "max" and pairs.utility_sum() is None
    with pytest.raises(Exception, match="scoring"):
        pyspiel.load_game("gamehall_toy_pairs", {"scoring": "product"})


def test_register_all_names_every_game() -> None:
    names = gos.register_all()
    assert names == sorted(names)
    assert {f"gamehall_{g}" for g in [*REAL_GAMES, "toy_nim", "toy_pig"]} <= set(names)
    assert set(names) <= set(pyspiel.registered_names())


def test_chance_actions_are_outcome_indices() -> None:
    game = _load(AdapterConfig("toy_pig"))
    state = game.new_initial_state()
    state.apply_action(0)  # roll
    assert state.is_chance_node()
    assert state.chance_outcomes() == [(i, pytest.approx(1 / 6)) for i in range(6)]
    assert state.legal_actions() == list(range(6))
    assert state.action_to_string(pyspiel.PlayerId.CHANCE, 3) == "die4"
    state.apply_action(3)
    assert state.engine_state.to_json()["turn_total"] == 4
    assert state.history() == [0, 3]
    assert state.engine_state.history() == [0, 2 + 3]
    state.apply_action(0)  # roll again
    with pytest.raises(IllegalActionError, match="not possible"):
        state.engine_action(6)


def test_engine_history_replays_as_a_record() -> None:
    game = _load(AdapterConfig("toy_pig"))
    rng = random.Random(5)
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(rng.randrange(len(state.chance_outcomes())))
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    replayed = GameRecord.from_state(state.engine_state).replay()
    assert replayed.returns() == state.returns()


def test_serialisation_round_trips_mid_game() -> None:
    game = _load(AdapterConfig("toy_pig", (("target", 30),)))
    rng = random.Random(2)
    state = game.new_initial_state()
    for _ in range(25):
        if state.is_terminal():
            break
        if state.is_chance_node():
            state.apply_action(rng.randrange(len(state.chance_outcomes())))
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    text = pyspiel.serialize_game_and_state(game, state)
    game2, state2 = pyspiel.deserialize_game_and_state(text)
    assert str(game2) == str(game)
    assert state2.history() == state.history()
    assert str(state2) == str(state)
    assert json.loads(str(state2)) == state.engine_state.to_json()
    again = pickle.loads(pickle.dumps(state))
    assert again.engine_state.to_json() == state.engine_state.to_json()
    clone = state.clone()
    if not clone.is_terminal():
        clone.apply_action(clone.legal_actions()[0])
        assert str(clone) != str(state), "a clone shares nothing with its original"


def test_a_game_hook_gives_the_observation_tensor() -> None:
    game = _load(AdapterConfig("toy_nim"))
    assert game.observation_tensor_shape() == [2, 13]
    state = game.new_initial_state()
    state.apply_action(2)  # take 3: 9 left, second to move
    tensor = np.array(state.observation_tensor(1)).reshape(2, 13)
    assert tensor[0, 9] == 1 and tensor[0].sum() == 1 and tensor[1, 0] == 1
    assert np.array(state.observation_tensor(0)).reshape(2, 13)[1, 0] == 0


def test_the_generic_observation_encodes_the_public_position() -> None:
    game = _load(AdapterConfig("toy_claim", (("players", 3),)))
    state = game.new_initial_state()
    state.apply_action(4)
    size = game.observation_tensor_size()
    first = np.array(state.observation_tensor(0))
    second = np.array(state.observation_tensor(1))
    assert first.shape == (size,) and set(np.unique(first)) <= {0.0, 1.0}
    assert list(first[:3]) == [1, 0, 0] and list(second[:3]) == [0, 1, 0]  # observing seat
    assert list(first[3:8]) == [0, 1, 0, 0, 0]  # green to move (then chance, terminal)
    other = game.new_initial_state()
    other.apply_action(5)
    assert not np.array_equal(np.array(other.observation_tensor(0)), first)
    assert json.loads(state.observation_string(0)) == state.engine_state.to_json()
    assert state.observation_string(1) == state.observation_string(0) == str(state)


def test_player_range_reads_choices_and_ranges() -> None:
    from gamehall.core import Option
    from tests.adapters.toys import Claim

    class ChoiceClaim(Claim):
        name = "toy_choice_claim"
        OPTIONS = (Option("players", int, 3, "number of players", choices=(3, 4)),
                   Option("cells", int, 9, "cells to claim", min=4, max=20))

    assert gos.player_range(Claim) == (2, 4)
    assert gos.player_range(ChoiceClaim) == (3, 4)
    assert gos.player_range(load_game("toy_nim").__class__) == (2, 2)
