"""The PostgreSQL backend, over asyncpg: for a server whose database lives elsewhere, or is
shared by several servers.

A write is one transaction on a pooled connection and returns once PostgreSQL has committed it
(``synchronous_commit`` as the server configures it, on by default): PostgreSQL groups the
commits of concurrent transactions into one flush itself, so no writer thread is needed here.
Migrations run under a transaction-scoped advisory lock, so servers starting together migrate
once.
"""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import AsyncIterator, Awaitable, Callable, Collection, Sequence
from contextlib import asynccontextmanager, suppress
from typing import TypeAlias, TypeVar

import asyncpg
from asyncpg.pool import PoolConnectionProxy

from server.errors import ConflictError, StoreRefusedError, StoreUnavailableError
from server.store import Append, Snapshot, TableRow, TokenRow
from server.store.migrations import SCHEMA_VERSION, pending

T = TypeVar("T")
Connection: TypeAlias = "PoolConnectionProxy[asyncpg.Record]"  # generic only in the stubs
MIGRATION_LOCK = 0x5E12E
"""The advisory lock's key: any number, the same in every server sharing a database."""
CONNECTIONS = 10
"""The pool's most connections: writes are short, and tables in memory are read from memory."""
TIMEOUT = 10.0
"""Seconds to wait for a connection or a statement before calling the database unavailable."""
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


class PostgresStore:
    """A pool of connections to one PostgreSQL database."""

    def __init__(self, url: str) -> None:
        self.url = url
        self._pool: asyncpg.Pool | None = None

    async def open(self) -> None:
        try:
            async with _reaching():
                self._pool = await asyncpg.create_pool(
                    self.url,
                    min_size=1,
                    max_size=CONNECTIONS,
                    timeout=TIMEOUT,
                    command_timeout=TIMEOUT,
                )
            await self._transaction(_migrate)
        except asyncpg.PostgresError as refused:
            await self.close()
            raise StoreRefusedError(_why(refused)) from refused
        except BaseException:  # a schema too new, or the database lost: let go of the pool
            await self.close()
            raise

    async def close(self) -> None:
        """Let go of every connection: gracefully, or, for one still busy after a statement's
        timeout, at once, so no session of ours lingers in the database holding locks."""
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

    # Writes ------------------------------------------------------------------------------

    async def create_table(self, row: TableRow, tokens: Sequence[TokenRow]) -> None:
        async def create(connection: Connection) -> None:
            await connection.execute(
                "insert into tables values ($1, $2, $3, $4, $5)",
                row.id,
                row.system,
                row.name,
                row.options,
                time.time(),
            )
            await _insert_tokens(connection, tokens)

        await self._transaction(create)

    async def add_tokens(self, tokens: Sequence[TokenRow]) -> None:
        await self._transaction(lambda connection: _insert_tokens(connection, tokens))

    async def revoke_tokens(self, table_id: str, label: str) -> list[bytes]:
        async def revoke(connection: Connection) -> list[bytes]:
            rows = await connection.fetch(
                "delete from tokens where table_id = $1 and label = $2 returning hash",
                table_id,
                label,
            )
            return [row[0] for row in rows]

        return await self._transaction(revoke)

    async def append(self, append: Append) -> None:
        await self._transaction(lambda connection: _append(connection, append))

    async def save_snapshot(self, table_id: str, snapshot: Snapshot) -> None:
        await self._transaction(
            lambda connection: connection.execute(
                "insert into snapshots values ($1, $2, $3, $4) on conflict (table_id) do update"
                " set seq = excluded.seq, state = excluded.state, standing = excluded.standing"
                " where excluded.seq > snapshots.seq",
                table_id,
                snapshot.seq,
                snapshot.state,
                json.dumps(snapshot.standing),
            )
        )

    async def save_device_report(self, table_id: str, device: str, report: str, keep: int) -> None:
        async def save(connection: Connection) -> None:
            # The table's row locked (without blocking appends, which only share its key): two
            # servers recording reports at once would otherwise each count the other's report
            # out, and keep one more than ``keep``. Stamped by the database's clock, after the
            # lock: one clock for servers on several hosts, in the order the reports commit.
            await connection.execute(
                "select 1 from tables where id = $1 for no key update", table_id
            )
            await connection.execute(
                "insert into device_reports values"
                " ($1, $2, $3, extract(epoch from clock_timestamp())::double precision)"
                " on conflict (table_id, device)"
                " do update set report = excluded.report, reported = excluded.reported",
                table_id,
                device,
                report,
            )
            await connection.execute(
                "delete from device_reports where table_id = $1 and device <> $2 and device not in"
                " (select device from device_reports where table_id = $1 and device <> $2"
                " order by reported desc, device limit $3)",
                table_id,
                device,
                keep - 1,
            )

        await self._transaction(save)

    # Reads -------------------------------------------------------------------------------

    async def table(self, table_id: str) -> TableRow | None:
        found = await self._fetchrow(
            "select id, system, name, options from tables where id = $1", table_id
        )
        return TableRow(*found) if found else None

    async def tables_named(self, name: str) -> list[TableRow]:
        rows = await self._fetch(
            "select id, system, name, options from tables where name = $1 order by created",
            name,
        )
        return [TableRow(*row) for row in rows]

    async def events(self, table_id: str, after: int = 0) -> list[tuple[int, str]]:
        rows = await self._fetch(
            "select seq, body from events where table_id = $1 and seq > $2 order by seq",
            table_id,
            after,
        )
        return [(row[0], row[1]) for row in rows]

    async def heads(self, table_ids: Sequence[str]) -> dict[str, int]:
        rows = await self._fetch(
            "select table_id, max(seq) from events where table_id = any($1::text[])"
            " group by table_id",
            list(table_ids),
        )
        return {row[0]: row[1] for row in rows}

    async def tokens_kept(self, token_hashes: Collection[bytes]) -> set[bytes]:
        rows = await self._fetch(
            "select hash from tokens where hash = any($1::bytea[])", list(token_hashes)
        )
        return {row[0] for row in rows}

    async def snapshot(self, table_id: str) -> Snapshot | None:
        found = await self._fetchrow(
            "select seq, state, standing from snapshots where table_id = $1", table_id
        )
        if not found:
            return None
        return Snapshot(seq=found[0], state=found[1], standing=tuple(json.loads(found[2])))

    async def token(self, token_hash: bytes) -> TokenRow | None:
        found = await self._fetchrow(
            "select hash, table_id, role, participants, label from tokens where hash = $1",
            token_hash,
        )
        if not found:
            return None
        return TokenRow(found[0], found[1], found[2], tuple(json.loads(found[3])), found[4])

    async def bindings(self, table_id: str) -> list[tuple[str, tuple[str, ...]]]:
        rows = await self._fetch(
            "select distinct role, participants from tokens where table_id = $1", table_id
        )
        return [(row[0], tuple(json.loads(row[1]))) for row in rows]

    async def idempotent(self, table_id: str, token_hash: bytes, key: str) -> str | None:
        found = await self._fetchrow(
            "select response from idempotency where table_id = $1 and token_hash = $2 and key = $3",
            table_id,
            token_hash,
            key,
        )
        return found[0] if found else None

    async def device_reports(self, table_id: str) -> list[tuple[str, str, float]]:
        rows = await self._fetch(
            "select device, report, reported from device_reports where table_id = $1"
            " order by reported, device",
            table_id,
        )
        return [(row[0], row[1], row[2]) for row in rows]

    async def _fetch(self, query: str, *args: object) -> list[asyncpg.Record]:
        assert self._pool is not None, "the store is not open"
        async with _reaching():
            return await self._pool.fetch(query, *args, timeout=TIMEOUT)

    async def _fetchrow(self, query: str, *args: object) -> asyncpg.Record | None:
        assert self._pool is not None, "the store is not open"
        async with _reaching():
            return await self._pool.fetchrow(query, *args, timeout=TIMEOUT)


def _why(refused: asyncpg.PostgresError) -> str:
    """What to do about a database that refuses to start the server, in one line."""
    if isinstance(refused, asyncpg.InvalidCatalogNameError):
        return f"{refused} (create it first: createdb)"
    if isinstance(refused, asyncpg.InvalidSchemaNameError):
        return f"{refused} (the schema search_path names must exist: create schema …)"
    return str(refused)


async def _migrate(connection: Connection) -> None:
    """Bring the database's schema to the latest version, in the caller's transaction."""
    await connection.execute("select pg_advisory_xact_lock($1)", MIGRATION_LOCK)
    await connection.execute(SCHEMA_VERSION["postgres"])
    version = await connection.fetchval("select coalesce(max(version), 0) from schema_version")
    for migration in pending(version):
        for statement in migration.postgres:
            await connection.execute(statement)
        await connection.execute(
            "insert into schema_version values ($1, $2)", migration.version, time.time()
        )


async def _insert_tokens(connection: Connection, tokens: Sequence[TokenRow]) -> None:
    await connection.executemany(
        "insert into tokens values ($1, $2, $3, $4, $5, $6)",
        [
            (t.hash, t.table_id, t.role, json.dumps(t.participants), t.label, time.time())
            for t in tokens
        ],
    )


async def _append(connection: Connection, append: Append) -> None:
    now = time.time()
    try:
        await connection.executemany(
            "insert into events values ($1, $2, $3, $4, $5)",
            [
                (append.table_id, append.first_seq + n, kind, body, now)
                for n, (kind, body) in enumerate(append.events)
            ],
        )
        if append.idempotency is not None:
            token_hash, key, response = append.idempotency
            await connection.execute(
                "insert into idempotency values ($1, $2, $3, $4)",
                append.table_id,
                token_hash,
                key,
                response,
            )
    except asyncpg.UniqueViolationError as taken:
        raise ConflictError(str(taken)) from taken
