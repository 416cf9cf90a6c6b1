"""Three servers, one PostgreSQL database, one Redis bus, one table: commands sent to all of them
at once are each decided once against the latest state, and a subscriber on each sees every
event once, in order. Also while a server is killed with SIGKILL (its clients go to another),
with either durability: PostgreSQL's ``synchronous_commit=off`` loses nothing when only a server
of ours dies; and while Redis is killed and started again (the servers poll the database
meanwhile)."""

from __future__ import annotations

import asyncio
import itertools
import uuid
from collections.abc import Awaitable, Callable, Iterator
from pathlib import Path
from typing import Any

import aiohttp
import pytest

from tests.server.databases import postgres_schema, query
from tests.server.following import CHARACTER, POOL, follow
from tests.server.process import UNLIMITED, ServerProcess
from tests.server.redis_server import RedisServer
from tests.waiting import PACE, eventually, eventually_async, within

WORKERS = 3
SENDERS = 6  # two per server
EACH = 12  # commands per sender
COMMANDS = SENDERS * EACH
LAST = COMMANDS + 1  # the join, then every command's one event
Trouble = Callable[[list[ServerProcess], RedisServer, list[int]], Awaitable[None]]


@pytest.fixture
def redis_server() -> Iterator[RedisServer]:
    with RedisServer() as server:
        yield server


@pytest.fixture
def durability() -> str:
    """The servers' durability: ``disk`` unless a test names another."""
    return "disk"


@pytest.fixture
def servers(
    redis_server: RedisServer, tmp_path: Path, durability: str
) -> Iterator[list[ServerProcess]]:
    with postgres_schema() as url:
        started = [
            ServerProcess(
                url,
                tmp_path / f"server{n}.log",
                bus=redis_server.url,
                durability=durability,
                **UNLIMITED,
            )
            for n in range(WORKERS)
        ]
        try:
            for server in started:
                server.start()
            yield started
        finally:
            for server in started:
                server.stop()


async def _new_table(session: aiohttp.ClientSession, url: str) -> dict[str, Any]:
    async with session.post(
        f"{url}/api/tables", json={"system": "megatraveller-rcs", "name": "shared"}
    ) as answer:
        table: dict[str, Any] = await answer.json()
    async with session.post(
        f"{url}/api/tables/{table['id']}/commands",
        json={"type": "join", "character": CHARACTER},
        headers={"Authorization": f"Bearer {table['gm_token']}"},
    ) as answer:
        assert answer.status == 200
    return table


async def _send(
    session: aiohttp.ClientSession,
    urls: list[str],
    start: int,
    table: dict[str, Any],
    acknowledged: list[int],
) -> None:
    """EACH commands, one after another, each first to the server ``start`` points at. One
    whose server cannot be reached goes, with the same idempotency key, to the next. The
    sequences acknowledged go to ``acknowledged`` as they come."""
    headers = {"Authorization": f"Bearer {table['gm_token']}"}
    for n in range(EACH):
        key = uuid.uuid4().hex
        for url in itertools.islice(itertools.cycle(urls), start + n, None):
            try:
                async with session.post(
                    f"{url}/api/tables/{table['id']}/commands",
                    json=POOL,
                    headers={**headers, "Idempotency-Key": key},
                ) as answer:
                    body = await answer.json()
                    assert answer.status == 200, body
                    acknowledged.append(body["seq"])
                    break
            except aiohttp.ClientConnectionError:
                await asyncio.sleep(PACE)  # a pause before the next server


async def _play(servers: list[ServerProcess], trouble: Trouble, redis: RedisServer) -> None:
    urls = [server.url for server in servers]
    async with aiohttp.ClientSession() as session:
        table = await _new_table(session, urls[0])
        subscribed = [asyncio.Event() for _ in range(WORKERS)]
        followers = [
            asyncio.create_task(follow(session, urls, table, LAST, n, subscribed[n]))
            for n in range(WORKERS)
        ]
        for caught_up in subscribed:  # every subscriber connected and caught up
            await within(caught_up.wait(), "a subscriber never caught up")
        acknowledged: list[int] = []
        senders = asyncio.gather(
            *(_send(session, urls, n, table, acknowledged) for n in range(SENDERS))
        )
        await trouble(servers, redis, acknowledged)
        await within(senders, "the senders stalled", progress=lambda: len(acknowledged))
        seen = await within(asyncio.gather(*followers), "a subscriber fell behind")
    # Every command acknowledged once, each at its own sequence, and nothing else stored.
    assert sorted(acknowledged) == list(range(2, LAST + 1))
    stored = await query(
        servers[0].db, f"select seq from events where table_id = '{table['id']}' order by seq"
    )
    assert [seq for (seq,) in stored] == list(range(1, LAST + 1))
    for subscriber in seen:  # every event once, in order, whichever server it came through
        assert subscriber == list(range(1, LAST + 1))


async def _mid_play(acknowledged: list[int], more: int = COMMANDS // 4) -> None:
    """Wait until ``more`` commands more are acknowledged (or all are): the play is under way,
    counted in commands rather than in seconds, however slow the machine."""
    reached = min(len(acknowledged) + more, COMMANDS)
    await eventually(lambda: len(acknowledged) >= reached, "the play stalled")


async def _calm(servers: list[ServerProcess], redis: RedisServer, acknowledged: list[int]) -> None:
    """Nothing goes wrong."""


async def _kill_a_server(
    servers: list[ServerProcess], redis: RedisServer, acknowledged: list[int]
) -> None:
    """SIGKILL one server mid-play, and start it again on its port once the others have
    acknowledged commands without it."""
    await _mid_play(acknowledged)
    servers[1].kill()
    await _mid_play(acknowledged, SENDERS)
    await asyncio.to_thread(servers[1].start, same_port=True)


async def _restart_redis(
    servers: list[ServerProcess], redis: RedisServer, acknowledged: list[int]
) -> None:
    """Kill Redis mid-play (every subscription and message in flight gone), start it again;
    each server says so on ``/metrics`` as it goes to polling and back."""
    await _mid_play(acknowledged)
    redis.kill()
    await _bus_up(servers, up=False)
    await asyncio.to_thread(redis.start)
    await _bus_up(servers, up=True)


async def _bus_up(servers: list[ServerProcess], *, up: bool) -> None:
    """Wait until every server reports the bus ``up`` (or not)."""
    async with aiohttp.ClientSession() as session:
        for server in servers:

            async def said(url: str = server.url) -> bool:
                async with session.get(f"{url}/metrics") as answer:
                    return f"seize_bus_up {int(up)}" in await answer.text()

            await eventually_async(
                said, f"{server.url} never said the bus was {'up' if up else 'down'}"
            )


@pytest.mark.parametrize(
    ("trouble", "durability"),
    [(_calm, "disk"), (_kill_a_server, "disk"), (_kill_a_server, "os"), (_restart_redis, "disk")],
    ids=["calm", "sigkill", "sigkill-os", "redis-restart"],
)
async def test_three_servers_decide_one_table_one_command_at_a_time(
    servers: list[ServerProcess], redis_server: RedisServer, trouble: Trouble
) -> None:
    await _play(servers, trouble, redis_server)
