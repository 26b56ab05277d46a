"""Players in public: a profile (ratings per game, latest games, tournaments and places), a
game's leaderboard and the archive of finished games. Read only, for anyone."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Depends, Query

from gamehall.core import GamehallError
from gamehall.core.messages import msg
from gamehall.core.registry import game_class
from gamehall.server.api.access import anyone
from gamehall.server.api.parts import BotApiPart, HallPart, ReviewsPart, TournamentsPart
from gamehall.server.api.routes.reviews import with_accuracy
from gamehall.server.storage import UnknownPlayer
from gamehall.server.table.errors import RoomError
from gamehall.server.table.sentences import reason_of

router = APIRouter()


@router.get("/api/players/{nickname}", dependencies=[Depends(anyone())],
            summary="A player's (or a bot level's) ratings per game and latest games")
async def profile(nickname: str, hall: HallPart, botapi: BotApiPart, reviews: ReviewsPart,
                  tournaments: TournamentsPart,
                  recent: Annotated[int, Query(ge=0, le=100)] = 20) -> dict[str, Any]:
    found = await hall.storage.profile(nickname[:40], recent) if len(nickname) <= 40 else None
    if found is None:
        raise RoomError("unknown_player", msg("error.player.unknown", nickname=nickname[:40]))
    games = await botapi.bot_store.games_of_name(found["nickname"])
    found["bot_account"], found["bot_games"] = games is not None, games or []
    await with_accuracy(reviews, found["recent"])
    found["tournaments"] = await tournaments.of_player(found["nickname"])
    return found


@router.get("/api/leaderboard/{game}", dependencies=[Depends(anyone())],
            summary="A game's rated players, best first")
async def leaderboard(game: str, hall: HallPart, botapi: BotApiPart,
                      limit: Annotated[int, Query(ge=1, le=200)] = 50,
                      offset: Annotated[int, Query(ge=0, le=10**6)] = 0) -> dict[str, Any]:
    title = _game_title(game)
    players = await hall.storage.leaderboard(game, limit + 1, offset)
    bots = await botapi.bot_store.bot_names([p["nickname"] for p in players])
    for p in players:
        p["bot_account"] = p["nickname"] in bots
    more = len(players) > limit
    return {"game": game, "title": title, "players": players[:limit],
            "next_offset": offset + limit if more else None}


@router.get("/api/archive", dependencies=[Depends(anyone())],
            summary="Finished games, newest first, by game and/or player (paged with `before`)")
async def archive(hall: HallPart, reviews: ReviewsPart,
                  game: Annotated[str | None, Query(max_length=64)] = None,
                  player: Annotated[str | None, Query(max_length=40)] = None,
                  before: Annotated[str | None, Query(max_length=100)] = None,
                  limit: Annotated[int, Query(ge=1, le=100)] = 20) -> dict[str, Any]:
    titles = {game: _game_title(game)} if game is not None else {}
    try:
        games, cursor = await hall.storage.finished_games(game, player, before, limit)
    except UnknownPlayer:
        raise RoomError("unknown_player", msg("error.player.unknown",
                                              nickname=str(player))) from None
    for g in games:
        if g["game"] not in titles:
            titles[g["game"]] = _game_title(g["game"], strict=False)
        g["title"] = titles[g["game"]]
    await with_accuracy(reviews, games)
    return {"games": games, "next": cursor}


def _game_title(name: str, strict: bool = True) -> str:
    """A game's title; `bad_game` for one not installed (unless not `strict`: then the name)."""
    try:
        return game_class(name).title
    except GamehallError as exc:
        if strict:
            raise RoomError("bad_game", msg("error.game.unknown", reason=reason_of(exc))) \
                from None
        return name
