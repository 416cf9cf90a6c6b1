"""Handing the table to phones, to a stream and to the GMs' devices: fresh links, QR codes,
revoked overlays, GM devices listed and revoked one at a time."""

from __future__ import annotations

import json
import time
from typing import Any
from urllib.parse import parse_qs, urlsplit

import ifaddr
import pytest

from tests.server.conftest import Client, MakeClient, bearer, new_table, send
from tests.server.following import CHARACTER
from tests.waiting import eventually_async

HERO = {"type": "join", "member": {"id": "h1", "name": "Hero", "kind": "hero"}}


def token_of(url: str) -> str:
    return parse_qs(urlsplit(url).query)["token"][0]


async def test_a_player_link_opens_that_players_page_with_a_fresh_token(client: Client) -> None:
    table = await new_table(client, "megatraveller-rcs")
    jena = {"id": "jena", "name": "Jena", "side": "crew", "dex": 7, "movement": 1}
    assert (await send(client, table, {"type": "join", "character": jena}))[0] == 200
    path = f"/api/tables/{table['id']}/handoff/players/jena"
    answer = await client.post(path, headers=bearer(table["gm_token"]))
    assert answer.status == 201
    body = await answer.json()
    assert urlsplit(body["url"]).path == f"/play/{table['id']}"
    assert body["svg"].startswith("<svg") and "<path" in body["svg"]
    read = await client.get(f"/api/tables/{table['id']}", headers=bearer(token_of(body["url"])))
    assert (await read.json())["you"] == {"role": "player", "participants": ["jena"]}
    again = await (await client.post(path, headers=bearer(table["gm_token"]))).json()
    assert token_of(again["url"]) != token_of(body["url"])  # minted anew, never shown twice


async def test_a_link_asked_for_on_this_machines_loopback_names_its_address_on_the_lan(
    make_client: MakeClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The GM opens the console at 127.0.0.1 on the machine that serves every address: a phone
    cannot open 127.0.0.1, so the player's link (and its QR code) names the machine's address
    on the table's network, at the port the GM came in on; asked for under another name (the
    table's network's own), the link keeps it. A server on 127.0.0.1 alone has no other."""
    wlan = ifaddr.Adapter("wlan0", "wlan0", [ifaddr.IP("192.168.1.20", 24, "wlan0")])
    monkeypatch.setattr(ifaddr, "get_adapters", lambda: [wlan])
    for host, expected in (("0.0.0.0", "192.168.1.20"), ("127.0.0.1", "127.0.0.1")):
        client = await make_client(host=host)
        table = await new_table(client, "megatraveller-rcs")
        await send(client, table, {"type": "join", "character": CHARACTER})
        path = f"/api/tables/{table['id']}/handoff/players/{CHARACTER['id']}"
        answer = await (await client.post(path, headers=bearer(table["gm_token"]))).json()
        link = urlsplit(answer["url"])
        assert (link.hostname, link.port) == (expected, client.port)
        named = {**bearer(table["gm_token"]), "Host": f"gm-laptop.lan:{client.port}"}
        answer = await (await client.post(path, headers=named)).json()
        assert urlsplit(answer["url"]).netloc == f"gm-laptop.lan:{client.port}"


async def test_a_player_links_manifest_starts_at_that_link(client: Client) -> None:
    """Installed from a player's page, the app opens that page: its table and its token."""
    table = await new_table(client, "four-color")
    assert (await send(client, table, HERO))[0] == 200
    handed = await client.post(
        f"/api/tables/{table['id']}/handoff/players/h1", headers=bearer(table["gm_token"])
    )
    link = urlsplit((await handed.json())["url"])
    answer = await client.get(f"{link.path}/manifest.webmanifest?{link.query}")
    assert answer.status == 200 and answer.content_type == "application/manifest+json"
    manifest = json.loads(await answer.text())
    assert manifest["start_url"] == manifest["id"] == f"{link.path}?{link.query}"
    assert manifest["scope"] == "/play/" and manifest["icons"]
    bare = await client.get(f"{link.path}/manifest.webmanifest")
    assert bare.status == 400 and (await bare.json())["field"] == "token"


async def test_only_the_gm_hands_out_links_and_only_for_those_at_the_table(client: Client) -> None:
    table = await new_table(client, "four-color")
    base = f"/api/tables/{table['id']}/handoff"
    unknown = await client.post(f"{base}/players/nobody", headers=bearer(table["gm_token"]))
    assert unknown.status == 404
    overlay = await client.post(f"{base}/overlay", headers=bearer(table["overlay_token"]))
    assert overlay.status == 403
    assert (await client.post(f"{base}/overlay")).status == 401


async def test_a_new_overlay_link_revokes_the_old_ones(client: Client) -> None:
    table = await new_table(client, "awareness")
    read = f"/api/tables/{table['id']}"
    assert (await client.get(read, headers=bearer(table["overlay_token"]))).status == 200
    first = await (
        await client.post(f"{read}/handoff/overlay", headers=bearer(table["gm_token"]))
    ).json()
    second = await (
        await client.post(f"{read}/handoff/overlay", headers=bearer(table["gm_token"]))
    ).json()
    for revoked in (table["overlay_token"], token_of(first["url"])):
        assert (await client.get(read, headers=bearer(revoked))).status == 401
    shown = await client.get(read, headers=bearer(token_of(second["url"])))
    assert (await shown.json())["you"]["role"] == "overlay"
    assert (await client.get(read, headers=bearer(table["gm_token"]))).status == 200


def fragment_token(url: str) -> str:
    return parse_qs(urlsplit(url).fragment)["token"][0]


async def gm_device(client: Client, table: dict[str, Any], name: str, by: str = "") -> str:
    """A GM link for a device called ``name``, made by ``by`` (the table's first GM token):
    its token."""
    made = await client.post(
        f"/api/tables/{table['id']}/handoff/gm",
        json={"name": name},
        headers=bearer(by or table["gm_token"]),
    )
    assert made.status == 201, await made.text()
    return fragment_token((await made.json())["url"])


async def devices(client: Client, table: dict[str, Any], token: str = "") -> list[dict[str, Any]]:
    listed = await client.get(
        f"/api/tables/{table['id']}/handoff/gm", headers=bearer(token or table["gm_token"])
    )
    assert listed.status == 200
    found: list[dict[str, Any]] = (await listed.json())["devices"]
    return found


async def test_a_gm_link_runs_the_table_elsewhere_in_its_fragment(client: Client) -> None:
    """The GM moves the console to another device: the link opens the console as the GM, the
    token in its fragment (which a browser never sends)."""
    table = await new_table(client, "four-color")
    read = f"/api/tables/{table['id']}"
    made = await client.post(f"{read}/handoff/gm", headers=bearer(table["gm_token"]))
    assert made.status == 201
    first = await made.json()
    assert urlsplit(first["url"]).path == f"/console/{table['id']}"
    assert urlsplit(first["url"]).query == "" and first["svg"].startswith("<svg")
    elsewhere = await client.get(read, headers=bearer(fragment_token(first["url"])))
    assert (await elsewhere.json())["you"]["role"] == "gm"
    assert (await send(client, {**table, "gm_token": fragment_token(first["url"])}, HERO))[0] == 200
    assert [d["name"] for d in await devices(client, table)] == [
        "Where the table was made",
        "Another device",  # no name given
    ]


async def test_each_gm_device_has_its_own_link_and_adding_one_revokes_none(
    client: Client,
) -> None:
    """Two GMs' tablets and the stream's PC run one table: each device added, from any of them,
    leaves every other running; the list names each and says which is asking."""
    table = await new_table(client, "four-color")
    co_gm = await gm_device(client, table, "Co-GM tablet")
    stream = await gm_device(client, table, "  Streaming PC ", by=co_gm)
    again = await gm_device(client, table, "Co-GM phone", by=stream)
    read = f"/api/tables/{table['id']}"
    for valid in (table["gm_token"], co_gm, stream, again):
        assert (await client.get(read, headers=bearer(valid))).status == 200
    listed = await devices(client, table, co_gm)
    assert [(d["name"], d["this"]) for d in listed] == [
        ("Where the table was made", False),
        ("Co-GM tablet", True),
        ("Streaming PC", False),  # the spaces typed around it are not part of it
        ("Co-GM phone", False),
    ]
    assert all(d["seen"] is None and not d["connected"] for d in listed)  # none followed yet
    assert len({d["id"] for d in listed}) == 4
    assert not any(token in json.dumps(listed) for token in (co_gm, stream, again))


async def test_a_device_that_follows_the_table_is_seen(client: Client) -> None:
    table = await new_table(client, "awareness")
    tablet = await gm_device(client, table, "Co-GM tablet")
    async with client.ws_connect(f"/api/tables/{table['id']}/ws", headers=bearer(tablet)) as ws:
        assert json.loads((await ws.receive()).data)["type"] == "view"

        async def stamped() -> list[float]:  # written beside the connection, not before it
            return [d["seen"] for d in await devices(client, table) if d["seen"]]

        seen = await eventually_async(stamped, "the tablet was never stamped as seen")
    assert len(seen) == 1 and abs(seen[0] - time.time()) < 3600  # the store's clock, in seconds


@pytest.mark.parametrize(
    ("body", "fault"),
    [
        ({"name": ""}, "name"),
        ({"name": "   "}, "name"),
        ({"name": "x" * 81}, "name"),
        ({"name": 7}, "name"),
        ({"name": "Tablet", "role": "player"}, "role"),
    ],
)
async def test_a_device_badly_named_is_refused_naming_the_field_and_nothing_is_minted(
    client: Client, body: dict[str, Any], fault: str
) -> None:
    table = await new_table(client, "awareness")
    refused = await client.post(
        f"/api/tables/{table['id']}/handoff/gm", json=body, headers=bearer(table["gm_token"])
    )
    assert refused.status == 422
    assert (await refused.json())["field"] == fault
    assert len(await devices(client, table)) == 1


async def test_no_one_but_the_gm_makes_lists_or_revokes_gm_devices(client: Client) -> None:
    table = await new_table(client, "awareness")
    path = f"/api/tables/{table['id']}/handoff/gm"
    (first,) = await devices(client, table)
    for method, where in (("POST", path), ("GET", path), ("DELETE", f"{path}/{first['id']}")):
        refused = await client.request(method, where, headers=bearer(table["overlay_token"]))
        assert refused.status == 403 and (await refused.json())["rule"] == "roles"
        assert (await client.request(method, where)).status == 401
    assert len(await devices(client, table)) == 1
