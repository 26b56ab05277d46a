"""A PostgreSQL connection of the event loop's own (psycopg's `AsyncConnection`, in autocommit),
for the statements on a move's way: its commit (`SqlStorage._commit_in_one`) and the token
look-up that comes before it (`SqlStorage.token_owner`).

Through a thread, each such statement cost two hand-overs: the thread woken to send it, then
the event loop woken with the answer, each waiting for the GIL while the loop was busy. In the
three-node benchmark a move's commit took the hall 6.1-6.4 ms that way, of which 3.5 ms in the
thread (benchmarks/README.md, "Sixth session"). The loop sends the statement itself and goes on
with other work until the answer comes."""

from __future__ import annotations

import asyncio
import contextlib
from typing import Any

from sqlalchemy.engine import Engine


class LoopConnection:
    """One connection, opened when first used (by one task, however many ask at once); one
    that failed is closed, and the next statement opens a new one. Statements from several
    tasks take turns (psycopg's lock). After `close` it runs nothing more."""

    def __init__(self, engine: Engine) -> None:
        # The arguments SQLAlchemy's psycopg dialect connects with (several hosts, its adapters).
        self._args, self._kwargs = engine.dialect.create_connect_args(engine.url)
        self._opening = asyncio.Lock()
        self._closed = False
        self.connection: Any = None
        """psycopg's AsyncConnection while one is open, else None."""

    async def execute(self, text: str, params: Any) -> Any:
        """Run one statement (psycopg's parameters); its cursor. What fails is raised and
        closes the connection, except a cancelled statement that left it idle."""
        conn = await self._open()
        try:
            return await conn.execute(text, params)
        except asyncio.CancelledError:
            # psycopg cancels the statement in the server and waits for it, so the connection
            # can serve the next; a connection that did not come back idle is closed.
            if conn.closed or conn.info.transaction_status != _IDLE:
                await self._drop(conn)
            raise
        except BaseException:
            await self._drop(conn)
            raise

    async def _open(self) -> Any:
        if self._closed:
            raise RuntimeError("this connection was closed for good")
        async with self._opening:
            if self.connection is None:
                import psycopg  # only a PostgreSQL hall needs it

                self.connection = await psycopg.AsyncConnection.connect(
                    *self._args, autocommit=True, **self._kwargs)
            return self.connection

    async def _drop(self, conn: Any) -> None:
        """Close `conn`, and forget it if it is still the one in use (a task that failed on an
        older one must not close a newer one another task opened since)."""
        if self.connection is conn:
            self.connection = None
        with contextlib.suppress(Exception):
            await conn.close()

    async def close(self) -> None:
        self._closed = True
        if self.connection is not None:
            await self._drop(self.connection)


_IDLE = 0
"""libpq's PQTRANS_IDLE (psycopg.pq.TransactionStatus.IDLE), without importing psycopg here."""
