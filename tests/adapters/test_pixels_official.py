"""Seize's Pixels codec and simulated die against Systemic Games' own code: the messages as
@systemic-games/pixels-core-connect serialises and deserialises them, the faces as
pixels-core-animation's DiceUtils counts them, and the adverts as the official scanner reads
them (pixels-js packages/react-native-pixels-connect/src/getScannedPixel.ts, which npm does not
carry, so ``pixels-js/codec.mjs`` reads as it does with the published packages' ids and
tables). The packages are pinned in ``pixels-js/package-lock.json``; this test installs them
there (``npm ci``) when they are missing.

Without Node these are skipped, unless SEIZE_REQUIRE_NODE is set, as .ci/run sets it."""

from __future__ import annotations

import asyncio
import fcntl
import json
import os
import shutil
import struct
import subprocess
from collections.abc import Callable
from enum import IntEnum
from pathlib import Path
from typing import Any

import pytest
from bleak.backends.scanner import AdvertisementData

from adapters import pixels_protocol as px
from adapters.pixels_protocol import BatteryState, DieType, Identity, RollState
from adapters.simulators.dice import SimulatedPixel
from tests.waiting import JOB_PATIENCE, PATIENCE, eventually

OFFICIAL = Path(__file__).parent / "pixels-js"
NEW, OLD = 1_720_000_000, 1_700_000_000  # build times after and before the d4/d6 normals fix

Official = dict[str, Any]


def _node() -> str:
    node = shutil.which("node")
    if node is None:
        if os.environ.get("SEIZE_REQUIRE_NODE"):
            pytest.fail("Node.js is required here")
        pytest.skip("no node on this machine: the official Pixels code needs Node.js 18 or newer")
    # The workers of a parallel run each come here: one installs, the others wait for it.
    with (OFFICIAL / ".installing").open("w") as installing:
        fcntl.flock(installing, fcntl.LOCK_EX)
        if not (OFFICIAL / "node_modules").exists():
            npm = shutil.which("npm")
            assert npm is not None, "npm is needed to install the official Pixels packages"
            subprocess.run(
                [npm, "ci", "--prefix", str(OFFICIAL), "--no-audit", "--no-fund",
                 "--loglevel=error"],
                check=True, timeout=JOB_PATIENCE,
            )  # fmt: skip
    return node


def identities() -> list[Identity]:
    """Dice of every type Seize counts, in every roll and battery state, with names."""
    kinds = [(DieType.D4, 4), (DieType.D6, 6), (DieType.D8, 8), (DieType.D10, 10),
             (DieType.D00, 10), (DieType.D12, 12), (DieType.D20, 20),
             (DieType.D6_PIPPED, 21), (DieType.D6_FUDGE, 6)]  # fmt: skip
    names = ["Jena", "Guard's Pixel", "Ünïcode d20", "", "A" * 31]
    return [
        Identity(
            0x01020304 * (n + 1) % 2**32 or 1,
            kind,
            leds,
            NEW - n * 1000,
            names[n % 5],
            list(RollState)[n % len(RollState)],
            n % (px.sides(kind) or 0) % 10,
            (n * 17) % 101,
            n % 3 == 0,
        )
        for n, (kind, leds) in enumerate(kinds * 2)
    ]


def _js(identity: Identity) -> dict[str, Any]:
    return {"pixelId": identity.pixel_id, "dieType": identity.die_type,
            "ledCount": identity.led_count, "buildTimestamp": identity.firmware,
            "name": identity.name, "rollState": identity.roll_state,
            "currentFaceIndex": identity.face_index, "batteryLevelPercent": identity.battery,
            "batteryState": _battery(identity)}  # fmt: skip


def _battery(identity: Identity) -> BatteryState:
    return BatteryState.CHARGING if identity.charging else BatteryState.OK


ROLLS = [(state, face) for state in RollState for face in (0, 5, 19)]
BATTERIES = [(level, state) for state in BatteryState for level in (0, 42, 100)]
BLINKS = [  # the station's, and others: colour, count, duration, faces, fade, loop count
    (0x00C8FF, 3, 1500, 0xFFFFFFFF, 96, 1),
    (0xFF0000, 1, 1000, 0x1, 0, 1),
    (0x123456, 10, 65535, 0xF0F0F0F0, 255, 4),
]


def advert_of(identity: Identity, layout: str) -> AdvertisementData:
    """A die's advert in each firmware's layout: the simulator's (current firmware, and July
    2022 to October 2024 on the legacy service), before July 2022, and the advert alone before
    its scan response."""
    if layout in ("current", "legacy"):
        die = SimulatedPixel.make(identity.pixel_id, identity.name, legacy=layout == "legacy")
        die.identity = identity
        return die.advert()
    if layout == "before July 2022":
        assert identity.battery is not None
        data = struct.pack("<IBBB", identity.pixel_id, identity.roll_state, identity.face_index,
                           round(identity.battery * 255 / 100))  # fmt: skip
        return _advert([px.LEGACY_SERVICE], {identity.led_count << 8: data}, {})
    manufacturer, _ = px.advertised(identity)
    return _advert([px.DEVICE_INFORMATION], manufacturer, {})


def _advert(
    uuids: list[str], manufacturer: dict[int, bytes], services: dict[str, bytes]
) -> AdvertisementData:
    return AdvertisementData(
        local_name="d", manufacturer_data=manufacturer, service_data=services,
        service_uuids=uuids, tx_power=None, rssi=-50, platform_data=(),
    )  # fmt: skip


LAYOUTS = ("current", "legacy", "before July 2022", "advert before its scan response")
ADVERTS = [(identity, layout) for identity in identities()[:9] for layout in LAYOUTS]
FACES = [(kind, index, built) for kind in DieType if px.sides(kind) for built in (NEW, OLD)
         for index in range(6 if built == OLD and kind in (DieType.D4, DieType.D6)
                            else px.faces(kind) or 0)]  # fmt: skip


def _dietype(official: Official, kind: DieType) -> str:
    names: dict[str, int] = official["values"]["dieType"]
    return next(name for name, value in names.items() if value == kind)


async def _simulated_answers() -> list[bytes]:
    """What simulated dice answer ``WhoAreYou`` with, chunked and legacy."""
    heard: list[bytes] = []
    for n, identity in enumerate(identities()):
        die = SimulatedPixel.make(identity.pixel_id, identity.name, legacy=n % 2 == 1)
        die.identity, die.listener = identity, lambda data: heard.append(bytes(data))
        die.written(px.who_are_you())
        await eventually(lambda n=n: len(heard) == n + 1)  # type: ignore[misc]
    return heard


def codec(**cases: Any) -> Official:
    """The official code's answers to ``cases`` (each kind of case empty unless given)."""
    kinds = ("rollState", "batteryLevel", "iAmADie", "blink", "deserialise", "faces", "adverts")
    run = subprocess.run(
        [_node(), str(OFFICIAL / "codec.mjs")], input=json.dumps({k: [] for k in kinds} | cases),
        capture_output=True, text=True, timeout=JOB_PATIENCE, check=True,
    )  # fmt: skip
    answer: Official = json.loads(run.stdout)
    return answer


@pytest.fixture(scope="module")
def official() -> Official:
    """The official code's answers to every case below, from one run of Node."""
    rolls = [px.roll_state(*roll) for roll in ROLLS]
    batteries = [px.battery_level(*battery) for battery in BATTERIES]
    return codec(
        rollState=ROLLS, batteryLevel=BATTERIES,
        iAmADie=[_js(identity) for identity in identities()],
        blink=[dict(zip(("color", "count", "duration", "faceMask", "fade", "loopCount"),
                        blink, strict=True)) for blink in BLINKS],
        deserialise=[data.hex() for data in rolls + batteries],
        faces=[(index, kind, built * 1000) for kind, index, built in FACES],
        adverts=[_scanned(advert_of(identity, layout)) for identity, layout in ADVERTS],
    )  # fmt: skip


def _scanned(advert: AdvertisementData) -> dict[str, Any]:
    """An advert as the official scanner is handed it: lists, in the order received."""
    return {
        "services": advert.service_uuids,
        "manufacturersData": [{"companyId": company, "data": data.hex()}
                              for company, data in advert.manufacturer_data.items()],
        "servicesData": [{"uuid": uuid, "data": data.hex()}
                         for uuid, data in advert.service_data.items()],
    }  # fmt: skip


def _camel(name: str) -> str:
    first, *rest = name.lower().split("_")
    return first + "".join(word.capitalize() for word in rest)


@pytest.mark.parametrize(
    ("table", "ours", "named"),
    [("messageType", px.MessageType, _camel), ("rollState", RollState, _camel),
     ("batteryState", BatteryState, _camel),
     ("dieType", DieType, lambda name: name.lower().replace("_", ""))],
)  # fmt: skip
def test_the_values_are_the_librarys(
    official: Official, table: str, ours: type[IntEnum], named: Callable[[str], str]
) -> None:
    theirs = official["values"][table]
    assert {named(value.name): value.value for value in ours} == {
        named(value.name): theirs[named(value.name)] for value in ours
    }


def test_the_services_and_company_are_the_librarys(official: Official) -> None:
    ids = official["ids"]
    for ours, theirs in (
        ((px.SERVICE, px.NOTIFY, px.WRITE), ids["die"]),
        ((px.LEGACY_SERVICE, px.LEGACY_NOTIFY, px.LEGACY_WRITE), ids["legacyDie"]),
    ):
        read = (theirs["service"], theirs["notifyCharacteristic"], theirs["writeCharacteristic"])
        assert read == ours
    assert ids["systemicGamesCompanyId"] == px.COMPANY_ID


def test_what_the_station_writes_is_the_librarys_bytes(official: Official) -> None:
    assert px.who_are_you().hex() == official["whoAreYou"]
    assert px.request_roll_state().hex() == official["requestRollState"]
    assert px.request_battery_level().hex() == official["requestBatteryLevel"]
    ours = [px.blink(colour, count=count, duration_ms=duration, faces=faces, fade=fade,
                     loop_count=loops).hex()
            for colour, count, duration, faces, fade, loops in BLINKS]  # fmt: skip
    assert ours == official["blink"]
    assert px.blink(0x00C8FF).hex() == official["blink"][0]  # as the station blinks a die
    # The player page's blink (Color.brightBlue, 3 flashes in 1.5 s) differs from the
    # station's only by its colour and its fade.
    assert px.blink(0x0000FF, fade=0).hex() == official["pageBlink"]


def test_roll_state_and_battery_read_and_written_as_the_library_does(
    official: Official,
) -> None:
    for (state, face), theirs in zip(ROLLS, official["rollState"], strict=True):
        assert px.roll_state(state, face).hex() == theirs
        assert px.parse(bytes.fromhex(theirs)) == px.RollUpdate(state, face)
    for (level, charge), theirs in zip(BATTERIES, official["batteryLevel"], strict=True):
        assert px.battery_level(level, charge).hex() == theirs
        assert px.parse(bytes.fromhex(theirs)) == px.Battery(level, charge)
    read = official["deserialised"]
    assert [(m["kind"], m["state"], m["faceIndex"]) for m in read[: len(ROLLS)]] == [
        ("RollState", state, face) for state, face in ROLLS
    ]
    assert [(m["kind"], m["levelPercent"], m["state"]) for m in read[len(ROLLS) :]] == [
        ("BatteryLevel", level, state) for level, state in BATTERIES
    ]


def test_i_am_a_die_is_the_firmwares_bytes_and_reads_as_the_library_reads_it(
    official: Official,
) -> None:
    for identity, chunked, legacy in zip(
        identities(), official["iAmADie"], official["legacyIAmADie"], strict=True
    ):
        assert px.i_am_a_die(identity).hex() == chunked  # byte for byte
        assert px.parse(bytes.fromhex(chunked)) == identity
        assert px.i_am_a_die(identity, legacy=True).hex() == legacy
        assert px.parse(bytes.fromhex(legacy)) == Identity(**{**identity.__dict__, "name": ""})


async def test_the_simulated_die_introduces_itself_as_the_library_reads_it() -> None:
    answers = await _simulated_answers()
    read = codec(deserialise=[data.hex() for data in answers])["deserialised"]
    for n, (identity, theirs) in enumerate(zip(identities(), read, strict=True)):
        assert theirs["kind"] == ("LegacyIAmADie" if n % 2 else "IAmADie")
        fields = ("pixelId", "dieType", "ledCount", "buildTimestamp", "rollState",
                  "currentFaceIndex", "batteryLevelPercent", "batteryState")  # fmt: skip
        ours = _js(identity)
        assert {field: theirs[field] for field in fields} == {
            field: ours[field] for field in fields
        }
        assert theirs.get("name", "") == ("" if n % 2 else identity.name)


def at_the_table(kind: DieType, face: int) -> int:
    """The library counts a d10's "0" as 0 and a d00's "00" as 0; the table, 10 and 100. It
    counts a Fudge die's faces as a d6's, 1 to 6, which the table reads as Fate faces."""
    if kind is DieType.D6_FUDGE:
        return px.FUDGE[face - 1]
    return face or {DieType.D10: 10, DieType.D00: 100}.get(kind, face)


def test_faces_are_counted_as_the_library_counts_them(official: Official) -> None:
    for (kind, index, built), theirs in zip(FACES, official["faces"], strict=True):
        assert px.face(kind, index, built) == at_the_table(kind, theirs), (kind, index, built)


# Where the firmware puts each part (DiceFirmware src/bluetooth/bluetooth_stack.cpp): 0x180A
# listed and the manufacturer data in the advert; the die's own service and the service data,
# keyed 0x180A, in the scan response. The company key is 0xFFFF before October 2024.
FIRMWARE_KEYS = {
    "current": ({"0000180a-0000-1000-8000-00805f9b34fb", px.SERVICE}, [0x0D39]),
    "legacy": ({"0000180a-0000-1000-8000-00805f9b34fb", px.LEGACY_SERVICE}, [0xFFFF]),
}


def test_the_simulated_die_advertises_where_its_firmware_does() -> None:
    for identity in identities():
        for layout, (uuids, companies) in FIRMWARE_KEYS.items():
            advert = advert_of(identity, layout)
            assert set(advert.service_uuids) == uuids
            assert list(advert.service_data) == ["0000180a-0000-1000-8000-00805f9b34fb"]
            assert list(advert.manufacturer_data) == companies


def test_adverts_read_as_the_official_scanner_reads_them(official: Official) -> None:
    for (identity, layout), theirs in zip(ADVERTS, official["adverts"], strict=True):
        advert = advert_of(identity, layout)
        ours = px.advert(advert.local_name, advert.manufacturer_data, advert.service_data)
        if layout == "advert before its scan response":
            assert ours is None and theirs is None
            continue
        assert ours is not None and theirs is not None, layout
        old = layout == "before July 2022"
        assert {
            "pixelId": ours.pixel_id, "ledCount": ours.led_count,
            "dieType": _dietype(official, ours.kind), "firmwareDate": ours.firmware,
            "batteryLevel": ours.battery, "isCharging": ours.charging,
            "currentFaceIndex": ours.face_index, "rollState": _camel(ours.roll_state.name),
        } == {k: v for k, v in theirs.items() if k != "currentFace"}, layout  # fmt: skip
        assert ours.face(ours.face_index) == at_the_table(ours.kind, theirs["currentFace"])
        if not old:  # the simulator's adverts carry all the die says of itself but its name
            assert ours == Identity(**{**identity.__dict__, "name": advert.local_name or ""})


# The player page: the Pixel class of the very bundle Seize serves, connected to a simulated die.

PAGE_LIBRARY = OFFICIAL.parents[2] / "server/static/vendor/pixels-web-connect/index.js"


class Page:
    """The vendored library's Pixel in Node (``pixels-js/page.mjs``), its radio a simulated
    die: what the library writes reaches the die, what the die notifies reaches the library."""

    def __init__(self, die: SimulatedPixel) -> None:
        self.die = die
        self.said: list[dict[str, Any]] = []

    async def __aenter__(self) -> Page:
        self.node = await asyncio.create_subprocess_exec(
            _node(), str(OFFICIAL / "page.mjs"), str(PAGE_LIBRARY), self.die.name,
            stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE,
        )  # fmt: skip
        self.die.listener = lambda data: self.tell({"notify": bytes(data).hex()})
        self.hearing = asyncio.create_task(self._hear())
        self.tell({"start": True})
        return self

    async def __aexit__(self, *_: object) -> None:
        self.tell({"quit": True})
        await asyncio.wait_for(self.node.wait(), PATIENCE)
        self.hearing.cancel()

    def tell(self, line: dict[str, Any]) -> None:
        assert self.node.stdin is not None
        self.node.stdin.write(json.dumps(line).encode() + b"\n")

    async def _hear(self) -> None:
        assert self.node.stdout is not None
        async for line in self.node.stdout:
            said = json.loads(line)
            if "write" in said:
                self.die.written(bytes.fromhex(said["write"]))
            self.said.append(said)

    async def told(self, key: str, count: int = 1) -> list[Any]:
        """The first ``count`` things the library said under ``key``, once it has; what it
        could not do fails the test at once."""
        await eventually(lambda: self._all("failed") or len(self._all(key)) >= count)
        assert not self._all("failed"), self._all("failed")
        return self._all(key)[:count]

    def _all(self, key: str) -> list[Any]:
        return [said[key] for said in self.said if key in said]


@pytest.mark.parametrize("legacy", [False, True])
async def test_the_player_pages_library_connects_a_simulated_die_and_hears_its_rolls(
    legacy: bool,
) -> None:
    die = SimulatedPixel.make(0x5EED, "Jena's d10", DieType.D10, legacy=legacy)
    async with Page(die) as page:
        (ready,) = await page.told("ready")
        assert die.heard[0] == px.who_are_you()
        assert ready | {"status": None} == {
            "pixelId": 0x5EED, "name": "Jena's d10", "dieType": "d10",
            "dieFaceCount": 10, "ledCount": 10, "firmwareDate": die.identity.firmware,
            "batteryLevel": 90, "isCharging": False, "rollState": "onFace",
            "currentFaceIndex": 0, "status": None}  # fmt: skip
        die.roll(10)
        die.roll(7)
        # The library's d10 counts its "0" as 0: the page enters it as 10.
        assert await page.told("roll", 2) == [0, 7]
        die.send(px.battery_level(40, BatteryState.CHARGING))
        await eventually(lambda: {"level": 40, "isCharging": True} in page._all("battery"))
        page.tell({"blink": True})
        await page.told("blinked")
        assert die.blinks == 1 and die.heard[-1] == px.blink(0x0000FF, fade=0)


PHONE_FATE = OFFICIAL.parents[2] / "server/static/shared/fate.js"


def on_the_phone(faces: list[int]) -> list[int]:
    """The player page's reading of a Fudge die's faces as the library reports them (its own
    rule, server/static/shared/fate.js, run in Node)."""
    script = (
        f"import {{ fudge }} from {json.dumps(PHONE_FATE.as_uri())};"
        f"console.log(JSON.stringify({json.dumps(faces)}.map(fudge)));"
    )
    run = subprocess.run([_node(), "--input-type=module", "-e", script], capture_output=True,
                         text=True, timeout=JOB_PATIENCE, check=True)  # fmt: skip
    read: list[int] = json.loads(run.stdout)
    return read


async def test_the_player_pages_library_knows_a_fudge_die_and_the_page_reads_it_too() -> None:
    """The vendored library connects a Pixels Fudge die as a ``d6fudge`` of six faces and
    reports each landing as a d6's number; the page makes each the Fate face the station reads
    from the same face index."""
    die = SimulatedPixel.make(0xF0D6, "Jena's dF", DieType.D6_FUDGE)
    async with Page(die) as page:
        (ready,) = await page.told("ready")
        assert (ready["dieType"], ready["dieFaceCount"]) == ("d6fudge", 6)
        for index in range(6):
            die.send(px.roll_state(RollState.ROLLING, 0))
            die.send(px.roll_state(RollState.ROLLED, index))
        faces = await page.told("roll", 6)
    assert faces == [1, 2, 3, 4, 5, 6]
    assert on_the_phone(faces) == [px.face(DieType.D6_FUDGE, index) for index in range(6)]
