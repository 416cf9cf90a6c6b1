"""Handing the table to phones and to a stream: fresh links, QR codes, revoked overlays."""

from __future__ import annotations

from urllib.parse import parse_qs, urlsplit

from tests.server.conftest import Client, bearer, new_table, send

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


async def test_a_gm_link_runs_the_table_elsewhere_and_a_new_one_revokes_it(
    client: Client,
) -> None:
    """The GM moves the console to another device: the link opens the console as the GM, the
    token in its fragment (which a browser never sends); a newer GM link stops the older one
    working, and the screen that made them, on the table's first token, goes on."""
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
    second = await (
        await client.post(f"{read}/handoff/gm", headers=bearer(table["gm_token"]))
    ).json()
    assert (await client.get(read, headers=bearer(fragment_token(first["url"])))).status == 401
    for valid in (fragment_token(second["url"]), table["gm_token"]):
        assert (await client.get(read, headers=bearer(valid))).status == 200


async def test_a_console_opened_from_a_gm_link_hands_the_table_back_and_goes_on(
    client: Client,
) -> None:
    """Out and back: the second device makes a link for the first; it keeps running the table
    (its own link is not among those revoked), and every other older GM link stops."""
    table = await new_table(client, "four-color")
    read = f"/api/tables/{table['id']}"
    links = []
    for _ in range(2):
        made = await client.post(f"{read}/handoff/gm", headers=bearer(table["gm_token"]))
        links.append(fragment_token((await made.json())["url"]))
    stale, tablet = links
    back = await client.post(f"{read}/handoff/gm", headers=bearer(tablet))
    assert back.status == 201
    home = fragment_token((await back.json())["url"])
    for valid in (tablet, home, table["gm_token"]):
        assert (await client.get(read, headers=bearer(valid))).status == 200
    assert (await client.get(read, headers=bearer(stale))).status == 401


async def test_no_one_but_the_gm_makes_a_gm_link(client: Client) -> None:
    table = await new_table(client, "awareness")
    path = f"/api/tables/{table['id']}/handoff/gm"
    refused = await client.post(path, headers=bearer(table["overlay_token"]))
    assert refused.status == 403 and (await refused.json())["rule"] == "roles"
    assert (await client.post(path)).status == 401
