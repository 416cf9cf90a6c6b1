"""The demo's smart dice roll a player's 2D6 when the RCS table awaits it, once a round, and
never roll over a roll the GM took back (as the tray does not, test_demo_tray.py): the GM who
undoes a roll means to type it, and a player's die at a real table does not roll itself again
because the GM pressed a button. The next round asks again, and they roll."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from tests.server.conftest import Client, send
from tests.waiting import eventually

from .test_demo_devices import demo_tables, until

pytestmark = pytest.mark.sqlite_only


async def test_the_demo_dice_do_not_roll_a_roll_the_gm_took_back_over(
    client: Client, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Jena's roll is the only one awaited (the GM typed the others before the devices came):
    her dice roll it; the GM takes it back; the hands look at the table three times more, and
    her dice are never thrown again: her roll waits for the GM."""
    _, dice, devices = await demo_tables(client)
    table = {"id": dice.id, "gm_token": devices.dice[1]}
    for cid in ("tomas", "guard", "sarge"):
        entered = {"type": "enter_roll", "character": cid, "dice": [3, 3], "source": "gm"}
        assert (await send(client, table, entered))[0] == 200
    smart = devices.smart_dice
    assert smart is not None
    thrown: list[str] = []
    looks: list[dict[str, Any]] = []
    roll, look = smart.roll, devices.hands.looks

    def throwing(who: str) -> None:
        thrown.append(who)
        roll(who)

    def looking(view: dict[str, Any]) -> None:
        looks.append(view)
        look(view)

    monkeypatch.setattr(smart, "roll", throwing)
    monkeypatch.setattr(devices.hands, "looks", looking)
    stop = asyncio.Event()
    running = asyncio.create_task(devices.run(stop))
    try:
        await until(lambda: dice.table.state.phase == "round")  # her dice rolled her 2D6
        assert thrown.count("jena") == 1
        assert (await send(client, table, {"type": "undo"}))[0] == 200
        assert dice.table.state.phase == "rolling"
        taken_back = len(looks)
        await eventually(lambda: len(looks) >= taken_back + 3, "the hands stopped looking")
        assert thrown.count("jena") == 1 and dice.table.state.phase == "rolling"
    finally:
        stop.set()
        await running
