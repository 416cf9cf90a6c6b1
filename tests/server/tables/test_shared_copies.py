"""Two servers over one database, each with its own copy of a table, and no bus between them:
what a copy that is behind does when a client arrives from the one that is ahead. With
``workers`` above one they know others write (a client's next request may land on either), and
poll the database too; these tests do not wait for that."""

from __future__ import annotations

import asyncio
import json
from typing import Any

from server.run.app import make_app
from server.settings import Settings
from tests.server.conftest import Client, bearer, new_table, send
from tests.server.databases import query

HERO = {"type": "join", "member": {"id": "h1", "name": "Hero", "kind": "hero"}}
VILLAIN = {"type": "join", "member": {"id": "v1", "name": "Villain", "kind": "villain"}}


async def apart(
    aiohttp_client: Any, settings: Settings, *commands: dict[str, Any]
) -> tuple[Client, Client, dict[str, Any]]:
    """Two servers over one database, and a table given ``commands`` through the first, which
    the second then loads: its copy stops there, as nothing tells it of what follows."""
    first: Client = await aiohttp_client(make_app(settings))
    second: Client = await aiohttp_client(make_app(settings))
    table = await new_table(first, "four-color")
    for command in commands:
        assert (await send(first, table, command))[0] == 200
    loaded = await second.get(f"/api/tables/{table['id']}", headers=bearer(table["gm_token"]))
    assert loaded.status == 200
    return first, second, table


async def test_a_subscriber_that_saw_further_elsewhere_is_not_sent_the_past(
    aiohttp_client: Any, settings: Settings
) -> None:
    """It saw event 3 through the first server, which then went away; reconnecting to the second
    (whose copy stopped at 1) with ``?after=3``, it gets the view at 3, then only what is new."""
    first, second, table = await apart(aiohttp_client, settings, HERO)
    url, gm = f"/api/tables/{table['id']}", bearer(table["gm_token"])
    assert (await send(first, table, VILLAIN))[0] == 200
    assert (await send(first, table, {"type": "deal"}))[0] == 200
    async with second.ws_connect(f"{url}/ws?after=3", headers=gm) as ws:
        view = json.loads((await ws.receive()).data)
        assert view["type"] == "view" and view["seq"] == 3
        assert {m["id"] for m in view["view"]["members"]} == {"h1", "v1"}
        status, _ = await send(second, table, {"type": "next_panel"})
        assert status == 200
        news = json.loads((await ws.receive()).data)
        assert news["type"] == "event" and news["seq"] == 4


async def test_a_command_made_against_what_another_server_showed_is_not_stale(
    aiohttp_client: Any, settings: Settings
) -> None:
    """``If-Match: 2`` is the latest version, though the second server's copy stopped at 1: it
    reads what it missed and takes the command, rather than calling the client behind."""
    first, second, table = await apart(aiohttp_client, settings, HERO)
    assert (await send(first, table, VILLAIN))[0] == 200
    status, answer = await send(second, table, {"type": "deal"}, **{"If-Match": "2"})
    assert status == 200 and answer["seq"] == 3
    status, refused = await send(second, table, {"type": "next_panel"}, **{"If-Match": "2"})
    assert status == 409 and refused["seq"] == 3  # and an older one still is


async def test_one_idempotency_key_sent_to_two_servers_at_once_applies_once(
    aiohttp_client: Any, settings: Settings
) -> None:
    """A client retrying on a second server while the first still works on its command: one
    event is stored, and both answers are the one answer."""
    first, second, table = await apart(aiohttp_client, settings)
    answers = await asyncio.gather(
        *(send(server, table, HERO, **{"Idempotency-Key": "once"}) for server in (first, second))
    )
    assert [status for status, _ in answers] == [200, 200]
    assert answers[0][1] == answers[1][1] and answers[0][1]["seq"] == 1
    stored = await query(settings.db, "select seq from events")
    assert stored == [(1,)]


async def test_a_command_refused_on_a_copy_behind_is_decided_on_the_latest(
    aiohttp_client: Any, settings: Settings
) -> None:
    """The deal went through the first server; the second's copy is still in setup, where the
    next Panel is refused. It reads what it missed, and takes the command."""
    workers = settings.model_copy(update={"workers": 2})
    first, second, table = await apart(aiohttp_client, workers, HERO)
    assert (await send(first, table, VILLAIN))[0] == 200
    assert (await send(first, table, {"type": "deal"}))[0] == 200
    status, answer = await send(second, table, {"type": "next_panel"})
    assert status == 200 and answer["seq"] == 4, answer


async def test_a_read_through_another_worker_shows_what_was_written_through_the_first(
    aiohttp_client: Any, settings: Settings
) -> None:
    workers = settings.model_copy(update={"workers": 2})
    first, second, table = await apart(aiohttp_client, workers, HERO)
    assert (await send(first, table, VILLAIN))[0] == 200
    url, gm = f"/api/tables/{table['id']}", bearer(table["gm_token"])
    read = await (await second.get(url, headers=gm)).json()
    assert read["seq"] == 2
    assert {m["id"] for m in read["view"]["members"]} == {"h1", "v1"}
