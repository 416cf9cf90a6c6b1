"""Group commit: commands that arrive together share one transaction and one fsync, and each is
answered only once that transaction is committed (SQLite, and PostgreSQL below).

The writer's connection is watched: it records each commit as it returns (on the writer's
thread, before any command of the batch can be answered), and it can be held at the start of
a transaction, so that the commands sent meanwhile queue up and are committed together. The
answers are recorded as they reach the client; every one must come after its commit."""

from __future__ import annotations

import asyncio
import sqlite3
import threading
from pathlib import Path
from typing import Any

import pytest

from server.http.context import SEIZE
from server.run.app import make_app
from server.settings import Durability, Settings
from server.store import Append, TableRow, open_store
from server.store import sqlite as sqlite_store
from server.store.sql import Query
from tests.server.conftest import Client, bearer, new_table, send
from tests.server.databases import postgres_schema, require_postgres
from tests.server.following import CHARACTER, POOL
from tests.waiting import PATIENCE, eventually

pytestmark = pytest.mark.sqlite_only


class Watched:
    """A connection that records its commits on the writer's thread, and waits at the start of
    a transaction while it is held."""

    def __init__(self, connection: sqlite3.Connection, journal: list[Any]) -> None:
        self._connection, self._journal = connection, journal
        self.release = threading.Event()
        self.release.set()
        self.waiting = threading.Event()
        self._writes = 0

    def execute(self, text: str, *values: Any) -> sqlite3.Cursor:
        writer = threading.current_thread().name == "seize-store"
        if writer and text == "begin immediate":
            self._writes = 0
            self.waiting.set()
            # The deadline is there so that a test that fails does not hang.
            assert self.release.wait(PATIENCE), "the writer was held too long"
        if writer and text == "savepoint write":
            self._writes += 1
        cursor = self._connection.execute(text, *values)
        if writer and text == "commit":
            # A write alone in its batch runs in no savepoint: the transaction is its own.
            self._journal.append(("commit", max(1, self._writes)))
        return cursor

    def __getattr__(self, name: str) -> Any:
        return getattr(self._connection, name)


async def test_commands_sent_together_share_one_commit_and_are_answered_only_after_it(
    aiohttp_client: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    journal: list[Any] = []
    connections: list[Watched] = []
    connect = sqlite_store._connect

    def watched(path: Path, durability: Durability) -> Any:
        connections.append(Watched(connect(path, durability), journal))
        return connections[-1]

    monkeypatch.setattr(sqlite_store, "_connect", watched)
    app = make_app(Settings(db=tmp_path / "seize.db", port=0))
    client: Client = await aiohttp_client(app)
    tables = [await new_table(client, "megatraveller-rcs") for _ in range(4)]
    for table in tables:
        await send(client, table, {"type": "join", "character": CHARACTER})
    writer = connections[-1]  # the reading connection opened first, the writer's last

    async def answered(n: int) -> None:
        status, _ = await send(client, tables[n], POOL)
        journal.append(("answer", n, status))

    writer.release.clear()
    writer.waiting.clear()
    first = asyncio.create_task(answered(0))
    # The first command's transaction is being held.
    await eventually(writer.waiting.is_set, "the first command never reached the writer")
    together = [asyncio.create_task(answered(n)) for n in (1, 2, 3)]
    queued = app[SEIZE].store._queue  # type: ignore[attr-defined]
    # The other three wait behind it, together.
    await eventually(lambda: queued.qsize() >= 3, "the other commands never queued")
    del journal[:]
    writer.release.set()
    await asyncio.gather(first, *together)

    commits = [entry for entry in journal if entry[0] == "commit"]
    assert commits == [("commit", 1), ("commit", 3)], "the three queued share one commit"
    answers = {n: journal.index(("answer", n, 200)) for n in range(4)}
    assert answers[0] > journal.index(("commit", 1))
    assert min(answers[n] for n in (1, 2, 3)) > journal.index(("commit", 3))
    for table in tables[1:]:
        read = await client.get(f"/api/tables/{table['id']}", headers=bearer(table["gm_token"]))
        assert (await read.json())["seq"] == 2  # each table's command applied once


async def test_postgres_commits_writes_asked_together_in_one_transaction_and_answers_after_it(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """On PostgreSQL, appends to four tables asked at once go in one transaction; none returns
    before it is committed."""
    require_postgres()
    with postgres_schema() as url:
        store = open_store(url)
        await store.open()
        try:
            rows = [TableRow(f"t{n}", "megatraveller-rcs", "t", "{}") for n in range(4)]
            for row in rows:
                await store.create_table(row, [])
            journal: list[Any] = []
            commit = store._transaction  # type: ignore[attr-defined]

            async def watched(action: Any) -> Any:
                done = await commit(action)
                journal.append("commit")
                return done

            monkeypatch.setattr(store, "_transaction", watched)

            async def appended(row: TableRow) -> None:
                await store.append(Append(row.id, 1, [("joined", '"x"')]))
                journal.append(row.id)

            await asyncio.gather(*(appended(row) for row in rows))
        finally:
            await store.close()
    assert journal[0] == "commit" and sorted(journal[1:]) == [row.id for row in rows]


async def test_a_write_alone_in_its_batch_that_fails_part_way_leaves_nothing(
    tmp_path: Path,
) -> None:
    """A write alone runs in no savepoint: when its second statement fails, its first must be
    undone with the batch, not committed."""
    store = sqlite_store.SqliteStore(tmp_path / "seize.db")
    await store.open()
    try:
        await store._write(Query("create table kept (n integer primary key)"))
        with pytest.raises(sqlite3.IntegrityError):
            await store._write(
                Query("insert into kept values (1)"), Query("insert into kept values (1)")
            )
        assert await store._fetch(Query("select n from kept")) == []
        await store._write(Query("insert into kept values (2)"))
        assert [tuple(r) for r in await store._fetch(Query("select n from kept"))] == [(2,)]
    finally:
        await store.close()
