"""Memory stays bounded on a server that runs for weeks, and limits fall where they should:
idle tables leave memory and come back from their snapshot, caches and rate-limit buckets keep
a fixed number of entries, new tables are limited per address, and reconnecting readers are
never refused by the command limit."""

from __future__ import annotations

import asyncio
import time
from typing import Any

import aiohttp
import pytest

from rules.roles import GM
from server.http.context import SEIZE, Seize
from server.tables.access import Principal, RateLimit, Tokens, digest
from tests.server.conftest import Client, MakeClient, bearer, new_table, send
from tests.waiting import eventually

POOL = {"type": "set_pool", "side": "a", "points": 2}
JOIN = {"type": "join", "character": {"id": "a", "name": "A", "side": "a", "dex": 1, "movement": 1}}


def seize_of(client: Client) -> Seize:
    return client.app[SEIZE]


async def test_an_idle_table_leaves_memory_with_a_snapshot_and_comes_back(
    make_client: MakeClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    client = await make_client(idle_table_seconds=0.05)
    seize = seize_of(client)
    sweeping: list[bool] = []  # one entry while a sweep runs
    sweep = seize.tables.evict_idle

    async def watched(idle: float) -> int:
        sweeping.append(True)
        try:
            return await sweep(idle)
        finally:
            sweeping.pop()

    monkeypatch.setattr(seize.tables, "evict_idle", watched)
    table = await new_table(client, "megatraveller-rcs")
    await send(client, table, JOIN)
    await send(client, table, POOL)
    # A loaded machine may let the table go between the two commands, and the second loads it
    # again; and it leaves memory before its snapshot is written. So: wait until it is out of
    # memory with no sweep under way, its last snapshot written.
    await eventually(
        lambda: seize.tables.loaded == 0 and not sweeping, "the idle table never left memory"
    )
    snapshot = await seize.store.snapshot(table["id"])
    assert snapshot is not None and snapshot.seq == 2
    # It comes back from that snapshot (a loaded machine may let it go again at once, so what
    # is counted is the loading, not what is in memory after it).
    read_snapshot = seize.store.snapshot
    loads: list[str] = []

    async def loading(table_id: str) -> Any:
        loads.append(table_id)
        return await read_snapshot(table_id)

    monkeypatch.setattr(seize.store, "snapshot", loading)
    read = await client.get(f"/api/tables/{table['id']}", headers=bearer(table["gm_token"]))
    body = await read.json()
    assert body["seq"] == 2 and body["view"]["pools"]["a"] == 2
    assert loads == [table["id"]]


async def test_a_followed_table_stays_in_memory(
    make_client: MakeClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    client = await make_client(idle_table_seconds=0.05)
    seize = seize_of(client)
    table = await new_table(client, "megatraveller-rcs")
    idle_enough: list[bool] = []  # at each sweep: had the table sat idle long enough to leave?
    sweep = seize.tables.evict_idle
    async with client.ws_connect(
        f"/api/tables/{table['id']}/ws", headers=bearer(table["overlay_token"])
    ) as ws:
        await ws.receive_json()
        game = await seize.tables.get(table["id"])  # the table as the socket follows it
        assert game is not None

        async def watched(idle: float) -> int:
            idle_enough.append(time.monotonic() - game.used >= idle)
            return await sweep(idle)

        monkeypatch.setattr(seize.tables, "evict_idle", watched)
        # Two sweeps, each of which would have let it go had no one followed it.
        await eventually(lambda: sum(idle_enough) >= 2, "the sweeps never came")
        assert seize.tables.loaded == 1
        await send(client, table, JOIN)
        assert (await ws.receive_json())["seq"] == 1


async def test_a_command_that_waited_while_its_table_left_memory_runs_on_it_loaded_afresh(
    client: Client,
) -> None:
    """No second copy of the table appends the same sequence: the command follows the table."""
    seize = seize_of(client)
    table = await new_table(client, "megatraveller-rcs")
    await send(client, table, JOIN)
    stale = await seize.tables.get(table["id"])
    assert stale is not None
    assert await seize.tables.evict_idle(0) == 1
    fresh = await seize.tables.get(table["id"])
    assert fresh is not None and fresh is not stale
    await send(client, table, POOL)  # the fresh copy moves on to sequence 2
    parsed = stale.system.commands.validate_python({**POOL, "points": 4})
    principal = Principal(table["id"], GM, digest(table["gm_token"]))
    answer = await seize.runner.execute(stale, principal, parsed, None, None)
    assert answer["seq"] == 3
    assert [seq for seq, _ in await seize.store.events(table["id"])] == [1, 2, 3]


async def test_a_table_loaded_by_two_callers_at_once_is_one_table(client: Client) -> None:
    """Loading awaits the database: a second caller arriving meanwhile gets the same copy, so
    no two copies of a table ever take commands."""
    seize = seize_of(client)
    table = await new_table(client, "megatraveller-rcs")
    await send(client, table, JOIN)
    assert await seize.tables.evict_idle(0) == 1
    first, second = await asyncio.gather(*(seize.tables.get(table["id"]) for _ in range(2)))
    assert first is not None and first is second and seize.tables.loaded == 1


async def test_the_token_cache_keeps_the_tokens_used_last(client: Client) -> None:
    seize = seize_of(client)
    tables = [await new_table(client, "four-color") for _ in range(4)]
    tokens = Tokens(seize.store, most=3)
    for table in tables:
        await tokens.principal(table["gm_token"], table["id"])
    assert len(tokens) == 3
    await tokens.principal(tables[0]["gm_token"], tables[0]["id"])  # read again from the store
    assert len(tokens) == 3


def test_rate_limit_buckets_are_bounded_and_forget_the_least_recently_used() -> None:
    limit = RateLimit(per_second=1, burst=1, most=3)
    for key in (b"a", b"b", b"c", b"d"):
        assert limit.allow(key) is None
    assert len(limit) == 3
    assert limit.allow(b"d") is not None  # kept: still waiting
    assert limit.allow(b"a") is None  # forgotten: starts full


async def test_new_tables_are_limited_per_address_without_an_admin_token(
    make_client: MakeClient,
) -> None:
    client = await make_client(create_burst=3, create_per_minute=1)
    for _ in range(3):
        await new_table(client, "four-color")
    refused = await client.post("/api/tables", json={"system": "four-color", "name": "t"})
    assert refused.status == 429 and int(refused.headers["Retry-After"]) >= 1
    assert "address" in (await refused.json())["message"]


async def test_an_admin_token_lifts_the_per_address_limit(make_client: MakeClient) -> None:
    client = await make_client(create_burst=1, admin_token="the-admin")
    for _ in range(3):
        answer = await client.post(
            "/api/tables",
            json={"system": "four-color", "name": "t"},
            headers=bearer("the-admin"),
        )
        assert answer.status == 201


async def test_a_thousand_overlays_on_one_token_all_reconnect_after_a_restart(
    client: Client,
) -> None:
    """The command limit is per token; readers have their own, generous one, so one stream's
    overlays all come back at once, and the GM can still send commands meanwhile."""
    table = await new_table(client, "megatraveller-rcs")
    url = client.make_url(f"/api/tables/{table['id']}/ws")

    async with aiohttp.ClientSession(connector=aiohttp.TCPConnector(limit=0)) as overlays:

        async def follow() -> aiohttp.ClientWebSocketResponse:
            ws = await overlays.ws_connect(url, headers=bearer(table["overlay_token"]))
            await ws.receive_json()
            return ws

        sockets = await asyncio.gather(*(follow() for _ in range(1000)))
        assert (await send(client, table, JOIN))[0] == 200
        seen = await asyncio.gather(*(ws.receive_json() for ws in sockets))
        assert [message["seq"] for message in seen] == [1] * 1000
        await asyncio.gather(*(ws.close() for ws in sockets))


async def test_reads_past_the_generous_limit_are_told_when_to_come_back(
    make_client: MakeClient,
) -> None:
    client = await make_client(read_burst=5, read_rate_per_second=0.5)
    table = await new_table(client, "four-color")
    answers = [
        await client.get(f"/api/tables/{table['id']}", headers=bearer(table["gm_token"]))
        for _ in range(6)
    ]
    assert [a.status for a in answers] == [200] * 5 + [429]
    assert int(answers[-1].headers["Retry-After"]) == 2
    assert (
        await send(
            client, table, {"type": "join", "member": {"id": "h", "name": "H", "kind": "hero"}}
        )
    )[0] == 200


async def test_behind_a_trusted_proxy_new_tables_are_limited_per_forwarded_address(
    make_client: MakeClient,
) -> None:
    """The proxy (the test client, on 127.0.0.1) forwards two clients: each has its own limit.
    An address the client wrote itself, before the proxy's, does not buy another."""
    client = await make_client(create_burst=1, create_per_minute=1, forwarded_by=["127.0.0.0/8"])

    async def create(forwarded: str) -> int:
        answer = await client.post(
            "/api/tables",
            json={"system": "four-color", "name": "t"},
            headers={"X-Forwarded-For": forwarded},
        )
        return answer.status

    assert await create("203.0.113.7") == 201
    assert await create("203.0.113.8") == 201
    assert await create("198.51.100.1, 203.0.113.7") == 429  # the claimed one is not believed
    assert await create("203.0.113.8, 127.0.0.5") == 429  # another trusted proxy in the chain


async def test_from_an_untrusted_peer_x_forwarded_for_is_ignored(make_client: MakeClient) -> None:
    client = await make_client(create_burst=1, create_per_minute=1)
    for forwarded, status in (("203.0.113.7", 201), ("203.0.113.8", 429)):
        answer = await client.post(
            "/api/tables",
            json={"system": "four-color", "name": "t"},
            headers={"X-Forwarded-For": forwarded},
        )
        assert answer.status == status
