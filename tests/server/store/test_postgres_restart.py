"""PostgreSQL stopped and started again under load, as an upgrade, a failover or a crash would
do it: no 500, no command acknowledged and then lost or applied twice, and once the database is
back the server serves commands again by itself.

Several clients send joins to several tables, each with an Idempotency-Key, as a careful client
does: a 503 is retried after a short wait and a dropped connection at once, with the same key.
Meanwhile a PostgreSQL of the test's own is stopped, ``fast`` (every session ends with an
admin-shutdown error) or ``immediate`` (a crash, recovered at the next start), and started
again. The machine's shared PostgreSQL is never stopped: other tests use it at the same time.

The rarest moment of such an outage, a connection lost after PostgreSQL committed a command but
before the server heard so, is also made certain, through a proxy that swallows the reply.
"""

from __future__ import annotations

import asyncio
import json
import uuid
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import aiohttp
import pytest

from server.run.app import make_app
from server.settings import Settings
from tests.server.conftest import Client, bearer, new_table, send
from tests.server.databases import postgres_schema, query
from tests.server.private_postgres import PrivatePostgres, StopMode, private_postgres
from tests.server.process import UNLIMITED, ServerProcess
from tests.waiting import ONE_TRY, eventually

TABLES = 3
CLIENTS_PER_TABLE = 2
OUTAGES = 2
"""Stops per test: the second one finds a pool the first one emptied and refilled."""
SNAPSHOT_EVERY = 5
"""Often: a table whose write failed leaves memory and comes back from its snapshot and the
events after it, and a snapshot may fall due just as the database goes away."""
HURRY = 50
"""A client waits this many times less than the Retry-After it is asked: the test's outage
lasts a moment, not the minutes a real one may, and the test must stay quick."""


@dataclass(frozen=True)
class Acknowledged:
    key: str
    command: dict[str, Any]
    answer: dict[str, Any]


@dataclass
class Sender:
    """One client sending joins to one table, one at a time, each retried with its key until it
    is acknowledged. Any answer but a 200 or a 503 ends the test."""

    name: str
    url: str
    table: dict[str, Any]
    acknowledged: list[Acknowledged] = field(default_factory=list)
    unavailable: int = 0

    async def play(self, stopping: asyncio.Event) -> None:
        timeout = aiohttp.ClientTimeout(total=ONE_TRY)
        async with aiohttp.ClientSession(self.url, timeout=timeout) as session:
            while not stopping.is_set():
                member = f"{self.name}-{len(self.acknowledged)}"
                command = {"type": "join", "member": {"id": member, "name": member, "kind": "mob"}}
                key = uuid.uuid4().hex
                answer = await self.send(session, command, key)
                self.acknowledged.append(Acknowledged(key, command, answer))

    async def send(
        self, session: aiohttp.ClientSession, command: dict[str, Any], key: str
    ) -> dict[str, Any]:
        """The command's answer, once the server acknowledges it."""
        headers = {**bearer(self.table["gm_token"]), "Idempotency-Key": key}
        while True:
            try:
                async with session.post(
                    f"/api/tables/{self.table['id']}/commands", json=command, headers=headers
                ) as response:
                    status, body = response.status, await response.json()
                    retry_after = response.headers.get("Retry-After", "")
            except (aiohttp.ClientConnectionError, TimeoutError):
                continue
            if status == 200:
                answer: dict[str, Any] = body
                return answer
            assert status == 503, f"{command} was answered {status}: {body}"
            assert body["error"] == "unavailable" and retry_after.isdigit(), (status, body)
            self.unavailable += 1
            # Retry-After honoured (hurried): the client's own pacing, not a wait for anything.
            await asyncio.sleep(int(retry_after) / HURRY)


@pytest.fixture
def postgres() -> Iterator[PrivatePostgres]:
    """A cluster for each test: one that a failed test left stopped cannot fail the next."""
    with private_postgres() as running:
        yield running


@pytest.mark.parametrize("mode", ["fast", "immediate"])
async def test_postgres_stopped_and_started_under_load_loses_and_repeats_nothing(
    postgres: PrivatePostgres, mode: StopMode, tmp_path: Path
) -> None:
    await query(postgres.url(), "create database seize")
    output = tmp_path / "server.log"
    server = ServerProcess(
        postgres.url("seize"), output, snapshot_every=SNAPSHOT_EVERY, **UNLIMITED
    )
    try:
        server.start()
        async with aiohttp.ClientSession(server.url) as session:
            tables = [await create_table(session) for _ in range(TABLES)]
            clients = [
                Sender(f"c{n}", server.url, table)
                for n, table in enumerate(tables * CLIENTS_PER_TABLE)
            ]
            await load(postgres, mode, server, clients)
            await check(session, postgres.url("seize"), tables, clients)
    except BaseException:
        # What went wrong, as the server logged it: shown when the test fails.
        logged = output.read_text().splitlines(keepends=True)
        print("".join(line for line in logged if '"level": "info"' not in line))
        raise
    finally:
        server.stop()


async def load(
    postgres: PrivatePostgres, mode: StopMode, server: ServerProcess, clients: list[Sender]
) -> None:
    """Run the clients through the outages: each begins once every client has been
    acknowledged, lasts until every client has been refused, and ends once every client has
    been acknowledged again, with no restart of the server. Counts, not clocks, say when: a
    slow machine only makes the test longer."""
    stopping = asyncio.Event()

    async def until(what: str, done: Callable[[], bool]) -> None:
        def alive_and_done() -> bool:
            assert server.process is not None and server.process.poll() is None, "server died"
            return done()

        await eventually(alive_and_done, f"stuck waiting until {what}")

    def each(counted: Callable[[Sender], int], since: list[int], more: int) -> Callable[[], bool]:
        return lambda: all(counted(c) >= n + more for c, n in zip(clients, since, strict=True))

    def acknowledged(client: Sender) -> int:
        return len(client.acknowledged)

    def unavailable(client: Sender) -> int:
        return client.unavailable

    async with asyncio.TaskGroup() as clients_running:
        for client in clients:
            clients_running.create_task(client.play(stopping))
        await until("every client is acknowledged", each(acknowledged, [0] * len(clients), 3))
        for _ in range(OUTAGES):
            refused = [client.unavailable for client in clients]
            await asyncio.to_thread(postgres.stop, mode)
            await until("every client is refused", each(unavailable, refused, 1))
            await asyncio.to_thread(postgres.start)
            served = [len(client.acknowledged) for client in clients]
            await until("every client is served again", each(acknowledged, served, 3))
        stopping.set()


async def check(
    session: aiohttp.ClientSession, db: str, tables: list[dict[str, Any]], clients: list[Sender]
) -> None:
    """Every acknowledged command is in its table's log once, where its answer said, and the
    log is nothing else; sequences have no gaps; the server shows the log the database holds;
    and each command sent again with its key gets its first answer and changes nothing."""
    stored: dict[str, list[tuple[int, Any]]] = {table["id"]: [] for table in tables}
    for table_id, seq, body in await query(db, "select table_id, seq, body from events"):
        stored[table_id].append((seq, json.loads(body)))
    for table in tables:
        log = sorted(stored[table["id"]], key=lambda entry: entry[0])
        assert [seq for seq, _ in log] == list(range(1, len(log) + 1)), "a gap in the log"
        at = {event["member"]["id"]: (seq, event) for seq, event in log}
        mine = [a for c in clients if c.table is table for a in c.acknowledged]
        assert len(at) == len(log), "a command applied twice"
        assert sorted(at) == sorted(a.command["member"]["id"] for a in mine), (
            "the log is not exactly the acknowledged commands"
        )
        for sent in mine:
            seq, event = at[sent.command["member"]["id"]]
            assert sent.answer == {"seq": seq, "events": [event]}, "answered other than stored"
        shown = await read_log(session, table)
        assert [(e["seq"], e["event"]) for e in shown["events"]] == log
    for client in clients:
        async with aiohttp.ClientSession(client.url) as resending:
            for sent in client.acknowledged:
                again = await client.send(resending, sent.command, sent.key)
                assert again == sent.answer, "a retried key got another answer"
    for table in tables:
        shown = await read_log(session, table)
        assert shown["seq"] == len(stored[table["id"]]), "a retried key applied again"


async def create_table(session: aiohttp.ClientSession) -> dict[str, Any]:
    body = {"system": "four-color", "name": "restart", "options": {}}
    async with session.post("/api/tables", json=body) as created:
        assert created.status == 201, await created.text()
        table: dict[str, Any] = await created.json()
        return table


async def read_log(session: aiohttp.ClientSession, table: dict[str, Any]) -> dict[str, Any]:
    """The table's log as the server shows it to its GM."""
    async with session.get(
        f"/api/tables/{table['id']}/events", headers=bearer(table["gm_token"])
    ) as shown:
        assert shown.status == 200, await shown.text()
        log: dict[str, Any] = await shown.json()
        return log


class CommitReplyLost:
    """A TCP proxy to PostgreSQL that, once armed, drops the connection carrying the next
    COMMIT's reply instead of passing the reply on: the transaction is committed, and the
    server cannot know it. A connection lost at that moment is rare under load; here it is
    certain."""

    COMMITTED = b"C\x00\x00\x00\x0bCOMMIT\x00"
    """The CommandComplete message PostgreSQL sends once a COMMIT is durable."""

    def __init__(self, url: str) -> None:
        self._parts = urlsplit(url)
        self._armed = False
        self.url = ""

    async def __aenter__(self) -> CommitReplyLost:
        self._server = await asyncio.start_server(self._carry, "127.0.0.1", 0)
        port = self._server.sockets[0].getsockname()[1]
        user = f"{self._parts.username}@" if self._parts.username else ""
        self.url = self._parts._replace(netloc=f"{user}127.0.0.1:{port}").geturl()
        return self

    async def __aexit__(self, *exc_info: object) -> None:
        self._server.close()
        await self._server.wait_closed()

    def lose_next_commit(self) -> None:
        self._armed = True

    async def _carry(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        target = (self._parts.hostname or "127.0.0.1", self._parts.port or 5432)
        upstream_reader, upstream_writer = await asyncio.open_connection(*target)
        await asyncio.gather(
            self._pipe(reader, upstream_writer),
            self._pipe(upstream_reader, writer, replies=True),
            return_exceptions=True,
        )

    async def _pipe(
        self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter, replies: bool = False
    ) -> None:
        """Carry bytes one way until either side closes; on the replies' way, stop short of
        the armed COMMIT's reply (kept across reads, in case it arrives split)."""
        recent = b""
        try:
            while data := await reader.read(65536):
                recent = recent[-len(self.COMMITTED) :] + data
                if replies and self._armed and self.COMMITTED in recent:
                    self._armed = False
                    return
                writer.write(data)
                await writer.drain()
        finally:
            writer.transport.abort()


async def test_a_command_committed_without_its_reply_is_retried_to_its_first_answer(
    aiohttp_client: Any,
) -> None:
    """The connection drops between PostgreSQL committing a command and the server hearing
    so: the command is answered 503, not acknowledged; retried with its key, it gets the
    answer it was committed with and is not applied again; and the table goes on from the
    committed log."""
    with postgres_schema() as url:
        async with CommitReplyLost(url) as proxy:
            client: Client = await aiohttp_client(make_app(Settings(db=proxy.url, port=0)))
            table = await new_table(client, "four-color")
            assert (await send(client, table, join("h1"), **{"Idempotency-Key": "h1"}))[0] == 200

            proxy.lose_next_commit()
            status, refused = await send(client, table, join("v1"), **{"Idempotency-Key": "v1"})
            assert status == 503 and refused["error"] == "unavailable"
            status, answer = await send(client, table, join("v1"), **{"Idempotency-Key": "v1"})
            assert status == 200 and answer["seq"] == 2
            assert await send(client, table, join("v1"), **{"Idempotency-Key": "v1"}) == (
                200,
                answer,
            )
            status, later = await send(client, table, join("m1"), **{"Idempotency-Key": "m1"})
            assert status == 200 and later["seq"] == 3

            logged = await client.get(
                f"/api/tables/{table['id']}/events", headers=bearer(table["gm_token"])
            )
            events = (await logged.json())["events"]
            assert [e["event"]["member"]["id"] for e in events] == ["h1", "v1", "m1"]
            assert answer["events"] == [events[1]["event"]]


def join(member: str) -> dict[str, Any]:
    return {"type": "join", "member": {"id": member, "name": member, "kind": "mob"}}
