"""A VTT's roll answered by the table's dice, end to end: a dice request on the table's
WebSocket (as the Foundry module sends it) → the die registry → the die station → simulated
Pixels rolled → the answer back on the socket; initiative still goes to the engine."""

from __future__ import annotations

from typing import Any

from aiohttp import ClientWebSocketResponse

from adapters import pixels_protocol as px
from adapters.link import awaited
from adapters.simulators.dice import Air, SimulatedPixel
from tests.server.conftest import Client
from tests.server.http.test_socket_commands import following
from tests.waiting import eventually, within

from .test_dice_station import die_id, register, registry_of, station_for, view
from .test_tray import rcs_awaiting_rolls


async def ask(ws: ClientWebSocketResponse, ident: str, **request: Any) -> dict[str, Any]:
    """Send a dice request; its first reply (asked, or refused)."""
    await ws.send_json({"type": "dice", "id": ident, **request})
    return await next_of(ws, ident)


async def next_of(ws: ClientWebSocketResponse, ident: str) -> dict[str, Any]:
    """The next message about the request ``ident`` (views and events pass by)."""
    while True:
        message: dict[str, Any] = await within(ws.receive_json(), f"nothing more on {ident}")
        if message.get("id") == ident:
            return message


async def test_a_players_d20_with_advantage_is_two_rolls_of_their_die_not_initiative(
    client: Client,
) -> None:
    table = await rcs_awaiting_rolls(client)  # jena's and the guard's 2D6 awaited
    air = Air()
    d20 = air.add(SimulatedPixel.make(0x20A1, "Jena's d20", px.DieType.D20))
    d6s = [air.add(SimulatedPixel.make(0x60A1 + n, f"Jena's d6 {n}")) for n in range(2)]
    guard_d20 = air.add(SimulatedPixel.make(0x20B1, "Guard's d20", px.DieType.D20))
    await register(client, table, {"window": 0.2, "dice": {
        die_id(d20): {"owner": "jena", "name": "Jena's d20"},
        **{die_id(d): {"owner": "jena"} for d in d6s},
        die_id(guard_d20): {"owner": "guard"},
    }})  # fmt: skip
    async with (
        station_for(client, table, air, partial_wait=30) as station,
        following(client, table, table["gm_token"]) as ws,
    ):
        asked = await ask(ws, "d1", owner="jena", sides=20, count=2)
        assert asked == {"type": "dice-asked", "id": "d1", "claim": False,
                         "dice": ["Jena's d20", *map(die_id, d6s)]}  # her dice, named  # fmt: skip
        await eventually(lambda: d20.blinks == 1)  # the die to roll
        assert guard_d20.blinks == 0
        guard_d20.roll(20)  # another owner's die never answers jena's request
        await eventually(
            lambda: any(n.startswith("guard rolled 20") for n in station.status.notices)
        )
        d20.roll(17)
        d20.roll(4)  # one die, rolled twice: advantage
        rolled = await next_of(ws, "d1")
        assert rolled == {"type": "dice-rolled", "id": "d1", "faces": [17, 4],
                          "dice": [die_id(d20)] * 2}  # fmt: skip
        assert station.status.answered == 1 and station.status.rolls == 0
        assert (await registry_of(client, table))["requests"] == {}  # taken when delivered
        for die, face in zip(d6s, (3, 5), strict=True):  # initiative goes on as before
            die.roll(face)
        await eventually(lambda: station.status.rolls == 1)
        last = station.status.last
        assert last is not None and (last["who"], last["faces"]) == ("jena", [3, 5])
        assert awaited(await view(client, table), "roll") == ["guard"]  # his d20 entered nothing


async def test_an_owner_with_no_die_claims_the_first_unowned_die_rolled(client: Client) -> None:
    table = await rcs_awaiting_rolls(client)
    air = Air()
    stray = air.add(SimulatedPixel.make(0x20C1, "A d20", px.DieType.D20))
    async with (
        station_for(client, table, air) as station,
        following(client, table, table["gm_token"]) as ws,
    ):
        asked = await ask(ws, "d2", owner="guard", sides=20)
        assert asked["dice"] == [] and asked["claim"] is True
        assert (await registry_of(client, table))["claims"] == ["guard"]
        stray.roll(11)
        rolled = await next_of(ws, "d2")
        assert rolled["faces"] == [11] and rolled["dice"] == [die_id(stray)]
        kept = await registry_of(client, table)
        assert kept["dice"][die_id(stray)]["owner"] == "guard" and kept["claims"] == []
        assert station.status.answered == 1


async def test_a_request_nobody_answers_times_out_and_leaves_nothing_behind(
    client: Client,
) -> None:
    table = await rcs_awaiting_rolls(client)
    async with following(client, table, table["gm_token"]) as ws:
        await ask(ws, "d3", owner="jena", sides=20, wait=1)
        assert (await registry_of(client, table))["claims"] == ["jena"]  # no die: a claim
        assert await next_of(ws, "d3") == {"type": "dice-timed-out", "id": "d3"}
        kept = await registry_of(client, table)
        assert (kept["requests"], kept["answers"], kept["claims"]) == ({}, {}, [])
