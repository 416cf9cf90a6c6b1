"""A revoked link stops working everywhere: the server that revoked it drops the connections
that came in with it at once, and another server sharing the database (here a second app over
the same database, with ``workers`` above one so that it knows others write) refuses the token
and drops its own such connections within ``REVOKED_WITHIN``, though it had the token cached."""

from __future__ import annotations

import json
import time
from typing import Any

import pytest
from aiohttp import WSMsgType, WSServerHandshakeError

from server.live.hub import REVOKED
from server.run.app import make_app
from server.settings import Settings
from server.tables import access
from server.tables.access import REVOKED_WITHIN
from tests.server.conftest import Client, bearer, new_table, send
from tests.server.following import read_sse
from tests.server.http.test_handoff import devices, gm_device, token_of
from tests.waiting import within

HERO = {"type": "join", "member": {"id": "h1", "name": "Hero", "kind": "hero"}}
POLICY_VIOLATION = 1008


async def new_overlay_link(client: Client, table: dict[str, Any]) -> dict[str, str]:
    """A new overlay link, which revokes the others; its token, as a header."""
    answer = await client.post(
        f"/api/tables/{table['id']}/handoff/overlay", headers=bearer(table["gm_token"])
    )
    assert answer.status == 201
    return bearer(token_of((await answer.json())["url"]))


async def revoked_socket(ws: Any) -> None:
    """The socket's last words: a goodbye that says the link was revoked, then 1008. (Another
    server drops it at its next look at the tokens its connections hold, every
    ``REVOKED_WITHIN``: the deadline is only there to fail a socket never dropped.)"""
    while (message := await within(ws.receive(), "never dropped")).type == WSMsgType.TEXT:
        last = json.loads(message.data)
    assert last["type"] == "bye" and last["reason"] == REVOKED
    assert message.type == WSMsgType.CLOSE and message.data == POLICY_VIOLATION


async def test_a_new_overlay_link_drops_the_old_links_live_overlays(client: Client) -> None:
    table = await new_table(client, "four-color")
    url, overlay = f"/api/tables/{table['id']}", bearer(table["overlay_token"])
    async with (
        client.ws_connect(f"{url}/ws", headers=overlay) as old,
        client.get(f"{url}/sse", headers=overlay) as stream,
        client.ws_connect(f"{url}/ws", headers=bearer(table["gm_token"])) as gm,
    ):
        assert json.loads((await old.receive()).data)["type"] == "view"
        await read_sse(stream, 1)
        assert json.loads((await gm.receive()).data)["type"] == "view"
        await new_overlay_link(client, table)
        await revoked_socket(old)
        (bye,) = await read_sse(stream, 1)
        assert bye["event"] == "bye" and bye["data"]["reason"] == REVOKED
        assert await stream.content.read() == b""  # and the stream ends
        assert (await send(client, table, HERO))[0] == 200  # the GM's socket follows on
        assert json.loads((await gm.receive()).data)["seq"] == 1


class Clock:
    """The tokens' clock (``time`` as ``server.tables.access`` sees it), moved on at will: how
    long a cached token is believed is a matter of its age, not of a test's waiting."""

    def __init__(self) -> None:
        self.now = time.monotonic()

    def monotonic(self) -> float:
        return self.now


async def test_a_link_revoked_on_another_server_stops_working_here_too(
    aiohttp_client: Any, settings: Settings, monkeypatch: pytest.MonkeyPatch
) -> None:
    clock = Clock()
    monkeypatch.setattr(access, "time", clock)
    shared = settings.model_copy(update={"workers": 2})
    first: Client = await aiohttp_client(make_app(shared))
    second: Client = await aiohttp_client(make_app(shared))
    table = await new_table(first, "four-color")
    url, overlay = f"/api/tables/{table['id']}", bearer(table["overlay_token"])
    # A token the second server has cached, and no one follows the table with.
    assert (await second.get(url, headers=overlay)).status == 200
    linked = await new_overlay_link(first, table)
    assert (await second.get(url, headers=overlay)).status == 200  # believed while cached
    clock.now += REVOKED_WITHIN + 0.1  # the cached token is now older than it is believed
    assert (await second.get(url, headers=overlay)).status == 401
    with pytest.raises(WSServerHandshakeError) as refused:
        await second.ws_connect(f"{url}/ws", headers=overlay)
    assert refused.value.status == 401
    # A token the second server's overlay follows the table with.
    async with second.ws_connect(f"{url}/ws", headers=linked) as watching:
        assert json.loads((await watching.receive()).data)["type"] == "view"
        await new_overlay_link(first, table)
        await revoked_socket(watching)
    assert (await second.get(url, headers=linked)).status == 401


async def test_a_revoked_device_stops_at_once_and_the_others_go_on(client: Client) -> None:
    """The GM revokes the co-GM's tablet: its live console is told and closed, its link opens
    nothing, and the list no longer has it; every other device runs the table as before."""
    table = await new_table(client, "four-color")
    co_gm = await gm_device(client, table, "Co-GM tablet")
    stream = await gm_device(client, table, "Streaming PC")
    url = f"/api/tables/{table['id']}"
    async with client.ws_connect(f"{url}/ws", headers=bearer(co_gm)) as ws:
        assert json.loads((await ws.receive()).data)["type"] == "view"
        shown = {d["name"]: d for d in await devices(client, table)}
        assert shown["Co-GM tablet"]["connected"] and not shown["Streaming PC"]["connected"]
        gone = await client.delete(
            f"{url}/handoff/gm/{shown['Co-GM tablet']['id']}", headers=bearer(stream)
        )
        assert gone.status == 204
        await revoked_socket(ws)
    assert (await client.get(url, headers=bearer(co_gm))).status == 401
    for valid in (table["gm_token"], stream):
        assert (await client.get(url, headers=bearer(valid))).status == 200
    left = [d["name"] for d in await devices(client, table)]
    assert left == ["Where the table was made", "Streaming PC"]
    again = await client.delete(
        f"{url}/handoff/gm/{shown['Co-GM tablet']['id']}", headers=bearer(stream)
    )
    assert again.status == 404 and (await again.json())["field"] == "device"


async def test_a_device_revoked_on_another_server_is_dropped_there_too(
    aiohttp_client: Any, settings: Settings
) -> None:
    """Two servers share the database: the co-GM's console follows through the second, the GM
    revokes it through the first, and the second drops it at its next look at the tokens."""
    shared = settings.model_copy(update={"workers": 2})
    first: Client = await aiohttp_client(make_app(shared))
    second: Client = await aiohttp_client(make_app(shared))
    table = await new_table(first, "awareness")
    co_gm = await gm_device(first, table, "Co-GM tablet")
    url = f"/api/tables/{table['id']}"
    async with second.ws_connect(f"{url}/ws", headers=bearer(co_gm)) as ws:
        assert json.loads((await ws.receive()).data)["type"] == "view"
        (device,) = [d for d in await devices(first, table) if d["name"] == "Co-GM tablet"]
        gone = await first.delete(f"{url}/handoff/gm/{device['id']}", headers=bearer(co_gm))
        assert gone.status == 204  # a device may give up its own link
        await revoked_socket(ws)
    assert (await second.get(url, headers=bearer(co_gm))).status == 401
