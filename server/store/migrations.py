"""The schema, as the migrations that build it, for each backend.

A database records the migrations applied to it in ``schema_version`` (one row per version).
Opening a store applies, in order and in one transaction, every migration it has not yet had;
a database from a newer version of the server is refused rather than written by code that does
not know its schema. Migration 1 is the schema from before migrations were recorded: written
with ``if not exists``, it adopts such an SQLite file as it stands.

A migration is never edited once released: a change to the schema is a new migration.
"""

from __future__ import annotations

from dataclasses import dataclass

from server.errors import SchemaTooNewError


@dataclass(frozen=True)
class Migration:
    version: int
    does: str
    sqlite: tuple[str, ...]
    postgres: tuple[str, ...]


SCHEMA_VERSION = {
    "sqlite": "create table if not exists schema_version ("
    " version integer primary key, applied real not null)",
    "postgres": "create table if not exists schema_version ("
    " version integer primary key, applied double precision not null)",
}

MIGRATIONS = (
    Migration(
        1,
        "tables, events keyed by (table id, sequence), hashed tokens, idempotency answers and "
        "snapshots",
        sqlite=(
            """create table if not exists tables (
                id text primary key,
                system text not null,
                name text not null,
                options text not null,
                created real not null
            )""",
            """create table if not exists events (
                table_id text not null references tables(id),
                seq integer not null,
                type text not null,
                body text not null,
                at real not null,
                primary key (table_id, seq)
            ) without rowid""",
            """create table if not exists tokens (
                hash blob primary key,
                table_id text not null references tables(id),
                role text not null,
                participants text not null,
                label text not null,
                created real not null
            )""",
            """create table if not exists idempotency (
                table_id text not null,
                token_hash blob not null,
                key text not null,
                response text not null,
                primary key (table_id, token_hash, key)
            ) without rowid""",
            """create table if not exists snapshots (
                table_id text primary key references tables(id),
                seq integer not null,
                state text not null,
                standing text not null
            )""",
        ),
        postgres=(
            """create table tables (
                id text primary key,
                system text not null,
                name text not null,
                options text not null,
                created double precision not null
            )""",
            """create table events (
                table_id text not null references tables(id),
                seq bigint not null,
                type text not null,
                body text not null,
                at double precision not null,
                primary key (table_id, seq)
            )""",
            """create table tokens (
                hash bytea primary key,
                table_id text not null references tables(id),
                role text not null,
                participants text not null,
                label text not null,
                created double precision not null
            )""",
            """create table idempotency (
                table_id text not null,
                token_hash bytea not null,
                key text not null,
                response text not null,
                primary key (table_id, token_hash, key)
            )""",
            """create table snapshots (
                table_id text primary key references tables(id),
                seq bigint not null,
                state text not null,
                standing text not null
            )""",
        ),
    ),
    Migration(
        2,
        "index tokens by table (a table's roles, revoking a label) and tables by name (the "
        "demo tables), which were found by reading every row",
        sqlite=(
            "create index tokens_by_table on tokens (table_id, label)",
            "create index tables_by_name on tables (name, created)",
        ),
        postgres=(
            "create index tokens_by_table on tokens (table_id, label)",
            "create index tables_by_name on tables (name, created)",
        ),
    ),
    Migration(
        3,
        "the latest report of each device at a table, which lived in one server's memory: with "
        "several servers on one database, the console's read reached another server than the "
        "device's report and found no devices",
        sqlite=(
            """create table device_reports (
                table_id text not null references tables(id),
                device text not null,
                report text not null,
                reported real not null,
                primary key (table_id, device)
            ) without rowid""",
        ),
        postgres=(
            """create table device_reports (
                table_id text not null references tables(id),
                device text not null,
                report text not null,
                reported double precision not null,
                primary key (table_id, device)
            )""",
        ),
    ),
)
LATEST = MIGRATIONS[-1].version


def pending(version: int) -> list[Migration]:
    """The migrations a database at ``version`` still needs, in order."""
    if version > LATEST:
        raise SchemaTooNewError(version, LATEST)
    return [migration for migration in MIGRATIONS if migration.version > version]
