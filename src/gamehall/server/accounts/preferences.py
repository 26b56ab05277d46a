"""What a player chose for the page and the hall keeps for them: the page's language, so that
an account finds its language in every browser it signs in from (migration 0007).

A guest's choice is kept too (by token its player is the same in every tab of the browser);
the page also keeps it in the browser, for visitors the hall does not know yet.
"""

from __future__ import annotations

import sqlalchemy as sa
from sqlalchemy.engine import Connection

from gamehall.core.messages import LANGUAGES, msg
from gamehall.server.storage.extension import SqlExtension
from gamehall.server.storage.interface import Storage
from gamehall.server.storage.schema import preferences
from gamehall.server.table.clocks import stamp
from gamehall.server.table.errors import RoomError

BAD_LANGUAGE = "bad_language"




def checked_language(language: str) -> str:
    """`language` when the hall has a catalogue for it, else a clear 400 naming the choices."""
    if language not in LANGUAGES:
        raise RoomError(BAD_LANGUAGE, msg("error.language.unknown", language=language[:16],
                                          known=", ".join(LANGUAGES)))
    return language


class PreferenceStore(SqlExtension):
    """The preferences table on the hall's SQL storage; in memory for a storage without SQL (a
    test's), so the routes behave the same."""

    def __init__(self, storage: Storage) -> None:
        super().__init__(storage)
        self._memory: dict[int, str] = {}

    async def language(self, player_id: int) -> str | None:
        """The language the player chose, or None when they chose none."""
        if not self.available:
            return self._memory.get(player_id)

        def read(conn: Connection) -> str | None:
            value = conn.execute(sa.select(preferences.c.language)
                                 .where(preferences.c.player_id == player_id)).scalar()
            return None if value is None else str(value)
        return await self._read(read)

    async def set_language(self, player_id: int, language: str, now: float) -> None:
        """Keep `language` (already checked) as the player's choice."""
        if not self.available:
            self._memory[player_id] = language
            return

        def write(conn: Connection) -> None:
            values = {"language": language, "updated_at": stamp(now)}
            done = conn.execute(preferences.update()
                                .where(preferences.c.player_id == player_id).values(**values))
            if not done.rowcount:
                conn.execute(preferences.insert().values(player_id=player_id, **values))
        await self._write(write)
