"""PettingZoo adapter: any gamehall game as an `AECEnv` (turn-based, one agent acts at a time).

    from gamehall.adapters.pettingzoo import env
    e = env("hula", size=5)
    e.reset(seed=1)

- Agents are ``player_0`` … ``player_{n-1}`` in seat order (``env.unwrapped.seat_names`` gives
  the game's names for them). The agent to act is the seat to move; in a multi-step turn the
  same agent is selected several times in a row.
- Actions are gamehall's action integers: ``Discrete(num_distinct_actions)``.
- Observations are ``{"observation": float32 tensor, "action_mask": int8 vector}``; the tensor is
  `gamehall.adapters.encoding` (the game's own hook, or the generic encoding of the public
  position with the observing seat); the mask marks the legal actions of the agent to act and
  is all zeros for the others.
- Chance nodes never reach an agent: after `reset` and after each step the env draws every chance
  outcome with its own generator, seeded by ``reset(seed=...)`` (a reset without a seed goes on
  with the same generator), so two envs reset with the same seed play identically.
- Rewards are the game's returns, given once at the end; all agents then terminate together.
  Games end by their own rules (every game has a bounded length), so there is no truncation.
- An illegal action raises `gamehall.core.IllegalActionError` with the game's explanation.
- ``render_mode="ansi"`` returns the position as text, ``"human"`` prints it.
"""

from __future__ import annotations

import random
from typing import Any

import gymnasium
import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers
from rich.errors import MarkupError
from rich.text import Text

from gamehall.adapters.encoding import Encoder
from gamehall.core import TERMINAL, Game, OptionValue, State, load_game


def env(name: str, render_mode: str | None = None, **options: OptionValue) -> AECEnv:
    """The game `name` with `options` as a PettingZoo AEC environment (order-checked)."""
    environment: AECEnv = raw_env(name, render_mode=render_mode, **options)
    environment = wrappers.AssertOutOfBoundsWrapper(environment)
    return wrappers.OrderEnforcingWrapper(environment)


class raw_env(AECEnv):  # noqa: N801 - PettingZoo's conventional name for the unwrapped env
    """A gamehall game as an unwrapped `AECEnv` (use `env` for the order-checking wrappers)."""

    metadata: dict[str, Any] = {  # noqa: RUF012 - PettingZoo reads it as a class attribute
        "render_modes": ["human", "ansi"],
        "name": "gamehall_v0",
        "is_parallelizable": False,
    }

    def __init__(self, name: str, render_mode: str | None = None,
                 **options: OptionValue) -> None:
        super().__init__()
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode must be one of {self.metadata['render_modes']}")
        self.game: Game = load_game(name, **options)
        self.metadata = {**self.metadata, "name": f"gamehall_{self.game.name}_v0"}
        self.render_mode = render_mode
        self.encoder = Encoder(self.game)
        self.seat_names = self.game.seat_names
        self.possible_agents = [f"player_{i}" for i in range(self.game.num_players)]
        self._seat = {agent: i for i, agent in enumerate(self.possible_agents)}
        n_actions = self.game.num_distinct_actions
        self.action_spaces = {a: spaces.Discrete(n_actions) for a in self.possible_agents}
        self.observation_spaces = {
            a: spaces.Dict({
                "observation": spaces.Box(self.encoder.low, self.encoder.high,
                                          self.encoder.shape, np.float32),
                "action_mask": spaces.Box(0, 1, (n_actions,), np.int8),
            })
            for a in self.possible_agents
        }
        self._rng = random.Random()
        self.state: State = self.game.new_initial_state(0)
        self.agents: list[str] = []

    # --- spaces ----------------------------------------------------------------------------
    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self.action_spaces[agent]

    # --- the AEC cycle ---------------------------------------------------------------------
    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        if seed is not None:
            self._rng = random.Random(seed)
        self.state = self.game.new_initial_state(self._rng.getrandbits(63))
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self._after_move(mover=0)

    def step(self, action: Any) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        self._cumulative_rewards[agent] = 0.0
        self.state.apply_action(int(action))
        self._after_move(mover=self._seat[agent])
        if self.render_mode == "human":
            self.render()

    def _after_move(self, mover: int) -> None:
        """Resolve chance, then select the next agent or end the game for everyone."""
        while self.state.is_chance_node():
            self.state.apply_action(self.state.sample_chance(self._rng))
        player = self.state.current_player()
        if player == TERMINAL:
            returns = self.state.returns()
            self.rewards = {a: float(returns[self._seat[a]]) for a in self.agents}
            self.terminations = dict.fromkeys(self.agents, True)
            player = (mover + 1) % len(self.possible_agents)
        else:
            self.rewards = dict.fromkeys(self.agents, 0.0)
        self.agent_selection = self.possible_agents[player]
        self._accumulate_rewards()

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        seat = self._seat[agent]
        mask = np.zeros(self.game.num_distinct_actions, np.int8)
        if self.state.current_player() == seat:
            mask[self.state.legal_actions()] = 1
        return {"observation": self.encoder.tensor(self.state, seat), "action_mask": mask}

    # --- presentation ----------------------------------------------------------------------
    def render(self) -> str | None:
        if self.render_mode is None:
            gymnasium.logger.warn("render() called without a render_mode")
            return None
        markup = self.game.render_text(self.state, None)
        try:
            text = Text.from_markup(markup).plain
        except MarkupError:
            text = markup
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self) -> None:
        """Nothing to release (no window, no files)."""

    def __str__(self) -> str:
        return str(self.metadata["name"])
