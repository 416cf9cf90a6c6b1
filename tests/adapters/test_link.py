"""How an adapter reaches its table: over the network, following the view live, or inside the
server that holds it. Both links answer alike."""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator
from typing import Any

import pytest

from adapters.link import TableLink
from server.devices.local_link import LocalLink
from server.http.context import SEIZE
from tests.server.conftest import Client, bearer, new_table, send
from tests.waiting import eventually

from .conftest import Gate

JOIN = {"type": "join", "member": {"id": "v", "name": "V", "kind": "villain"}}


async def gm_view(client: Client, table: dict[str, Any]) -> Any:
    read = await client.get(f"/api/tables/{table['id']}", headers=bearer(table["gm_token"]))
    return (await read.json())["view"]


@pytest.fixture
async def linked(client: Client) -> AsyncIterator[tuple[dict[str, Any], TableLink]]:
    """A new table, and a link to it over the network."""
    table = await new_table(client, "four-color")
    link = TableLink(str(client.make_url("")), table["id"], table["gm_token"])
    yield table, link
    await link.close()


async def test_the_link_follows_the_table_and_follows_it_again_when_the_stream_drops(
    client: Client, linked: tuple[dict[str, Any], TableLink]
) -> None:
    table, link = linked
    assert await link.view() == await gm_view(client, table)  # asked: not following yet
    await eventually(lambda: link.seen == 0)
    await send(client, table, JOIN)  # someone else's command reaches the link live
    await eventually(lambda: link.seen == 1)
    assert await link.view() == await gm_view(client, table)

    client.app[SEIZE].hub.close_all("going away")  # the stream drops
    await eventually(lambda: link.streams == 2 and link.seen == 1)  # followed again
    await send(client, table, {"type": "deal", "seed": 1})
    await eventually(lambda: link.seen == 2)
    assert await link.view() == await gm_view(client, table)


async def test_a_link_whose_server_said_goodbye_and_stopped_reconnects_quietly(
    client: Client, linked: tuple[dict[str, Any], TableLink], caplog: pytest.LogCaptureFixture
) -> None:
    """Ctrl-C on ``seize serve``: the server says goodbye to every stream and stops listening.
    The devices stopping with it (or waiting out a restart) try again, and are refused, without
    a line at info for each try."""
    _, link = linked
    caplog.set_level(logging.DEBUG, logger="seize.link")
    await link.view()
    await eventually(lambda: link.seen == 0)
    await client.app.shutdown()  # the goodbye: as the server's own shutdown says it
    await client.server.close()  # and no one listens on the port any more
    lost = await eventually(
        lambda: [r for r in caplog.records if r.getMessage() == "table stream lost"],
        "the link never tried again",
    )
    assert all(r.levelno == logging.DEBUG for r in lost), [r.levelname for r in lost]


async def test_the_link_never_routes_by_a_view_older_than_its_own_last_command(
    linked: tuple[dict[str, Any], TableLink],
) -> None:
    _, link = linked
    await link.view()
    await eventually(lambda: link.seen == 0)
    async with link._moved:  # the stream's news is held up while the link sends
        status, _ = await link.send(JOIN)
        assert status == 200 and link.seen == 0
    view = await link.view()  # returned only once the stream shows the join
    assert [m["id"] for m in view["members"]] == ["v"]


@pytest.fixture
async def gated_link(
    gated: tuple[Client, Gate],
) -> AsyncIterator[tuple[Client, Gate, dict[str, Any], TableLink]]:
    """A new table, a link to it following it over its socket, and the gate that sees every
    request the server is asked."""
    client, gate = gated
    table = await new_table(client, "four-color")
    link = TableLink(str(client.make_url("")), table["id"], table["gm_token"])
    await link.view()
    await eventually(lambda: link.seen == 0)
    yield client, gate, table, link
    await link.close()


async def test_the_link_sends_its_commands_on_the_tables_socket(
    gated_link: tuple[Client, Gate, dict[str, Any], TableLink],
) -> None:
    client, gate, table, link = gated_link
    status, answer = await link.send(JOIN)
    assert status == 200 and answer["seq"] == 1 and answer["events"][0]["type"] == "joined"
    assert link.seen == 1  # its socket showed the join before it answered
    refusal = await link.send({"type": "deal_card", "card": "AS", "source": "device"})
    assert gate.posted == 0
    over_http = await send(client, table, {"type": "deal_card", "card": "AS", "source": "device"})
    assert refusal == over_http and refusal[0] == 422 and refusal[1]["rule"]


async def test_a_command_whose_socket_drops_before_its_answer_is_posted_and_applies_once(
    gated_link: tuple[Client, Gate, dict[str, Any], TableLink],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    client, gate, table, link = gated_link
    seize = client.app[SEIZE]
    execute = seize.runner.execute

    async def dropped_first(*args: Any) -> dict[str, Any]:
        """Close every socket as the command reaches its table, before it is committed: the
        answer, handed to the socket as soon as it is committed, cannot go out on it."""
        for ws in list(seize.sockets):
            await ws.close()
        return await execute(*args)

    monkeypatch.setattr(seize.runner, "execute", dropped_first)
    status, answer = await link.send(JOIN)
    assert status == 200 and answer["seq"] == 1 and answer["events"][0]["type"] == "joined"
    assert gate.posted == 1  # sent again, with its key
    read = await client.get(f"/api/tables/{table['id']}/events", headers=bearer(table["gm_token"]))
    assert [e["event"]["type"] for e in (await read.json())["events"]] == ["joined"]


async def test_inside_the_server_a_link_answers_as_the_api_does(client: Client) -> None:
    table = await new_table(client, "four-color")
    seize = client.app[SEIZE]
    link = LocalLink(seize, table["id"], table["gm_token"])
    status, answer = await link.send(JOIN)
    assert status == 200 and answer["seq"] == 1 and answer["events"][0]["type"] == "joined"
    assert await link.view() == await gm_view(client, table)
    status, refused = await link.send({"type": "deal_card", "card": "AS", "source": "device"})
    over_http = await send(client, table, {"type": "deal_card", "card": "AS", "source": "device"})
    assert (status, refused) == over_http and status == 422 and refused["rule"]
    status, invalid = await link.send({"type": "nonsense"})
    assert status == 422 and invalid == (await send(client, table, {"type": "nonsense"}))[1]

    await link.report("tray", {"kind": "dice tray", "connected": True})
    listed = await client.get(
        f"/api/tables/{table['id']}/devices", headers=bearer(table["gm_token"])
    )
    assert (await listed.json())["devices"]["tray"]["connected"] is True


async def test_inside_the_server_a_device_needs_the_tables_gm_token(client: Client) -> None:
    table = await new_table(client, "four-color")
    seize = client.app[SEIZE]
    with pytest.raises(ConnectionError, match=r"^table: "):
        await LocalLink(seize, "nosuchtable", table["gm_token"]).check()
    with pytest.raises(ConnectionError, match=r"^token: unknown token"):
        await LocalLink(seize, table["id"], "not-a-token").check()
    with pytest.raises(ConnectionError, match=r"^token: a device needs the table's GM token"):
        await LocalLink(seize, table["id"], table["overlay_token"]).check()
    await LocalLink(seize, table["id"], table["gm_token"]).check()
