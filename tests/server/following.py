"""Following a table through several servers, as a client whose server may go away does: the
tests of workers and of servers sharing a database use it."""

from __future__ import annotations

import asyncio
import itertools
import json
from typing import Any

import aiohttp

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
        await asyncio.sleep(0.05)  # a pause before the next server, not a wait for anything
    raise AssertionError("unreachable: the cycle of servers never ends")
