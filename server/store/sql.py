"""The store's SQL, written once for both backends.

Every statement, and what each write runs in its transaction, is spelled here in one shared
SQL; a ``Dialect`` holds the little the two databases spell differently, so that a change to
the store is one edit that cannot come out differently on SQLite and on PostgreSQL. A backend
keeps only how it reaches its database: how it runs a ``Query``, in what transaction, and what
it makes of a database out of reach.

The shared spelling: ``:name`` is a value, bound by name however often it appears (SQLite and
PostgreSQL both number their parameters, ``?1`` and ``$1``, so one value is bound once);
``= any(:name)`` asks for a column among a list of values; ``{word}`` is one of the dialect's
words (a field of ``Dialect``), where the two databases' SQL differ.
"""

from __future__ import annotations

import json
import re
import sqlite3
import time
from abc import ABC, abstractmethod
from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar, TypeAlias

import asyncpg

from server.errors import ConflictError
from server.store import Append, GmDevice, Remembered, Snapshot, TableRow, TokenRow

Rows: TypeAlias = list[tuple[Any, ...]]
AT_ONCE = 500
"""Items of a list SQLite binds one parameter each, asked about in one statement: well under its
limit on bound parameters."""
MIGRATION_LOCK = 0x5E12E
"""The advisory lock PostgreSQL migrates under: any number, the same in every server sharing a
database."""
_VALUE = re.compile(r"(?P<among>= any\()?(?<!:):(?P<name>\w+)(?(among)\))")
"""A value in the shared spelling, ``:name`` or ``= any(:name)``; the ``::`` of a cast is not."""


@dataclass(frozen=True)
class Query:
    """A statement in the shared spelling and its values by name: what a backend runs."""

    text: str
    values: Mapping[str, Any] = field(default_factory=dict)
    each: Sequence[Mapping[str, Any]] | None = None
    """Values to run the statement with once each, in one round trip, instead of ``values``
    (no rows come back): how a table's tokens or an append's events are written. Never empty
    (``_each`` leaves such a statement out), since the statement is spelled from its values."""


@dataclass(frozen=True)
class Swapped:
    """A table of values kept per table and key, each written only over the one it replaces
    (``SqlStore._swap``): its columns, in order, and the column stamped when it is written."""

    table: str
    key: str
    value: str
    stamp: str | None = None


DEVICE_REPORTS = Swapped("device_reports", "device", "report", stamp="reported")
TABLE_SETTINGS = Swapped("table_settings", "name", "value")


@dataclass(frozen=True)
class Dialect:
    """What one database spells otherwise than the other. The fields of type ``str`` are the
    words a statement names as ``{word}``."""

    parameter: str
    """What starts a numbered parameter: numbered, a value named twice is bound once."""
    arrays: bool
    """Whether a list is bound as one array; SQLite has none, and gets a parameter an item, a
    part of the list (``AT_ONCE`` items) at a time."""
    blob: str
    real: str
    bigint: str
    """A 64-bit integer (a table's sequence): SQLite's integer already is, PostgreSQL's is not."""
    without_rowid: str
    """How a table keyed by more than one column is stored by its key: SQLite would otherwise
    keep a second, hidden key; PostgreSQL's tables have none."""
    create_or_adopt: str
    """How the first migration creates a table: an SQLite file from before migrations were
    recorded has its tables already, and they are adopted as they stand; a PostgreSQL database
    never does, and a table there already is an error rather than someone else's adopted."""
    clock: str
    """Seconds since the epoch by the one clock of every server sharing the database: the
    host's for an SQLite file (``host_clock()``, which its connections provide), read as a write
    runs, since the file's writers take turns and so stamp in the order they commit; the
    database's own for PostgreSQL, whose servers may run on several hosts."""
    lock_table: str | None
    """A statement that keeps another server from writing the table's devices until this
    transaction ends, with appends going on: PostgreSQL's writers run side by side, SQLite's take
    turns already."""
    lock_migrations: str | None
    """A statement that keeps servers starting together from migrating side by side; SQLite's
    migration locks the file as its transaction begins."""
    taken: Callable[[Exception], bool]
    """Whether an error says a key is taken: a sequence or an idempotency key written twice."""

    def spell(self, text: str, values: Mapping[str, Any]) -> tuple[str, list[Any]]:
        """The statement as this database reads it, and its values in the order it numbers
        them."""
        bound: list[Any] = []
        numbers: dict[str, str] = {}

        def number(value: Any) -> str:
            bound.append(value)
            return f"{self.parameter}{len(bound)}"

        def value(found: re.Match[str]) -> str:
            name = found["name"]
            if found["among"]:
                items = list(values[name])
                if self.arrays:
                    return f"= any({number(items)})"
                return f"in ({', '.join(map(number, items))})"
            if name not in numbers:
                numbers[name] = number(values[name])
            return numbers[name]

        return _VALUE.sub(value, text.format_map(vars(self))), bound

    def spell_each(
        self, text: str, each: Sequence[Mapping[str, Any]]
    ) -> tuple[str, list[list[Any]]]:
        """The statement as this database reads it, and the values of each run: it asks about
        no list, so it is spelled alike for every run."""
        spelled = [self.spell(text, values) for values in each]
        return spelled[0][0], [bound for _, bound in spelled]

    def parts(self, items: Collection[Any]) -> list[list[Any]]:
        """The list cut into the parts asked about one statement each."""
        listed = list(items)
        if self.arrays:
            return [listed]
        return [listed[start : start + AT_ONCE] for start in range(0, len(listed), AT_ONCE)]


def _sqlite_taken(error: Exception) -> bool:
    # Only a primary key: another constraint failing (a trigger, a full disk) is a failure.
    return (
        isinstance(error, sqlite3.IntegrityError)
        and error.sqlite_errorname == "SQLITE_CONSTRAINT_PRIMARYKEY"
    )


def _postgres_taken(error: Exception) -> bool:
    return isinstance(error, asyncpg.UniqueViolationError)


SQLITE = Dialect(
    parameter="?",
    arrays=False,
    blob="blob",
    real="real",
    bigint="integer",
    without_rowid=" without rowid",
    create_or_adopt="create table if not exists",
    clock="host_clock()",
    lock_table=None,
    lock_migrations=None,
    taken=_sqlite_taken,
)
POSTGRES = Dialect(
    parameter="$",
    arrays=True,
    blob="bytea",
    real="double precision",
    bigint="bigint",
    without_rowid="",
    create_or_adopt="create table",
    clock="extract(epoch from clock_timestamp())::double precision",
    lock_table="select 1 from tables where id = :table_id for no key update",
    lock_migrations=f"select pg_advisory_xact_lock({MIGRATION_LOCK})",
    taken=_postgres_taken,
)


class SqlStore(ABC):
    """Every operation of ``Store`` but opening, closing and pinging, written once: a backend
    says how it runs queries, and in which dialect."""

    dialect: ClassVar[Dialect]

    @abstractmethod
    async def _write(self, *queries: Query) -> Rows:
        """Run the queries in one transaction; returns the last one's rows once committed. A
        query that fails fails the write, and nothing of it is committed."""

    @abstractmethod
    async def _fetch(self, query: Query) -> Rows:
        """The query's rows, as of every write that has returned."""

    # Writes ------------------------------------------------------------------------------

    async def create_table(self, row: TableRow, tokens: Sequence[TokenRow]) -> None:
        await self._write(
            Query(
                "insert into tables values (:id, :system, :name, :options, :created)",
                {
                    "id": row.id,
                    "system": row.system,
                    "name": row.name,
                    "options": row.options,
                    "created": time.time(),
                },
            ),
            *_insert_tokens(tokens),
        )

    async def add_tokens(self, tokens: Sequence[TokenRow]) -> None:
        await self._write(*_insert_tokens(tokens))

    async def revoke_tokens(self, table_id: str, label: str, keep: bytes = b"") -> list[bytes]:
        rows = await self._write(
            Query(
                "delete from tokens where table_id = :table_id and label = :label"
                " and hash <> :keep returning hash",
                {"table_id": table_id, "label": label, "keep": keep},
            )
        )
        return [token_hash for (token_hash,) in rows]

    async def revoke_token(self, table_id: str, token_hash: bytes) -> bool:
        rows = await self._write(
            Query(
                "delete from tokens where table_id = :table_id and hash = :hash returning hash",
                {"table_id": table_id, "hash": token_hash},
            )
        )
        return bool(rows)

    async def note_seen(self, token_hash: bytes) -> None:
        await self._write(
            Query(
                "update tokens set seen = {clock} where hash = :hash",
                {"hash": token_hash},
            )
        )

    async def append(self, append: Append) -> None:
        now = time.time()
        queries = _each(
            "insert into events values (:table_id, :seq, :type, :body, :at)",
            [
                {
                    "table_id": append.table_id,
                    "seq": append.first_seq + n,
                    "type": kind,
                    "body": body,
                    "at": now,
                }
                for n, (kind, body) in enumerate(append.events)
            ],
        )
        if append.remembered:
            queries += _each(
                "insert into idempotency (table_id, token_hash, key, response, command)"
                " values (:table_id, :token_hash, :key, :response, :command)",
                [
                    {
                        "table_id": append.table_id,
                        "token_hash": kept.token_hash,
                        "key": kept.key,
                        "response": kept.response,
                        "command": kept.command,
                    }
                    for kept in append.remembered
                ],
            )
        try:
            await self._write(*queries)
        except Exception as refused:
            if not self.dialect.taken(refused):
                raise
            raise ConflictError(str(refused)) from refused

    async def save_snapshot(self, table_id: str, snapshot: Snapshot) -> None:
        await self._write(
            Query(
                "insert into snapshots (table_id, seq, state) values (:table_id, :seq, :state)"
                " on conflict (table_id) do update"
                " set seq = excluded.seq, state = excluded.state"
                " where excluded.seq > snapshots.seq",
                {"table_id": table_id, "seq": snapshot.seq, "state": snapshot.state},
            )
        )

    async def save_device_report(
        self, table_id: str, device: str, report: str, keep: int, spared: str = ""
    ) -> None:
        # Locked first, where writers run side by side: two servers recording reports at once
        # would otherwise each count the other's report out, and keep one more than ``keep``.
        # Stamped after the lock, so the stamps are in the order the reports commit.
        values = {"table_id": table_id, "device": device, "report": report, "spared": spared,
                  "others": keep - 1}  # fmt: skip
        locks = [] if self.dialect.lock_table is None else [Query(self.dialect.lock_table, values)]
        await self._write(
            *locks,
            Query(
                "insert into device_reports values (:table_id, :device, :report, {clock})"
                " on conflict (table_id, device)"
                " do update set report = excluded.report, reported = excluded.reported",
                values,
            ),
            Query(
                "delete from device_reports where table_id = :table_id and device <> :device"
                " and device <> :spared and device not in (select device from device_reports"
                " where table_id = :table_id and device <> :device and device <> :spared"
                " order by reported desc, device limit :others)",
                values,
            ),
        )

    async def swap_device_report(
        self, table_id: str, device: str, before: str | None, report: str
    ) -> bool:
        return await self._swap(DEVICE_REPORTS, table_id, device, before, report)

    async def swap_setting(self, table_id: str, name: str, before: str | None, value: str) -> bool:
        return await self._swap(TABLE_SETTINGS, table_id, name, before, value)

    async def _swap(
        self, kept: Swapped, table_id: str, key: str, before: str | None, value: str
    ) -> bool:
        """Write a row of ``kept`` only if it still holds ``before`` (None: if there is none
        yet), in one statement, so two servers sharing the store never both win; whether it
        was written."""
        column, held = kept.key, kept.value
        if before is None:
            stamped = ", {clock}" if kept.stamp else ""
            swap = (f"insert into {kept.table} values (:table_id, :key, :value{stamped})"
                    f" on conflict (table_id, {column}) do nothing returning {column}")  # fmt: skip
        else:
            stamped = f", {kept.stamp} = {{clock}}" if kept.stamp else ""
            swap = (f"update {kept.table} set {held} = :value{stamped}"
                    f" where table_id = :table_id and {column} = :key and {held} = :before"
                    f" returning {column}")  # fmt: skip
        values = {"table_id": table_id, "key": key, "before": before, "value": value}
        return bool(await self._write(Query(swap, values)))

    # Reads -------------------------------------------------------------------------------

    async def setting(self, table_id: str, name: str) -> str | None:
        rows = await self._fetch(
            Query(
                "select value from table_settings where table_id = :table_id and name = :name",
                {"table_id": table_id, "name": name},
            )
        )
        return str(rows[0][0]) if rows else None

    async def table(self, table_id: str) -> TableRow | None:
        found = await self._fetch(
            Query(
                "select id, system, name, options from tables where id = :table_id",
                {"table_id": table_id},
            )
        )
        return TableRow(*found[0]) if found else None

    async def tables_named(self, name: str) -> list[TableRow]:
        rows = await self._fetch(
            Query(
                "select id, system, name, options from tables where name = :name order by created",
                {"name": name},
            )
        )
        return [TableRow(*row) for row in rows]

    async def events(self, table_id: str, after: int = 0) -> list[tuple[int, str]]:
        rows = await self._fetch(
            Query(
                "select seq, body from events where table_id = :table_id and seq > :after"
                " order by seq",
                {"table_id": table_id, "after": after},
            )
        )
        return [(seq, body) for seq, body in rows]

    async def marked(self, table_id: str, through: int) -> list[tuple[int, str]]:
        rows = await self._fetch(
            Query(
                "select seq, body from events where table_id = :table_id and seq <= :through"
                " and (type = 'undone' or body like :stamped) order by seq",
                {"table_id": table_id, "through": through, "stamped": '%"unseen"%'},
            )
        )
        return [(seq, body) for seq, body in rows]

    async def stamped(self, table_id: str, after: int, limit: int) -> list[tuple[int, str, float]]:
        rows = await self._fetch(
            Query(
                "select seq, body, at from events where table_id = :table_id and seq > :after"
                " order by seq limit :limit",
                {"table_id": table_id, "after": after, "limit": limit},
            )
        )
        return [(seq, body, at) for seq, body, at in rows]

    async def heads(self, table_ids: Sequence[str]) -> dict[str, int]:
        return dict(
            await self._among(
                "select table_id, max(seq) from events where table_id = any(:items)"
                " group by table_id",
                table_ids,
            )
        )

    async def tokens_kept(self, token_hashes: Collection[bytes]) -> set[bytes]:
        rows = await self._among("select hash from tokens where hash = any(:items)", token_hashes)
        return {token_hash for (token_hash,) in rows}

    async def _among(self, text: str, items: Collection[Any]) -> Rows:
        """The rows of ``text`` for the ``items`` it asks about, a part at a time."""
        rows: Rows = []
        for part in self.dialect.parts(items):
            rows += await self._fetch(Query(text, {"items": part}))
        return rows

    async def snapshot(self, table_id: str) -> Snapshot | None:
        found = await self._fetch(
            Query(
                "select seq, state from snapshots where table_id = :table_id",
                {"table_id": table_id},
            )
        )
        if not found:
            return None
        seq, state = found[0]
        return Snapshot(seq=seq, state=state)

    async def token(self, token_hash: bytes) -> TokenRow | None:
        found = await self._fetch(
            Query(
                "select hash, table_id, role, participants, label from tokens where hash = :hash",
                {"hash": token_hash},
            )
        )
        if not found:
            return None
        digest, table_id, role, participants, label = found[0]
        return TokenRow(digest, table_id, role, tuple(json.loads(participants)), label)

    async def gm_devices(self, table_id: str) -> list[GmDevice]:
        rows = await self._fetch(
            Query(
                "select hash, label, name, created, seen from tokens"
                " where table_id = :table_id and role = :role order by created, hash",
                {"table_id": table_id, "role": "gm"},
            )
        )
        return [GmDevice(*row) for row in rows]

    async def bindings(self, table_id: str) -> list[tuple[str, tuple[str, ...]]]:
        rows = await self._fetch(
            Query(
                "select distinct role, participants from tokens where table_id = :table_id",
                {"table_id": table_id},
            )
        )
        return [(role, tuple(json.loads(participants))) for role, participants in rows]

    async def idempotent(self, table_id: str, token_hash: bytes, key: str) -> Remembered | None:
        found = await self._fetch(
            Query(
                "select response, command from idempotency"
                " where table_id = :table_id and token_hash = :token_hash and key = :key",
                {"table_id": table_id, "token_hash": token_hash, "key": key},
            )
        )
        if not found:
            return None
        response, command = found[0]
        return Remembered(token_hash, key, response, command)

    async def device_reports(self, table_id: str) -> list[tuple[str, str, float]]:
        rows = await self._fetch(
            Query(
                "select device, report, reported from device_reports where table_id = :table_id"
                " order by reported, device",
                {"table_id": table_id},
            )
        )
        return [(device, report, reported) for device, report, reported in rows]


def _insert_tokens(tokens: Sequence[TokenRow]) -> list[Query]:
    now = time.time()
    return _each(
        "insert into tokens (hash, table_id, role, participants, label, created, name)"
        " values (:hash, :table_id, :role, :participants, :label, :created, :name)",
        [
            {
                "hash": t.hash,
                "table_id": t.table_id,
                "role": t.role,
                "participants": json.dumps(t.participants),
                "label": t.label,
                "created": now,
                "name": t.name,
            }
            for t in tokens
        ],
    )


def _each(text: str, each: Sequence[Mapping[str, Any]]) -> list[Query]:
    """The statement to run once for each of these values, or none for no values."""
    return [Query(text, each=each)] if each else []
