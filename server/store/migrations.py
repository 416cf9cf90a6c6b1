"""The schema, as the migrations that build it, written once for both backends.

A database records the migrations applied to it in ``schema_version`` (one row per version).
Opening a store applies, in order and in one transaction, every migration it has not yet had;
a database from a newer version of the server is refused rather than written by code that does
not know its schema. Migration 1 is the schema from before migrations were recorded: written
with ``if not exists``, it adopts such an SQLite file as it stands.

A migration is never edited once released: a change to the schema is a new migration.
"""

from __future__ import annotations

import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass

from server.errors import SchemaTooNewError
from server.store.sql import Dialect, Query, Rows


@dataclass(frozen=True)
class Migration:
    version: int
    does: str
    statements: tuple[str, ...]
    """In the shared spelling of ``sql.py``: each dialect's words make it each database's."""


SCHEMA_VERSION = (
    "create table if not exists schema_version ("
    " version integer primary key, applied {real} not null)"
)

MIGRATIONS = (
    Migration(
        1,
        "tables, events keyed by (table id, sequence), hashed tokens, idempotency answers and "
        "snapshots",
        (
            """{create_or_adopt} tables (
                id text primary key,
                system text not null,
                name text not null,
                options text not null,
                created {real} not null
            )""",
            """{create_or_adopt} events (
                table_id text not null references tables(id),
                seq {bigint} not null,
                type text not null,
                body text not null,
                at {real} not null,
                primary key (table_id, seq)
            ){without_rowid}""",
            """{create_or_adopt} tokens (
                hash {blob} primary key,
                table_id text not null references tables(id),
                role text not null,
                participants text not null,
                label text not null,
                created {real} not null
            )""",
            """{create_or_adopt} idempotency (
                table_id text not null,
                token_hash {blob} not null,
                key text not null,
                response text not null,
                primary key (table_id, token_hash, key)
            ){without_rowid}""",
            """{create_or_adopt} snapshots (
                table_id text primary key references tables(id),
                seq {bigint} not null,
                state text not null,
                standing text not null
            )""",
        ),
    ),
    Migration(
        2,
        "index tokens by table (a table's roles, revoking a label) and tables by name (the "
        "demo tables), which were found by reading every row",
        (
            "create index tokens_by_table on tokens (table_id, label)",
            "create index tables_by_name on tables (name, created)",
        ),
    ),
    Migration(
        3,
        "the latest report of each device at a table, which lived in one server's memory: with "
        "several servers on one database, the console's read reached another server than the "
        "device's report and found no devices",
        (
            """create table device_reports (
                table_id text not null references tables(id),
                device text not null,
                report text not null,
                reported {real} not null,
                primary key (table_id, device)
            ){without_rowid}""",
        ),
    ),
    Migration(
        4,
        "snapshots no longer keep the positions of the events that stand: a table holds a "
        "bounded undo window, and its first undo after a load rebuilds them from the log",
        ("alter table snapshots drop column standing",),
    ),
    Migration(
        5,
        "each idempotency answer keeps the command it answered, so that a key reused for another "
        "command is refused rather than answered as the first (older answers keep none)",
        ("alter table idempotency add column command text not null default ''",),
    ),
    Migration(
        6,
        "a GM token is a named device that the console lists with when it was last seen, and "
        "revokes one at a time: a new GM link no longer revokes the others, so the links "
        "handed out before are named for what they were",
        (
            "alter table tokens add column name text not null default ''",
            "alter table tokens add column seen {real}",
            "update tokens set name = 'GM link' where label = 'gm link'",
        ),
    ),
    Migration(
        7,
        "a table's alert settings, each kept by name (the Discord webhook the GM set, the "
        "players' Discord links): what the table's alerts reach beyond its pages",
        (
            """create table if not exists table_settings (
                table_id text not null references tables(id),
                name text not null,
                value text not null,
                primary key (table_id, name)
            ){without_rowid}""",
        ),
    ),
)
LATEST = MIGRATIONS[-1].version


def pending(version: int) -> list[Migration]:
    """The migrations a database at ``version`` still needs, in order."""
    if version > LATEST:
        raise SchemaTooNewError(version, LATEST)
    return [migration for migration in MIGRATIONS if migration.version > version]


async def migrate(dialect: Dialect, execute: Callable[[Query], Awaitable[Rows]]) -> None:
    """Bring the database's schema to the latest version, in the caller's transaction.
    ``execute`` runs a query on that transaction's connection: SQLite migrates on its reading
    connection before its writer starts, PostgreSQL on one of its pool's."""
    if dialect.lock_migrations is not None:
        await execute(Query(dialect.lock_migrations))
    await execute(Query(SCHEMA_VERSION))
    ((version,),) = await execute(Query("select coalesce(max(version), 0) from schema_version"))
    for migration in pending(version):
        for statement in migration.statements:
            await execute(Query(statement))
        await execute(
            Query(
                "insert into schema_version values (:version, :applied)",
                {"version": migration.version, "applied": time.time()},
            )
        )
