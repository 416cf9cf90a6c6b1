"""The databases the server's tests run against: a fresh SQLite file, or a fresh schema in a
real PostgreSQL (``SEIZE_TEST_POSTGRES``, by default the local server's ``test`` database).

Without a reachable PostgreSQL its tests are skipped, saying why; under CI (``CI`` set) they
fail instead, so a CI run cannot pass without having tested it.
"""

from __future__ import annotations

import asyncio
import functools
import os
import sqlite3
import uuid
from collections.abc import Coroutine, Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from pathlib import Path
from typing import Any, TypeVar

import asyncpg
import pytest

from tests.waiting import PATIENCE

POSTGRES = os.environ.get("SEIZE_TEST_POSTGRES", "postgresql://postgres@127.0.0.1:5432/test")
BACKENDS = ("sqlite", "postgresql")
T = TypeVar("T")


def _run(work: Coroutine[Any, Any, T]) -> T:
    """Run ``work`` to its end on a loop of its own in a thread of its own: callable from a
    fixture, or from a test whose loop is running, without touching that loop."""
    with ThreadPoolExecutor(1) as thread:
        return thread.submit(asyncio.run, work).result()


async def _execute(statement: str) -> None:
    connection = await asyncpg.connect(POSTGRES, timeout=PATIENCE)
    try:
        await connection.execute(statement)
    finally:
        await connection.close()


@functools.cache
def postgres_missing() -> str | None:
    """Why PostgreSQL cannot be used here, or None when it can."""
    try:
        _run(_execute("select 1"))
    except (OSError, TimeoutError, asyncpg.PostgresError) as failed:
        return f"PostgreSQL is not reachable at {POSTGRES} ({failed}); set SEIZE_TEST_POSTGRES"
    return None


def require_postgres() -> None:
    """Skip the test without PostgreSQL, or fail it under CI."""
    missing = postgres_missing()
    if missing is None:
        return
    if os.environ.get("CI"):
        pytest.fail(f"{missing}; CI requires it")
    pytest.skip(missing)


@contextmanager
def postgres_schema() -> Iterator[str]:
    """A URL whose connections work in a fresh, empty schema, dropped afterwards: a database
    of its own for one test, without the cost of creating one.

    Its connections carry the schema's name as their ``application_name``, and are ended
    before the schema is dropped. pytest may tear this down before the servers of the test
    stop (fixtures end in the reverse of the order they began), and while it does, their event
    loop is not running: a query of theirs that was under way would hold its locks, unread,
    and the drop would wait for it forever."""
    require_postgres()
    schema = f"seize_{uuid.uuid4().hex[:12]}"
    _run(_execute(f"create schema {schema}"))
    joiner = "&" if "?" in POSTGRES else "?"
    try:
        yield f"{POSTGRES}{joiner}search_path={schema}&application_name={schema}"
    finally:
        _run(
            _execute(
                "select pg_terminate_backend(pid) from pg_stat_activity"
                f" where application_name = '{schema}';"
                f" drop schema {schema} cascade"
            )
        )


async def query(db: Path | str, statement: str) -> list[tuple[Any, ...]]:
    """Rows straight from the database under a server, whichever its backend."""
    if isinstance(db, Path):
        with sqlite3.connect(db) as file:
            return file.execute(statement).fetchall()
    connection = await asyncpg.connect(db, timeout=PATIENCE)
    try:
        return [tuple(row) for row in await connection.fetch(statement)]
    finally:
        await connection.close()


async def refuse_rows(db: Path | str, table: str) -> None:
    """Make the database refuse every new row of ``table``, as a full or failing disk would."""
    if isinstance(db, Path):
        statements = [
            f"create trigger refuse before insert on {table}"
            " begin select raise(abort, 'the disk is full'); end"
        ]
    else:
        statements = [
            "create function refuse() returns trigger language plpgsql"
            " as $$ begin raise exception 'the disk is full'; end $$",
            f"create trigger refuse before insert or update on {table}"
            " for each row execute function refuse()",
        ]
    for statement in statements:
        await query(db, statement)
