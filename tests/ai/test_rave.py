"""RAVE/AMAF in MCTSBot: the statistics as defined, determinism, the ``+rave`` spec, off by
default, refused where actions are not position-independent."""

from __future__ import annotations

import random
from collections.abc import Iterator, Sequence

import numpy as np
import pytest

from gamehall.ai import MCTSBot, make_bot, rave
from gamehall.ai.evaluators import playout
from gamehall.ai.levels import LEVEL_RAVE, RAVE_K, LevelBot
from gamehall.core import GamehallError, State, load_game


@pytest.fixture(autouse=True)
def amaf_tictactoe() -> Iterator[None]:
    rave.allow_amaf("t_tictactoe")
    yield
    rave.AMAF_GAMES.discard("t_tictactoe")


class Recording:
    """One random rollout, remembering the actions it played."""

    def __init__(self) -> None:
        self.rollouts: list[list[int]] = []

    def evaluate(self, state: State, rng: random.Random,
                 deadline: float | None = None) -> Sequence[float] | None:
        before = len(state.history())
        result = playout(state, rng, deadline)
        self.rollouts.append(state.history()[before:])
        return result


def amaf_counts(table: np.ndarray) -> list[float]:
    return [round(x, 6) for x in table[rave.AMAF_N] - rave.PRIOR]


def test_one_simulation_counts_each_seats_later_actions() -> None:
    recording = Recording()
    bot = MCTSBot(3, simulations=1, rave=50.0, evaluator=recording, reuse=False)
    state = load_game("t_tictactoe").new_initial_state()
    root = bot.search(state)
    (leaf,) = root.children.values()
    rollout = recording.rollouts[0]
    later = [leaf.action, *rollout]
    replay = state.clone()
    for action in later:
        replay.apply_action(action)
    values = [(r + 1) / 2 for r in replay.returns()]  # tic-tac-toe returns -1..1
    assert root.table is not None and leaf.table is not None
    x_moves, o_moves = set(later[0::2]), set(later[1::2])
    assert amaf_counts(root.table) == [1.0 if a in x_moves else 0.0 for a in range(9)]
    assert amaf_counts(leaf.table) == [1.0 if a in o_moves else 0.0 for a in range(9)]
    sums = root.table[rave.AMAF_W]
    assert sums[list(x_moves)] == pytest.approx([values[0]] * len(x_moves), abs=1e-8)
    leaf_sums = leaf.table[rave.AMAF_W]
    assert leaf_sums[list(o_moves)] == pytest.approx([values[1]] * len(o_moves), abs=1e-8)
    assert max(np.delete(sums, list(x_moves))) < 1e-8  # only the first-play prior elsewhere


def test_counts_add_up_over_simulations() -> None:
    recording = Recording()
    bot = MCTSBot(5, simulations=40, rave=50.0, evaluator=recording, reuse=False)
    root = bot.search(load_game("t_tictactoe").new_initial_state())
    assert root.table is not None
    # every simulation counts x's first move at the root, and x moves at least 3 times
    counts = amaf_counts(root.table)
    assert max(counts) <= 40 and sum(counts) >= 3 * 40 - 1e-6
    played = [a for a, c in root.children.items() if c.n > 0]
    assert all(counts[a] >= root.children[a].n for a in played)


def test_deterministic_under_a_seed() -> None:
    def game(seed: int) -> list[int]:
        state = load_game("t_tictactoe").new_initial_state()
        bots = [MCTSBot(seed, simulations=80, rave=100.0), MCTSBot(seed + 1, simulations=80)]
        while not state.is_terminal():
            state.apply_action(bots[state.current_player()].choose(state))
        return state.history()

    assert game(7) == game(7)


def test_takes_a_win_and_blocks_with_rave() -> None:
    game = load_game("t_tictactoe")
    win = game.state_from_json({"game": game.name, "options": {}, "board": "xx.oo....",
                                "to_move": 0})
    assert MCTSBot(1, simulations=200, rave=100.0).choose(win) == 2
    block = game.state_from_json({"game": game.name, "options": {}, "board": "xx.o.....",
                                  "to_move": 1})
    assert MCTSBot(1, simulations=400, rave=100.0).choose(block) == 2


def test_rave_spec() -> None:
    bot = make_bot("mcts:2000+rave", 1)
    assert isinstance(bot, MCTSBot) and bot.rave == RAVE_K and bot.simulations == 2000
    both = make_bot("mcts:300+rave250+pw", 1)
    assert isinstance(both, MCTSBot) and both.rave == 250.0 and both.chance_widening is not None
    level = make_bot("mcts:hard+pw+rave", 1)
    assert isinstance(level, LevelBot) and level.rave == RAVE_K and level.chance_widening
    for bad in ("mcts:300+rave+rave", "mcts:300+rave0", "mcts:+ravex"):
        with pytest.raises(GamehallError):
            make_bot(bad, 1)
    with pytest.raises(GamehallError, match="positive"):
        MCTSBot(1, rave=-1.0)


def test_off_by_default() -> None:
    bot = make_bot("mcts:300", 1)
    assert isinstance(bot, MCTSBot) and bot.rave is None
    root = bot.search(load_game("t_tictactoe").new_initial_state())
    assert root.table is None and all(c.table is None for c in root.children.values())


def test_refused_where_actions_depend_on_the_position() -> None:
    with pytest.raises(GamehallError, match="RAVE"):
        MCTSBot(1, simulations=10, rave=100.0).choose(load_game("t_race").new_initial_state())
    with pytest.raises(GamehallError, match="hau_la"):
        rave.check_game("hau_la")


def test_levels_use_rave_in_hula_only() -> None:
    hula = load_game("hula").new_initial_state()
    level = make_bot("mcts:easy", 1)
    assert isinstance(level, LevelBot)
    level.search(hula)
    assert level.rave == LEVEL_RAVE["hula"] and level.simulations == 400
    level.search(load_game("t_tictactoe").new_initial_state())
    assert level.rave is None  # a game without a RAVE default stays plain UCT
    plain = make_bot("mcts:400", 1)
    plain.search(hula)
    assert plain.rave is None
