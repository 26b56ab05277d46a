"""Evaluator-ordered progressive widening in MCTSBot (``+order``): expansions follow the
evaluator's scores, children grow with visits as defined, deterministic under a seed, off by
default, refused where the evaluator cannot score actions; Hau La's scores agree with its
evaluator."""

from __future__ import annotations

import random
from collections.abc import Iterator, Sequence

import pytest

from gamehall.ai import MCTSBot, make_bot, ordering
from gamehall.ai.evaluators import playout
from gamehall.ai.levels import LEVEL_ORDER, ORDERING, Extras, LevelBot, split_level
from gamehall.ai.mcts import Node
from gamehall.ai.review import review_budget
from gamehall.core import ActionScorer, GamehallError, State, load_game
from gamehall.games.hau_la.evaluator import HauLaEvaluator
from gamehall.games.hau_la.turns import EXTRAS, PLACE

CENTRE_FIRST = [4, 0, 2, 6, 8, 1, 3, 5, 7]
"""Tic-tac-toe cells from the best-scored (the centre) to the worst."""


class Scoring:
    """A random rollout that also scores each action by a fixed preference (`CENTRE_FIRST`),
    remembering the positions it was asked about."""

    def __init__(self) -> None:
        self.asked = 0

    def evaluate(self, state: State, rng: random.Random,
                 deadline: float | None = None) -> Sequence[float] | None:
        return playout(state, rng, deadline)

    def score_actions(self, state: State, actions: Sequence[int]) -> list[float]:
        self.asked += 1
        return [1.0 - CENTRE_FIRST.index(a % 9) / 9 for a in actions]


def nodes(root: Node) -> Iterator[Node]:
    yield root
    for child in root.children.values():
        yield from nodes(child)


def test_expands_best_scored_first_and_widens_with_visits() -> None:
    tictactoe = load_game("t_tictactoe").new_initial_state()
    scoring = Scoring()
    k, alpha = 1.0, 0.5
    bot = MCTSBot(1, simulations=40, evaluator=scoring, ordering=(k, alpha), reuse=False)
    root = bot.search(tictactoe)
    assert isinstance(scoring, ActionScorer)
    assert list(root.children)[:3] == CENTRE_FIRST[:3]  # in the order of the scores
    for node in nodes(root):
        if node.player >= 0 and node.children:
            # one child is added on the visit that finds fewer than allowed(n) there
            assert len(node.children) <= ordering.allowed(k, alpha, node.n - 1)
    assert len(root.children) == ordering.allowed(k, alpha, root.n - 1) < 9
    # one scoring a node expanded from, not one per simulation
    assert scoring.asked == sum(1 for n in nodes(root) if n.children and n.player >= 0)


def test_deterministic_under_a_seed() -> None:
    def moves(seed: int) -> list[int]:
        state = load_game("t_tictactoe").new_initial_state()
        bots = [MCTSBot(seed, simulations=60, evaluator=Scoring(), ordering=(1.0, 0.5)),
                MCTSBot(seed + 1, simulations=60, evaluator=Scoring(), ordering=(2.0, 0.4))]
        while not state.is_terminal():
            state.apply_action(bots[state.current_player()].choose(state))
        return state.history()

    assert moves(3) == moves(3)


def test_ties_are_broken_by_the_seed_not_the_action_number() -> None:
    actions = list(range(40))
    orders = {tuple(ordering.ordered(actions, [0.5] * 40, random.Random(s))) for s in range(3)}
    assert len(orders) == 3 and all(sorted(o) == actions for o in orders)
    assert ordering.ordered([1, 2, 3], [0.9, 0.1, 0.5], random.Random(0)) == [2, 3, 1]
    with pytest.raises(GamehallError, match="scores"):
        ordering.ordered([1, 2], [0.5], random.Random(0))


def test_off_by_default() -> None:
    scoring = Scoring()
    bot = make_bot("mcts:300", 1)
    assert isinstance(bot, MCTSBot) and bot.ordering is None
    plain = MCTSBot(1, simulations=30, evaluator=scoring)
    root = plain.search(load_game("t_tictactoe").new_initial_state())
    assert len(root.children) == 9 and scoring.asked == 0  # every action tried once, unscored
    level = make_bot("mcts:easy", 1)
    assert isinstance(level, LevelBot)
    for game in ("hula", "haugaz"):
        level.search(load_game(game).new_initial_state(1))
        assert level.ordering is None  # only the games listed in LEVEL_ORDER


def test_refused_where_it_cannot_apply() -> None:
    race = load_game("t_race").new_initial_state()
    with pytest.raises(GamehallError, match=r"\+order.*score"):
        MCTSBot(1, simulations=10, ordering=ORDERING).choose(race)  # a random rollout
    with pytest.raises(GamehallError, match="do not combine"):
        MCTSBot(1, rave=100.0, ordering=ORDERING)
    for bad in ((0.0, 0.5), (1.0, 1.5)):
        with pytest.raises(GamehallError, match="alpha"):
            MCTSBot(1, ordering=bad)
    for spec in ("mcts:60+order+rave", "mcts:60+order+order", "mcts:60+order0"):
        with pytest.raises(GamehallError):
            make_bot(spec, 1)


def test_spec() -> None:
    bot = make_bot("mcts:60+order", 1)
    assert isinstance(bot, MCTSBot) and bot.ordering == ORDERING and bot.simulations == 60
    wider = make_bot("mcts:60+order2+pw", 1)
    assert isinstance(wider, MCTSBot) and wider.ordering == (2.0, ORDERING[1])
    assert wider.chance_widening is not None
    level = make_bot("mcts:hard+order3", 1)
    assert isinstance(level, LevelBot) and level.ordering == (3.0, ORDERING[1])
    extras = split_level("medium+order2+pw")[1]
    assert extras == Extras(True, None, 2.0)
    assert split_level("medium" + extras.suffix())[1] == extras


def test_hau_la_scores_are_its_evaluator_values_after_each_action() -> None:
    game = load_game("hau_la")
    evaluator = HauLaEvaluator(game)
    state, rng = game.new_initial_state(3), random.Random(3)
    checked = 0
    while checked < 40 and not state.is_terminal():
        legal, seat = state.legal_actions(), state.current_player()
        if len(legal) > 1 and state.table.phase == PLACE:
            scores = evaluator.score_actions(state, legal)
            before = state.to_json()
            for action, score in zip(legal, scores, strict=True):
                after = state.clone()
                after.apply_action(action)
                if not after.is_terminal():
                    value = evaluator.evaluate(after, rng)
                    assert value is not None and score == pytest.approx(value[seat])
                    checked += 1
            assert state.to_json() == before  # scoring plays nothing
        state.apply_action(rng.choice(legal))
    assert checked >= 40


def test_hau_la_levels_search_plain_or_whole_turns_and_order_only_when_asked() -> None:
    """`easy` is plain UCT over the steps; `medium` and `hard` search whole turns
    (`ai/turn_search.py`), so no level orders its steps unless its spec asks (``+order``)."""
    state = load_game("hau_la").new_initial_state(1)
    assert "hau_la" not in LEVEL_ORDER
    easy = make_bot("mcts:easy", 1)
    assert isinstance(easy, LevelBot)
    easy.choose(state)
    assert easy.ordering is None
    asked = make_bot("mcts:easy+order", 1)
    asked.choose(state)
    assert asked.ordering == ORDERING  # the spec's suffix overrides the level's default
    plain = make_bot("mcts:60", 1)
    plain.choose(state)
    assert isinstance(plain, MCTSBot) and plain.ordering is None
    three = load_game("hau_la", players=3).new_initial_state(4)
    assert three.table.phase == EXTRAS  # no placement under way: every action scores alike
    assert three.legal_actions().count(asked.choose(three)) == 1


def test_a_later_step_of_the_same_turn_is_worth_its_best_child() -> None:
    nim = load_game("t_nim", heap=12).new_initial_state()
    bot = MCTSBot(2, simulations=300, evaluator=Scoring(), ordering=ORDERING, reuse=False)
    root = bot.search(nim)
    checked = 0
    for node in nodes(root):
        visited = [c.q for c in node.children.values() if c.n]
        if node.owner == node.player and node.proven is None and visited:
            assert node.q == max(visited)  # not the mean of the completions tried
            checked += 1
        elif node.owner >= 0 and node.proven is None:
            assert node.q == pytest.approx(node.w / node.n)
    assert checked > 5
    plain = MCTSBot(2, simulations=300, reuse=False)
    plain_root = plain.search(nim)
    assert all(n.q == pytest.approx(n.w / n.n) for n in nodes(plain_root)
               if n.owner >= 0 and n.proven is None and n.n)


def test_reviews_refuse_it_and_search_hau_la_plain() -> None:
    with pytest.raises(GamehallError, match=r"review does not search with \+order"):
        review_budget("medium+order", "hau_la")
    assert review_budget("medium", "hau_la").rave is None  # a plain search, as before
