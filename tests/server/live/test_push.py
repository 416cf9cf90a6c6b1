"""Web Push (server/live/push.py) against a push service on loopback (``push_service.py``, from
RFCs 8030, 8291 and 8292) that checks each message's VAPID signature and decrypts it with the
subscription's keys, as a browser would: a player's new alerts reach their subscription, the
table's key signs them, and a subscription ends with its grant or when its browser lets it go."""

from __future__ import annotations

import asyncio
import json
import logging
from collections.abc import Callable
from typing import Any

import pytest

from server.http.context import SEIZE
from server.live.push import GIVE_UP, SUBSCRIBED, reached
from server.tables.access import digest
from tests.server.conftest import Client, MakeClient, bearer, new_table, send
from tests.waiting import eventually, eventually_async

from .push_service import LOOPBACK, PushService


@pytest.fixture
async def pushing(aiohttp_server: Any, make_client: MakeClient) -> tuple[Client, PushService]:
    service = PushService()
    server = await aiohttp_server(service.app())
    service.base = str(server.make_url("")).rstrip("/")
    # The stand-in is on loopback, which no player's endpoint may reach unless allowed.
    return await make_client(outbound_allowed=[LOOPBACK]), service


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
        lambda: _one_left(kept), "the subscription its browser let go (410) is still pushed to"
    )
    assert not second.messages, "a subscription its browser let go is not pushed to"
    answer = await client.get(f"/api/tables/{table['id']}/push", headers=bearer(table["gm_token"]))
    assert (await answer.json()) == {"subscribed": {"jena": 1}}, "the GM counts who is reached"
    await seize.revoke_one(table["id"], digest(token))
    await send(client, table, {"type": "enter_roll", "character": "jena", "dice": [1, 1],
                               "source": "gm"})  # fmt: skip
    await eventually_async(
        lambda: _without(kept, grant), "the revoked grant's subscriptions were kept"
    )
    assert len(first.messages) == 1, "nothing is pushed to a revoked grant"


async def _one_left(kept: Any) -> bool:
    """One subscription still pushed to; the retired one kept beside it, so that the count a
    player reads never says how an endpoint answered."""
    grants = await kept()
    return [len(reached(g)) for g in grants.values()] == [1] and [
        len(g["subscriptions"]) for g in grants.values()
    ] == [2]


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


async def test_an_endpoint_on_this_host_or_its_network_is_refused(
    pushing: tuple[Client, PushService], make_client: MakeClient
) -> None:
    """On a server that allows no private address (the default), a player's endpoint aimed
    at its own host (its admin routes, its Redis, the push stand-in itself) or its network is
    refused when handed over, naming the field, and nothing is kept."""
    _, service = pushing
    client = await make_client()
    table = await new_table(client, "megatraveller-rcs")
    await send(client, table, character("jena", "crew"))
    token = await player(client, table, "jena")
    _, good = service.subscribe(await _key(client, table, token))
    redis = service.base.replace(service.base.rsplit(":", 1)[1], "6379")
    for endpoint in (
        f"{service.base}/push/x",
        f"{service.base.replace('127.0.0.1', 'localhost')}/push/x",
        f"{service.base.replace('http:', 'https:')}/admin/shutdown?x=1",
        f"{redis}/",
        "https://169.254.169.254/latest/meta-data/",
        "https://10.0.0.1:6379/",
        "http://localhost.attacker.example/",
        f"http://localhost@{service.base.split('//')[1]}/push/x",
    ):
        answer = await client.put(
            f"/api/tables/{table['id']}/push", json={**good, "endpoint": endpoint},
            headers=bearer(token),
        )  # fmt: skip
        refused = await answer.json()
        assert (answer.status, refused["field"]) == (422, "endpoint"), (endpoint, refused)
    assert await client.app[SEIZE].store.setting(table["id"], SUBSCRIBED) is None


async def test_an_endpoint_that_never_answers_holds_up_no_one_else(
    pushing: tuple[Client, PushService],
) -> None:
    """Jena's push service takes the push in and never answers; the Guard's player, pushed
    after her, is pushed all the same while hers hangs."""
    client, service = pushing
    table = await new_table(client, "megatraveller-rcs")
    for cid, side in (("jena", "crew"), ("guard", "corp")):
        await send(client, table, character(cid, side))
    jena = service.subscriptions[
        await subscribed(client, table, await player(client, table, "jena"), service)
    ]
    jena.held = asyncio.Event()
    guard = service.subscriptions[
        await subscribed(client, table, await player(client, table, "guard"), service)
    ]
    try:
        await send(client, table, {"type": "roll_initiative", "source": "gm"})
        await eventually(lambda: jena.tried == 1, "Jena's push service was never reached")
        await eventually(lambda: guard.messages, "the Guard's push waited on Jena's")
        assert not jena.messages and not jena.held.is_set()
    finally:
        jena.held.set()


async def test_a_failing_push_service_is_logged_once_and_given_up_unseen_by_the_player(
    pushing: tuple[Client, PushService], caplog: pytest.LogCaptureFixture
) -> None:
    """A push service that answers 500 every time: one line in the log (no traceback) however
    often it fails, and after ``GIVE_UP`` failures running the subscription is no longer
    pushed to; what the player reads of their subscriptions does not change."""
    client, service = pushing
    table = await new_table(client, "megatraveller-rcs")
    await send(client, table, character("jena", "crew"))
    token = await player(client, table, "jena")
    failing = service.subscriptions[await subscribed(client, table, token, service)]
    failing.failing = 500
    seize = client.app[SEIZE]
    caplog.set_level(logging.INFO, logger="seize")
    rounds = 0
    while failing.tried < GIVE_UP:
        rounds += 1
        assert rounds <= GIVE_UP, "a round of the table gives Jena no alert to push"
        tried = failing.tried
        await send(client, table, {"type": "roll_initiative", "source": "gm"})
        await send(client, table, {"type": "enter_roll", "character": "jena", "dice": [3, 3],
                                   "source": "gm"})  # fmt: skip
        # her die, her turn: the last round's turn fails the fifth time
        await eventually(_tried(failing, min(tried + 2, GIVE_UP)), "Jena's alerts were not pushed")
        await send(client, table, {"type": "end_turn", "character": "jena"})
    grants = json.loads(await seize.store.setting(table["id"], SUBSCRIBED) or "{}")
    await eventually_async(
        lambda: _retired(seize, table["id"]), "the failing subscription is still pushed to"
    )
    tried = failing.tried
    await send(client, table, {"type": "roll_initiative", "source": "gm"})
    answer = await client.put(f"/api/tables/{table['id']}/push",
                              json=_other(service, await _key(client, table, token)),
                              headers=bearer(token))  # fmt: skip
    assert (await answer.json()) == {"subscriptions": 2}, "the retired one counts for the player"
    lines = [r for r in caplog.records if r.name == "seize" and "push" in r.getMessage()]
    assert [r.getMessage() for r in lines] == [
        "a push service is failing",
        "a push subscription was retired: its push service failed 5 times running",
    ], lines
    assert not any(r.exc_info for r in caplog.records if r.name == "seize")
    assert failing.tried == tried, "a retired subscription is pushed to"
    assert grants


def _tried(sub: Any, times: int) -> Callable[[], bool]:
    return lambda: bool(sub.tried >= times)


async def _key(client: Client, table: dict[str, Any], token: str) -> str:
    answer = await client.get(f"/api/tables/{table['id']}/push", headers=bearer(token))
    return str((await answer.json())["public_key"])


def _other(service: PushService, key: str) -> dict[str, Any]:
    return service.subscribe(key)[1]


async def _retired(seize: Any, table_id: str) -> bool:
    grants = json.loads(await seize.store.setting(table_id, SUBSCRIBED) or "{}")
    return [len(reached(g)) for g in grants.values()] == [0]
