"""The PettingZoo adapter: PettingZoo's own API and seed tests on every game, and its behaviour."""

from __future__ import annotations

import warnings

import numpy as np
import pytest

from gamehall.core import IllegalActionError, load_game
from tests.adapters.configs import ALL, AdapterConfig, ids

pettingzoo_test = pytest.importorskip(
    "pettingzoo.test", reason="pettingzoo is not installed (pip install 'gamehall[pettingzoo]')")
gpz = pytest.importorskip("gamehall.adapters.pettingzoo")


@pytest.mark.parametrize("cfg", ALL, ids=ids)
def test_pettingzoo_api_and_seed_tests_pass(cfg: AdapterConfig) -> None:
    with warnings.catch_warnings():
        # Dict observations ({"observation", "action_mask"}) draw advisory warnings, as for
        # PettingZoo's own board games; the tests' assertions are what must hold.
        warnings.simplefilter("ignore")
        pettingzoo_test.api_test(gpz.env(cfg.game, **cfg.kwargs), num_cycles=1000)
        pettingzoo_test.seed_test(lambda: gpz.env(cfg.game, **cfg.kwargs), num_cycles=1000)


def _play(environment, rng: np.random.Generator) -> list[int]:  # noqa: ANN001
    """Play a game with masked random actions; return the actions taken."""
    actions = []
    for agent in environment.agent_iter():
        obs, _, terminated, truncated, _ = environment.last()
        if terminated or truncated:
            environment.step(None)
            continue
        action = int(rng.choice(np.flatnonzero(obs["action_mask"])))
        actions.append(action)
        environment.step(action)
        assert agent in environment.possible_agents
    return actions


def test_chance_is_resolved_inside_with_the_seed() -> None:
    def trajectory(seed: int) -> list[object]:
        environment = gpz.env("toy_pig", target=30)
        environment.reset(seed=seed)
        actions = _play(environment, np.random.default_rng(0))
        state = environment.unwrapped.state
        return [actions, state.history(), state.returns()]

    assert trajectory(4) == trajectory(4)
    assert len({str(trajectory(s)[1]) for s in range(5)}) > 1, "the seed drives the dice"
    environment = gpz.env("toy_pig")
    environment.reset(seed=1)
    raw = environment.unwrapped
    for _ in environment.agent_iter():
        assert not raw.state.is_chance_node()
        obs, _, done, _, _ = environment.last()
        mask = obs["action_mask"]
        assert list(np.flatnonzero(mask)) == ([] if done else [0, 1])  # roll or hold only
        environment.step(None if done else 0 if raw.state.to_json()["turn_total"] < 8 else 1)


def test_rewards_are_the_returns_at_the_end() -> None:
    environment = gpz.env("toy_claim", players=4)
    environment.reset(seed=2)
    totals = dict.fromkeys(environment.possible_agents, 0.0)
    rng = np.random.default_rng(1)
    for agent in environment.agent_iter():
        obs, reward, terminated, truncated, _ = environment.last()
        totals[agent] += reward
        if terminated or truncated:
            environment.step(None)
        else:
            assert reward == 0
            environment.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    returns = environment.unwrapped.state.returns()
    assert [totals[f"player_{i}"] for i in range(4)] == returns
    assert sum(returns) == pytest.approx(1.0)


def test_multi_step_turns_select_the_same_agent_again() -> None:
    environment = gpz.env("toy_pairs")
    environment.reset(seed=0)
    order = []
    for _ in range(4):
        order.append(environment.agent_selection)
        obs, *_ = environment.last()
        environment.step(int(np.flatnonzero(obs["action_mask"])[0]))
    assert order == ["player_0", "player_0", "player_1", "player_1"]


def test_only_the_agent_to_act_has_legal_actions_and_observations_differ_by_seat() -> None:
    environment = gpz.env("toy_claim", players=3)
    environment.reset(seed=0)
    environment.step(4)
    first = environment.observe("player_0")
    second = environment.observe("player_1")
    assert not first["action_mask"].any()
    assert list(np.flatnonzero(second["action_mask"])) == [0, 1, 2, 3, 5, 6, 7, 8]
    assert not np.array_equal(first["observation"], second["observation"])
    assert environment.observation_space("player_0").contains(first)


def test_an_illegal_action_is_refused_with_the_games_words() -> None:
    environment = gpz.env("toy_claim", players=2)
    environment.reset(seed=0)
    environment.step(3)
    with pytest.raises(IllegalActionError):
        environment.step(3)
    assert environment.unwrapped.state.history() == [3]


def test_spaces_and_rendering() -> None:
    environment = gpz.env("toy_nim", render_mode="ansi", stones=20)
    environment.reset(seed=0)
    raw = environment.unwrapped
    assert raw.seat_names == ("first", "second")
    assert environment.action_space("player_0").n == load_game("toy_nim").num_distinct_actions
    assert environment.observation_space("player_1")["observation"].shape == (2, 21)
    assert '"pile": 20' in environment.render()
    assert str(raw) == "gamehall_toy_nim_v0"
    with pytest.raises(ValueError, match="render_mode"):
        gpz.env("toy_nim", render_mode="rgb_array")
