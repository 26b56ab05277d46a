"""The catalogue: every installed game (seats, options, the page's board module), the bot levels
a room may seat, each game's rules page and its pictures, and the pictures its board draws."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Depends, Query
from fastapi.responses import Response

from gamehall.core import GamehallError, load_game
from gamehall.core.game import Game
from gamehall.core.messages import msg
from gamehall.core.registry import list_games
from gamehall.server.api.access import anyone
from gamehall.server.api.parts import HallPart
from gamehall.server.api.routes import howto
from gamehall.server.engines.pool import bot_levels, default_level
from gamehall.server.table.protocol import ProtocolError

router = APIRouter()


def _seat_keys(game: Game) -> dict[str, str]:
    """The catalogue key of every seat name the game may have (`seats`, `seats_for`, a match's
    seats), so that a client names each seat in its reader's language."""
    return {seat: game.seat_key(seat) for seat in game.every_seat_name()}


def _seat_colours(game: Game) -> dict[str, str]:
    """The colour of every seat name the game may have, as its board draws the seat's pieces
    at the start (`Game.colour_of_seat`): a page colours a seat with it elsewhere (a review's
    graph) instead of a palette of its own."""
    names = list(game.seat_names)
    return {seat: game.colour_of_seat(seat, names.index(seat) if seat in names else i)
            for i, seat in enumerate(game.every_seat_name())}


def _description(game: Game) -> dict[str, str]:
    """The game's one line for people ("" where it has none) and, beside a line, its key."""
    if not game.description:
        return {"description": ""}
    return {"description": game.description, "description_key": game.description_key()}


def _seats_for(game: Game) -> dict[str, dict[str, list[str]]]:
    """The seats at each value of an option that changes them (Hau La's `players`), so that a
    form picking the seat before the room exists (a challenge's) offers the table's own."""
    out: dict[str, dict[str, list[str]]] = {}
    for opt in type(game).OPTIONS:
        seats = {}
        for value in opt.choices or ():
            try:
                seats[str(value)] = list(load_game(game.name, **{opt.name: value}).seat_names)
            except GamehallError:
                continue
        if any(names != list(game.seat_names) for names in seats.values()):
            out[opt.name] = seats
    return out


@router.get("/api/games", dependencies=[Depends(anyone())],
            summary="Every installed game: seats, options with defaults and the page's board "
                    "module")
async def games(hall: HallPart) -> list[dict[str, Any]]:
    out = []
    for name in list_games():
        try:
            game = load_game(name)
        except GamehallError:
            continue
        module = f"/js/boards/{game.web_board}.js" if game.web_board else None
        out.append({"name": name, "title": game.title, "seats": list(game.seat_names),
                    "seats_for": _seats_for(game), "seat_keys": _seat_keys(game),
                    "seat_colours": _seat_colours(game),
                    "has_chance": game.has_chance, "board": module,
                    "options": hall.boards.describe(type(game)),
                    **_description(game)})
    return out


@router.get("/api/bots", dependencies=[Depends(anyone())],
            summary="The bot levels players may seat, and the one `/bot` seats when none is "
                    "named")
async def bots() -> dict[str, Any]:
    return {"levels": bot_levels(), "default": default_level()}


@router.get("/api/games/{game}/rules", dependencies=[Depends(anyone())],
            summary="How to play the game: its rules for players (Markdown) and the pictures "
                    "of its rules page")
def rules(game: str, lang: Annotated[str, Query(max_length=16)] = "en") -> dict[str, Any]:
    return howto.rules_page(game, lang)


@router.get("/api/games/{game}/rules/{index}.svg", response_class=Response,
            dependencies=[Depends(anyone())],
            summary="A picture of the game's rules page (SVG), drawn by the game from a "
                    "position")
def rules_picture(game: str, index: int) -> Response:
    return Response(howto.picture(game, index), media_type="image/svg+xml",
                    headers={"Cache-Control": "public, max-age=3600"})


@router.get("/api/games/{name}/pictures", dependencies=[Depends(anyone())],
            summary="The pictures a game's board module draws (the same file its SVG drawing "
                    "reads)")
async def game_pictures(name: str) -> dict[str, Any]:
    pictures = None
    if name in list_games():
        try:
            pictures = load_game(name).web_pictures()
        except GamehallError:
            pictures = None
    if pictures is None:
        raise ProtocolError("unknown_game", msg("error.game.no_pictures", game=name[:40]))
    return pictures
