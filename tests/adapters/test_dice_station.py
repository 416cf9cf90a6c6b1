"""The die station end to end: simulated Pixels and GoDice → bleak (its radio replaced by the
simulated one) → the station → a real server on loopback, with the table's die registry."""

from __future__ import annotations

import asyncio
import json
import struct
import sys
from contextlib import AbstractAsyncContextManager
from typing import Any

from bleak.backends.device import BLEDevice
from bleak.backends.scanner import AdvertisementData

from adapters import godice_protocol as go
from adapters import pixels_protocol as px
from adapters.dice import (
    BLINK_COLOUR,
    MAX_DICE,
    NOTICES,
    ON_DECK_COLOUR,
    DiceStation,
    recognised,
)
from adapters.link import TableLink, awaited
from adapters.registry import TableRegistry
from adapters.simulators.dice import Air, SimulatedGoDice, SimulatedPixel
from server.devices.reports import MAX_REPORT
from tests.server.conftest import Client, bearer, new_table, send
from tests.waiting import eventually, eventually_async, within

from .stations import die_id, station_at
from .test_tray import awareness_awaiting_rolls, rcs_awaiting_rolls


def station_for(
    client: Client, table: dict[str, Any], air: Air, **options: Any
) -> AbstractAsyncContextManager[DiceStation]:
    return station_at(str(client.make_url("")), table["id"], table["gm_token"], air, **options)


async def register(client: Client, table: dict[str, Any], change: dict[str, Any]) -> Any:
    answer = await client.put(
        f"/api/tables/{table['id']}/dice", json=change, headers=bearer(table["gm_token"])
    )
    assert answer.status == 200, await answer.text()
    return await answer.json()


async def view(client: Client, table: dict[str, Any]) -> dict[str, Any]:
    answer = await client.get(f"/api/tables/{table['id']}", headers=bearer(table["gm_token"]))
    body: dict[str, Any] = (await answer.json())["view"]
    return body


async def events(client: Client, table: dict[str, Any]) -> list[dict[str, Any]]:
    answer = await client.get(
        f"/api/tables/{table['id']}/events?after=0", headers=bearer(table["gm_token"])
    )
    body: dict[str, Any] = await answer.json()
    return [entry["event"] for entry in body["events"] if entry["event"] is not None]


def cards(table_view: dict[str, Any]) -> dict[str, list[int]]:
    return {card["character"]: card["dice"] for card in table_view["line"]}


async def test_each_players_dice_roll_onto_their_own_2d6(client: Client) -> None:
    table = await rcs_awaiting_rolls(client)  # jena first, then the guard
    air = Air()
    # One of Jena's dice runs legacy firmware, on the legacy service: 22-byte IAmADie.
    jena = [air.add(SimulatedPixel.make(0xA1 + n, f"Jena {n}", legacy=n == 1)) for n in range(2)]
    guard_pixel = air.add(SimulatedPixel.make(0xB1, "Guard's Pixel"))
    guard_godice = air.add(SimulatedGoDice.make("B0C7B0"))
    await register(client, table, {"dice": {
        **{die_id(d): {"owner": "jena"} for d in jena},
        die_id(guard_pixel): {"owner": "guard"},
        "godice-B0C7B0": {"owner": "guard", "name": "Guard's GoDice"},
    }})  # fmt: skip
    async with station_for(client, table, air) as station:
        guard_godice.roll(6)  # the guard rolls first: his dice are still his, not "the next"
        guard_pixel.roll(2)
        await eventually(lambda: station.status.rolls == 1)
        jena[0].roll(3)
        jena[1].roll(5)
        await eventually(lambda: station.status.rolls == 2)
        last = station.status.last
        assert last is not None and last["who"] == "jena" and last["faces"] == [3, 5]
        assert last["dice"] == [die_id(d) for d in jena]  # the dice that made the roll
        dealt = cards(await view(client, table))
        assert sorted(dealt["guard"]) == [2, 6] and sorted(dealt["jena"]) == [3, 5]
        entered = {e["roll"]["character"]: e["dice_ids"] for e in await events(client, table)
                   if e["type"] == "roll_entered"}  # fmt: skip
        assert entered == {"guard": [die_id(guard_pixel), "godice-B0C7B0"][::-1],
                           "jena": [die_id(d) for d in jena]}  # fmt: skip
        report = (await (await client.get(
            f"/api/tables/{table['id']}/devices", headers=bearer(table["gm_token"])
        )).json())["devices"]["dice-station"]  # fmt: skip
        listed = {die["id"]: die for die in report["dice"]}
        assert (
            listed["godice-B0C7B0"]["owner"] == "guard" and listed["godice-B0C7B0"]["battery"] == 80
        )
        assert all(die["connected"] for die in listed.values())


BUILT_2022 = 1_662_000_000  # 1 September 2022


class Pixel2022(SimulatedPixel):
    """A die of the firmware of June to December 2022 (DiceFirmware 1eeb4f4 to 64a2f59), as
    that firmware's source lays out what it sends: ``IAmADie`` in 18 bytes (MessageIAmADie:
    LEDs, DesignAndColor, padding, data set hash, id, free flash, build time), nothing of its
    roll state or battery; ``BatteryLevel`` only when asked (battery_controller.cpp,
    getBatteryLevel: level and voltage as floats, charging); adverts with its charge of 255
    under the unassigned company key (bluetooth_stack.cpp). Its ``RollState`` is today's."""

    def answer(self, data: bytes) -> None:
        leds, pixel_id = self.identity.led_count, self.identity.pixel_id
        match data[:1]:
            case b"\x01":
                self.send(struct.pack("<BBBBIIHI", 2, leds, 7, 0, 0x5EEDDA7A, pixel_id, 3072,
                                      BUILT_2022))  # fmt: skip
            case b"\x21":  # 80 %, 3.9 V, charging
                self.send(struct.pack("<BffB", 34, 0.8, 3.9, 1))
            case _:
                super().answer(data)

    def advert(self) -> AdvertisementData:
        state, face = self.identity.roll_state, self.identity.face_index
        return AdvertisementData(
            local_name=self.name, service_uuids=[px.DEVICE_INFORMATION, self.service],
            manufacturer_data={0xFFFF: bytes([self.identity.led_count, 7, state, face, 153])},
            service_data={px.DEVICE_INFORMATION: struct.pack("<II", self.identity.pixel_id,
                                                             BUILT_2022)},
            tx_power=None, rssi=-55, platform_data=(),
        )  # fmt: skip


async def test_dice_of_2022_firmware_are_asked_their_battery_and_roll_as_any(
    client: Client,
) -> None:
    """Jena's two d6s of 2022 introduce themselves with no battery: the station asks, and
    shows what they answer (their adverts said 60 %, not charging); they roll her 2D6, and
    nothing they say is refused."""
    table = await rcs_awaiting_rolls(client)
    air = Air()
    dice = [air.add(Pixel2022.make(0x2022 + n, f"Jena's old d6 {n}", legacy=True))
            for n in range(2)]  # fmt: skip
    for die in dice:
        die.identity = px.Identity(**{**die.identity.__dict__, "firmware": BUILT_2022})
    await register(client, table, {"dice": {die_id(d): {"owner": "jena"} for d in dice}})
    async with station_for(client, table, air) as station:
        listed = [station.dice[d.address] for d in dice]
        await eventually(lambda: all(one.battery == 80 for one in listed))
        assert all(one.charging and one.sides == 6 for one in listed)
        assert all(d.heard[:2] == [px.who_are_you(), px.request_battery_level()] for d in dice)
        dice[0].roll(3)
        dice[1].roll(5)
        await eventually(lambda: station.status.rolls == 1)
        last = station.status.last
        assert last is not None and (last["who"], last["faces"]) == ("jena", [3, 5])
        assert station.report()["refused"] == {}


async def test_a_roll_made_while_the_die_was_away_is_read_from_its_adverts(
    client: Client,
) -> None:
    table = await awareness_awaiting_rolls(client, jena=3)
    air = Air()
    die = air.add(SimulatedPixel.make(0xC1, "Jena's d10", px.DieType.D10))
    # The die advertises as its firmware does (DiceFirmware src/bluetooth/bluetooth_stack.cpp):
    # its pixel id and build time as service data of 0x180A, not of the die's own service.
    advert = die.advert()
    assert list(advert.service_data) == ["0000180a-0000-1000-8000-00805f9b34fb"]
    assert list(advert.manufacturer_data) == [0x0D39] and px.SERVICE in advert.service_uuids
    await register(client, table, {"dice": {die_id(die): {"owner": "jena"}}})
    async with station_for(client, table, air) as station:  # found, and connected
        air.carry_away(die)
        await eventually(lambda: not station.dice[die.address].connected)
        assert [d["connected"] for d in station.report()["dice"]] == [False]  # still listed
        die.roll(10)  # nobody hears it: the die is out of range
        die.connectable = False  # back at the edge of range: heard, but no link holds
        air.bring_back(die)
        await eventually(lambda: station.status.rolls == 1)  # from its adverts alone
        assert not station.dice[die.address].connected and die.host is None
        die.connectable = True
        await eventually(lambda: station.dice[die.address].connected)
        assert station.dice[die.address].drops == 1
        assert station.status.rolls == 1  # told by the advert and by IAmADie: one roll
        jena = next(c for c in (await view(client, table))["characters"] if c["id"] == "jena")
        assert jena["initiative"]["die"] == 10  # the d10's "0"
        (entered,) = [e for e in await events(client, table) if e["type"] == "initiative_entered"]
        assert entered["dice_ids"] == [die_id(die)]


async def test_a_roll_nobody_asked_for_is_shown_and_never_applied(client: Client) -> None:
    table = await rcs_awaiting_rolls(client)
    air = Air()
    die = air.add(SimulatedPixel.make(0xD1, "Jena's d6"))
    stray = air.add(SimulatedPixel.make(0xD2, "A stray d6"))
    await register(client, table, {"dice": {die_id(die): {"owner": "jena"}},
                                   "window": 0.2})  # fmt: skip
    async with station_for(client, table, air, partial_wait=0.2) as station:
        station.heard(station.dice[die.address], bytes([3, 9, 1]))  # a garbled RollState
        assert station.report()["refused"] == {"RollState.state": 1}  # counted, never rolled
        stray.roll(4)  # nobody's die
        await eventually(lambda: station.status.unwanted == 1)
        die.roll(4)  # one d6 of jena's 2D6: it waits for the other, which never comes
        await eventually(lambda: station.status.unwanted == 2)
        await send(client, table, {"type": "enter_roll", "character": "jena", "dice": [1, 1],
                                   "source": "gm"})  # fmt: skip

        async def jena_rolled() -> bool:
            return "jena" not in awaited(await station.link.view(), "roll")

        await eventually_async(jena_rolled, "jena's roll never went in")
        die.roll(2)  # jena's roll is in: this one is asked by nobody
        await eventually(lambda: station.status.unwanted == 3)
        assert station.status.notices == [
            "A stray d6 rolled 4: the die is no one's yet",
            "jena rolled 4; the rest never came",
            "jena rolled 2, unasked",
        ]
        assert awaited(await view(client, table), "roll") == ["guard"]
        assert station.status.rolls == 0


async def test_the_die_of_the_character_whose_turn_it_is_blinks(client: Client) -> None:
    table = await rcs_awaiting_rolls(client)
    air = Air()
    jena = air.add(SimulatedPixel.make(0xE1, "Jena's d6"))
    guard = air.add(SimulatedGoDice.make("E2E2E2"))
    await register(client, table, {"dice": {die_id(jena): {"owner": "jena"},
                                            "godice-E2E2E2": {"owner": "guard"}}})  # fmt: skip
    async with station_for(client, table, air) as station:
        await send(client, table, {"type": "enter_roll", "character": "jena", "dice": [6, 6],
                                   "source": "gm"})  # fmt: skip
        await send(client, table, {"type": "enter_roll", "character": "guard", "dice": [1, 1],
                                   "source": "gm"})  # fmt: skip
        await eventually(lambda: station.status.blinks == 2)
        holder = (await view(client, table))["token"]  # the lower card acts first
        acting, waiting = (guard, jena) if holder == "guard" else (jena, guard)
        assert acting.blinks == 1 and waiting.blinks == 1  # the other is on deck
        assert flashes(acting) == (3, BLINK_COLOUR)
        assert flashes(waiting) == (1, ON_DECK_COLOUR)


def flashes(die: SimulatedPixel | SimulatedGoDice) -> tuple[int, tuple[int, int, int]]:
    """How many flashes the die was last told to show, and in which colour."""
    if isinstance(die, SimulatedGoDice):
        pulse = next(data for data in reversed(die.heard) if data[:1] == bytes([go.PULSE]))
        return pulse[1], (pulse[4], pulse[5], pulse[6])
    blink = next(d for d in reversed(die.heard) if d[:1] == bytes([px.MessageType.BLINK]))
    colour = int.from_bytes(blink[4:8], "little")
    return blink[1], (colour >> 16, (colour >> 8) & 0xFF, colour & 0xFF)


async def test_on_deck_is_read_from_the_public_order_and_tells_nothing_of_the_hidden(
    client: Client,
) -> None:
    """Jena acts, the hidden guard comes next, then Sarge: Sarge's die blinks on deck, as the
    players' own alerts say, where the GM's order would have put the guard there and left
    Sarge's dark, telling Sarge's player that someone hidden stands between."""
    table = await new_table(client, "megatraveller-rcs")
    for cid in ("jena", "guard", "sarge"):
        character = {"id": cid, "name": cid, "side": cid, "dex": 0, "movement": 0}
        await send(client, table, {"type": "join", "character": character})
    await send(client, table, {"type": "hide", "participant": "guard"})
    await send(client, table, {"type": "roll_initiative", "source": "gm"})
    air = Air()
    dice = {
        cid: air.add(SimulatedPixel.make(0xD0 + n, cid)) for n, cid in enumerate(("jena", "sarge"))
    }
    await register(client, table, {"dice": {die_id(d): {"owner": cid} for cid, d in dice.items()}})
    async with station_for(client, table, air):
        for cid, rolled in (("jena", [1, 1]), ("guard", [3, 3]), ("sarge", [6, 6])):
            await send(client, table, {"type": "enter_roll", "character": cid, "dice": rolled,
                                       "source": "gm"})  # fmt: skip
        line = [entry["character"] for entry in (await view(client, table))["line"]]
        assert line.index("guard") == 1, line  # the hidden guard between the other two
        first, last = dice[line[0]], dice[line[2]]
        await eventually(lambda: last.blinks == 1)
        assert flashes(last) == (1, ON_DECK_COLOUR)
        assert first.blinks == 1 and flashes(first) == (3, BLINK_COLOUR)


async def test_a_claim_registers_the_die_that_rolls_next_and_the_limit_is_told(
    client: Client,
) -> None:
    table = await rcs_awaiting_rolls(client)
    air = Air()
    dice = [air.add(SimulatedPixel.make(0xF0 + n, f"Die {n}")) for n in range(3)]
    await register(client, table, {"claims": ["guard"]})
    async with station_for(client, table, air, limit=2) as station:
        await eventually(lambda: station.status.full is not None)
        first = next(d for d in dice if d.address in station.dice)
        first.roll(5)  # "roll the die you will use": it is the guard's from now on
        await eventually(lambda: station.book["dice"] != {})
        registered = (await register(client, table, {}))["dice"]
        assert registered == {die_id(first): {"owner": "guard", "name": first.name}}
        assert station.status.rolls == 0 and "Die" in station.status.notices[-1]


async def test_seize_sim_dice_rolls_on_a_key_into_a_table(client: Client) -> None:
    table = await rcs_awaiting_rolls(client)
    await register(client, table, {"claims": ["jena"]})
    process = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "server", "sim", "dice", "--server", str(client.make_url("")),
        "--table", table["id"], "--token", table["gm_token"], "--pixels", "1", "--godice", "1",
        stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE,
    )  # fmt: skip
    assert process.stdin is not None and process.stdout is not None
    try:
        assert (await process.stdout.readline()).startswith(b"dice: 1 Pixel 1, 2 GoDice_")

        async def station() -> dict[str, Any]:
            answer = await client.get(
                f"/api/tables/{table['id']}/devices", headers=bearer(table["gm_token"])
            )
            report: dict[str, Any] = (await answer.json())["devices"].get("dice-station", {})
            return report

        async def both_connected() -> bool:
            return [d["connected"] for d in (await station()).get("dice", [])] == [True, True]

        await eventually_async(both_connected, "the station never connected both dice")
        process.stdin.write(b"1\n")  # the Pixel: the first roll claims it for jena

        async def claimed() -> bool:
            return bool((await registry_of(client, table))["dice"])

        await eventually_async(claimed, "the first roll never claimed the Pixel")
        assert list((await registry_of(client, table))["dice"].values()) == [
            {"owner": "jena", "name": "Pixel 1"}
        ]
        process.stdin.write(b"q\n")
        assert await within(process.wait(), "the station never quit") == 0
    finally:
        if process.returncode is None:
            process.kill()
            await process.wait()


async def registry_of(client: Client, table: dict[str, Any]) -> dict[str, Any]:
    answer = await client.get(f"/api/tables/{table['id']}/dice", headers=bearer(table["gm_token"]))
    body: dict[str, Any] = await answer.json()
    return body


def test_a_full_stations_report_fits_what_the_table_keeps() -> None:
    air = Air()
    station = DiceStation(TableLink("http://127.0.0.1:9", "t", "x"),
                          TableRegistry("http://127.0.0.1:9", "t", "x"))  # fmt: skip
    for n in range(MAX_DICE):
        die = air.add(
            SimulatedPixel.make(0x100 + n, "A die with a name forty characters long"[:40])
        )
        met = recognised(BLEDevice(die.address, die.name, None), die.advert())
        assert met is not None
        station.dice[die.address] = met
        station.book["dice"][die_id(die)] = {"owner": "a-character-with-a-long-id" + "x" * 14}
    for _ in range(NOTICES):
        station.status.notice("A die with a name forty characters long rolled 1, 2, 3, unasked")
    report = station.report()
    assert len(json.dumps(report)) <= MAX_REPORT and len(report["dice"]) == MAX_DICE
    assert report["notices"] == station.status.notices[-len(report["notices"]) :]
