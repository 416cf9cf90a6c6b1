"""The SQLite backend: one file, the embedded default.

A write returns only after it is committed with ``synchronous=FULL``, so a ``kill -9`` (or a
power cut) loses nothing acknowledged. Writes go through one writer thread that commits
whatever is queued in one transaction (group commit): the event loop never waits on the disk,
and tables written at the same time share an fsync. Each write runs in its own savepoint, so one
failing write (a sequence taken twice) fails alone. Reads run on the event loop's thread on
their own connection: in WAL mode they never wait for the writer, and they are quick enough
that handing them to a thread would cost more than it saves.
"""

from __future__ import annotations

import asyncio
import json
import queue
import sqlite3
import threading
import time
from collections.abc import Callable, Collection, Sequence
from pathlib import Path
from typing import Any, TypeVar

from server.errors import ConflictError
from server.store import Append, Snapshot, TableRow, TokenRow
from server.store.migrations import SCHEMA_VERSION, pending

T = TypeVar("T")
Write = Callable[[sqlite3.Connection], Any]
BUSY_MS = 5000
"""Milliseconds a connection waits on another process's lock before it answers "locked"."""
AT_ONCE = 500
"""Tables or tokens asked about in one statement: well under SQLite's limit on bound
parameters."""


def _connect(path: Path) -> sqlite3.Connection:
    connection = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
    connection.execute(f"pragma busy_timeout={BUSY_MS}")
    _write_ahead(connection)
    connection.execute("pragma synchronous=full")
    connection.execute("pragma foreign_keys=on")
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


def migrate(connection: sqlite3.Connection) -> None:
    """Bring the file's schema to the latest version, in one transaction."""
    connection.execute("begin immediate")
    try:
        connection.execute(SCHEMA_VERSION["sqlite"])
        (version,) = connection.execute(
            "select coalesce(max(version), 0) from schema_version"
        ).fetchone()
        for migration in pending(version):
            for statement in migration.sqlite:
                connection.execute(statement)
            connection.execute(
                "insert into schema_version values (?, ?)", (migration.version, time.time())
            )
    except BaseException:
        connection.execute("rollback")
        raise
    connection.execute("commit")


class SqliteStore:
    """The SQLite file: reads on the caller's thread, writes on the writer thread."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self._queue: queue.SimpleQueue[tuple[Write, asyncio.Future[Any]] | None] = (
            queue.SimpleQueue()
        )
        self._writer = threading.Thread(target=self._write_loop, name="seize-store", daemon=True)

    async def open(self) -> None:
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self._read = _connect(self.path)
        try:
            migrate(self._read)
        except BaseException:  # a schema too new: the file is left as it was, and let go
            self._read.close()
            raise
        self._writer.start()

    async def close(self) -> None:
        """Finish queued writes and close the file."""
        self._queue.put(None)
        await asyncio.to_thread(self._writer.join)
        self._read.close()

    async def ping(self) -> None:
        self._read.execute("select 1 from schema_version limit 1").fetchone()

    # Writes ------------------------------------------------------------------------------

    async def write(self, action: Callable[[sqlite3.Connection], T]) -> T:
        """Run ``action`` in a transaction on the writer thread; returns once it is on disk."""
        future: asyncio.Future[T] = asyncio.get_running_loop().create_future()
        self._queue.put((action, future))
        return await future

    def _write_loop(self) -> None:
        connection = _connect(self.path)
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
    def _commit(
        connection: sqlite3.Connection, batch: list[tuple[Write, asyncio.Future[Any]]]
    ) -> None:
        outcomes: list[tuple[asyncio.Future[Any], Any, BaseException | None]] = []
        connection.execute("begin immediate")
        for action, future in batch:
            connection.execute("savepoint write")
            try:
                result = action(connection)
            except Exception as failed:  # one write's failure is its caller's, not the batch's
                connection.execute("rollback to write")
                outcomes.append((future, None, failed))
            else:
                outcomes.append((future, result, None))
            connection.execute("release write")
        try:
            connection.execute("commit")
        except sqlite3.Error as lost:
            connection.execute("rollback")
            outcomes = [(future, None, lost) for future, _, _ in outcomes]
        for future, result, error in outcomes:
            future.get_loop().call_soon_threadsafe(_settle, future, result, error)

    async def create_table(self, row: TableRow, tokens: Sequence[TokenRow]) -> None:
        def create(connection: sqlite3.Connection) -> None:
            connection.execute(
                "insert into tables values (?, ?, ?, ?, ?)",
                (row.id, row.system, row.name, row.options, time.time()),
            )
            _insert_tokens(connection, tokens)

        await self.write(create)

    async def add_tokens(self, tokens: Sequence[TokenRow]) -> None:
        await self.write(lambda connection: _insert_tokens(connection, tokens))

    async def revoke_tokens(self, table_id: str, label: str) -> list[bytes]:
        return await self.write(
            lambda connection: [
                row[0]
                for row in connection.execute(
                    "delete from tokens where table_id = ? and label = ? returning hash",
                    (table_id, label),
                ).fetchall()
            ]
        )

    async def append(self, append: Append) -> None:
        await self.write(lambda connection: _append(connection, append))

    async def save_snapshot(self, table_id: str, snapshot: Snapshot) -> None:
        await self.write(
            lambda connection: connection.execute(
                "insert into snapshots values (?, ?, ?, ?) on conflict (table_id) do update"
                " set seq = excluded.seq, state = excluded.state, standing = excluded.standing"
                " where excluded.seq > snapshots.seq",
                (table_id, snapshot.seq, snapshot.state, json.dumps(snapshot.standing)),
            )
        )

    async def save_device_report(self, table_id: str, device: str, report: str, keep: int) -> None:
        def save(connection: sqlite3.Connection) -> None:
            # Stamped on the writer thread: this file's writers take turns, so the stamps are in
            # the order the reports are committed.
            connection.execute(
                "insert into device_reports values (?, ?, ?, ?) on conflict (table_id, device)"
                " do update set report = excluded.report, reported = excluded.reported",
                (table_id, device, report, time.time()),
            )
            connection.execute(
                "delete from device_reports where table_id = ? and device <> ? and device not in"
                " (select device from device_reports where table_id = ? and device <> ?"
                " order by reported desc, device limit ?)",
                (table_id, device, table_id, device, keep - 1),
            )

        await self.write(save)

    # Reads -------------------------------------------------------------------------------

    async def table(self, table_id: str) -> TableRow | None:
        found = self._read.execute(
            "select id, system, name, options from tables where id = ?", (table_id,)
        ).fetchone()
        return TableRow(*found) if found else None

    async def tables_named(self, name: str) -> list[TableRow]:
        rows = self._read.execute(
            "select id, system, name, options from tables where name = ? order by created",
            (name,),
        ).fetchall()
        return [TableRow(*row) for row in rows]

    async def events(self, table_id: str, after: int = 0) -> list[tuple[int, str]]:
        return self._read.execute(
            "select seq, body from events where table_id = ? and seq > ? order by seq",
            (table_id, after),
        ).fetchall()

    async def heads(self, table_ids: Sequence[str]) -> dict[str, int]:
        return dict(
            self._in_parts(
                "select table_id, max(seq) from events where table_id in ({}) group by table_id",
                table_ids,
            )
        )

    async def tokens_kept(self, token_hashes: Collection[bytes]) -> set[bytes]:
        return {
            row[0]
            for row in self._in_parts("select hash from tokens where hash in ({})", token_hashes)
        }

    def _in_parts(self, query: str, values: Collection[Any]) -> list[Any]:
        """The rows of ``query`` for ``values`` in its ``in ({})``, asked a part at a time."""
        listed, rows = list(values), []
        for start in range(0, len(listed), AT_ONCE):
            some = listed[start : start + AT_ONCE]
            rows += self._read.execute(query.format(", ".join("?" * len(some))), some).fetchall()
        return rows

    async def snapshot(self, table_id: str) -> Snapshot | None:
        found = self._read.execute(
            "select seq, state, standing from snapshots where table_id = ?", (table_id,)
        ).fetchone()
        if not found:
            return None
        return Snapshot(seq=found[0], state=found[1], standing=tuple(json.loads(found[2])))

    async def token(self, token_hash: bytes) -> TokenRow | None:
        found = self._read.execute(
            "select hash, table_id, role, participants, label from tokens where hash = ?",
            (token_hash,),
        ).fetchone()
        if not found:
            return None
        return TokenRow(found[0], found[1], found[2], tuple(json.loads(found[3])), found[4])

    async def bindings(self, table_id: str) -> list[tuple[str, tuple[str, ...]]]:
        rows = self._read.execute(
            "select distinct role, participants from tokens where table_id = ?", (table_id,)
        ).fetchall()
        return [(role, tuple(json.loads(participants))) for role, participants in rows]

    async def idempotent(self, table_id: str, token_hash: bytes, key: str) -> str | None:
        found = self._read.execute(
            "select response from idempotency where table_id = ? and token_hash = ? and key = ?",
            (table_id, token_hash, key),
        ).fetchone()
        return found[0] if found else None

    async def device_reports(self, table_id: str) -> list[tuple[str, str, float]]:
        return self._read.execute(
            "select device, report, reported from device_reports where table_id = ?"
            " order by reported, device",
            (table_id,),
        ).fetchall()


def _settle(future: asyncio.Future[Any], result: Any, error: BaseException | None) -> None:
    if future.cancelled():
        return
    if error is not None:
        future.set_exception(error)
    else:
        future.set_result(result)


def _insert_tokens(connection: sqlite3.Connection, tokens: Sequence[TokenRow]) -> None:
    connection.executemany(
        "insert into tokens values (?, ?, ?, ?, ?, ?)",
        [
            (t.hash, t.table_id, t.role, json.dumps(t.participants), t.label, time.time())
            for t in tokens
        ],
    )


def _append(connection: sqlite3.Connection, append: Append) -> None:
    now = time.time()
    try:
        connection.executemany(
            "insert into events values (?, ?, ?, ?, ?)",
            [
                (append.table_id, append.first_seq + n, kind, body, now)
                for n, (kind, body) in enumerate(append.events)
            ],
        )
        if append.idempotency is not None:
            token_hash, key, response = append.idempotency
            connection.execute(
                "insert into idempotency values (?, ?, ?, ?)",
                (append.table_id, token_hash, key, response),
            )
    except sqlite3.IntegrityError as refused:
        if refused.sqlite_errorname != "SQLITE_CONSTRAINT_PRIMARYKEY":
            raise  # not a sequence or key taken, but a failure (a trigger, a full disk)
        raise ConflictError(str(refused)) from refused
