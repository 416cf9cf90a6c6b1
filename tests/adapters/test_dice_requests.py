"""A VTT's roll answered by the table's dice, end to end: a dice request on the table's
WebSocket (as the Foundry module sends it) → the die registry → the die station → simulated
Pixels rolled → the answer back on the socket; initiative still goes to the engine."""

from __future__ import annotations

import asyncio
import json
import os
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest
from aiohttp import ClientWebSocketResponse

from adapters import godice_protocol as go
from adapters import pixels_protocol as px
from adapters.link import awaited
from adapters.simulators.dice import Air, SimulatedGoDice, SimulatedPixel
from tests.server.conftest import Client, new_table, send
from tests.server.http.test_socket_commands import following
from tests.waiting import JOB_PATIENCE, eventually, eventually_async, within

from .foundry_table import COMBAT, JENA, TableDice, open_for
from .stations import die_id
from .test_dice_station import events, register, registry_of, station_for, view
from .test_tray import rcs_awaiting_rolls

ROOT = Path(__file__).parents[2]


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


def node_command() -> list[str]:
    """Node, with its WebSocket switched on where it is still experimental (Node 20)."""
    node = shutil.which("node")
    if node is None:
        if os.environ.get("SEIZE_REQUIRE_NODE"):
            pytest.fail("Node.js is required here")
        pytest.skip("no node on this machine: the Foundry module needs Node.js 20 or newer")
    probe = subprocess.run([node, "-p", "typeof WebSocket"], capture_output=True, text=True,
                           check=True, timeout=JOB_PATIENCE)  # fmt: skip
    return [node, *(["--experimental-websocket"] if "undefined" in probe.stdout else [])]


async def foundry_rolls(
    client: Client, table: dict[str, Any], formula: str, *user: str
) -> asyncio.subprocess.Process:
    """The Foundry module in the stand-in, linked to this server, rolling ``formula`` as the
    GM, or (with a user) answering that player's request for it as the active GM's client."""
    return await asyncio.create_subprocess_exec(
        *node_command(), str(ROOT / "tests/js/dice-at-the-table.mjs"),
        str(client.make_url("")).rstrip("/"), table["id"], table["gm_token"], formula, *user,
        stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE,
    )  # fmt: skip


async def rolled_in_foundry(process: asyncio.subprocess.Process) -> Any:
    out, err = await within(process.communicate(), "the Foundry module never finished its roll")
    assert process.returncode == 0, err.decode()[-2000:]
    return json.loads(out.decode().strip().splitlines()[-1])


async def requested(client: Client, table: dict[str, Any], owner: str) -> None:
    async def open_for_owner() -> bool:
        return open_for(await registry_of(client, table), owner)

    await eventually_async(open_for_owner, f"no dice request for {owner} was opened")


@pytest.mark.sqlite_only
async def test_foundry_rolls_filled_by_simulated_pixels_through_the_station(
    client: Client,
) -> None:
    """An attack in Foundry filled by the roller's own die: the GM's with advantage, and a
    player's through the active GM's client; neither enters the table's initiative."""
    table = await new_table(client, "megatraveller-rcs")
    for command in COMBAT:
        await send(client, table, command)
    dice = TableDice()
    await register(client, table, dice.registered())
    async with station_for(client, table, dice.air) as station:
        attack = await foundry_rolls(client, table, "2d20kh + 4")
        await requested(client, table, "gm")
        dice.gm.roll(15)
        dice.gm.roll(8)
        rolled = await rolled_in_foundry(attack)
        assert rolled == {"total": 19, "results": [{"result": 15, "active": True},
                                                   {"result": 8, "active": False}]}  # fmt: skip
        players = await foundry_rolls(client, table, "1d20", "p1")
        await requested(client, table, JENA)
        dice.jena.roll(13)
        assert await rolled_in_foundry(players) == {"faces": [13], "dice": [die_id(dice.jena)]}
        assert station.status.answered == 2 and station.status.rolls == 0
    assert [e["type"] for e in await events(client, table)].count("roll_entered") == 2


@pytest.mark.sqlite_only
async def test_a_d100_in_foundry_is_a_tens_die_and_a_d10_read_together(client: Client) -> None:
    """A percentile roll is as many pairs as asked: the GM's Pixels d00 and d10 (00 and 0 make
    100), and Jena's two GoDice d10s, the one the table registered as tens read as tens; a
    tens die alone never fills it."""
    table = await new_table(client, "megatraveller-rcs")
    for command in COMBAT:
        await send(client, table, command)
    air = Air()
    tens = air.add(SimulatedPixel.make(0xD00A, "GM's d00", px.DieType.D00))
    units = air.add(SimulatedPixel.make(0xD10A, "GM's d10", px.DieType.D10))
    jenas = [air.add(SimulatedGoDice.make(tag, go.Shell.D10)) for tag in ("JT", "JU")]
    await register(client, table, {"window": 0.2, "dice": {
        die_id(tens): {"owner": "gm"}, die_id(units): {"owner": "gm"},
        "godice-JT": {"owner": JENA, "tens": True}, "godice-JU": {"owner": JENA},
    }})  # fmt: skip
    shells = dict.fromkeys(("godice-JT", "godice-JU"), go.Shell.D10)
    async with station_for(client, table, air, shells=shells) as station:
        check = await foundry_rolls(client, table, "1d100")
        await requested(client, table, "gm")
        tens.roll(40)
        await eventually(lambda: station.batches.get("gm") is not None)
        units.roll(7)
        assert await rolled_in_foundry(check) == {
            "total": 47,
            "results": [{"result": 47, "active": True}],
        }
        check = await foundry_rolls(client, table, "1d100")
        await requested(client, table, "gm")
        units.roll(10)  # the d10 first: the pair is the same
        tens.roll(100)
        assert (await rolled_in_foundry(check))["total"] == 100
        players = await foundry_rolls(client, table, "1d100", "p1")
        await requested(client, table, JENA)
        jenas[1].roll(10)
        jenas[0].roll(3)
        assert await rolled_in_foundry(players) == {
            "faces": [30],  # the tens die named first
            "dice": ["godice-JT", "godice-JU"],
        }
        assert station.status.answered == 3 and station.status.rolls == 0


async def asked_for(client: Client, table: dict[str, Any], owner: str, sides: int) -> None:
    """Wait until a request for ``owner``'s d``sides`` is open."""

    async def open_for_sides() -> bool:
        requests = (await registry_of(client, table))["requests"].values()
        return any(one["owner"] == owner and one["sides"] == sides for one in requests)

    await eventually_async(open_for_sides, f"no request for {owner}'s d{sides} was opened")


PIXELS_ROLLED = (  # each Pixels die type, the term it fills, and what it shows
    (px.DieType.D4, 4, 3), (px.DieType.D6, 6, 5), (px.DieType.D6_PIPPED, 6, 2),
    (px.DieType.D8, 8, 7), (px.DieType.D10, 10, 10), (px.DieType.D12, 12, 11),
    (px.DieType.D20, 20, 19), (px.DieType.D00, 100, 90), (px.DieType.D6_FUDGE, px.FATE, 1),
)  # fmt: skip


def term(sides: int) -> str:
    """The Foundry term of one die of ``sides``: a Fate die's is ``dF``."""
    return "1dF" if sides == px.FATE else f"1d{sides}"


def result(sides: int, shown: int) -> int:
    """What Foundry's term makes of a die of ``sides`` showing ``shown``: a Fate die's minus,
    blank and plus (1, 2, 3 at the table) are -1, 0 and +1."""
    return shown - 2 if sides == px.FATE else shown


GODICE_ROLLED = (  # each GoDice shell, the term it fills, and what it shows
    (go.Shell.D4, 4, 2), (go.Shell.D6, 6, 6), (go.Shell.D8, 8, 1), (go.Shell.D10, 10, 4),
    (go.Shell.D12, 12, 12), (go.Shell.D20, 20, 20), (go.Shell.D10X, 100, 100),
)  # fmt: skip


@pytest.mark.sqlite_only
@pytest.mark.parametrize("brand", ["pixels", "godice"])
async def test_every_die_fills_its_foundry_term_through_the_station(
    client: Client, brand: str
) -> None:
    """One roll with a term for every kind of die the brand makes, each filled by that die (a
    pipped d6 as a d6, a Fudge die as a ``dF``; a tens die with the brand's d10, rolled first,
    for the d100)."""
    table = await new_table(client, "megatraveller-rcs")
    for command in COMBAT:
        await send(client, table, command)
    air = Air()
    dice: list[tuple[SimulatedPixel | SimulatedGoDice, str, int, int]] = []
    shells: dict[str, go.Shell] = {}
    if brand == "pixels":
        for n, (kind, sides, shown) in enumerate(PIXELS_ROLLED):
            pixel = air.add(SimulatedPixel.make(0xA100 + n, kind.name, kind))
            dice.append((pixel, die_id(pixel), sides, shown))
    else:
        for n, (shell, sides, shown) in enumerate(GODICE_ROLLED):
            dice.append(
                (air.add(SimulatedGoDice.make(f"S{n}", shell)), f"godice-S{n}", sides, shown)
            )
            shells[f"godice-S{n}"] = shell
    owners = {ident: {"owner": "gm"} for _, ident, _, _ in dice}
    await register(client, table, {"window": 0.2, "dice": owners})
    d10 = next(die for die, _, sides, _ in dice if sides == 10)
    formula = " + ".join(term(sides) for _, _, sides, _ in dice)
    async with station_for(client, table, air, shells=shells, limit=len(dice)) as station:
        check = await foundry_rolls(client, table, formula)
        for answered, (die, _, sides, shown) in enumerate(dice, start=1):
            await asked_for(client, table, "gm", sides)
            if sides == 100:
                d10.roll(3)  # the units of the d100
            die.roll(shown)
            await eventually(lambda: station.status.answered == answered)  # noqa: B023
        rolled = await rolled_in_foundry(check)
    expected = [(shown + 3) % 100 if sides == 100 else result(sides, shown)
                for _, _, sides, shown in dice]  # fmt: skip
    assert [one["result"] for one in rolled["results"]] == expected
    assert rolled["total"] == sum(expected)


@pytest.mark.sqlite_only
async def test_a_fate_roll_in_foundry_is_four_fudge_dice_the_players_own(client: Client) -> None:
    """Jena's player rolls ``4dF`` in Foundry (through the active GM's client) with her four
    Pixels Fudge dice: one request for four three-faced dice, answered by hers alone (the GM's
    d6 and Fudge die rolled meanwhile enter nothing); and the GM's own ``4dF + 1`` with one Fudge
    die rolled four times, its faces Foundry's -1, 0 and +1."""
    table = await new_table(client, "megatraveller-rcs")
    for command in COMBAT:
        await send(client, table, command)
    air = Air()
    jenas = [air.add(SimulatedPixel.make(0xF0 + n, f"Jena's dF {n}", px.DieType.D6_FUDGE))
             for n in range(4)]  # fmt: skip
    gms_d6 = air.add(SimulatedPixel.make(0xF6, "GM's d6"))
    gms_df = air.add(SimulatedPixel.make(0xF7, "GM's dF", px.DieType.D6_FUDGE))
    await register(client, table, {"window": 0.2, "dice": {
        **{die_id(die): {"owner": JENA} for die in jenas},
        die_id(gms_d6): {"owner": "gm"}, die_id(gms_df): {"owner": "gm"},
    }})  # fmt: skip
    async with station_for(client, table, air, limit=6) as station:
        players = await foundry_rolls(client, table, "4dF", "p1")
        await asked_for(client, table, JENA, px.FATE)
        gms_d6.roll(4)
        gms_df.roll(3)
        await eventually(lambda: station.status.unwanted == 1)
        assert station.status.notices[-1] == "The GM rolled 4 and 3, unasked"
        for die, shown in zip(jenas, (3, 1, 2, 3), strict=True):
            die.roll(shown)
        assert await rolled_in_foundry(players) == {
            "faces": [3, 1, 2, 3], "dice": [die_id(die) for die in jenas]}  # fmt: skip
        gms = await foundry_rolls(client, table, "4dF + 1")
        await asked_for(client, table, "gm", px.FATE)
        for shown in (1, 1, 2, 3):
            gms_df.roll(shown)
        rolled = await rolled_in_foundry(gms)
        assert [one["result"] for one in rolled["results"]] == [-1, -1, 0, 1]
        assert [(one.get("failure"), one.get("success")) for one in rolled["results"]] == [
            (True, None), (True, None), (None, None), (None, True)]  # fmt: skip
        assert rolled["total"] == 0
        assert station.status.answered == 2 and station.status.rolls == 0
