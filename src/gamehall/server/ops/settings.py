"""The hall's settings, declared once: each knob's name, type, default and meaning.

`gamehall serve` takes its options' defaults from here (cli.py), and tests/test_settings.py
checks that every field has its one option and environment variable (``GAMEHALL_RATE`` ...)
with this default, and every option of `serve` but the few of the process (host, port,
database, logs) a field. This module imports nothing heavy: the CLI reads it at start-up.
"""

from __future__ import annotations

from dataclasses import dataclass, field

MAX_BOARD_BYTES = 64 * 1024
"""Default cap on a board's JSON sent by a client (the shipped Hotu Matua board has 10 KB)."""



__all__ = ["OPTION_NAMES", "Settings", "option_name"]


@dataclass
class Settings:
    """Server knobs (the `gamehall serve` flags)."""

    max_message_bytes: int = 4096
    rate: float = 20.0
    """Messages per second a visitor may send, on average (all their connections together)."""
    burst: int = 40
    """Messages a visitor may send at once: `burst` in any ``ceil(burst / rate)`` seconds."""
    bot_delay: float = 0.5
    """Seconds a bot waits before moving, so people can follow an all-bot game."""
    bot_workers: int = 2
    plugins: tuple[str, ...] = field(default_factory=tuple)
    chat_history: int = 50
    max_waiting_rooms: int = 10
    """Rooms one visitor may have waiting for players at once."""
    sqlite_sync: str = "normal"
    """SQLite durability: normal (survives any crash of the server) or full (also power loss)."""
    boards_dir: str = ""
    """A folder of board files (``NAME.json``) the hall offers besides each game's own board."""
    max_board_bytes: int = MAX_BOARD_BYTES
    """The largest board JSON a client may send as a file option's value."""
    bot_max_seconds: float = 3.0
    """The most a bot may think per move; a job still running a second later is killed."""
    bot_max_simulations: int = 20000
    """The most MCTS simulations per move a client may ask a bot for."""
    token_idle_days: float = 30.0
    """A token unused this long is dead (its player signs in again, or a guest starts anew)."""
    argon2_time_cost: int = 3
    argon2_memory_kib: int = 65536
    """Password hashing cost (argon2id; the defaults are RFC 9106's low-memory profile)."""
    absent_seconds: float = 180.0
    """In an untimed game, how long the person to move may be away (no connection) before the
    others may claim the game or hand the seat to a bot."""
    address_factor: float = 5.0
    """One address (all its visitors together) may send this many times `rate` and `burst`."""
    flood_strikes: int = 100
    """Refused messages within a minute after which a connection is closed (a steady flood)."""
    session_rate: str = "30/minute"
    """New sessions (nicknames) per address, in the `limits` notation."""
    room_rate: str = "20/minute"
    """Room creations per visitor."""
    room_address_rate: str = "60/minute"
    """Room creations per address."""
    max_connections_per_visitor: int = 10
    max_connections_per_address: int = 100
    max_lobby_sockets: int = 20
    """Lobby WebSockets (/ws/lobby) one address may hold open at once."""
    max_body_bytes: int = 262144
    """The largest HTTP request body; a larger one is refused with 413 before it is read."""
    allow_origins: tuple[str, ...] = field(default_factory=tuple)
    """Origins (``https://host``) whose pages may open WebSockets besides the hall's own."""
    waiting_room_seconds: float = 3600.0
    """A waiting room nobody changed or watched for this long is dropped."""
    chat_keep: int = 500
    """Chat lines kept per room in storage (older ones are deleted)."""
    redis_url: str = ""
    """Redis of a cluster (``redis://host:port/0``); empty: a single hall, pub/sub in process."""
    node: str = ""
    """This node's name in a cluster (health and metrics show it)."""
    token_rate: str = "30/second;1200/minute"
    """Bot API requests per token (moves, chat, challenges, streams opened), in the `limits`
    notation; counted per token, not per address, so several bots on one machine do not share
    one allowance."""
    max_bot_games: int = 8
    """Games a bot account may have open (waiting or playing) at once; a challenge past it is
    refused (`too_many_games`)."""
    max_streams_per_token: int = 12
    """Bot API streams (events and games) one token may hold open, in a cluster on all nodes."""
    max_challenges: int = 10
    """Pending challenges one player may have made."""
    max_challenges_per_bot: int = 20
    """Pending challenges one bot account may have received (from everyone together)."""
    challenge_seconds: float = 600.0
    """A challenge nobody answered for this long is canceled (reason ``expired``), so neither
    side waits for ever and the challenger's allowance of pending challenges comes back."""
    bot_game_clock: str = "1d"
    """The clock of a challenge's game asked for untimed (every game of a bot account has one,
    so a bot that stays connected and never moves loses on time): days per move, ``Nd``."""
    max_api_tokens: int = 20
    """API tokens one account may hold."""
    hint_level: str = "medium"
    """The strongest level a hint thinks at (random, easy, medium or hard; within the bots'
    limits): hints are the bot's move for one's own seat in casual games against bots."""
    hint_rate: str = "10/minute"
    """Hints per player, in the `limits` notation."""
    explorer_max_depth: int = 40
    """The longest move prefix the opening explorer answers for (actions, chance included)."""
    explorer_max_games: int = 2000
    """The newest finished games of a game the opening explorer reads (all its options)."""
    review_workers: int = 1
    """Worker processes for reviews of finished games: a pool of its own beside the bots', at
    a lower CPU priority, so a review never delays a bot's move in a live game."""
    review_level: str = "medium"
    """The budget of a review nobody chose a level for (a bot level, or simulations a
    position), capped at `review_max_simulations`."""
    review_max_simulations: int = 20000
    """The most simulations per position a client may ask a review for: by default above every
    level of the review table (`gamehall.ai.review_levels`, `hard` at most 12,000 in Halali! and
    Hotu Matua; tests/server/test_review_budget.py holds them to it), so no level the page
    offers is refused; the bots' ceiling, `bot_max_simulations`, is the same."""
    review_max_queued: int = 20
    """Reviews waiting or running at once in the whole hall; past it a request is refused."""
    review_per_player: int = 2
    """Reviews one visitor may have waiting or running at once."""
    review_max_seconds: float = 1800.0
    """The most one review may run; a worker still busy then is stopped and the review failed."""
    review_lease_seconds: float = 30.0
    """A running review's node renews its claim this often (a third of it); a review whose
    claim has run out (its node died) is shown failed and taken up again when asked for."""
    max_tournaments: int = 5
    """Tournaments one account may have created and not yet finished."""
    max_tournament_players: int = 500
    """Players one tournament may hold (a join past it is refused, `tournament_full`)."""
    tournament_no_show_seconds: float = 120.0
    """A player of a live tournament game who has not moved this long after it began loses it
    (a no-show); two no-shows withdraw them."""
    tournament_tick: float = 1.0
    """Seconds (of the event loop, not the hall's clock) between a tournament director's looks
    at its tournaments: starting, pairing, results."""
    lease_ms: int = 10_000
    """How long a room's lease lasts unless its owner renews it: a frozen node's rooms are taken
    over after at most this long (a node whose process ended is seen at once, see cluster.py)."""
    pairing_wave_seconds: float = 20.0
    """A quick-pairing pool pairs those waiting every this many seconds (a wave)..."""
    pairing_wave_players: int = 16
    """...or as soon as this many wait in it."""
    pairing_rate: str = "30/minute"
    """Pool joins, seeks posted and seeks accepted per player, in the `limits` notation."""
    pairing_address_rate: str = "120/minute"
    """The same per address (all its players together)."""
    pairing_per_address: int = 20
    """Pool entries waiting and seeks open at once from one address."""
    max_seeks: int = 5
    """Seeks one player may have open (or playing, to be re-issued) at once."""
    seek_seconds: float = 3600.0
    """A seek left open this long (nobody took a seat, it was not re-opened) is cancelled."""
    pairing_away_seconds: float = 60.0
    """A waiting pool entry whose player has neither polled it nor held a lobby or room socket
    this long is cancelled before a wave pairs them (lichess drops a pool member who left)."""
    no_show_seconds: float = 300.0
    """A player who leaves a paired game before their first move is held back from the pools
    this long."""


OPTION_NAMES = {
    "plugins": "plugin",
    "boards_dir": "boards",
    "allow_origins": "allow_origin",
    "redis_url": "redis",
}
"""The fields whose `gamehall serve` option has another name (``--plugin``, repeated, fills
`plugins`): deployments set ``GAMEHALL_PLUGIN``, ``GAMEHALL_BOARDS``, ``GAMEHALL_ALLOW_ORIGIN``
and ``GAMEHALL_REDIS``, so the options keep their names."""


def option_name(field_name: str) -> str:
    """The `gamehall serve` option of a field, as Python names it (``--max-body-bytes`` is
    ``max_body_bytes``; its environment variable ``GAMEHALL_MAX_BODY_BYTES``)."""
    return OPTION_NAMES.get(field_name, field_name)
