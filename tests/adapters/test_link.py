"""How an adapter reaches its table: over the network, following the view live, or inside the
server that holds it. Both links answer alike."""

from __future__ import annotations

from typing import Any

from adapters.link import TableLink
from server.context import SEIZE
from tests.server.conftest import Client, bearer, new_table, send

from .test_tray import eventually

JOIN = {"type": "join", "member": {"id": "v", "name": "V", "kind": "villain"}}


async def gm_view(client: Client, table: dict[str, Any]) -> Any:
    read = await client.get(f"/api/tables/{table['id']}", headers=bearer(table["gm_token"]))
    return (await read.json())["view"]


async def test_the_link_follows_the_table_and_asks_again_when_the_stream_drops(
    client: Client,
) -> None:
    table = await new_table(client, "four-color")
    link = TableLink(str(client.make_url("")), table["id"], table["gm_token"])
    try:
        assert await link.view() == await gm_view(client, table)  # asked: not following yet
        await eventually(lambda: link.following)
        await send(client, table, JOIN)  # someone else's command reaches the link live
        await eventually(lambda: link._live is not None and link._live[0] == 1)
        assert await link.view() == await gm_view(client, table)

        client.app[SEIZE].hub.close_all("going away")  # the stream drops
        await eventually(lambda: not link.following)
        await send(client, table, {"type": "deal", "seed": 1})
        assert (await link.view())["to_deal"] == (await gm_view(client, table))["to_deal"]
        await eventually(lambda: link.following)  # and it is followed again
    finally:
        await link.close()


async def test_the_link_never_routes_by_a_view_older_than_its_own_last_command(
    client: Client,
) -> None:
    table = await new_table(client, "four-color")
    link = TableLink(str(client.make_url("")), table["id"], table["gm_token"])
    try:
        await link.view()
        await eventually(lambda: link.following)
        status, _ = await link.send(JOIN)
        assert status == 200
        view = await link.view()  # returned only once the stream shows the join
        assert [m["id"] for m in view["members"]] == ["v"]
    finally:
        await link.close()
