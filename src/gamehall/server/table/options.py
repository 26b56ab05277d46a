"""Game options from clients: checked against the game's declared options before any game is
built, and never a path to a server file.

An option that reads files (core `Option.reads_files`, e.g. Hotu Matua's ``board``) gets from a
client either the name of a board this server offers (the game's default, plus the files an
operator installs with ``gamehall serve --boards DIR``, read and validated at start-up) or the
board's JSON itself, size-capped. Either way the game receives data, and the room stores that
data, so a restart or a record reproduces the board even after the operator's files change.
"""

from __future__ import annotations

import re
import stat
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from gamehall.core import Game, GamehallError, Option, OptionValue, game_class, list_games
from gamehall.core.messages import msg
from gamehall.core.options import is_file_data
from gamehall.server.ops.settings import MAX_BOARD_BYTES
from gamehall.server.table.errors import RoomError
from gamehall.server.table.sentences import joined, reason_of

DEFAULT_NAME = "default"
"""What a client sends for the game's own (shipped) board; also its empty default value."""

_NAME = re.compile(r"[a-z0-9][a-z0-9_-]{0,39}")
_VALUE_TYPES = (bool, int, str)


@dataclass(frozen=True)
class Offered:
    """One board the server offers for a file option."""

    name: str
    """What a client sends: the file's name without ``.json``, lower case."""
    label: str
    """For people (the board's own name)."""
    value: str
    """The option value the game gets: the board's data."""


class Boards:
    """The boards offered per (game, file option), and the check of every client's options."""

    def __init__(self, offered: Mapping[tuple[str, str], Mapping[str, Offered]] | None = None,
                 max_bytes: int = MAX_BOARD_BYTES) -> None:
        self.offered = {key: dict(boards) for key, boards in (offered or {}).items()}
        self.max_bytes = max_bytes

    @classmethod
    def load(cls, directory: str | Path | None, max_bytes: int = MAX_BOARD_BYTES) -> Boards:
        """Read and validate every ``*.json`` in `directory` (None: only the games' defaults).

        Each file is offered for every file option of every game that accepts it; a file that
        none accepts stops the start with the game's reason (GamehallError)."""
        if directory is None or str(directory) == "":
            return cls(max_bytes=max_bytes)
        folder = Path(directory).expanduser()
        if not folder.is_dir():
            raise GamehallError(f"--boards: {folder} is not a folder")
        targets = [(g, o) for g in _file_games() for o in g.OPTIONS if o.reads_files]
        offered: dict[tuple[str, str], dict[str, Offered]] = {}
        for path in sorted(folder.glob("*.json")):
            name = path.stem.lower()
            if not _NAME.fullmatch(name) or name == DEFAULT_NAME:
                raise GamehallError(f"--boards: {path.name}: a board's file name is 1 to 40 "
                                    "letters, digits, '_' or '-' (and not 'default') before "
                                    ".json")
            text = _read(path)
            reasons = []
            for game, option in targets:
                try:
                    built = game(**{option.name: text})
                except GamehallError as exc:
                    reasons.append(f"{game.title}: {exc}")
                    continue
                boards = offered.setdefault((game.name, option.name), {})
                boards[name] = Offered(name, built.option_label(option.name),
                                       str(built.options[option.name]))
            if len(reasons) == len(targets):
                why = "; ".join(reasons) or "no installed game takes board files"
                raise GamehallError(f"--boards: {path.name}: {why}")
        return cls(offered, max_bytes)

    # --- what the page offers --------------------------------------------------------------------
    def describe(self, game: type[Game]) -> list[dict[str, Any]]:
        """The game's option descriptions (`GET /api/games`); a file option also lists the boards
        offered (value and label) and the largest JSON a client may send instead. Each text for
        people carries its catalogue key (`Game.option_key`)."""
        out = []
        for option in game.OPTIONS:
            about = option.describe(game.option_key(option.name))
            if option.reads_files:
                boards = self.offered.get((game.name, option.name), {})
                about["offered"] = [{"value": option.default, "label": DEFAULT_NAME}] + [
                    {"value": b.name, "label": b.label} for b in boards.values()]
                about["max_bytes"] = self.max_bytes
            out.append(about)
        return out

    # --- checking a client's options -------------------------------------------------------------
    def check(self, game: type[Game], given: Mapping[str, object]) -> dict[str, OptionValue]:
        """`given` with names and values checked against `game`'s declared options and file
        options turned into data; RoomError ``bad_option`` otherwise. Builds no game and opens no
        file, so no name (``self``) or value reaches a constructor or the file system unchecked."""
        spec = {o.name: o for o in game.OPTIONS}
        out: dict[str, OptionValue] = {}
        for key, raw in given.items():
            name = key.strip() if isinstance(key, str) else ""
            option = spec.get(name)
            if option is None:
                known = joined(list(spec)) if spec else msg("list.none")
                raise RoomError("bad_option", msg("error.option.unknown", game=game.title,
                                                  option=str(key)[:40], known=known))
            if not isinstance(raw, _VALUE_TYPES):
                raise RoomError("bad_option", msg("error.option.type", option=name))
            try:
                value = option.parse(raw)
            except GamehallError as exc:
                raise RoomError("bad_option", msg("error.option.bad",
                                                  reason=reason_of(exc, 300))) from None
            out[name] = self._file_value(game, option, value) if option.reads_files else value
        return out

    def _file_value(self, game: type[Game], option: Option, value: OptionValue) -> OptionValue:
        """The data a client's value for a file option stands for; never a path."""
        if is_file_data(value):
            size = len(str(value).encode("utf-8", "surrogatepass"))
            if size > self.max_bytes:
                raise RoomError("bad_option", msg("error.option.board_size", option=option.name,
                                                  most=self.max_bytes, size=size))
            return value
        boards = self.offered.get((game.name, option.name), {})
        key = str(value).strip().lower()
        if value == option.default or key == DEFAULT_NAME:
            return option.default
        if key in boards:
            return boards[key].value
        names = ", ".join([DEFAULT_NAME, *boards])
        raise RoomError("bad_option", msg("error.option.board_name", option=option.name,
                                          boards=names))


def _file_games() -> list[type[Game]]:
    """Every installed game that has a file option."""
    out = []
    for name in list_games():
        try:
            game = game_class(name)
        except GamehallError:
            continue
        if any(o.reads_files for o in game.OPTIONS):
            out.append(game)
    return out


def _read(path: Path) -> str:
    """A board file's text; only regular files are read (a FIFO would hang the start)."""
    try:
        if not stat.S_ISREG(path.stat().st_mode):
            raise GamehallError(f"--boards: {path.name} is not a regular file")
        return path.read_text(encoding="utf-8")
    except UnicodeDecodeError:
        raise GamehallError(f"--boards: {path.name} is not UTF-8 text") from None
    except OSError as exc:
        raise GamehallError(f"--boards: cannot read {path.name}: {exc.strerror}") from None
