"""A VTT's roll answered by the dice tray, end to end: a dice request on the table's WebSocket
(as the Foundry module sends it) → the die registry → the tray adapter, reading it at the roll →
a simulated tray on a pseudo-terminal, through pyserial → the answer back on the socket. A
request whose owner has a die of their own waits for that die, and a roll no request asks for
goes on to initiative, or is dropped, as before."""

from __future__ import annotations

from pathlib import Path

import pytest

from adapters.link import awaited
from tests.server.conftest import Client, bearer
from tests.server.http.test_socket_commands import following
from tests.waiting import eventually

from .test_dice_requests import ask, next_of
from .test_dice_station import register, registry_of, view
from .test_tray import rcs_awaiting_rolls, tray_at


@pytest.mark.parametrize("inside", [False, True], ids=["over the network", "in the server"])
async def test_a_d20_in_the_tray_answers_the_request_of_an_owner_with_no_die(
    client: Client, tmp_path: Path, inside: bool
) -> None:
    table = await rcs_awaiting_rolls(client)  # jena's and the guard's 2D6 awaited
    async with (
        tray_at(client, table, tmp_path / "seize-tray", inside=inside) as (tray, adapter),
        following(client, table, table["gm_token"]) as ws,
    ):
        asked = await ask(ws, "d1", owner="jena", sides=20)
        assert asked["claim"] is True  # no die of her own: the tray may answer
        (rid,) = (await registry_of(client, table))["requests"]
        tray.roll(20, 2, 17)  # two d20s where one is asked: neither the request nor initiative
        tray.roll(6, 3, 5)  # the 2D6 the table awaits: initiative, as before
        await eventually(lambda: adapter.status.rolls_sent == 1)
        assert adapter.status.rolls_unwanted == 1 and adapter.status.answered == 0
        tray.roll(20, 17)
        rolled = await next_of(ws, "d1")
        assert rolled == {"type": "dice-rolled", "id": "d1", "faces": [17],
                          "dice": ["tray:tray1"]}  # fmt: skip
        assert (adapter.status.answered, adapter.status.rolls_sent) == (1, 1)
    kept = await registry_of(client, table)
    assert (kept["requests"], kept["answers"], kept["claims"]) == ({}, {}, [])
    assert awaited(await view(client, table), "roll") == ["guard"]  # the d20 entered nothing
    listed = await client.get(
        f"/api/tables/{table['id']}/devices", headers=bearer(table["gm_token"])
    )
    report = (await listed.json())["devices"]["tray"]
    assert (report["answered"], report["rolls"], report["unwanted"]) == (1, 1, 1)
    assert report["last_answer"] == {"request": rid, "owner": "jena", "faces": [17]}


async def test_a_request_whose_owner_has_a_die_waits_for_that_die(
    client: Client, tmp_path: Path
) -> None:
    """Jena's d20 is registered: her request is her die's. The tray answers the oldest of the
    others, one roll each, and a d20 with only hers open is a roll nobody asked for."""
    table = await rcs_awaiting_rolls(client)
    await register(client, table, {"dice": {"pixels-000020a1": {"owner": "jena"}}})
    async with (
        tray_at(client, table, tmp_path / "seize-tray") as (tray, adapter),
        following(client, table, table["gm_token"]) as ws,
    ):
        assert (await ask(ws, "d1", owner="jena", sides=20))["claim"] is False
        await ask(ws, "d2", owner="guard", sides=20)
        await ask(ws, "d3", owner="gm", sides=20)
        # Looked at every few seconds, for the report: jena's is not the tray's to answer.
        await eventually(lambda: adapter.status.requests == 2)
        tray.roll(20, 11)
        assert (await next_of(ws, "d2"))["faces"] == [11]  # the guard's: asked before the GM's
        tray.roll(20, 4)
        assert (await next_of(ws, "d3"))["faces"] == [4]
        tray.roll(20, 19)
        await eventually(lambda: adapter.status.rolls_unwanted == 1)
        assert adapter.status.answered == 2 and adapter.status.rolls_sent == 0
        left = (await registry_of(client, table))["requests"]
        assert [one["owner"] for one in left.values()] == ["jena"]
