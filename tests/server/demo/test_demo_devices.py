"""seize serve --demo's simulated devices deal the Four Color Hack table and roll the RCS table
through the real adapters, once the tables wait for them; a table that refuses or fails stops
neither the other table's devices nor its own once it answers again."""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import random
import tempfile
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import pytest
from aiohttp import web

from adapters.simulators.dice import roll_any
from server.demo.devices import DemoDevices, available
from server.demo.tables import ready, ready_rcs
from server.http.context import SEIZE
from server.run.app import make_app
from server.settings import Settings
from server.tables.games import Game
from tests.adapters.nfc_driver import Senses
from tests.server.conftest import Client
from tests.waiting import eventually, within

pytestmark = pytest.mark.sqlite_only


async def until(condition: Callable[[], bool]) -> None:
    await eventually(condition, "the devices fell silent")


async def demo_tables(client: Client) -> tuple[Game, Game, DemoDevices]:
    """The two demo tables, awaiting their devices, and the devices (not yet running)."""
    seize = client.app[SEIZE]
    cards, card_tokens = await ready(seize, devices=True)
    dice, dice_tokens = await ready_rcs(seize, devices=True)
    assert cards.table.state.phase == "dealing" and dice.table.state.phase == "rolling"
    devices = DemoDevices(
        str(client.make_url("")).rstrip("/"),
        (cards.id, card_tokens["gm"]),
        (dice.id, dice_tokens["gm"]),
    )
    return cards, dice, devices


@pytest.fixture
def temporary(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The folder the devices' temporary files go to, to see that they leave nothing."""
    folder = tmp_path / "temporary"
    folder.mkdir()
    monkeypatch.setattr(tempfile, "tempdir", str(folder))
    return folder


def dealt_and_rolled(cards: Game, dice: Game) -> None:
    assert cards.table.state.phase == "panels" and len(cards.table.state.holdings) == 11
    assert dice.table.state.phase == "round"
    assert all(len(card.dice) == 2 for card in dice.table.state.cards.values())


async def test_the_demo_devices_deal_and_roll_what_the_tables_await(client: Client) -> None:
    """About twenty seconds: the demo's hands move at a person's pace (``PAUSE`` between
    moves, each card left on the reader half as long), through eleven cards and the rolls,
    through the real reader, which waits up to a second in each sense cycle."""
    assert available()
    cards, dice, devices = await demo_tables(client)
    stop = asyncio.Event()
    running = asyncio.create_task(devices.run(stop))
    try:
        await until(
            lambda: cards.table.state.phase != "dealing" and dice.table.state.phase != "rolling"
        )
    finally:
        stop.set()
        await running
    dealt_and_rolled(cards, dice)


@pytest.mark.parametrize("status", [500, 403])
async def test_a_table_that_fails_or_refuses_stops_no_device(
    aiohttp_client: Callable[[web.Application], Awaitable[Client]],
    tmp_path: Path,
    caplog: pytest.LogCaptureFixture,
    status: int,
) -> None:
    """The card table answers every request with a 500 (or refuses it, as for a revoked
    token): the dice table is still rolled, the trouble is logged once, and when the card
    table answers again its cards are dealt. About twenty seconds, for the reason the test
    above takes them: the demo's hands move at a person's pace."""
    failing: set[str] = set()

    @web.middleware
    async def fail(request: web.Request, handler: Any) -> web.StreamResponse:
        if request.match_info.get("table_id") in failing:
            body = json.dumps({"type": "failed", "message": "no"})
            return web.Response(status=status, text=body, content_type="application/json")
        answer: web.StreamResponse = await handler(request)
        return answer

    app = make_app(Settings(db=tmp_path / "seize.db", port=0))
    app.middlewares.append(fail)
    client = await aiohttp_client(app)
    cards, dice, devices = await demo_tables(client)
    failing.add(cards.id)
    stop = asyncio.Event()
    caplog.set_level(logging.INFO, "seize.demo")
    running = asyncio.create_task(devices.run(stop))
    try:
        await until(lambda: dice.table.state.phase != "rolling")
        assert cards.table.state.phase == "dealing" and not running.done()
        assert devices.trouble == {cards.id: f"the table answered {status}"}
        failing.clear()
        await until(lambda: cards.table.state.phase != "dealing")
    finally:
        stop.set()
        await running
    dealt_and_rolled(cards, dice)
    said = [(r.getMessage(), getattr(r, "table", None)) for r in caplog.records]
    assert said.count(("demo table not answering", cards.id)) == 1
    assert ("demo table answers again", cards.id) in said


async def test_the_demo_devices_stop_within_the_grace_and_leave_nothing_behind(
    client: Client, temporary: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``seize serve`` gives its devices a second to stop before it cancels them; the demo's
    stop within it, and take their folder (the tray's link to its terminal) with them. Within
    it: stopped while the reader's thread waits on its driver, they end of themselves (not
    cancelled), the reader beginning no other sense cycle."""
    senses = Senses(monkeypatch)
    _, dice, devices = await demo_tables(client)
    stop = asyncio.Event()
    running = asyncio.create_task(devices.run(stop))
    await until(lambda: dice.table.state.phase != "rolling")
    senses.hold(until_stopped=True)
    await until(senses.held)  # the reader's thread is waiting on its driver
    stop.set()
    await within(running, "the devices never stopped")  # ended of itself, not cancelled
    assert senses.at_stop and senses.at_stop[0] == senses.begun
    assert list(temporary.iterdir()) == []


async def test_cancelled_demo_devices_leave_nothing_behind(client: Client, temporary: Path) -> None:
    *_, devices = await demo_tables(client)
    running = asyncio.create_task(devices.run(asyncio.Event()))
    await until(lambda: any(temporary.iterdir()))
    running.cancel()
    with contextlib.suppress(asyncio.CancelledError):
        await within(running, "the cancelled devices never ended")
    assert list(temporary.iterdir()) == []


async def test_the_players_smart_dice_roll_their_own_initiative_and_say_it_quietly(
    client: Client, caplog: pytest.LogCaptureFixture
) -> None:
    """Jena's Pixels and Tomas's GoDice roll their owners' 2D6 through the die station, which
    names the dice in the events; the tray rolls for the corporate side, who have no dice. A
    die rolled when no roll is awaited is shown to the GM, and logged at debug level only."""
    caplog.set_level(logging.DEBUG, "seize.dice")
    _, dice, devices = await demo_tables(client)
    assert devices.smart_dice is not None
    owned = devices.smart_dice.owned
    stop = asyncio.Event()
    running = asyncio.create_task(devices.run(stop))
    try:
        await until(lambda: dice.table.state.phase == "round")
        status = devices.smart_dice.station.status
        unwanted = status.unwanted
        roll_any(owned["jena"]["pixels-00de0001"], random.Random(1))
        await until(lambda: status.unwanted > unwanted)
    finally:
        stop.set()
        await running
    rolled = {
        event["roll"]["character"]: (event["source"], sorted(event["dice_ids"]))
        for _, text in await client.app[SEIZE].store.events(dice.id)
        if (event := json.loads(text))["type"] == "roll_entered"
    }
    assert rolled == {
        "jena": ("device", ["pixels-00de0001", "pixels-00de0002"]),
        "tomas": ("device", ["godice-DEMO1", "godice-DEMO2"]),
        "guard": ("device", []),
        "sarge": ("device", []),
    }
    said = [r for r in caplog.records if r.name == "seize.dice"]
    assert any("unasked" in getattr(r, "notice", "") for r in said)
    assert [r.getMessage() for r in said if r.levelno > logging.DEBUG] == []
