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
from functools import partial
from pathlib import Path
from typing import Any, TypeVar

import pytest
from aiohttp import web

from server.http.context import SEIZE
from server.run.app import make_app
from server.settings import Durability, Settings
from server.store import Append, TableRow, open_store
from server.store import sqlite as sqlite_store
from server.store.sql import Query
from server.tables import runner as runner_module
from tests.server.conftest import Client, bearer, new_table, send
from tests.server.databases import postgres_schema, require_postgres
from tests.server.following import CHARACTER, POOL
from tests.waiting import PATIENCE, eventually, within

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


W = TypeVar("W", bound=Watched)


async def watched_server(
    kind: type[W],
    journal: list[Any],
    aiohttp_client: Any,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> tuple[web.Application, Client, W]:
    """A server over a fresh file whose connections are ``kind``: the app, its client, and its
    writer's connection."""
    connections: list[W] = []
    connect = sqlite_store._connect

    def watched(path: Path, durability: Durability) -> Any:
        connections.append(kind(connect(path, durability), journal))
        return connections[-1]

    monkeypatch.setattr(sqlite_store, "_connect", watched)
    app = make_app(Settings(db=tmp_path / "seize.db", port=0))
    client: Client = await aiohttp_client(app)
    # The writer's thread connects once it starts, after the reading connection.
    await eventually(lambda: len(connections) == 2, "the writer never connected")
    return app, client, connections[-1]


async def test_commands_sent_together_share_one_commit_and_are_answered_only_after_it(
    aiohttp_client: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    journal: list[Any] = []
    app, client, writer = await watched_server(
        Watched, journal, aiohttp_client, tmp_path, monkeypatch
    )
    tables = [await new_table(client, "megatraveller-rcs") for _ in range(4)]
    for table in tables:
        await send(client, table, {"type": "join", "character": CHARACTER})

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


class Gated(Watched):
    """A writer's connection whose every transaction waits for a permit once ``held``, and
    that fails the next append of events when asked to (a disk error in the middle of it)."""

    def __init__(self, connection: sqlite3.Connection, journal: list[Any]) -> None:
        super().__init__(connection, journal)
        self.held = False
        self.permits = threading.Semaphore(0)
        self.begun = 0
        self.appended = 0
        """Appends of events: a socket's first stamp of its token is a transaction too."""
        self.failing = False

    def execute(self, text: str, *values: Any) -> sqlite3.Cursor:
        if threading.current_thread().name == "seize-store" and text == "begin immediate":
            self.begun += 1
            if self.held and not self.permits.acquire(timeout=PATIENCE):
                # Failing the batch, not the writer: a test that fails does not hang.
                raise sqlite3.OperationalError("the writer was held too long")
        return super().execute(text, *values)

    def executemany(self, text: str, values: Any) -> sqlite3.Cursor:
        self.appended += text.startswith("insert into events")
        if self.failing and text.startswith("insert into events"):
            self.failing = False
            raise sqlite3.OperationalError("disk I/O error")
        return self._connection.executemany(text, values)


async def test_commands_that_come_while_their_table_commits_are_decided_in_turn_and_commit_as_one(
    aiohttp_client: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A table's commands that arrive while its commit is under way (dice landing together)
    are decided each on the table the one before leaves, appended as one and committed
    together, and answered only after that commit; until then the table shows none of them.
    A refused one, or a stale ``If-Match``, is refused as it would be in turn. A retried
    idempotency key in a group, or a disk that fails its commit, leaves every command of the
    group as if sent alone: the retry answered as first, the failed ones stored nowhere and
    shown to no one."""
    journal: list[Any] = []
    app, client, writer = await watched_server(
        Gated, journal, aiohttp_client, tmp_path, monkeypatch
    )
    table = await new_table(client, "megatraveller-rcs")
    runner = app[SEIZE].runner

    def queued(n: int) -> bool:
        return len(runner._waiting.get(table["id"], [])) == n

    async def answered(command: dict[str, Any], **headers: str) -> tuple[int, dict[str, Any]]:
        status, body = await send(client, table, command, **headers)
        journal.append(("answer", command.get("points"), status))
        return status, body

    async def shown() -> tuple[int, Any]:
        read = await client.get(f"/api/tables/{table['id']}", headers=bearer(table["gm_token"]))
        view = await read.json()
        return view["seq"], view["view"]["pools"]

    def pool(points: int) -> dict[str, Any]:
        return {**POOL, "points": points}

    async def group(first: dict[str, Any], *rest: tuple[dict[str, Any], dict[str, str]]) -> Any:
        """``first`` held at its commit while ``rest`` queue behind it, each sent once the one
        before is queued; then the first let go, and the group held at its own commit."""
        writer.held, begun = True, writer.begun
        sending = [asyncio.create_task(answered(first))]
        await eventually(lambda: writer.begun == begun + 1, "the first never reached the disk")
        for n, (command, headers) in enumerate(rest, 1):
            sending.append(asyncio.create_task(answered(command, **headers)))
            await eventually(partial(queued, n), "the command never queued")
        writer.permits.release()
        await eventually(lambda: writer.begun == begun + 2, "the group never reached the disk")
        return sending

    await send(client, table, {"type": "join", "character": CHARACTER})
    sending = await group(
        pool(1),
        (pool(2), {"Idempotency-Key": "two"}),
        ({"type": "join", "character": CHARACTER}, {}),  # refused: already at the table
        (pool(3), {"If-Match": "1"}),  # stale: pool 2 comes before it
        (pool(4), {}),
    )
    await eventually(sending[0].done, "the first was not answered")
    assert await shown() == (2, {"crew": 1}), "the group is shown before it is stored"
    del journal[:]
    writer.permits.release()
    answers = await within(asyncio.gather(*sending[1:]), "the group was not answered")
    assert [status for status, _ in answers] == [200, 422, 409, 200]
    assert [body["seq"] for _, body in answers[::3]] == [3, 4]
    assert answers[1][1]["error"] == "rule" and "already" in str(answers[1][1]), answers[1]
    assert answers[2][1]["error"] == "stale" and answers[2][1]["seq"] == 3
    commits = [entry for entry in journal if entry[0] == "commit"]
    assert commits == [("commit", 1)], "the group is one write in one commit"
    assert min(journal.index(("answer", p, s)) for p, s in ((2, 200), (4, 200))) > 0
    assert await shown() == (4, {"crew": 4})

    # A retry of pool 2 (its key) among them: the group's append finds the key taken, and
    # each is run alone.
    sending = await group(pool(5), (pool(2), {"Idempotency-Key": "two"}), (pool(6), {}))
    writer.permits.release()
    writer.permits.release()
    writer.permits.release()
    (_, fifth), (retried, again), (_, sixth) = await within(
        asyncio.gather(*sending), "the group with a retry was not answered"
    )
    assert (retried, again) == (200, answers[0][1]), "the retry is answered as the first was"
    assert (fifth["seq"], sixth["seq"]) == (5, 6)

    # The disk fails the group's commit: neither is stored or shown, and play goes on.
    failing = await group(pool(7), (pool(8), {}), (pool(9), {}))
    writer.failing, writer.held = True, False
    writer.permits.release()
    failed = await within(asyncio.gather(*failing), "the failed group was not answered")
    assert [status for status, _ in failed] == [200, 500, 500]
    assert await shown() == (7, {"crew": 7})
    status, body = await send(client, table, pool(10))
    assert (status, body["seq"]) == (200, 8)
    events = await client.get(
        f"/api/tables/{table['id']}/events", headers=bearer(table["gm_token"])
    )
    stored = [each["event"]["points"] for each in (await events.json())["events"][1:]]
    assert stored == [1, 2, 4, 5, 6, 7, 10]


async def test_a_sockets_commands_sent_without_waiting_wait_at_the_table_and_apply_in_order(
    aiohttp_client: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A device sends its burst on one socket without waiting for the answers: the socket
    reads on once each command waits its turn at the table, so the burst waits there behind
    the commit under way (and is committed together), not one commit after another in the
    socket; and the commands still apply, and are answered, in the order they were sent."""
    app, client, writer = await watched_server(Gated, [], aiohttp_client, tmp_path, monkeypatch)
    table = await new_table(client, "megatraveller-rcs")
    await send(client, table, {"type": "join", "character": CHARACTER})
    runner = app[SEIZE].runner
    url = f"/api/tables/{table['id']}/ws"
    async with client.ws_connect(url, headers=bearer(table["gm_token"])) as ws:
        assert (await within(ws.receive_json(), "no view came"))["type"] == "view"
        writer.held, appended = True, writer.appended
        for points in range(1, 6):
            command = {**POOL, "points": points}
            await ws.send_json({"type": "command", "id": str(points), "command": command})
        await eventually(
            lambda: len(runner._waiting.get(table["id"], [])) == 4,
            "the socket held its commands back, one commit after another",
        )
        writer.held = False
        writer.permits.release()
        answers: list[tuple[str, int]] = []
        while len(answers) < 5:
            message = await within(ws.receive_json(), "the burst was not answered")
            if message["type"] == "answer":
                answers.append((message["id"], message["seq"]))
    assert answers == [(str(n), n + 1) for n in range(1, 6)]
    assert writer.appended - appended == 2, "the four behind the first share one commit"
    events = await client.get(
        f"/api/tables/{table['id']}/events", headers=bearer(table["gm_token"])
    )
    stored = [each["event"]["points"] for each in (await events.json())["events"][1:]]
    assert stored == [1, 2, 3, 4, 5]


async def test_a_server_that_stops_while_its_store_hangs_gives_up_on_the_commands_under_way(
    aiohttp_client: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Stopping waits a while for the commands under way, then gives them up: each sender's
    wait ends (cancelled), that of the one being committed and of those queued behind it,
    rather than holding the server up for ever."""
    monkeypatch.setattr(runner_module, "CLOSING", 0.2)
    app, client, writer = await watched_server(Gated, [], aiohttp_client, tmp_path, monkeypatch)
    table = await new_table(client, "megatraveller-rcs")
    seize = app[SEIZE]
    game = await seize.tables.get(table["id"])
    assert game is not None
    principal = await seize.tokens.principal(table["gm_token"], table["id"])
    join = game.system.commands.validate_python({"type": "join", "character": CHARACTER})
    pool = game.system.commands.validate_python(POOL)
    writer.held, begun = True, writer.begun
    sent = [asyncio.create_task(seize.runner.execute(game, principal, join, None, None))]
    await eventually(lambda: writer.begun == begun + 1, "the command never reached the disk")
    sent.append(asyncio.create_task(seize.runner.execute(game, principal, pool, None, None)))
    await eventually(lambda: len(seize.runner._waiting.get(table["id"], [])) == 1, "not queued")
    await within(seize.runner.close(), "stopping waited for ever")
    ended = await within(asyncio.gather(*sent, return_exceptions=True), "a sender waited for ever")
    assert all(isinstance(end, asyncio.CancelledError) for end in ended), ended
    writer.held = False
    writer.permits.release()
