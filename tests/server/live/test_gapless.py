"""Every subscriber gets every event, once and in order, through any fault: the database stopped
and started, Redis restarted, a worker killed. A subscriber here comes back only when told to
(a goodbye, or its connection closing); it never reconnects on a timer to paper over a gap.

These run real servers in processes of their own, over a PostgreSQL and a Redis each test
starts and stops itself."""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import json
import os
import signal
import time
import uuid
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import aiohttp
import pytest

from tests.server.following import POOL
from tests.server.private_postgres import PrivatePostgres, private_postgres
from tests.server.process import UNLIMITED, ServerProcess
from tests.server.redis_server import RedisServer

pytestmark = pytest.mark.sqlite_only  # each test runs its own PostgreSQL


class Subscriber:
    """Follows a table on one server with ``?after=``; comes back, to the same server, only when
    told to, from the sequence the goodbye names (or its last, if the connection just closed)."""

    def __init__(self, session: aiohttp.ClientSession, url: str, table: dict[str, Any]) -> None:
        self.session, self.url, self.table = session, url, table
        self.seen: list[int] = []
        self.goodbyes: list[dict[str, Any]] = []
        self.first_connection: list[int] | None = None
        self.connected = asyncio.Event()

    async def run(self) -> None:
        headers = {"Authorization": f"Bearer {self.table['gm_token']}"}
        while True:
            after = self.seen[-1] if self.seen else 0
            try:
                async with self.session.ws_connect(
                    f"{self.url}/api/tables/{self.table['id']}/ws?after={after}",
                    headers=headers,
                    heartbeat=None,
                ) as ws:
                    self.connected.set()
                    async for message in ws:
                        frame = json.loads(message.data)
                        if frame["type"] == "event":
                            self.seen.append(frame["seq"])
                        elif frame["type"] == "bye":
                            self.goodbyes.append(frame)
                            break
            except (aiohttp.ClientConnectionError, aiohttp.WSServerHandshakeError):
                pass  # the server or its database is away: it is asked again shortly
            if self.first_connection is None:
                self.first_connection = list(self.seen)
            await asyncio.sleep(0.1)

    async def until(self, last: int, seconds: float = 60) -> list[int]:
        """Wait until this subscriber has seen ``last`` (the waiting is bounded)."""
        deadline = time.monotonic() + seconds
        while not (self.seen and self.seen[-1] >= last):
            assert time.monotonic() < deadline, f"saw {self.seen}, waiting for {last}"
            await asyncio.sleep(0.05)
        return self.seen


@contextlib.asynccontextmanager
async def following(
    session: aiohttp.ClientSession, url: str, table: dict[str, Any]
) -> AsyncIterator[Subscriber]:
    subscriber = Subscriber(session, url, table)
    task = asyncio.create_task(subscriber.run())
    try:
        await asyncio.wait_for(subscriber.connected.wait(), 30)
        yield subscriber
    finally:
        task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await task


async def command(
    session: aiohttp.ClientSession, url: str, table: dict[str, Any], key: str | None
) -> tuple[int, Any]:
    """One command, with an idempotency key if given: its status and answer (0: no answer)."""
    headers = {"Authorization": f"Bearer {table['gm_token']}"}
    if key is not None:
        headers["Idempotency-Key"] = key
    try:
        async with session.post(
            f"{url}/api/tables/{table['id']}/commands",
            json=POOL,
            headers=headers,
            timeout=aiohttp.ClientTimeout(total=10),
        ) as answer:
            return answer.status, await answer.json()
    except (aiohttp.ClientError, TimeoutError):
        return 0, None


async def acknowledged(
    session: aiohttp.ClientSession, url: str, table: dict[str, Any], seconds: float = 60
) -> int:
    """Send one command until it is acknowledged (the same key each time, so once); its seq."""
    key, deadline = uuid.uuid4().hex, time.monotonic() + seconds
    while True:
        status, answer = await command(session, url, table, key)
        if status == 200:
            return int(answer["seq"])
        assert time.monotonic() < deadline, f"never acknowledged: {status} {answer}"
        await asyncio.sleep(0.1)


async def new_rcs_table(session: aiohttp.ClientSession, url: str) -> dict[str, Any]:
    async with session.post(
        f"{url}/api/tables", json={"system": "megatraveller-rcs", "name": "faults"}
    ) as answer:
        assert answer.status == 201, await answer.text()
        table: dict[str, Any] = await answer.json()
        return table


def servers(postgres: PrivatePostgres, folder: Path, count: int, **settings: Any) -> list[Any]:
    return [
        ServerProcess(postgres.url(), output=folder / f"server{n}.log", **settings, **UNLIMITED)
        for n in range(count)
    ]


async def test_a_subscriber_whose_server_lost_its_copy_is_never_sent_a_gap(tmp_path: Path) -> None:
    """Servers A and B share a PostgreSQL; a subscriber follows B. Seq 1 through B; PostgreSQL
    stops, and a command to B is answered 503 (B lets its copy go); PostgreSQL starts, A
    commits 2 and 3, then B commits 4. The subscriber on B must never be sent 4 straight
    after 1: it is sent 2 and 3 first, or told to resume after 1, and in the end has all four."""
    with private_postgres() as postgres:
        a, b = servers(postgres, tmp_path, 2)
        with a, b:
            async with aiohttp.ClientSession() as session:
                table = await new_rcs_table(session, b.url)
                async with following(session, b.url, table) as subscriber:
                    assert await acknowledged(session, b.url, table) == 1
                    await subscriber.until(1)
                    postgres.stop("fast")
                    # No key: the append itself is what finds the database gone.
                    status, _ = await command(session, b.url, table, None)
                    assert status == 503
                    postgres.start()
                    assert await acknowledged(session, a.url, table) == 2
                    assert await acknowledged(session, a.url, table) == 3
                    assert await acknowledged(session, b.url, table) == 4
                    seen = await subscriber.until(4)
        assert seen == [1, 2, 3, 4]
        first = subscriber.first_connection
        if first is not None:  # it was told to come back: from where it stood, not past it
            assert first == [1] and subscriber.goodbyes[0]["resume_after"] == 1


def worker_pids(parent: int) -> list[int]:
    return [int(p) for p in Path(f"/proc/{parent}/task/{parent}/children").read_text().split()]


@pytest.mark.skipif(not Path("/proc/self/task").exists(), reason="Linux's /proc")
async def test_every_subscriber_gets_every_event_once_through_every_fault(tmp_path: Path) -> None:
    """Two servers (the first with two workers) on a PostgreSQL and a Redis of the test's own; a
    subscriber on each; commands to both throughout, while PostgreSQL stops and starts, Redis
    restarts and a worker is killed. Afterwards every subscriber has seen every sequence once
    and in order, and every acknowledged command is in the log once, where it was answered.
    About a minute: it waits for real restarts and the servers' retries."""
    redis = RedisServer().start()
    try:
        with private_postgres() as postgres:
            a, b = servers(postgres, tmp_path, 2, bus=redis.url)
            a.extra_args += ["--workers", "2"]
            with a, b:
                async with aiohttp.ClientSession() as session:
                    table = await new_rcs_table(session, b.url)
                    await faults(session, a, b, postgres, redis, table)
    finally:
        redis.kill()


async def faults(
    session: aiohttp.ClientSession,
    a: ServerProcess,
    b: ServerProcess,
    postgres: PrivatePostgres,
    redis: RedisServer,
    table: dict[str, Any],
) -> None:
    answered: dict[int, str] = {}
    unknown = 0  # commands sent without a key and answered with no answer: stored or not
    stop = asyncio.Event()

    async def commanding(url: str, keyed: bool) -> None:
        """Commands until told to stop. With keys, each is sent until acknowledged (once,
        however often sent); without, as a plain client does, each is sent once, and after a
        failure the client waits a while (as ``Retry-After`` asks), while the others go on."""
        nonlocal unknown
        for n in itertools.count():
            key = f"{url}-{n}" if keyed else None
            while True:
                status, answer = await command(session, url, table, key)
                if status == 200:
                    assert answer["seq"] not in answered, "two commands got one sequence"
                    answered[answer["seq"]] = key or f"{url}-{n}"
                    break
                if not keyed:
                    unknown += 1
                    await asyncio.sleep(1)
                    break
                await asyncio.sleep(0.05)
            if stop.is_set():
                return
            await asyncio.sleep(0.02)

    async with (
        following(session, a.url, table) as on_a,
        following(session, b.url, table) as on_b,
    ):
        senders = [
            asyncio.create_task(commanding(a.url, keyed=True)),
            asyncio.create_task(commanding(b.url, keyed=False)),
        ]
        await asyncio.sleep(1)
        postgres.stop("fast")
        await asyncio.sleep(1)
        postgres.start()
        await asyncio.sleep(1)
        redis.kill()
        await asyncio.sleep(0.5)
        redis.start()
        await asyncio.sleep(1)
        assert a.process is not None
        os.kill(worker_pids(a.process.pid)[0], signal.SIGKILL)
        await asyncio.sleep(2)
        stop.set()
        await asyncio.gather(*senders)
        async with session.get(
            f"{b.url}/api/tables/{table['id']}/events",
            headers={"Authorization": f"Bearer {table['gm_token']}"},
        ) as read:
            log = [entry["seq"] for entry in (await read.json())["events"]]
        last = len(log)
        assert log == list(range(1, last + 1))
        assert set(answered) <= set(log), "an acknowledged command is not in the log"
        assert len(answered) <= last <= len(answered) + unknown, "a command stored twice"
        for subscriber in (on_a, on_b):
            assert await subscriber.until(last) == list(range(1, last + 1))
