"""Every subscriber gets every event, once and in order, through any fault: the database stopped
and started, Redis restarted, a worker killed. A subscriber here comes back only when told to
(a goodbye, or its connection closing); it never reconnects on a timer to paper over a gap.

These run real servers in processes of their own, over a PostgreSQL and a Redis each test
starts and stops itself."""

from __future__ import annotations

import asyncio
import itertools
import os
import signal
from pathlib import Path
from typing import Any

import aiohttp
import pytest

from tests.server.following import acknowledged, command, following, new_rcs_table
from tests.server.private_postgres import PrivatePostgres, private_postgres
from tests.server.process import UNLIMITED, ServerProcess
from tests.server.redis_server import RedisServer
from tests.waiting import PACE, eventually

pytestmark = pytest.mark.sqlite_only  # each test runs its own PostgreSQL

STEPS = 10
"""Commands answered (or tried, while a fault lasts) in each phase of the faults before the next:
traffic through every fault and every recovery, however slow the machine."""
RETRY_AFTER = 1.0
"""Seconds a plain client waits after a command that failed, as ``Retry-After`` asks: the pace
of its sending, not a wait for anything."""


def servers(postgres: PrivatePostgres, folder: Path, count: int, **settings: Any) -> list[Any]:
    return [
        ServerProcess(postgres.url(), output=folder / f"server{n}.log", **settings, **UNLIMITED)
        for n in range(count)
    ]


async def test_a_subscriber_whose_server_lost_its_copy_is_never_sent_a_gap(tmp_path: Path) -> None:
    """Servers A and B share a PostgreSQL; a subscriber follows B. Seq 1 through B; PostgreSQL
    stops, and a command to B is answered 503 (its append's fate unknown to B); PostgreSQL
    starts, A commits 2 and 3, then B commits 4. The subscriber on B must never be sent 4
    straight after 1: it is sent 2 and 3 first, or told to resume after 1, and in the end has
    all four."""
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
    Ten to thirty seconds: it waits for real restarts of PostgreSQL, Redis and a worker, and
    for commands to have been tried and answered through each fault, counted, not timed."""
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
    tried = 0  # commands sent, whatever their answer
    stop = asyncio.Event()

    async def commanding(url: str, keyed: bool) -> None:
        """Commands until told to stop. With keys, each is sent until acknowledged (once,
        however often sent); without, as a plain client does, each is sent once, and after a
        failure the client waits a while (as ``Retry-After`` asks), while the others go on."""
        nonlocal unknown, tried
        for n in itertools.count():
            key = f"{url}-{n}" if keyed else None
            while True:
                status, answer = await command(session, url, table, key)
                tried += 1
                if status == 200:
                    assert answer["seq"] not in answered, "two commands got one sequence"
                    answered[answer["seq"]] = key or f"{url}-{n}"
                    break
                if not keyed:
                    unknown += 1
                    await asyncio.sleep(RETRY_AFTER)
                    break
                await asyncio.sleep(PACE)
            if stop.is_set():
                return
            await asyncio.sleep(PACE)

    async def through(fault: str, *, answered_after: int = 0, tried_after: int = 0) -> None:
        """Wait until, since now, commands have been answered and tried so many times: each
        fault met by traffic, and each recovery by commands acknowledged again."""
        answers, tries = len(answered), tried
        await eventually(
            lambda: len(answered) >= answers + answered_after and tried >= tries + tried_after,
            lambda: f"{fault}: {len(answered) - answers} answered, {tried - tries} tried",
        )

    async with (
        following(session, a.url, table) as on_a,
        following(session, b.url, table) as on_b,
    ):
        senders = [
            asyncio.create_task(commanding(a.url, keyed=True)),
            asyncio.create_task(commanding(b.url, keyed=False)),
        ]
        await through("steady", answered_after=STEPS)
        postgres.stop("fast")
        await through("PostgreSQL stopped", tried_after=STEPS)
        postgres.start()
        await through("PostgreSQL back", answered_after=STEPS)
        redis.kill()
        await through("Redis killed", tried_after=STEPS)
        redis.start()
        await through("Redis back", answered_after=STEPS)
        assert a.process is not None
        os.kill(worker_pids(a.process.pid)[0], signal.SIGKILL)
        await through("a worker killed", answered_after=2 * STEPS, tried_after=2 * STEPS)
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
