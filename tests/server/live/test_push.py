"""Web Push (server/live/push.py) against a push service on loopback (``push_service.py``, from
RFCs 8030, 8291 and 8292) that checks each message's VAPID signature and decrypts it with the
subscription's keys, as a browser would: a player's new alerts reach their subscription, the
table's key signs them, and a subscription ends with its grant or when its browser lets it go."""

from __future__ import annotations

import json
from typing import Any

import pytest

from server.http.context import SEIZE
from server.live.push import SUBSCRIBED
from server.tables.access import digest
from tests.server.conftest import Client, MakeClient, bearer, new_table, send
from tests.waiting import eventually, eventually_async

from .push_service import PushService


@pytest.fixture
async def pushing(aiohttp_server: Any, make_client: MakeClient) -> tuple[Client, PushService]:
    service = PushService()
    server = await aiohttp_server(service.app())
    service.base = str(server.make_url("")).rstrip("/")
    return await make_client(), service


async def player(client: Client, table: dict[str, Any], who: str) -> str:
    answer = await client.post(
        f"/api/tables/{table['id']}/handoff/players/{who}", headers=bearer(table["gm_token"])
    )
    return str((await answer.json())["url"].split("token=")[1])


async def subscribed(client: Client, table: dict[str, Any], token: str, service: PushService
                     ) -> str:  # fmt: skip
    """A player's page subscribing: the table's key, the browser's subscription, handed over."""
    path = f"/api/tables/{table['id']}/push"
    key = (await (await client.get(path, headers=bearer(token))).json())["public_key"]
    sub_id, subscription = service.subscribe(key)
    answer = await client.put(path, json=subscription, headers=bearer(token))
    assert answer.status == 200, await answer.text()
    return sub_id


def character(cid: str, side: str) -> dict[str, Any]:
    return {"type": "join", "character": {"id": cid, "name": cid.title(), "side": side,
                                          "dex": 0, "movement": 0}}  # fmt: skip


async def test_a_players_alerts_are_pushed_signed_and_encrypted_to_them_alone(
    pushing: tuple[Client, PushService],
) -> None:
    client, service = pushing
    table = await new_table(client, "megatraveller-rcs")
    for cid, side in (("jena", "crew"), ("guard", "corp")):
        await send(client, table, character(cid, side))
    jena_token = await player(client, table, "jena")
    jena = service.subscriptions[await subscribed(client, table, jena_token, service)]
    await player(client, table, "guard")  # the Guard's player has a page, not subscribed
    await send(client, table, {"type": "roll_initiative", "source": "gm"})
    for cid, dice in (("jena", [1, 1]), ("guard", [3, 3])):
        await send(client, table, {"type": "enter_roll", "character": cid, "dice": dice,
                                   "source": "gm"})  # fmt: skip
    await eventually(lambda: len(jena.messages) == 2, lambda: f"pushed {jena.messages}")
    assert [(m["title"], m["body"]) for m in jena.messages] == [
        ("Roll your die", "Jena"),
        ("Your turn", "Jena"),
    ]
    assert not service.refused, service.refused  # each signed by the table's key


async def test_a_subscription_ends_with_its_grant_and_when_its_browser_lets_it_go(
    pushing: tuple[Client, PushService],
) -> None:
    client, service = pushing
    table = await new_table(client, "megatraveller-rcs")
    await send(client, table, character("jena", "crew"))
    token = await player(client, table, "jena")
    first = service.subscriptions[await subscribed(client, table, token, service)]
    second = service.subscriptions[await subscribed(client, table, token, service)]
    second.gone = 410
    seize = client.app[SEIZE]
    await send(client, table, {"type": "roll_initiative", "source": "gm"})
    await eventually(lambda: first.messages, "nothing pushed")

    async def kept() -> dict[str, Any]:
        setting = await seize.store.setting(table["id"], SUBSCRIBED)
        return dict(json.loads(setting or "{}"))

    grant = digest(token).hex()
    await eventually_async(
        lambda: _one_left(kept), "the subscription its browser let go (410) was kept"
    )
    await seize.revoke_one(table["id"], digest(token))
    await send(client, table, {"type": "enter_roll", "character": "jena", "dice": [1, 1],
                               "source": "gm"})  # fmt: skip
    await eventually_async(
        lambda: _without(kept, grant), "the revoked grant's subscriptions were kept"
    )
    assert len(first.messages) == 1, "nothing is pushed to a revoked grant"


async def _one_left(kept: Any) -> bool:
    grants = await kept()
    return [len(g["subscriptions"]) for g in grants.values()] == [1]


async def _without(kept: Any, grant: str) -> bool:
    return grant not in await kept()


async def test_only_a_players_page_subscribes_a_bad_subscription_is_refused_and_the_gm_counts(
    pushing: tuple[Client, PushService],
) -> None:
    client, service = pushing
    table = await new_table(client, "awareness")
    path = f"/api/tables/{table['id']}/push"
    answer = await client.get(path, headers=bearer(table["overlay_token"]))
    assert answer.status == 403 and (await answer.json())["rule"] == "roles"
    await send(client, table, {"type": "join", "sheet": {"id": "kid", "name": "Kid",
                               "perception": 5, "stealth": 5, "coordination": 5}})  # fmt: skip
    token = await player(client, table, "kid")
    _, good = service.subscribe((await (await client.get(path, headers=bearer(token))).json())[
        "public_key"])  # fmt: skip
    for bad, field in (
        ({**good, "endpoint": "ftp://push.example/x"}, "endpoint"),
        ({**good, "keys": {"p256dh": "AAAA", "auth": good["keys"]["auth"]}}, "keys"),
        ({"endpoint": good["endpoint"]}, "keys"),
    ):
        answer = await client.put(path, json=bad, headers=bearer(token))
        assert (answer.status, (await answer.json())["field"]) == (422, field)
    assert await client.app[SEIZE].store.setting(table["id"], SUBSCRIBED) is None
    answer = await client.put(path, json=good, headers=bearer(token))
    counted = await client.get(path, headers=bearer(table["gm_token"]))
    assert (await counted.json()) == {"subscribed": {"kid": 1}}, "the GM sees who is reached"
