"""The PostgreSQL backend, over asyncpg: for a server whose database lives elsewhere, or is
shared by several servers.

A write returns once PostgreSQL has committed it: with the ``disk`` durability (the default),
with ``synchronous_commit`` as the database configures it, on by default (the commit flushed to
its disk); with ``os``, with ``synchronous_commit=off`` on every connection of ours, answered
once PostgreSQL has the commit in memory, before its WAL is flushed. That is weaker than
SQLite's ``os``: a crash of Seize still loses nothing, but a crash of PostgreSQL itself, not
only of its machine, may lose the last commits (up to three times ``wal_writer_delay``, 600 ms
by default), never the database's consistency.

Writes are committed in groups: one transaction at a time, and whatever was asked meanwhile goes
into the next, so commands that arrive together share one commit (one flush) and one connection,
each still answered only once it is committed. Should the database refuse one write of a group
(a sequence another server took), the group is committed again one write at a time, so that
write fails alone. Migrations run under a transaction-scoped advisory lock, so servers starting
together migrate once.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager, suppress
from functools import partial
from typing import TypeAlias, TypeVar

import asyncpg
from asyncpg.pool import PoolConnectionProxy

from server.errors import StoreRefusedError, StoreUnavailableError
from server.settings import Durability
from server.store.migrations import migrate
from server.store.sql import POSTGRES, Query, Rows, SqlStore

T = TypeVar("T")
Connection: TypeAlias = "PoolConnectionProxy[asyncpg.Record]"  # generic only in the stubs
CONNECTIONS = 10
"""The pool's most connections: writes are short, and tables in memory are read from memory."""
TIMEOUT = 10.0
"""Seconds to wait for a connection or a statement before calling the database unavailable."""
SERVER_SETTINGS: dict[Durability, dict[str, str] | None] = {
    "disk": None,  # the database's own, as the URL may set them
    "os": {"synchronous_commit": "off"},
}
"""What each durability sets on our sessions, over any setting of the URL's."""
LOST = (
    OSError,
    TimeoutError,
    asyncpg.PostgresConnectionError,
    asyncpg.InterfaceError,
    asyncpg.AdminShutdownError,
    asyncpg.CrashShutdownError,
    asyncpg.CannotConnectNowError,
    asyncpg.InternalClientError,
    asyncpg.TooManyConnectionsError,
)
"""What asyncpg raises when the database cannot be reached or the connection drops.

A PostgreSQL that stops, crashes or starts again says so with errors of the database, not of
the connection, yet a retry once it is back succeeds, so they are answered 503 like the rest
rather than 500: ``AdminShutdownError`` ends the sessions at a fast stop,
``CrashShutdownError`` at another session's crash, and ``CannotConnectNowError`` refuses new
ones while it shuts down, starts or recovers. A session the database ends while the connection
sits idle in the pool leaves asyncpg waiting for a reply that never comes: the connection's
next statement, or the reset that returns it to the pool, fails with ``InternalClientError``
(and the pool then replaces the connection). ``TooManyConnectionsError`` is a database full of
sessions, as when every worker of every host reconnects at once after a restart: it passes."""


@asynccontextmanager
async def _reaching() -> AsyncIterator[None]:
    """Turn a lost or unreachable database into StoreUnavailableError. A write that fails this
    way may or may not have been committed: the caller must not acknowledge it, and must read
    the table again before writing to it."""
    try:
        yield
    except LOST as lost:
        raise StoreUnavailableError(f"the database cannot be reached: {lost}") from lost


class PostgresStore(SqlStore):
    """A pool of connections to one PostgreSQL database."""

    dialect = POSTGRES

    def __init__(self, url: str, durability: Durability = "disk") -> None:
        self.url = url
        self.durability = durability
        self._pool: asyncpg.Pool | None = None
        self._queued: list[Write] = []  # writes asked for while a group commits
        self._committing: asyncio.Task[None] | None = None

    async def open(self) -> None:
        try:
            async with _reaching():
                self._pool = await asyncpg.create_pool(
                    self.url,
                    min_size=1,
                    max_size=CONNECTIONS,
                    timeout=TIMEOUT,
                    command_timeout=TIMEOUT,
                    server_settings=SERVER_SETTINGS[self.durability],
                )
            await self._transaction(
                lambda connection: migrate(POSTGRES, partial(_execute, connection))
            )
        except asyncpg.PostgresError as refused:
            await self.close()
            raise StoreRefusedError(_why(refused)) from refused
        except BaseException:  # a schema too new, or the database lost: let go of the pool
            await self.close()
            raise

    async def close(self) -> None:
        """Let go of every connection: gracefully, or, for one still busy after a statement's
        timeout, at once, so no session of ours lingers in the database holding locks. The
        group being committed is let finish first."""
        if self._committing is not None:
            with suppress(Exception):
                await self._committing
        if self._pool is not None:
            try:
                await asyncio.wait_for(self._pool.close(), TIMEOUT)
            except TimeoutError:
                self._pool.terminate()

    async def ping(self) -> None:
        await self._transaction(lambda connection: connection.fetchval("select 1"))

    async def _transaction(self, action: Callable[[Connection], Awaitable[T]]) -> T:
        """Run ``action`` in one transaction; returns once it is committed. The connection is
        given back afterwards, and a failure then is not the write's: once PostgreSQL has
        committed, the caller must hear so, not that the database was lost (the pool replaces a
        connection it could not reset)."""
        pool = self._pool
        assert pool is not None, "the store is not open"
        async with _reaching():
            connection = await pool.acquire(timeout=TIMEOUT)
        try:
            async with _reaching(), connection.transaction():
                return await action(connection)
        finally:
            with suppress(*LOST):
                await pool.release(connection, timeout=TIMEOUT)

    async def _write(self, *queries: Query) -> Rows:
        """Queue the queries for the next group; returns once they are committed."""
        future: asyncio.Future[Rows] = asyncio.get_running_loop().create_future()
        self._queued.append((queries, future))
        if self._committing is None:
            self._committing = asyncio.create_task(self._commit_queued())
        return await future

    async def _commit_queued(self) -> None:
        try:
            while self._queued:
                group, self._queued = self._queued, []
                await self._commit(group)
        finally:
            self._committing = None

    async def _commit(self, group: list[Write]) -> None:
        """Commit a group in one transaction, and settle each write's future after."""
        try:
            results = await self._transaction(partial(_each_write, group))
        except asyncpg.PostgresError as refused:
            if len(group) == 1:
                _settle(group[0][1], refused)
                return
            for write in group:  # each alone, so only the refused one fails
                await self._commit([write])
            return
        except Exception as lost:  # the database lost: every write's outcome is unknown
            for _, future in group:
                _settle(future, lost)
            return
        except BaseException:  # cancelled, the server stopping
            for _, future in group:
                future.cancel()
            raise
        for (_, future), rows in zip(group, results, strict=True):
            _settle(future, rows)

    async def _fetch(self, query: Query) -> Rows:
        assert self._pool is not None, "the store is not open"
        text, bound = POSTGRES.spell(query.text, query.values)
        async with _reaching():
            found = await self._pool.fetch(text, *bound, timeout=TIMEOUT)
        return [tuple(row) for row in found]


Write = tuple[tuple[Query, ...], asyncio.Future[Rows]]


async def _each_write(group: list[Write], connection: Connection) -> list[Rows]:
    """Each write's queries in turn; each write's result is its last query's rows."""
    results = []
    for queries, _ in group:
        rows: Rows = []
        for query in queries:
            rows = await _execute(connection, query)
        results.append(rows)
    return results


def _settle(future: asyncio.Future[Rows], outcome: Rows | BaseException) -> None:
    if future.done():  # its caller gave up waiting; the write stands or falls all the same
        return
    if isinstance(outcome, BaseException):
        future.set_exception(outcome)
    else:
        future.set_result(outcome)


async def _execute(connection: Connection, query: Query) -> Rows:
    if query.each is None:
        text, bound = POSTGRES.spell(query.text, query.values)
        return [tuple(row) for row in await connection.fetch(text, *bound)]
    await connection.executemany(*POSTGRES.spell_each(query.text, query.each))
    return []


def _why(refused: asyncpg.PostgresError) -> str:
    """What to do about a database that refuses to start the server, in one line."""
    if isinstance(refused, asyncpg.InvalidCatalogNameError):
        return f"{refused} (create it first: createdb)"
    if isinstance(refused, asyncpg.InvalidSchemaNameError):
        return f"{refused} (the schema search_path names must exist: create schema …)"
    return str(refused)
