"""seize serve --demo's simulated devices deal the Four Color Hack table and roll the RCS table
through the real adapters, once the tables wait for them."""

from __future__ import annotations

import asyncio

from server.context import SEIZE
from server.demo_devices import DemoDevices, available
from server.demo_table import ready, ready_rcs

from .conftest import Client


async def test_the_demo_devices_deal_and_roll_what_the_tables_await(client: Client) -> None:
    assert available()
    seize = client.app[SEIZE]
    cards, card_tokens = await ready(seize, devices=True)
    dice, dice_tokens = await ready_rcs(seize, devices=True)
    assert cards.table.state.phase == "dealing" and dice.table.state.phase == "rolling"
    devices = DemoDevices(
        str(client.make_url("")).rstrip("/"),
        (cards.id, card_tokens["gm"]),
        (dice.id, dice_tokens["gm"]),
    )
    stop = asyncio.Event()
    running = asyncio.create_task(devices.run(stop))
    try:
        deadline = asyncio.get_running_loop().time() + 60
        while cards.table.state.phase == "dealing" or dice.table.state.phase == "rolling":
            assert asyncio.get_running_loop().time() < deadline, "the devices fell silent"
            await asyncio.sleep(0.2)
    finally:
        stop.set()
        await running
    assert cards.table.state.phase == "panels" and len(cards.table.state.holdings) == 11
    assert dice.table.state.phase == "round"
    assert all(len(card.dice) == 2 for card in dice.table.state.cards.values())
