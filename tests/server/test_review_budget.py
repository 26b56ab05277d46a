"""The hall's review budget (`Reviews.budget`): a level is searched as its bot plays, and the
operator's default level capped at the ceiling keeps its suffixes (Hula's RAVE), so the word it
is stored under reads back as the same search."""

from __future__ import annotations

import pytest

from gamehall.ai.levels import LEVEL_RAVE, WIDENING
from gamehall.ai.review import ReviewBudget, review_budget
from gamehall.server.ops.settings import Settings
from gamehall.server.reviews.service import Reviews
from gamehall.server.table.errors import RoomError


def _reviews(**settings: object) -> Reviews:
    """A `Reviews` with only its settings: `budget` reads nothing else."""
    reviews = object.__new__(Reviews)
    reviews.settings = Settings(**settings)  # type: ignore[arg-type]
    return reviews


def test_a_capped_default_level_keeps_its_rave_and_widening() -> None:
    reviews = _reviews(review_level="medium+pw", review_max_simulations=200)
    word, simulations = reviews.budget(None, "hula")
    assert simulations == 200
    assert review_budget(word, "hula") == ReviewBudget(200, WIDENING, LEVEL_RAVE["hula"])
    word, _ = reviews.budget(None, "hau_la")  # no RAVE in Hau La: a plain capped count
    assert review_budget(word, "hau_la").rave is None


def test_a_client_level_past_the_ceiling_or_with_a_bad_suffix_is_refused() -> None:
    reviews = _reviews(review_max_simulations=200)
    for level in ("hard", "medium+pw+pw", "medium+fast", "easy+rave"):
        game = "hau_la" if level == "easy+rave" else "hula"
        with pytest.raises(RoomError) as err:
            reviews.budget(level, game)
        assert err.value.code == "bad_level"
    assert reviews.budget("150+PW+rave", "hula") == ("150+pw+rave", 150)


def test_a_hint_at_a_level_thinks_as_that_levels_bot() -> None:
    """Hints go through `bot_spec`, so Hula's medium hint searches with the level's RAVE."""
    from gamehall.ai import make_bot
    from gamehall.core import load_game
    from gamehall.server.engines.pool import bot_spec

    bot = make_bot(bot_spec("medium"), 1)
    state = load_game("hula").new_initial_state(1)
    bot.choose(state)
    assert getattr(bot, "rave", None) == LEVEL_RAVE["hula"]


def test_every_review_level_of_every_game_is_within_the_default_ceiling() -> None:
    """The operator's default ceiling lets a client ask for every level the review table has
    (Halali!'s and Hotu Matua's `hard` is 12,000 simulations a position): a level the page
    offers is never refused by the hall it is offered in."""
    from gamehall.ai.levels import LEVEL_NAMES
    from gamehall.ai.review_levels import REVIEW_SIMULATIONS

    reviews = _reviews()
    for game, levels in REVIEW_SIMULATIONS.items():
        for level in LEVEL_NAMES:
            assert levels[level] <= Settings().review_max_simulations, (game, level)
            assert reviews.budget(level, game) == (level, levels[level])
