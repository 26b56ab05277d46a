"""The `gamehall` command: play, replay, review, list games, draw boards, serve the hall."""

from __future__ import annotations

import json
import os
import random
import socket
import sys
from collections.abc import Callable
from functools import wraps
from pathlib import Path
from typing import Annotated, Any, TypeVar

import typer
from rich.console import Console
from rich.markup import escape
from rich.table import Table
from typer.core import TyperCommand

from gamehall import __version__
from gamehall.ai import make_bot
from gamehall.ai.levels import SUFFIXES_HELP
from gamehall.ai.review_levels import levels_help as review_levels_help
from gamehall.core import (
    Game,
    GamehallError,
    GameRecord,
    StepRenderer,
    game_class,
    list_games,
    load_game,
    state_from_json,
)
from gamehall.play.options_cli import parse_option_args
from gamehall.play.terminal import Seat, play_game
from gamehall.server.ops.settings import Settings, option_name

app = typer.Typer(
    help="gamehall: Hula, Haugaz, Halali!, Hotu Matua and Hau La — engines, bots, and a hall.",
    no_args_is_help=True,
    add_completion=False,
)
PIPED_WIDTH = 120
"""Columns when the output is not a terminal (a file, a pipe) and COLUMNS is unset: Rich's 80
would cut the selfplay table's figures short."""
_width = None if sys.stdout.isatty() or "COLUMNS" in os.environ else PIPED_WIDTH
console = Console(width=_width)
err = Console(stderr=True)

F = TypeVar("F", bound=Callable[..., Any])
EXTRA = {"allow_extra_args": True, "ignore_unknown_options": True}
SERVE = Settings()
"""The hall's defaults, which `gamehall serve`'s options show and pass on (server/ops/settings.py
declares them; tests/test_settings.py checks that each option takes its field's)."""


def friendly(func: F) -> F:
    """Turn gamehall's errors into a red line and exit code 2 — never a traceback."""

    @wraps(func)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        try:
            return func(*args, **kwargs)
        except (GamehallError, OSError, json.JSONDecodeError) as exc:
            err.print(f"[red]error:[/] {escape(str(exc))}", soft_wrap=True)  # one line
            raise typer.Exit(2) from None

    return wrapper  # type: ignore[return-value]


def _print_version(wanted: bool) -> None:
    if wanted:
        typer.echo(f"gamehall {__version__}")
        raise typer.Exit()


@app.callback()
def _options(
    version: Annotated[bool, typer.Option(
        "--version", callback=_print_version, is_eager=True,
        help="Print the version and exit.")] = False,
) -> None:
    """Options that come before the command (a Typer callback: it runs before any command)."""


def read_json(path: Path, what: str) -> dict[str, Any]:
    """A JSON object from a file, or a GamehallError that says what is wrong with the file."""
    try:
        text = path.read_text(encoding="utf-8")
    except UnicodeDecodeError:
        raise GamehallError(f"{path} is not UTF-8 text, so not {what}") from None
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise GamehallError(f"{path} is not JSON (line {exc.lineno}, column {exc.colno}: "
                            f"{exc.msg}), so not {what}") from None
    except RecursionError:
        raise GamehallError(f"{path} nests too deeply to be {what}") from None
    if not isinstance(data, dict):
        raise GamehallError(f"{path} holds no JSON object, so not {what}")
    return data


def _check_record_path(path: Path | None) -> None:
    """Say before the game, not after it, that its record could not be saved."""
    if path is None:
        return
    folder = path.expanduser().parent
    if not folder.is_dir():
        raise GamehallError(f"--record: the folder {folder} does not exist")
    if path.is_dir():
        raise GamehallError(f"--record: {path} is a folder; name a file in it")
    if not os.access(folder, os.W_OK):
        raise GamehallError(f"--record: cannot write in {folder}")


def _load(name: str, extra: list[str]) -> Game:
    return load_game(name, **parse_option_args(extra))


@app.command(context_settings=EXTRA)
@friendly
def play(
    ctx: typer.Context,
    game: Annotated[str, typer.Argument(help="Game name: see `gamehall games`.")],
    vs: Annotated[str, typer.Option(help="Opponent: human, random, or a bot like mcts:hard.")]
    = "random",
    first: Annotated[str, typer.Option(help="Who takes the first seat: human or bot.")] = "human",
    seats: Annotated[str | None, typer.Option(
        help="Every seat in order, comma-separated (e.g. human,random,mcts:easy); "
             "overrides --vs and --first.")] = None,
    seed: Annotated[int | None, typer.Option(help="Seed for chance and bots.")] = None,
    record: Annotated[Path | None, typer.Option(help="Save the game record to this file.")]
    = None,
) -> None:
    """Play GAME in the terminal. Game options follow as flags, e.g. `--size 7 --pie off`."""
    g = _load(game, ctx.args)
    _check_record_path(record)
    specs = _seat_specs(g, vs, first, seats)
    rng = random.Random(seed)
    table = [Seat("you" if s == "human" and specs.count("human") == 1 else
                  (f"person {i + 1}" if s == "human" else s),
                  None if s == "human" else make_bot(s, rng.randrange(2**31)))
             for i, s in enumerate(specs)]
    play_game(g, table, console, seed=seed, record_path=record)


def _seat_specs(game: Game, vs: str, first: str, seats: str | None) -> list[str]:
    n = game.num_players
    if seats:
        specs = [s.strip().lower() for s in seats.split(",") if s.strip()]
        if len(specs) != n:
            raise GamehallError(f"{game.title} has {n} seats; --seats names {len(specs)}")
    else:
        if first not in ("human", "bot"):
            raise GamehallError("--first is human or bot")
        specs = [vs.strip().lower()] * n
        specs[0 if first == "human" else n - 1] = "human"
    for s in specs:
        if s != "human":
            make_bot(s)  # validate early, before the board appears
    return specs


@app.command(context_settings=EXTRA)
@friendly
def selfplay(
    ctx: typer.Context,
    game: Annotated[str, typer.Argument(help="Game name: see `gamehall games`.")],
    bots: Annotated[str, typer.Option(help="Bots, comma-separated (e.g. mcts:hard,random); "
                                           "seats rotate between games.")] = "mcts:hard,random",
    games: Annotated[int, typer.Option(help="Number of games.")] = 200,
    seed: Annotated[int, typer.Option(help="Master seed (games, seats and bots derive from it).")]
    = 1,
    jobs: Annotated[int, typer.Option(help="Worker processes.")] = 1,
    records: Annotated[Path | None, typer.Option(help="Save every game record in this folder.")]
    = None,
    sprt: Annotated[str | None, typer.Option(
        help="S0,S1: a sequential test of the first bot's score (win 1, draw ½) s = S0 against "
             "s = S1, e.g. 0.5,0.7; stops as soon as it decides (α = β = 0.05); --games is "
             "then the most it plays. Two bots only.")] = None,
    adjudicate: Annotated[bool, typer.Option(
        help="End a 2-player game between two MCTS bots once both searches agree who wins "
             "(see --adjudicate-value, --adjudicate-moves); counted as that win.")] = False,
    adjudicate_value: Annotated[float, typer.Option(
        help="Root value (0..1) the winner's searches must reach, the loser's 1 minus it.")]
    = 0.9,
    adjudicate_moves: Annotated[int, typer.Option(
        help="Consecutive searches of each seat that must agree.")] = 3,
) -> None:
    """Bots play a tournament of GAME; prints win rates, 95% intervals and Elo.

    Game options follow as flags (`--size 7`) or as `--option key=value`.
    """
    from gamehall.play.selfplay import Adjudication, selfplay_command
    from gamehall.play.sprt import parse_sprt

    specs = [s.strip().lower() for s in bots.split(",") if s.strip()]
    test = parse_sprt(sprt) if sprt is not None else None
    rule = Adjudication(adjudicate_value, adjudicate_moves) if adjudicate else None
    selfplay_command(console, _load(game, ctx.args), specs, games, seed, jobs, records, test,
                     rule)


@app.command()
@friendly
def replay(
    file: Annotated[Path, typer.Argument(help="A game record (JSON).", exists=True,
                                         dir_okay=False)],
    quiet: Annotated[bool, typer.Option(help="Only verify; do not print the moves.")] = False,
) -> None:
    """Replay a game record, verify every move and the result, and show the final position."""
    rec = GameRecord.from_dict(read_json(file, "a game record"))
    state = rec.replay()
    if not quiet:
        table = Table(title=f"{rec.game} {rec.options}")
        table.add_column("#", justify="right")
        table.add_column("move")
        for i, (_, move) in enumerate(rec.actions, start=1):
            table.add_row(str(i), escape(move))
        console.print(table)
        console.print(state.game.render_text(state, None))
    status = escape(state.outcome_text()) if state.is_terminal() else "game not finished"
    console.print(f"[green]verified[/]: {len(rec.actions)} moves replayed; {status}")


@app.command()
@friendly
def review(
    file: Annotated[Path, typer.Argument(help="A game record (JSON), e.g. from --record.",
                                         exists=True, dir_okay=False)],
    level: Annotated[str, typer.Option(
        help="The search per position: easy, medium or hard (the review level's "
             f"simulations in this game; {review_levels_help()}; Hula's levels with RAVE as its "
             "bots), or a count like 3000 (plain UCT). Suffixes: "
             f"{SUFFIXES_HELP}. Time budgets (2s) are refused: a review must not depend on the "
             "machine.")] = "medium",
    seed: Annotated[int, typer.Option(help="Seed of the searches: the same seed, the same "
                                           "review.")] = 0,
    as_json: Annotated[bool, typer.Option("--json", help="Print the whole review as JSON "
                                                         "(every position's chances).")]
    = False,
    every: Annotated[bool, typer.Option("--all", help="List every move, not only the marked "
                                                      "ones.")] = False,
) -> None:
    """Review a finished game with the bots' eyes: inaccuracies (?!), mistakes (?), blunders
    (??), the bot's better move, and each player's accuracy (lichess's measures)."""
    from gamehall.play.review_cli import review_command

    rec = GameRecord.from_dict(read_json(file, "a game record"))
    review_command(console, err, rec, level, seed, as_json, every)


@app.command()
@friendly
def games() -> None:
    """List the installed games with their seats and options."""
    table = Table(title="gamehall games")
    for col in ("name", "title", "seats", "options"):
        table.add_column(col)
    for name in list_games():
        g = load_game(name)
        opts = ", ".join(f"{o.name}={o.default}" for o in type(g).OPTIONS)
        table.add_row(name, escape(g.title), escape(", ".join(g.seat_names)), escape(opts))
    console.print(table)


def drawings(cls: type[Game]) -> list[str]:
    """What `gamehall board` can draw of a game: always its terminal board ("text"), an SVG
    drawing where the game has one, and the compact status between the steps of a turn where
    the game offers it (the `StepRenderer` ability)."""
    kinds = ["text"]
    if cls.render_svg is not Game.render_svg:
        kinds.append("svg")
    if issubclass(cls, StepRenderer):
        kinds.append("step status (terminal play)")
    return kinds


class _BoardCommand(TyperCommand):
    """`board`, whose help ends with what each installed game can draw (asked when shown)."""

    @property
    def epilog(self) -> str:
        lines = [f"{name}: {', '.join(drawings(game_class(name)))}" for name in list_games()]
        return "What each game can draw —\n" + "\n".join(lines)

    @epilog.setter
    def epilog(self, value: str | None) -> None:
        """Click sets the epilog when it builds the command; this one is computed instead."""


@app.command(cls=_BoardCommand, context_settings=EXTRA)
@friendly
def board(
    ctx: typer.Context,
    game: Annotated[str, typer.Argument(help="Game name.")],
    svg: Annotated[Path | None, typer.Option(
        help="Write the SVG drawing to this file; without it, print the terminal board.")]
    = None,
    state: Annotated[Path | None, typer.Option(
        help="A state (JSON from to_json) or a game record to draw; default: the start.")] = None,
) -> None:
    """Draw a game's board (or a given position): as SVG into a file, or on the terminal."""
    if state is not None:
        data = read_json(state, "a state or a game record")
        if "actions" in data and "format" in data:
            pos = GameRecord.from_dict(data).replay()
        else:
            pos = state_from_json(data)
        g = pos.game
    else:
        g = _load(game, ctx.args)
        pos = g.new_initial_state()
    if g.name != game.strip().lower():
        raise GamehallError(f"the file holds a {g.name} position, not {game}")
    if svg is None:
        console.print(g.render_text(pos, None))
        return
    svg.write_text(g.render_svg(pos))
    console.print(f"wrote {escape(str(svg))}")


def _serve_settings(options: dict[str, Any]) -> Settings:
    """The hall's settings from `serve`'s options (each field's option is `option_name`'s; the
    few that need it read here: lists, a lower-case word, a folder, a cluster node's name)."""
    values = {f: options[option_name(f)] for f in Settings.__dataclass_fields__
              if option_name(f) in options}
    redis = options["redis"]
    boards = options["boards"]
    values.update(
        plugins=tuple(options["plugin"] or ()), sqlite_sync=options["sqlite_sync"].lower(),
        boards_dir=str(boards) if boards is not None else "",
        allow_origins=tuple(o.strip().lower().rstrip("/") for o in options["allow_origin"] or ()),
        redis_url=redis or "", hint_level=options["hint_level"].lower(),
        node=options["node"] or (f"{socket.gethostname()}:{options['port']}" if redis else ""))
    return Settings(**values)


# --- the options of `serve`, each a type that carries its help and bounds ----------------
HostOption = Annotated[str, typer.Option(help="Address to listen on.")]
PortOption = Annotated[int, typer.Option(help="Port to listen on.")]
DbOption = Annotated[str | None, typer.Option(
    help="Database: a SQLAlchemy URL (postgresql+psycopg://user:pw@host/db) or a SQLite "
         "file path. Default: gamehall.db in the current directory.")]
BotDelayOption = Annotated[float, typer.Option(help="Seconds a bot waits before it moves.")]
BotWorkersOption = Annotated[int, typer.Option(help="Worker processes for thinking bots.")]
RateOption = Annotated[float, typer.Option(
    help="Messages per second one visitor may send on average (all their connections and "
         "HTTP room actions together).", min=0.01)]
BurstOption = Annotated[int, typer.Option(
    help="Messages one visitor may send at once: BURST in any BURST/RATE seconds.",
    min=1)]
MaxMessageBytesOption = Annotated[int, typer.Option(help="Largest client message.")]
PluginOption = Annotated[list[str] | None, typer.Option(
    help="Import this module first (e.g. one that registers extra games).")]
SqliteSyncOption = Annotated[str, typer.Option(
    help="SQLite durability: normal (a commit survives any crash of the server, kill -9 "
         "included) or full (also a power loss; one fsync per commit batch).")]
LogLevelOption = Annotated[str, typer.Option(
    help="critical, error, warning, info, debug or trace.")]
AbsentSecondsOption = Annotated[float, typer.Option(
    help="In an untimed game, seconds the player to move may be away before the others may "
         "claim the game or hand the seat to a bot.", min=1)]
BoardsOption = Annotated[Path | None, typer.Option(
    help="A folder of board files (NAME.json) the hall offers besides each game's own "
         "board, read and checked at start-up; clients choose them by NAME.")]
MaxBoardBytesOption = Annotated[int, typer.Option(
    help="The largest board JSON a client may send instead of naming a board.")]
BotMaxSecondsOption = Annotated[float, typer.Option(
    help="The most a bot may think per move; a bot still thinking a second later is "
         "stopped (its worker is restarted) and a random legal move is played.",
    min=0.01)]
BotMaxSimulationsOption = Annotated[int, typer.Option(
    help="The most MCTS simulations per move a client may ask a bot for.", min=1)]
AddressFactorOption = Annotated[float, typer.Option(
    help="One address (all its visitors together) may send this many times --rate and "
         "--burst.", min=1.0)]
FloodStrikesOption = Annotated[int, typer.Option(
    help="Refused messages within a minute after which a connection is closed.",
    min=1)]
SessionRateOption = Annotated[str, typer.Option(
    help="New sessions per address, e.g. 30/minute or \"10/minute;200/day\".")]
RoomRateOption = Annotated[str, typer.Option(help="Room creations per visitor.")]
RoomAddressRateOption = Annotated[str, typer.Option(help="Room creations per address.")]
MaxConnectionsPerVisitorOption = Annotated[int, typer.Option(
    help="Open WebSockets per visitor.", min=1)]
MaxConnectionsPerAddressOption = Annotated[int, typer.Option(
    help="Open WebSockets per address.", min=1)]
MaxLobbySocketsOption = Annotated[int, typer.Option(
    help="Open lobby WebSockets (/ws/lobby) per address.", min=1)]
MaxBodyBytesOption = Annotated[int, typer.Option(
    help="The largest HTTP request body (refused with 413 before it is read).",
    min=1024)]
AllowOriginOption = Annotated[list[str] | None, typer.Option(
    help="An origin (https://host[:port]) whose pages may open WebSockets besides the "
         "hall's own; repeat for several, * for any.")]
WaitingRoomSecondsOption = Annotated[float, typer.Option(
    help="A waiting room nobody changed or watched for this long is dropped.",
    min=1.0)]
ChatHistoryOption = Annotated[int, typer.Option(
    help="Chat lines shown to whoever opens a room (at most --chat-keep).", min=0)]
MaxWaitingRoomsOption = Annotated[int, typer.Option(
    help="Rooms one visitor may have waiting for players at once.", min=1)]
ChatKeepOption = Annotated[int, typer.Option(help="Chat lines kept per room.", min=1)]
TokenIdleDaysOption = Annotated[float, typer.Option(
    min=0.01, help="Days a sign-in (a token) lives without being used.")]
Argon2TimeCostOption = Annotated[int, typer.Option(
    min=1, max=20, help="Password hashing: argon2id passes.")]
Argon2MemoryKibOption = Annotated[int, typer.Option(
    min=1024, max=4 * 1024 * 1024, help="Password hashing: argon2id memory per hash (KiB)."
)]
RedisOption = Annotated[str | None, typer.Option(
    help="Run as one node of a cluster: the Redis that carries room events and leases "
         "(redis://HOST:PORT/0). The nodes share one PostgreSQL --db.")]
NodeOption = Annotated[str | None, typer.Option(
    help="This node's name in a cluster (health, metrics, logs). Default: host and port."
)]
LeaseMsOption = Annotated[int, typer.Option(
    help="Cluster: how long a room's lease lasts unless renewed: the rooms of a node "
         "frozen this long are taken over (a node whose process ended is seen at once: "
         "its Redis connections close).")]
TokenRateOption = Annotated[str, typer.Option(
    help="Bot API requests per token (moves, chat, challenges, streams opened), e.g. "
         "\"30/second;1200/minute\".")]
MaxBotGamesOption = Annotated[int, typer.Option(
    help="Games a bot account may have open (waiting or playing) at once.", min=1)]
MaxStreamsPerTokenOption = Annotated[int, typer.Option(
    help="Bot API streams (events and games) one token may hold open (in a cluster, on "
         "all nodes).", min=1)]
MaxChallengesOption = Annotated[int, typer.Option(
    help="Pending challenges one player may have made.", min=1)]
MaxChallengesPerBotOption = Annotated[int, typer.Option(
    help="Pending challenges one bot account may have received.", min=1)]
ChallengeSecondsOption = Annotated[float, typer.Option(
    help="A challenge nobody answered for this long is canceled (expired).", min=1.0)]
BotGameClockOption = Annotated[str, typer.Option(
    help="The clock of a challenge's game asked for untimed: days per move (1d to 14d).")]
MaxApiTokensOption = Annotated[int, typer.Option(
    help="API tokens one account may hold.", min=1)]
HintLevelOption = Annotated[str, typer.Option(help="Hints' strongest level.")]
HintRateOption = Annotated[str, typer.Option(help="Hints per player.")]
ExplorerMaxDepthOption = Annotated[int, typer.Option(help="The longest move prefix the opening "
                              "explorer answers for.", min=1)]
ExplorerMaxGamesOption = Annotated[int, typer.Option(help="The newest finished games the opening"
                              " explorer reads.", min=1)]
ReviewWorkersOption = Annotated[int, typer.Option(
    help="Worker processes for reviews of finished games (beside the bots', at a lower "
         "priority).", min=1)]
ReviewLevelOption = Annotated[str, typer.Option(
    help="The budget of a review asked without a level: easy, medium, hard or "
         "simulations a position.")]
ReviewMaxSimulationsOption = Annotated[int, typer.Option(
    help="The most simulations per position a review may be asked for.", min=1)]
ReviewMaxQueuedOption = Annotated[int, typer.Option(
    help="Reviews waiting or running at once in the hall.", min=1)]
ReviewPerPlayerOption = Annotated[int, typer.Option(
    help="Reviews one visitor may have waiting or running at once.", min=1)]
ReviewMaxSecondsOption = Annotated[float, typer.Option(
    help="The most one review may run before it is stopped and failed.", min=1.0)]
ReviewLeaseSecondsOption = Annotated[float, typer.Option(
    help="How long a review's claim lasts unless its node renews it (a dead node's "
         "reviews are then failed and taken up again).", min=1.0)]
PairingWaveSecondsOption = Annotated[float, typer.Option(
    help="Seconds between a quick-pairing pool's waves.", min=0.1)]
PairingWavePlayersOption = Annotated[int, typer.Option(
    help="Players waiting in a pool that fire its wave at once.", min=2)]
PairingRateOption = Annotated[str, typer.Option(
    help="Pool joins and seeks posted or accepted per player.")]
PairingAddressRateOption = Annotated[str, typer.Option(
    help="Pool joins and seeks posted or accepted per address.")]
PairingPerAddressOption = Annotated[int, typer.Option(
    help="Pool entries and open seeks at once per address.", min=1)]
MaxSeeksOption = Annotated[int, typer.Option(help="Open seeks per player.", min=1)]
SeekSecondsOption = Annotated[float, typer.Option(
    help="Seconds a seek nobody takes stays open before it is cancelled.", min=1.0)]
PairingAwaySecondsOption = Annotated[float, typer.Option(
    help="Seconds a pool entry may wait with its player neither polling it nor connected "
         "(a lobby or room socket) before it is cancelled.", min=1.0)]
NoShowSecondsOption = Annotated[float, typer.Option(
    help="How long a player who left a paired game before moving is kept out of the pools.",
    min=0.0)]
MaxTournamentsOption = Annotated[int, typer.Option(
    help="Tournaments one account may have created and not yet finished.", min=1)]
MaxTournamentPlayersOption = Annotated[int, typer.Option(
    help="Players one tournament may hold.", min=2)]
TournamentNoShowSecondsOption = Annotated[float, typer.Option(
    help="A player who has not moved this long into a live tournament game loses it; two "
         "such no-shows withdraw them.", min=1.0)]
TournamentTickOption = Annotated[float, typer.Option(
    help="Seconds between a tournament director's looks at its tournaments.", min=0.05)]
LogJsonOption = Annotated[bool, typer.Option(
    help="Write logs as JSON lines (one object per record).")]


@app.command(context_settings={"auto_envvar_prefix": "GAMEHALL"})
@friendly
def serve(
    host: HostOption = "127.0.0.1",
    port: PortOption = 8000,
    db: DbOption = None,
    bot_delay: BotDelayOption = SERVE.bot_delay,
    bot_workers: BotWorkersOption = SERVE.bot_workers,
    rate: RateOption = SERVE.rate,
    burst: BurstOption = SERVE.burst,
    max_message_bytes: MaxMessageBytesOption = SERVE.max_message_bytes,
    plugin: PluginOption = None,
    sqlite_sync: SqliteSyncOption = SERVE.sqlite_sync,
    log_level: LogLevelOption = "info",
    absent_seconds: AbsentSecondsOption = SERVE.absent_seconds,
    boards: BoardsOption = None,
    max_board_bytes: MaxBoardBytesOption = SERVE.max_board_bytes,
    bot_max_seconds: BotMaxSecondsOption = SERVE.bot_max_seconds,
    bot_max_simulations: BotMaxSimulationsOption = SERVE.bot_max_simulations,
    address_factor: AddressFactorOption = SERVE.address_factor,
    flood_strikes: FloodStrikesOption = SERVE.flood_strikes,
    session_rate: SessionRateOption = SERVE.session_rate,
    room_rate: RoomRateOption = SERVE.room_rate,
    room_address_rate: RoomAddressRateOption = SERVE.room_address_rate,
    max_connections_per_visitor: MaxConnectionsPerVisitorOption = SERVE.max_connections_per_visitor,
    max_connections_per_address: MaxConnectionsPerAddressOption = SERVE.max_connections_per_address,
    max_lobby_sockets: MaxLobbySocketsOption = SERVE.max_lobby_sockets,
    max_body_bytes: MaxBodyBytesOption = SERVE.max_body_bytes,
    allow_origin: AllowOriginOption = None,
    waiting_room_seconds: WaitingRoomSecondsOption = SERVE.waiting_room_seconds,
    chat_history: ChatHistoryOption = SERVE.chat_history,
    max_waiting_rooms: MaxWaitingRoomsOption = SERVE.max_waiting_rooms,
    chat_keep: ChatKeepOption = SERVE.chat_keep,
    token_idle_days: TokenIdleDaysOption = SERVE.token_idle_days,
    argon2_time_cost: Argon2TimeCostOption = SERVE.argon2_time_cost,
    argon2_memory_kib: Argon2MemoryKibOption = SERVE.argon2_memory_kib,
    redis: RedisOption = None,
    node: NodeOption = None,
    lease_ms: LeaseMsOption = SERVE.lease_ms,
    token_rate: TokenRateOption = SERVE.token_rate,
    max_bot_games: MaxBotGamesOption = SERVE.max_bot_games,
    max_streams_per_token: MaxStreamsPerTokenOption = SERVE.max_streams_per_token,
    max_challenges: MaxChallengesOption = SERVE.max_challenges,
    max_challenges_per_bot: MaxChallengesPerBotOption = SERVE.max_challenges_per_bot,
    challenge_seconds: ChallengeSecondsOption = SERVE.challenge_seconds,
    bot_game_clock: BotGameClockOption = SERVE.bot_game_clock,
    max_api_tokens: MaxApiTokensOption = SERVE.max_api_tokens,
    hint_level: HintLevelOption = SERVE.hint_level,
    hint_rate: HintRateOption = SERVE.hint_rate,
    explorer_max_depth: ExplorerMaxDepthOption = SERVE.explorer_max_depth,
    explorer_max_games: ExplorerMaxGamesOption = SERVE.explorer_max_games,
    review_workers: ReviewWorkersOption = SERVE.review_workers,
    review_level: ReviewLevelOption = SERVE.review_level,
    review_max_simulations: ReviewMaxSimulationsOption = SERVE.review_max_simulations,
    review_max_queued: ReviewMaxQueuedOption = SERVE.review_max_queued,
    review_per_player: ReviewPerPlayerOption = SERVE.review_per_player,
    review_max_seconds: ReviewMaxSecondsOption = SERVE.review_max_seconds,
    review_lease_seconds: ReviewLeaseSecondsOption = SERVE.review_lease_seconds,
    pairing_wave_seconds: PairingWaveSecondsOption = SERVE.pairing_wave_seconds,
    pairing_wave_players: PairingWavePlayersOption = SERVE.pairing_wave_players,
    pairing_rate: PairingRateOption = SERVE.pairing_rate,
    pairing_address_rate: PairingAddressRateOption = SERVE.pairing_address_rate,
    pairing_per_address: PairingPerAddressOption = SERVE.pairing_per_address,
    max_seeks: MaxSeeksOption = SERVE.max_seeks,
    seek_seconds: SeekSecondsOption = SERVE.seek_seconds,
    no_show_seconds: NoShowSecondsOption = SERVE.no_show_seconds,
    pairing_away_seconds: PairingAwaySecondsOption = SERVE.pairing_away_seconds,
    max_tournaments: MaxTournamentsOption = SERVE.max_tournaments,
    max_tournament_players: MaxTournamentPlayersOption = SERVE.max_tournament_players,
    tournament_no_show_seconds: TournamentNoShowSecondsOption =
        SERVE.tournament_no_show_seconds,
    tournament_tick: TournamentTickOption = SERVE.tournament_tick,
    log_json: LogJsonOption = False,
) -> None:
    """Run the online hall: HTTP API, WebSocket play, and the browser page when installed.

    Every option may come from the environment: GAMEHALL_DB, GAMEHALL_REDIS, GAMEHALL_PORT, ...
    """
    settings = _serve_settings(locals())
    from gamehall.server.ops.serve import serve as run
    run(host, port, db, settings, log_level, say=typer.echo, log_json=log_json)



@app.command(context_settings={"auto_envvar_prefix": "GAMEHALL_BOT"})
@friendly
def bot(
    token: Annotated[str, typer.Option(
        help="An API token of a bot account with the bot:play scope (POST "
             "/api/account/tokens); also GAMEHALL_BOT_TOKEN.")],
    url: Annotated[str, typer.Option(help="The hall's address.")] = "http://127.0.0.1:8000",
    engine: Annotated[str, typer.Option(
        help="The engine that chooses moves: random, mcts:easy|medium|hard, mcts:2000 (MCTS "
             "simulations), mcts:1.5s.")] = "mcts:medium",
    game: Annotated[list[str] | None, typer.Option(
        help="Accept challenges for this game only (repeat); default: the games the account "
             "declared to the hall.")] = None,
    seed: Annotated[int | None, typer.Option(help="Seed the engine (reproducible play).")]
    = None,
    verbose: Annotated[bool, typer.Option(help="Say what happens (streams, games).")] = False,
) -> None:
    """Play as a bot account on a hall: accept its challenges and play every game to the end.

    Reconnects a dropped stream (the game goes on where it was) and waits out every 429 for its
    Retry-After. Stop with Ctrl-C. docs/bot-api.md describes the API it uses.
    """
    import logging

    from gamehall.play.botclient import ApiError, BotClient, engine_chooser, serve_forever

    logging.basicConfig(level=logging.INFO if verbose else logging.WARNING,
                        format="%(asctime)s %(message)s")
    choose = engine_chooser(engine, seed)
    client = BotClient(url, token, choose, games=list(game) if game else None)
    say = typer.echo
    say(f"gamehall bot: {engine} on {url} (Ctrl-C stops)")
    try:
        serve_forever(client)
    except ApiError as exc:
        raise GamehallError(f"the hall refused: {exc}") from None


def main() -> None:
    app()


if __name__ == "__main__":
    main()
