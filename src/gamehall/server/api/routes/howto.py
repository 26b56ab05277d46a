"""How to play: each game's rules text for players (`Game.howto`) and the positions its rules
page draws (`Game.howto_positions`, drawn with the game's own `render_svg`).

The hall knows games only through the registry, so a sixth game's package brings its page too.
Pictures are drawn once per game and kept: they depend on nothing but the installed game.
"""

from __future__ import annotations

from functools import cache
from typing import Any

from gamehall.core import GamehallError, load_game
from gamehall.core.messages import Message, msg
from gamehall.core.phrases import beside
from gamehall.server.accounts.preferences import checked_language
from gamehall.server.table.errors import RoomError
from gamehall.server.table.sentences import reason_of


def _game(name: str) -> Any:
    try:
        return load_game(name)
    except GamehallError as exc:
        raise RoomError("bad_game", msg("error.game.unknown", reason=reason_of(exc))) from None


@cache
def rules_page(name: str, language: str = "en") -> dict[str, Any]:
    """`GET /api/games/NAME/rules?lang=L`: the title, the Markdown text in `language` (English
    where the game has no text in it; `language` says which it is) and the pictures' captions
    and addresses (a game without a drawing has no pictures)."""
    game = _game(name)
    checked_language(language)
    pictures = [{**beside("caption", caption), "url": f"/api/games/{game.name}/rules/{i}.svg"}
                for i, (caption, _) in enumerate(_drawings(game.name))]
    found, text = type(game).howto_in(language)
    return {"name": game.name, "title": game.title, "text": text, "language": found,
            "pictures": pictures}


@cache
def _drawings(name: str) -> tuple[tuple[Message, str], ...]:
    """Every picture of the game's rules page as (caption, SVG text); () when the game draws
    none. The caption is a message: the page says it in its language (``caption_key``)."""
    game = load_game(name)
    try:
        return tuple((caption, game.render_svg(state))
                     for caption, state in game.howto_positions())
    except (GamehallError, NotImplementedError):
        return ()


def picture(name: str, index: int) -> str:
    """`GET /api/games/NAME/rules/I.svg`: one picture of the rules page."""
    game = _game(name)
    drawings = _drawings(game.name)
    if not 0 <= index < len(drawings):
        raise RoomError("bad_picture", msg("error.rules.picture", game=game.title,
                                           n=len(drawings)))
    return drawings[index][1]
