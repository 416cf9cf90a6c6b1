"""Following a table live over WebSocket and SSE, with disconnects and resumes."""

from __future__ import annotations

import json
import socket
from typing import Any

from aiohttp import WSMsgType

from server.run.app import make_app
from tests.server.conftest import Client, MakeClient, bearer, new_table, send
from tests.server.following import read_sse
from tests.server.table_setups import rcs_table
from tests.waiting import within


async def pools(client: Client, table: dict[str, Any], count: int) -> list[int]:
    """Send ``count`` commands; the sequences acknowledged."""
    acked = []
    for n in range(count):
        status, answer = await send(
            client, table, {"type": "set_pool", "side": "a", "points": n % 5}
        )
        assert status == 200
        acked.append(answer["seq"])
    return acked


async def test_a_websocket_gets_the_view_then_each_event_with_its_sequence(client: Client) -> None:
    table = await rcs_table(client)
    async with client.ws_connect(
        f"/api/tables/{table['id']}/ws", headers=bearer(table["overlay_token"])
    ) as ws:
        first = await ws.receive_json()
        assert first["type"] == "view" and first["seq"] == 2
        await pools(client, table, 3)
        messages = [await ws.receive_json() for _ in range(3)]
    assert [m["seq"] for m in messages] == [3, 4, 5]
    assert all(
        m["type"] == "event" and m["view"]["pools"]["a"] == m["event"]["points"] for m in messages
    )


async def test_a_websocket_resumes_with_exactly_what_it_missed(client: Client) -> None:
    table = await rcs_table(client)
    url = f"/api/tables/{table['id']}/ws"
    seen: list[int] = []
    async with client.ws_connect(url, headers=bearer(table["gm_token"])) as ws:
        await ws.receive_json()
        await pools(client, table, 5)
        for _ in range(3):
            seen.append((await ws.receive_json())["seq"])
    await pools(client, table, 4)  # while disconnected
    async with client.ws_connect(
        f"{url}?after={seen[-1]}", headers=bearer(table["gm_token"])
    ) as ws:
        while True:
            message = await ws.receive_json()
            if message["type"] == "view":
                break
            seen.append(message["seq"])
        await pools(client, table, 2)
        for _ in range(2):
            seen.append((await ws.receive_json())["seq"])
    assert seen == list(range(3, 3 + 11))


async def test_sse_resumes_from_last_event_id(client: Client) -> None:
    table = await rcs_table(client)
    url = f"/api/tables/{table['id']}/sse"
    seen: list[int] = []
    async with client.get(url, headers=bearer(table["overlay_token"])) as stream:
        assert stream.headers["Content-Type"].startswith("text/event-stream")
        (view,) = await read_sse(stream, 1)
        assert view["event"] == "view" and view["id"] == 2
        await pools(client, table, 4)
        seen += [m["id"] for m in await read_sse(stream, 2)]
    await pools(client, table, 3)
    headers = {**bearer(table["overlay_token"]), "Last-Event-ID": str(seen[-1])}
    async with client.get(url, headers=headers) as stream:
        messages = await read_sse(stream, 5 + 1)
    assert [m["id"] for m in messages[:-1]] == [5, 6, 7, 8, 9]
    assert messages[-1]["event"] == "view"
    assert seen + [m["id"] for m in messages[:-1]] == list(range(3, 10))


async def test_sse_sends_heartbeats_when_idle(make_client: MakeClient) -> None:
    client = await make_client(heartbeat=0.05)
    table = await rcs_table(client)
    async with client.get(
        f"/api/tables/{table['id']}/sse", headers=bearer(table["overlay_token"])
    ) as stream:
        await read_sse(stream, 1)
        lines = [await within(stream.content.readline(), "the stream went quiet") for _ in "ab"]
    assert b": heartbeat\n" in lines


async def dropped(client: Client) -> int:
    text = await (await client.get("/metrics")).text()
    (line,) = [x for x in text.splitlines() if x.startswith("seize_subscribers_dropped_total")]
    return int(line.split()[-1])


async def test_a_slow_subscriber_is_told_to_resume_and_loses_nothing(
    make_client: MakeClient,
) -> None:
    """A client that stops reading: its socket stops taking data (the client pauses reading
    its TCP transport, as a stalled browser tab would), the server's queue for it fills, and
    it is dropped with where to resume. Nothing is lost across the resume."""
    client = await make_client(subscriber_backlog=16_384, rate_burst=10_000, rate_per_second=10_000)
    table = await rcs_table(client)
    url = f"/api/tables/{table['id']}/ws"
    async with client.ws_connect(url, headers=bearer(table["gm_token"])) as ws:
        await ws.receive_json()
        transport = ws._conn.transport  # type: ignore[union-attr]
        assert transport is not None
        transport.get_extra_info("socket").setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 65536)
        transport.pause_reading()
        sent = 0
        while not await dropped(client):
            sent += len(await pools(client, table, 50))
            assert sent < 20_000, "the server never found the subscriber slow"
        transport.resume_reading()
        received = []
        while True:
            message = await ws.receive()
            if message.type != WSMsgType.TEXT:
                break
            received.append(json.loads(message.data))
    assert received[-1]["type"] == "bye" and "slow" in received[-1]["reason"]
    assert ws.close_code == 4008
    resume = received[-1]["resume_after"]
    assert [m["seq"] for m in received[:-1]] == list(range(3, resume + 1))
    async with client.ws_connect(f"{url}?after={resume}", headers=bearer(table["gm_token"])) as ws:
        rest = []
        while (message := await ws.receive_json())["type"] != "view":
            rest.append(message["seq"])
    assert [m["seq"] for m in received[:-1]] + rest == list(range(3, 3 + sent))


async def test_each_role_gets_its_own_cut_of_an_event(client: Client) -> None:
    table = await new_table(client, "four-color")
    for n in range(1, 5):
        member = {"id": f"h{n}", "name": f"h{n}", "kind": "hero"}
        await send(client, table, {"type": "join", "member": member})
    url = f"/api/tables/{table['id']}/ws"
    async with (
        client.ws_connect(url, headers=bearer(table["gm_token"])) as gm,
        client.ws_connect(url, headers=bearer(table["overlay_token"])) as overlay,
    ):
        await gm.receive_json()
        await overlay.receive_json()
        await send(client, table, {"type": "deal"})
        seen_by_gm, seen_by_overlay = await gm.receive_json(), await overlay.receive_json()
    extras = [d for d in seen_by_gm["event"]["cards"] if d["to"] == "editor"]
    assert len(extras) == 2 and all(d["card"] for d in extras)
    hidden = [d for d in seen_by_overlay["event"]["cards"] if d["to"] == "editor"]
    assert all(d["card"] is None for d in hidden)
    assert seen_by_overlay["view"]["hidden_cards"] == 2


async def test_a_graceful_shutdown_says_goodbye(aiohttp_client: Any, settings: Any) -> None:
    client: Client = await aiohttp_client(make_app(settings))
    table = await rcs_table(client)
    ws = await client.ws_connect(
        f"/api/tables/{table['id']}/ws", headers=bearer(table["overlay_token"])
    )
    await ws.receive_json()
    await client.server.close()
    bye = await ws.receive_json()
    assert bye["type"] == "bye" and "shutting down" in bye["reason"]
