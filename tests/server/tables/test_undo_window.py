"""A long game in memory: a table holds its state, a bounded undo window and its latest events;
the rest is in the store, read back when an undo reaches behind the window or a subscriber
catches up from long ago. Against a real server on loopback and each real database."""

from __future__ import annotations

import json
from typing import Any

import pytest

from server.http.context import SEIZE
from server.run.app import make_app
from server.settings import Settings
from server.tables.games import LazyLog
from tests.server.conftest import Client, Database, bearer, new_table, send
from tests.server.process import UNLIMITED

HERO = {"type": "join", "member": {"id": "h1", "name": "Hero", "kind": "hero"}}
HIDE = {"type": "hide", "participant": "h1"}
REVEAL = {"type": "reveal", "participant": "h1"}
PAIRS = 200
LAST = 1 + 2 * PAIRS
"""The join, then the hero hidden at every even sequence and revealed at every odd one."""


@pytest.fixture
def unlimited(database: Database) -> Settings:
    """A fresh database, and no limit on one token's commands: a GM plays 400 in a row."""
    return Settings(db=database(), port=0, **UNLIMITED)


@pytest.fixture
async def client(aiohttp_client: Any, unlimited: Settings) -> Client:
    made: Client = await aiohttp_client(make_app(unlimited))
    return made


async def long_game(client: Client) -> dict[str, Any]:
    table = await new_table(client, "four-color")
    assert (await send(client, table, HERO))[0] == 200
    for _ in range(PAIRS):
        assert (await send(client, table, HIDE))[0] == 200
        assert (await send(client, table, REVEAL))[0] == 200
    return table


def held_log(client: Client, table: dict[str, Any]) -> LazyLog:
    game = client.app[SEIZE].tables.held(table["id"])
    assert game is not None and isinstance(game.table.log, LazyLog)
    return game.table.log


def hidden(view: dict[str, Any]) -> list[str]:
    found: list[str] = view["hidden"]
    return found


async def gm_view(client: Client, table: dict[str, Any]) -> dict[str, Any]:
    read = await client.get(f"/api/tables/{table['id']}", headers=bearer(table["gm_token"]))
    body: dict[str, Any] = await read.json()
    return body


async def test_a_long_game_holds_a_bounded_window_and_still_serves_every_event(
    client: Client,
) -> None:
    table = await long_game(client)
    log = held_log(client, table)
    assert len(log) == LAST
    assert log.first > 0 and len(log) - log.first <= 192  # the window: 3 checkpoints of 64
    # The events route and a WebSocket catching up from the first event read the rest back.
    gm = bearer(table["gm_token"])
    read = await client.get(f"/api/tables/{table['id']}/events?after=0", headers=gm)
    events = (await read.json())["events"]
    assert [e["seq"] for e in events] == list(range(1, LAST + 1))
    assert [e["event"]["type"] for e in events[1:3]] == ["hidden", "revealed"]
    assert held_log(client, table).first > 0  # let go again once read
    async with client.ws_connect(f"/api/tables/{table['id']}/ws?after=0", headers=gm) as ws:
        seqs = []
        while (frame := json.loads((await ws.receive()).data))["type"] == "event":
            seqs.append(frame["seq"])
        assert seqs == list(range(1, LAST + 1)) and frame["seq"] == LAST
        assert held_log(client, table).first > 0  # and lets them go again


async def test_undo_reaches_behind_the_window_one_step_at_a_time(client: Client) -> None:
    """251 undos, more than the window holds: each takes back the last event that stands, in
    order, whether the window reached it or the store had it."""
    table = await long_game(client)
    for n in range(251):
        status, answer = await send(client, table, {"type": "undo"})
        assert status == 200 and answer["events"] == [{"type": "undone", "undoes": LAST - n}]
    # Standing now: the join and events 2 to 150; the last, 150, hid the hero.
    assert hidden((await gm_view(client, table))["view"]) == ["h1"]
    assert (await send(client, table, REVEAL))[0] == 200
    assert hidden((await gm_view(client, table))["view"]) == []


async def test_a_restarted_server_undoes_a_long_game_from_its_snapshot_and_the_store(
    aiohttp_client: Any, unlimited: Settings
) -> None:
    first: Client = await aiohttp_client(make_app(unlimited))
    table = await long_game(first)
    await first.close()
    second: Client = await aiohttp_client(make_app(unlimited))
    assert (await gm_view(second, table))["seq"] == LAST
    log = held_log(second, table)
    assert log.first > 0  # loaded from its snapshot, with the latest events only
    status, answer = await send(second, table, {"type": "undo"})
    assert status == 200 and answer["events"] == [{"type": "undone", "undoes": LAST}]
    assert hidden((await gm_view(second, table))["view"]) == ["h1"]  # event 400 hid him
    assert held_log(second, table).first > 0  # the whole log read for it, then let go


async def test_a_table_whose_undos_since_its_snapshot_reach_behind_it_loads(
    aiohttp_client: Any, unlimited: Settings
) -> None:
    """Its snapshot is taken at event 400 (one every 100); the undos after it take back event
    401, then 400 and further, behind the snapshot: a restarted server folds them in as it loads
    the table, reading the older events back from the store, and the table serves as before."""
    first: Client = await aiohttp_client(make_app(unlimited))
    table = await long_game(first)
    for _ in range(10):
        assert (await send(first, table, {"type": "undo"}))[0] == 200
    before = await gm_view(first, table)
    await first.close()
    second: Client = await aiohttp_client(make_app(unlimited))
    assert await gm_view(second, table) == before
    status, answer = await send(second, table, {"type": "undo"})
    assert status == 200 and answer["events"] == [{"type": "undone", "undoes": LAST - 10}]
    assert held_log(second, table).first > 0


async def test_a_restarted_server_takes_back_a_step_and_its_reveal_in_one_undo(
    aiohttp_client: Any, database: Database
) -> None:
    """The shared rulings, "Undo and reveals": the villain's Panel revealed it; a server that
    loads the table from a snapshot taken just after knows no step before it, reads the log
    back, and takes back the Panel and the reveal together."""
    settings = Settings(db=database(), port=0, snapshot_every=1, **UNLIMITED)
    first: Client = await aiohttp_client(make_app(settings))
    table = await new_table(first, "four-color")
    villain = {"id": "boss", "name": "Doctor Null", "kind": "villain"}
    for command in (
        HERO,
        {"type": "join", "member": villain, "hidden": True},
        {"type": "deal", "source": "gm"},
        {"type": "deal_card", "card": "2S", "source": "gm"},
        {"type": "deal_card", "card": "KS", "source": "gm"},
    ):
        assert (await send(first, table, command))[0] == 200
    status, answer = await send(first, table, {"type": "next_panel"})
    assert [e["type"] for e in answer["events"]] == ["revealed", "panel_played"]
    await first.close()
    second: Client = await aiohttp_client(make_app(settings))
    status, answer = await send(second, table, {"type": "undo"})
    assert status == 200
    assert answer["events"] == [{"type": "undone", "undoes": 7}, {"type": "undone", "undoes": 6}]
    assert hidden((await gm_view(second, table))["view"]) == ["boss"]
