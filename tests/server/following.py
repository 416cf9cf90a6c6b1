"""Following a table through several servers, as a client whose server may go away does: the
tests of workers, of servers sharing a database and of faults use it, and so does the fault
benchmark."""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import json
import time
import uuid
from collections.abc import AsyncIterator
from typing import Any

import aiohttp

from tests.waiting import ONE_TRY, PACE, PATIENCE, eventually, within

POOL = {"type": "set_pool", "side": "crew", "points": 3}
"""An RCS command that is always legal, one event each: an endless supply of events."""
CHARACTER = {"id": "a", "name": "A", "side": "crew", "dex": 1, "movement": 1}


async def follow(
    session: aiohttp.ClientSession,
    urls: list[str],
    table: dict[str, Any],
    last: int,
    start: int = 0,
    subscribed: asyncio.Event | None = None,
) -> list[int]:
    """The sequences a subscriber receives until ``last``, starting on ``urls[start]`` and
    resuming with ``?after=`` on the next server whenever its connection drops. ``subscribed``
    is set once it has caught up on its first server (the view follows the catch-up)."""
    seen: list[int] = []
    headers = {"Authorization": f"Bearer {table['gm_token']}"}
    for url in itertools.islice(itertools.cycle(urls), start, None):
        after = seen[-1] if seen else 0
        try:
            async with session.ws_connect(
                f"{url}/api/tables/{table['id']}/ws?after={after}", headers=headers
            ) as ws:
                async for message in ws:
                    frame = json.loads(message.data)
                    if frame["type"] == "event":
                        seen.append(frame["seq"])
                    if frame["type"] == "view" and subscribed is not None:
                        subscribed.set()
                    if seen and seen[-1] >= last:
                        return seen
        except aiohttp.ClientConnectionError:
            pass
        await asyncio.sleep(PACE)  # a pause before the next server, not a wait for anything
    raise AssertionError("unreachable: the cycle of servers never ends")


class Subscriber:
    """Follows a table on one server with ``?after=``; comes back, to the same server, only when
    told to, from the sequence the goodbye names (or its last, if the connection just closed)."""

    def __init__(self, session: aiohttp.ClientSession, url: str, table: dict[str, Any]) -> None:
        self.session, self.url, self.table = session, url, table
        self.seen: list[int] = []
        self.arrived: list[float] = []
        """When each of ``seen`` arrived (``time.monotonic``)."""
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
                            self.arrived.append(time.monotonic())
                        elif frame["type"] == "bye":
                            self.goodbyes.append(frame)
                            break
            except (aiohttp.ClientConnectionError, aiohttp.WSServerHandshakeError):
                pass  # the server or its database is away: it is asked again shortly
            if self.first_connection is None:
                self.first_connection = list(self.seen)
            await asyncio.sleep(PACE)  # a pause before asking again, not a wait for anything

    async def until(self, last: int) -> list[int]:
        """Wait until this subscriber has seen ``last`` (the waiting is bounded)."""
        await eventually(
            lambda: self.seen and self.seen[-1] >= last,
            lambda: f"saw {self.seen}, waiting for {last}",
        )
        return self.seen


@contextlib.asynccontextmanager
async def following(
    session: aiohttp.ClientSession, url: str, table: dict[str, Any]
) -> AsyncIterator[Subscriber]:
    subscriber = Subscriber(session, url, table)
    task = asyncio.create_task(subscriber.run())
    try:
        await within(subscriber.connected.wait(), "the subscriber never connected")
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
            timeout=aiohttp.ClientTimeout(total=ONE_TRY),
        ) as answer:
            return answer.status, await answer.json()
    except (aiohttp.ClientError, TimeoutError):
        return 0, None


async def acknowledged(session: aiohttp.ClientSession, url: str, table: dict[str, Any]) -> int:
    """Send one command until it is acknowledged (the same key each time, so once); its seq."""
    key, deadline = uuid.uuid4().hex, time.monotonic() + PATIENCE
    while True:
        status, answer = await command(session, url, table, key)
        if status == 200:
            return int(answer["seq"])
        assert time.monotonic() < deadline, f"never acknowledged: {status} {answer}"
        await asyncio.sleep(PACE)  # a pause before sending again, not a wait for anything


async def new_rcs_table(session: aiohttp.ClientSession, url: str) -> dict[str, Any]:
    async with session.post(
        f"{url}/api/tables", json={"system": "megatraveller-rcs", "name": "faults"}
    ) as answer:
        assert answer.status == 201, await answer.text()
        table: dict[str, Any] = await answer.json()
        return table


async def read_sse(response: aiohttp.ClientResponse, count: int) -> list[dict[str, Any]]:
    """The next ``count`` SSE messages (heartbeat comments skipped)."""
    messages: list[dict[str, Any]] = []
    fields: dict[str, str] = {}
    while len(messages) < count:
        line = (await response.content.readline()).decode().rstrip("\n")
        if line.startswith(":"):
            continue
        if line:
            name, _, value = line.partition(": ")
            fields[name] = value
            continue
        if fields:
            messages.append(
                {
                    "id": int(fields["id"]),
                    "event": fields["event"],
                    "data": json.loads(fields["data"]),
                }
            )
            fields = {}
    return messages
