"""The SQLite backend: one file, the embedded default.

A write returns only after it is committed: with ``synchronous=FULL`` (the ``disk`` durability,
the default), once the commit's fsync has returned, so neither a ``kill -9`` nor a power cut
loses anything acknowledged; with ``synchronous=NORMAL`` (``os``), once the commit is in the
write-ahead log in the operating system's hands, as SQLite advises for WAL: a ``kill -9`` of the
server still loses nothing (the log's pages are the system's, not the process's), a power cut or
a crash of the machine may lose the last commits, never the file's consistency.

Writes go through one writer thread that commits whatever is queued in one transaction (group
commit): the event loop never waits on the disk, and tables written at the same time share an
fsync. Each write runs in its own savepoint, so one failing write (a sequence taken twice) fails
alone. Reads run on the event loop's thread on their own connection: in WAL mode they never wait
for the writer, and they are quick enough that handing them to a thread would cost more than it
saves.
"""

from __future__ import annotations

import asyncio
import queue
import sqlite3
import threading
import time
from pathlib import Path

from server.settings import Durability
from server.store.migrations import migrate
from server.store.sql import SQLITE, Query, Rows, SqlStore

Write = tuple[tuple[Query, ...], asyncio.Future[Rows]]
Outcome = tuple[asyncio.Future[Rows], Rows, BaseException | None]
"""A write's future and what to settle it with: its rows, or why it failed."""
BUSY_MS = 5000
"""Milliseconds a connection waits on another process's lock before it answers "locked"."""
SYNCHRONOUS: dict[Durability, str] = {"disk": "full", "os": "normal"}
"""SQLite's ``synchronous`` for each durability: in WAL mode NORMAL fsyncs only at checkpoints."""


def _connect(path: Path, durability: Durability) -> sqlite3.Connection:
    connection = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
    connection.execute(f"pragma busy_timeout={BUSY_MS}")
    _write_ahead(connection)
    connection.execute(f"pragma synchronous={SYNCHRONOUS[durability]}")
    connection.execute("pragma foreign_keys=on")
    connection.create_function("host_clock", 0, time.time)  # the dialect's clock (sql.py)
    return connection


def _write_ahead(connection: sqlite3.Connection) -> None:
    """Put the file in WAL mode. Workers starting together (``--workers``) on a new file all
    try it at once, and SQLite answers "locked" to all but one without waiting (it would be a
    deadlock otherwise), whatever the busy timeout; so it is tried again, up to that timeout.
    Without this, a worker could fail to start and be restarted a second later."""
    deadline = time.monotonic() + BUSY_MS / 1000
    while True:
        try:
            connection.execute("pragma journal_mode=wal")
            return
        except sqlite3.OperationalError as locked:
            if "locked" not in str(locked) or time.monotonic() > deadline:
                raise
            time.sleep(0.01)


def _execute(connection: sqlite3.Connection, query: Query) -> Rows:
    if query.each is None:
        return connection.execute(*SQLITE.spell(query.text, query.values)).fetchall()
    connection.executemany(*SQLITE.spell_each(query.text, query.each))
    return []


class SqliteStore(SqlStore):
    """The SQLite file: reads on the caller's thread, writes on the writer thread."""

    dialect = SQLITE

    def __init__(self, path: Path, durability: Durability = "disk") -> None:
        self.path = path
        self.durability = durability
        self._queue: queue.SimpleQueue[Write | None] = queue.SimpleQueue()
        self._writer = threading.Thread(target=self._write_loop, name="seize-store", daemon=True)

    async def open(self) -> None:
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self._read = _connect(self.path, self.durability)
        try:
            await self._migrate()
        except BaseException:  # a schema too new: the file is left as it was, and let go
            self._read.close()
            raise
        self._writer.start()

    async def _migrate(self) -> None:
        """Migrate in one transaction on the reading connection, the writer not yet started."""
        self._read.execute("begin immediate")
        try:
            await migrate(SQLITE, self._fetch)
        except BaseException:
            self._read.execute("rollback")
            raise
        self._read.execute("commit")

    async def close(self) -> None:
        """Finish queued writes and close the file."""
        self._queue.put(None)
        await asyncio.to_thread(self._writer.join)
        self._read.close()

    async def ping(self) -> None:
        self._read.execute("select 1 from schema_version limit 1").fetchone()

    async def _write(self, *queries: Query) -> Rows:
        """Queue the queries for the writer thread; returns once they are committed (on disk,
        or in the system's hands: the store's durability)."""
        future: asyncio.Future[Rows] = asyncio.get_running_loop().create_future()
        self._queue.put((queries, future))
        return await future

    async def _fetch(self, query: Query) -> Rows:
        return _execute(self._read, query)

    def _write_loop(self) -> None:
        connection = _connect(self.path, self.durability)
        while True:
            item = self._queue.get()
            if item is None:
                break
            batch = [item]
            while len(batch) < 256:
                try:
                    following = self._queue.get_nowait()
                except queue.Empty:
                    break
                if following is None:
                    self._queue.put(None)
                    break
                batch.append(following)
            self._commit(connection, batch)
        connection.close()

    @staticmethod
    def _commit(connection: sqlite3.Connection, batch: list[Write]) -> None:
        """Commit ``batch`` in one transaction, each write in a savepoint of its own so that one
        failing write fails alone; a write alone in its batch needs none, the transaction is
        its savepoint. A batch with nothing written is rolled back, with no fsync. The callers
        are told in one hand-off per loop, not one per write."""
        alone = len(batch) == 1
        try:
            # Another process's write (a second worker) can hold the file past the busy
            # timeout: the batch fails, and the writer goes on to the next.
            connection.execute("begin immediate")
        except sqlite3.Error as locked:
            outcomes: list[Outcome] = [(future, [], locked) for _, future in batch]
        else:
            outcomes = [
                (future, *_written(connection, queries, savepoint=not alone))
                for queries, future in batch
            ]
            try:
                if all(error is not None for _, _, error in outcomes):
                    connection.execute("rollback")
                else:
                    connection.execute("commit")
            except sqlite3.Error as lost:
                connection.execute("rollback")
                outcomes = [(future, [], lost) for future, _, _ in outcomes]
        by_loop: dict[asyncio.AbstractEventLoop, list[Outcome]] = {}
        for outcome in outcomes:
            by_loop.setdefault(outcome[0].get_loop(), []).append(outcome)
        for loop, told in by_loop.items():
            loop.call_soon_threadsafe(_settle, told)


def _written(
    connection: sqlite3.Connection, queries: tuple[Query, ...], *, savepoint: bool
) -> tuple[Rows, BaseException | None]:
    """Run one write's queries: the last one's rows, or why it failed (its caller's failure,
    not the batch's). What a failed write did is undone by its savepoint; without one (alone
    in its batch) by the batch's rollback."""
    if savepoint:
        connection.execute("savepoint write")
    try:
        rows: Rows = []
        for query in queries:
            rows = _execute(connection, query)
    except Exception as failed:
        if savepoint:
            connection.execute("rollback to write")
        return [], failed
    finally:
        if savepoint:
            connection.execute("release write")
    return rows, None


def _settle(outcomes: list[Outcome]) -> None:
    for future, result, error in outcomes:
        if future.cancelled():
            continue
        if error is not None:
            future.set_exception(error)
        else:
            future.set_result(result)
