"""The Bluetooth messages and adverts of Pixels dice (Systemic Games), apart from any connection,
as ``tray_protocol`` is for the tray.

The layouts are those GameWithPixels documents (``CommunicationsProtocol.md``, and the
messages of its open-source firmware, GameWithPixels/DiceFirmware
``src/bluetooth/bluetooth_messages.h``): little-endian and packed, the first byte the message's
type, its number the same since 2020. A die answers ``WhoAreYou`` with ``IAmADie``, whose
layout each era of firmware changed, every one told apart by its length: a fixed struct until
October 2024 (the "legacy" service), a list of sized chunks since, each led by its own length
so that newer firmware may grow a chunk without breaking an older host. Firmware since
December 2022 puts its roll state and battery in ``IAmADie`` and tells each change of both
unasked (``RollState``, ``BatteryLevel``); firmware before tells its roll state's changes
alone, and its battery (a fraction and a voltage, as floats) only when asked. A die
advertises its roll state too, which is how a roll made while it was disconnected is noticed.

Adverts, as the firmware (GameWithPixels/DiceFirmware, ``src/bluetooth/bluetooth_stack.cpp``
and ``bluetooth_custom_advertising_data.cpp``) sends them: since June 2022 the scan response
carries 8 bytes of service data (pixel id, build time) under the Device Information service
0x180A, not under the die's own service, and the advert carries 5 bytes of manufacturer data
(LEDs, design, roll state, face, battery); the company key is 0xFFFF until October 2024 and
Systemic Games' 0x0D39 since. Before July 2022 there is manufacturer data alone, 7 bytes, its
company key holding the LED count. Until December 2022 the battery byte is a charge of 255, not
a percentage, and the design byte the die's look (``DesignAndColor``), not its type; in the
week the service data came (June 2022) it held a build number, not yet the build time.

The face up is not always ``faceIndex + 1``: a d10 reads 0 to 9 (its "0" is 10 at the table),
a d00 reads tens, firmware built before 2024 had a d4's and a d6's face normals wrong, and a
Fudge die's six faces are three: minus, blank and plus (``FUDGE``).

>>> parse(bytes([3, 1, 4]))
RollUpdate(state=<RollState.ROLLED: 1>, face_index=4)
>>> face(DieType.D10, 0)
10
"""

from __future__ import annotations

import struct
from dataclasses import dataclass
from enum import IntEnum
from typing import TypeVar

from adapters.dice_bytes import DiceBytesError

SERVICE = "a6b90001-7a5a-43f2-a962-350c8edc9b5b"
NOTIFY = "a6b90002-7a5a-43f2-a962-350c8edc9b5b"
WRITE = "a6b90003-7a5a-43f2-a962-350c8edc9b5b"
LEGACY_SERVICE = "6e400001-b5a3-f393-e0a9-e50e24dcca9e"
LEGACY_NOTIFY = "6e400001-b5a3-f393-e0a9-e50e24dcca9e"
"""The legacy die notifies on a characteristic with its service's own UUID."""
LEGACY_WRITE = "6e400002-b5a3-f393-e0a9-e50e24dcca9e"
DEVICE_INFORMATION = "0000180a-0000-1000-8000-00805f9b34fb"
"""The Device Information service, 0x180A as bleak spells it: the key of a die's service data
(its pixel id and build time), whatever service the die itself offers."""
COMPANY_ID = 0x0D39
"""Systemic Games' Bluetooth company identifier, the key of a die's manufacturer data since
October 2024."""
UNASSIGNED_COMPANY = 0xFFFF
"""The key of a die's manufacturer data from July 2022 to October 2024 (the legacy service)."""

FIXED_I_AM_A_DIE = {
    20: "<BBBBIIH6s",  # 21 Sep 2020 (8b54da3): ... free flash, version ("10_05")
    24: "<BBBBIIH10s",  # 23 Nov 2021 (53dcd99): the version grown to 10 bytes ("05_27_22")
    26: "<BBBBIIH10sH",  # 10 Jun 2022 (5c028a7): and a build number
    18: "<BBBBIIHI",  # 16 Jun 2022 (1eeb4f4): the build time, for the version and build
    22: "<BBBBIIHIBBBB",  # 19 Dec 2022 (64a2f59): and roll state, face, battery, battery state
}
"""The fixed ``IAmADie`` of each era, by its length (DiceFirmware ``MessageIAmADie``, at the
commit that brought it): type, LEDs, design and colour, a byte of padding (the die's type since
September 2023, aa2b2ee), data set hash, pixel id, free flash, then what the era adds. Any
other length is the chunked form, which the firmware sends since October 2024 (fe35c2f), each
of its names a 32-byte chunk: never so short. Firmware of September 2020 before 8b54da3
(18 bytes, no free flash) and of August 2020 (a 64-bit id, 22 bytes) is left out: a die of
those weeks cannot be told by its length from one of late 2022."""
BAD_NORMALS_UNTIL = 1_704_150_000
"""Firmware built up to this time (seconds) reports some d4 and d6 faces wrongly."""
TILTED_D6_UNTIL = 1_716_382_800
"""Firmware built before this time calls a six-LED die's tilted landing "crooked"."""
NAME_ROOM = 31
"""Bytes of a die's name, and of its custom design's, in ``IAmADie``: the firmware's
``MAX_NAME_LENGTH`` (``src/config/settings.h``), padded with zeros."""
UNDATED_FIRMWARE = 1_656_633_600
"""The build time (1 July 2022) read for firmware that tells none: its adverts, without service
data, and its ``IAmADie``, with a version string, come from before July 2022, as the official
scanner reads such an advert."""
BUILD_NUMBER_SERVICE = 6
"""Bytes of the service data of firmware from 10 to 16 June 2022 (DiceFirmware ``5c028a7``):
the pixel id and a 16-bit build number, where later firmware has its build time."""
PERCENT_BATTERY_SINCE = 1_671_446_700
"""Firmware built since this time (DiceFirmware ``64a2f59``, 19 December 2022) advertises its
battery in percent, its top bit telling charging since ``6e5696c`` the same day; firmware of
June to December 2022 (from ``1eeb4f4``, the first to advertise its build time) sends its
charge as 0 to 255 (``CustomManufacturerData::batteryLevel``, "charge level 0 -> 255", written
as ``getCurrentLevel() * 255``), with no charging bit."""
NEW_BATTERY_STATES_SINCE = 1_684_268_490
"""Firmware built since this time (DiceFirmware ``e4cfbbc``, 16 May 2023) tells its battery's
state as ``BatteryState`` has it; firmware from December 2022 (``64a2f59``) until then told
the finer states of its battery controller (``OLD_BATTERY_STATES``)."""


class MessageType(IntEnum):
    WHO_ARE_YOU = 1
    I_AM_A_DIE = 2
    ROLL_STATE = 3
    REQUEST_ROLL_STATE = 23
    BLINK = 29
    BLINK_ACK = 30
    REQUEST_BATTERY_LEVEL = 33
    BATTERY_LEVEL = 34


class DieType(IntEnum):
    UNKNOWN = 0
    D4 = 1
    D6 = 2
    D8 = 3
    D10 = 4
    D00 = 5
    D12 = 6
    D20 = 7
    D6_PIPPED = 8
    D6_FUDGE = 9


class RollState(IntEnum):
    UNKNOWN = 0
    ROLLED = 1
    HANDLING = 2
    ROLLING = 3
    CROOKED = 4
    ON_FACE = 5


class BatteryState(IntEnum):
    OK = 0
    LOW = 1
    CHARGING = 2
    DONE = 3
    BAD_CHARGING = 4
    ERROR = 5


OLD_BATTERY_STATES = (
    BatteryState.OK,  # unknown
    BatteryState.OK,
    BatteryState.LOW,
    BatteryState.OK,  # transition: the coil's voltage falls as the die leaves the charger
    BatteryState.BAD_CHARGING,
    BatteryState.ERROR,
    BatteryState.CHARGING,
    BatteryState.CHARGING,  # trickle charge: almost full
    BatteryState.DONE,
    BatteryState.ERROR,  # too cold
    BatteryState.ERROR,  # too hot
)
"""The battery states of firmware from December 2022 to May 2023, by value (DiceFirmware
``2c2604a``, ``src/modules/battery_controller.h``), as the firmware that replaced them
reports each (``e4cfbbc``, ``battery_controller.cpp``, ``computeNewBatteryState``; the
December 2022 firmware counted a trickle charge as charging, ``985ae1e``)."""


class PixelsError(DiceBytesError):
    """Bytes that are not the Pixels message they claim to be."""


@dataclass(frozen=True)
class Identity:
    """Who a die is and how it is, from ``IAmADie`` (or from its advert)."""

    pixel_id: int
    die_type: DieType
    led_count: int
    firmware: int  # build time, seconds since 1970
    name: str
    roll_state: RollState  # UNKNOWN from an IAmADie of before December 2022
    face_index: int
    battery: int | None  # percent; None from an IAmADie of before December 2022
    charging: bool

    @property
    def sides(self) -> int | None:
        return sides(self.kind)

    @property
    def kind(self) -> DieType:
        """The die's type, guessed from its LEDs when the die does not say (older firmware)."""
        return self.die_type if self.die_type is not DieType.UNKNOWN else by_leds(self.led_count)

    def face(self, face_index: int) -> int:
        return face(self.kind, face_index, self.firmware)


@dataclass(frozen=True)
class RollUpdate:
    state: RollState
    face_index: int


@dataclass(frozen=True)
class Battery:
    level: int
    state: BatteryState

    @property
    def charging(self) -> bool:
        return self.state in (BatteryState.CHARGING, BatteryState.DONE)


@dataclass(frozen=True)
class Other:
    """A message Seize has no use for (telemetry, a debug log, an acknowledgement)."""

    type: int


Message = Identity | RollUpdate | Battery | Other

_LEDS = {4: DieType.D4, 6: DieType.D6, 8: DieType.D8, 10: DieType.D10, 12: DieType.D12,
         20: DieType.D20, 21: DieType.D6_PIPPED}  # fmt: skip
FATE = 3
"""The faces of a Fate (Fudge) die at the table, as Foundry counts a ``dF``: its ``FateDie``
has three (``faces: 3``, "mathematically behaves like 1d3-2", Foundry 13
``client/dice/terms/fate.mjs``), 1 for minus, 2 for blank, 3 for plus. A request for three-faced
dice is a request for Fudge dice: no other die at the table has three faces."""
FUDGE = (3, 2, 1, 1, 2, 3)
"""A Pixels Fudge die's face, by its face index. The die reads its six faces as a d6 does: the
firmware gives it a d6's layout and normals (DiceFirmware ``src/config/dice_variants.cpp``,
``getLayoutType``: ``DieLayoutType_D6_FD6``) and the library counts its face as the index
plus one (pixels-core-animation 1.3.0, ``DiceUtils.faceFromIndex``); no Pixels source says
which of the six is plus, minus or blank, and the official Foundry module leaves the die out
(foundryvtt/pixels ``scripts/manager.mjs`` at 23bd751: "Core API needs to support fudge
dice"). This is read from the Pixels app's 3D models (pixels-js 3fa3c1a7,
``apps/pixels-app/assets/meshes/dice``), on the assumption that its d6 and its Fudge die
share their axes: ``d6fudge.glb`` has its pluses on the faces along Y, its minuses along X,
its blanks along Z, where ``d6.glb`` has 1 and 6 along Y, 3 and 4 along X, 2 and 5 along Z.
So each symbol is on two opposite faces, as on a Fudge die, and as no reading of the d6's
numbers in order (1 and 2 as minus) would put it."""
_SIDES = {DieType.D4: 4, DieType.D6: 6, DieType.D6_PIPPED: 6, DieType.D8: 8, DieType.D10: 10,
          DieType.D00: 100, DieType.D12: 12, DieType.D20: 20, DieType.D6_FUDGE: FATE}  # fmt: skip
_FACES = {DieType.D00: 10, DieType.D6_FUDGE: len(FUDGE)}
_OLD_D4 = {3: 2, 2: 3, 5: 4}  # face index → face, on firmware with bad normals (else 1)
_OLD_D6 = {4: 2, 3: 3, 2: 4, 1: 5}


def by_leds(led_count: int) -> DieType:
    return _LEDS.get(led_count, DieType.UNKNOWN)


def sides(kind: DieType) -> int | None:
    """The die's size at the table (a Fudge die's is ``FATE``); None for a die of unknown
    type."""
    return _SIDES.get(kind)


def faces(kind: DieType) -> int | None:
    """The faces a die reads, where its size at the table may count fewer: a d00's ten tens, a
    Fudge die's six faces; None for a die of unknown type."""
    return _FACES.get(kind, sides(kind))


def face(kind: DieType, face_index: int, firmware: int = BAD_NORMALS_UNTIL + 1) -> int:
    """The number up, from the face index a die reports. A d10's "0" is 10 and a d00's "00"
    is 100 (the rules count 1 to 10 and 1 to 100), a Fudge die's face is one of ``FATE``;
    refuses an index the die has no face for."""
    read = faces(kind)
    if read is None:
        raise PixelsError("dieType", f"{kind.name.lower()} is not a die Seize counts")
    old = firmware <= BAD_NORMALS_UNTIL and kind in (DieType.D4, DieType.D6)
    if not 0 <= face_index < (6 if old else read):
        raise PixelsError("faceIndex", f"{face_index} is no face of a {kind.name.lower()}")
    if old:
        return (_OLD_D4.get(face_index, 1) if kind is DieType.D4
                else _OLD_D6.get(face_index, face_index + 1))  # fmt: skip
    if kind is DieType.D10:
        return face_index or 10
    if kind is DieType.D00:
        return face_index * 10 or 100
    if kind is DieType.D6_FUDGE:
        return FUDGE[face_index]
    return face_index + 1


def landed(identity: Identity, state: RollState) -> RollState:
    """The state as the die means it: older firmware calls a six-LED die's slightly tilted
    landing "crooked" when it rolled fine."""
    tilted = identity.led_count == 6 and identity.firmware < TILTED_D6_UNTIL
    return RollState.ROLLED if tilted and state is RollState.CROOKED else state


E = TypeVar("E", bound=IntEnum)


def _enum(kind: type[E], value: int, field: str) -> E:
    try:
        return kind(value)
    except ValueError:
        raise PixelsError(field, f"{value} is no {kind.__name__}") from None


def _percent(value: int, field: str) -> int:
    if value > 100:
        raise PixelsError(field, f"{value} is more than 100 percent")
    return value


def _sized(data: bytes, size: int, what: str) -> None:
    if len(data) != size:
        raise PixelsError(what, f"{len(data)} bytes where the message has {size}")


def parse(data: bytes | bytearray, built: int = NEW_BATTERY_STATES_SINCE) -> Message:
    """One notification from a die built at ``built`` (its firmware's build time, which says
    what a ``BatteryLevel``'s state means), or a PixelsError naming the field at fault."""
    data = bytes(data)
    if not data:
        raise PixelsError("type", "an empty message")
    match data[0]:
        case MessageType.ROLL_STATE:
            _sized(data, 3, "RollState")
            return RollUpdate(_enum(RollState, data[1], "RollState.state"), data[2])
        case MessageType.BATTERY_LEVEL if len(data) == OLD_BATTERY_LEVEL:
            return _old_battery(data)
        case MessageType.BATTERY_LEVEL:
            _sized(data, 3, "BatteryLevel")
            return Battery(
                _percent(data[1], "BatteryLevel.level"),
                _battery_state(data[2], built, "BatteryLevel.state"),
            )
        case MessageType.I_AM_A_DIE if len(data) in FIXED_I_AM_A_DIE:
            return _fixed_identity(data)
        case MessageType.I_AM_A_DIE:
            return _chunked_identity(data)
    return Other(data[0])


OLD_BATTERY_LEVEL = 10
"""Bytes of ``BatteryLevel`` from October 2020 (DiceFirmware ``191a7c2``) to December 2022
(``64a2f59``): type, level (a float, 0 to 1), voltage (a float), charging (0 or 1)."""


def _old_battery(data: bytes) -> Battery:
    _, level, _volts, charging = struct.unpack("<BffB", data)
    if not 0 <= level <= 1:  # NaN too
        raise PixelsError("BatteryLevel.level", f"{level} is no fraction of a charge")
    if charging not in (0, 1):
        raise PixelsError("BatteryLevel.charging", f"{charging} is neither 0 nor 1")
    return Battery(round(level * 100), BatteryState.CHARGING if charging else BatteryState.OK)


def _battery_state(value: int, built: int, field: str) -> BatteryState:
    """A battery state as the firmware built at ``built`` numbers them."""
    if built >= NEW_BATTERY_STATES_SINCE:
        return _enum(BatteryState, value, field)
    if value >= len(OLD_BATTERY_STATES):
        raise PixelsError(field, f"{value} is no battery state of firmware built then")
    return OLD_BATTERY_STATES[value]


def _fixed_identity(data: bytes) -> Identity:
    """``IAmADie`` of any era before the chunks (``FIXED_I_AM_A_DIE``)."""
    _, leds, _colour, kind, _hash, pixel_id, _flash, *rest = struct.unpack(
        FIXED_I_AM_A_DIE[len(data)], data
    )
    built = rest[0] if isinstance(rest[0], int) else UNDATED_FIRMWARE  # else a version
    if len(rest) < 5:  # before December 2022: neither its roll state nor its battery
        return Identity(pixel_id, DieType.UNKNOWN, leds, built, "", RollState.UNKNOWN, 0, None,
                        False)  # fmt: skip
    _, state, index, level, battery_state = rest
    battery = Battery(
        _percent(level, "IAmADie.batteryLevel"),
        _battery_state(battery_state, built, "IAmADie.batteryState"),
    )
    return Identity(
        pixel_id=pixel_id,
        # Padding until September 2023: a value no die type has is no type.
        die_type=DieType(kind) if kind in set(DieType) else DieType.UNKNOWN,
        led_count=leds,
        firmware=built,
        name="",
        roll_state=_enum(RollState, state, "IAmADie.rollState"),
        face_index=index,
        battery=battery.level,
        charging=battery.charging,
    )


_CHUNKS = ("versionInfo", "dieInfo", "customDesignAndColorName", "dieName", "settingsInfo",
           "statusInfo")  # fmt: skip
_LEAST = {"versionInfo": 7, "dieInfo": 8, "statusInfo": 5}
"""Bytes each chunk read must hold at least (its size byte and the fields up to the last one
used); a chunk may be longer, with fields a newer firmware added."""


def _chunks(data: bytes) -> dict[str, bytes]:
    chunks: dict[str, bytes] = {}
    at = 1
    for name in _CHUNKS:
        if at >= len(data):
            raise PixelsError(f"IAmADie.{name}", "missing: the message ends before it")
        size = data[at]
        if size < _LEAST.get(name, 1) or at + size > len(data):
            raise PixelsError(f"IAmADie.{name}", f"a chunk of {size} bytes does not fit")
        chunks[name] = data[at : at + size]
        at += size
    return chunks


def _text(chunk: bytes, field: str) -> str:
    try:
        return chunk[1:].split(b"\0", 1)[0].decode("utf-8")
    except UnicodeDecodeError:
        raise PixelsError(field, "not UTF-8") from None


def _chunked_identity(data: bytes) -> Identity:
    chunks = _chunks(data)
    (built,) = struct.unpack_from("<I", chunks["versionInfo"], 3)
    pixel_id, _chip, kind, leds = struct.unpack_from("<IBBB", chunks["dieInfo"], 1)
    level, battery, state, index = chunks["statusInfo"][1:5]
    battery_state = _enum(BatteryState, battery, "IAmADie.statusInfo.batteryState")
    return Identity(
        pixel_id=pixel_id,
        die_type=_enum(DieType, kind, "IAmADie.dieInfo.dieType"),
        led_count=leds,
        firmware=built,
        name=_text(chunks["dieName"], "IAmADie.dieName"),
        roll_state=_enum(RollState, state, "IAmADie.statusInfo.rollState"),
        face_index=index,
        battery=_percent(level, "IAmADie.statusInfo.batteryLevel"),
        charging=Battery(level, battery_state).charging,
    )


def advert(
    name: str | None, manufacturer: dict[int, bytes], services: dict[str, bytes]
) -> Identity | None:
    """A die's state from its advert (manufacturer data, and the service data of firmware
    since June 2022), in the layout of every firmware since 2020; None for an advert without
    them (a die just restarted sends one, and the advert before its scan response has no
    service data).

    The service data is the firmware's, under 0x180A; as the official scanner does, the first
    service data under any other key is read the same way. Of the manufacturer data, Systemic
    Games' own is read first (a host may keep an older firmware's key for the same die)."""
    service = services.get(DEVICE_INFORMATION, next(iter(services.values()), None))
    if service is not None and len(service) >= BUILD_NUMBER_SERVICE and manufacturer:
        data = manufacturer.get(COMPANY_ID, next(iter(manufacturer.values())))
        if len(data) < 5:
            raise PixelsError("advert.manufacturerData", f"{len(data)} bytes, 5 expected")
        (pixel_id,) = struct.unpack_from("<I", service)
        # A build number, not yet a build time, in June 2022's: read as of then.
        built = struct.unpack_from("<I", service, 4)[0] if len(service) >= 8 else UNDATED_FIRMWARE
        leds, design, state, index, battery = data[:5]
        kind, level, charging = design >> 4, battery & 0x7F, bool(battery & 0x80)
        if built < PERCENT_BATTERY_SINCE:  # 2022: a charge of 255
            level, charging = round(battery * 100 / 255), False
    elif service is None and len(manufacturer) == 1:
        ((company, data),) = manufacturer.items()
        if len(data) != 7:
            return None
        leds, kind, built = company >> 8, DieType.UNKNOWN, UNDATED_FIRMWARE
        pixel_id, state, index, raw = struct.unpack("<IBBB", data)
        level, charging = round(raw * 100 / 255), False
    else:
        return None
    if not pixel_id:
        raise PixelsError("advert.pixelId", "0 is no die")
    return Identity(
        pixel_id=pixel_id,
        die_type=_enum(DieType, kind, "advert.dieType"),
        led_count=leds,
        firmware=built,
        name=name or "",
        roll_state=_enum(RollState, state, "advert.rollState"),
        face_index=index,
        battery=_percent(level, "advert.battery"),
        charging=charging,
    )


# What a host sends.


def who_are_you() -> bytes:
    return bytes([MessageType.WHO_ARE_YOU])


def request_roll_state() -> bytes:
    return bytes([MessageType.REQUEST_ROLL_STATE])


def request_battery_level() -> bytes:
    return bytes([MessageType.REQUEST_BATTERY_LEVEL])


def blink(
    colour: int, *, count: int = 3, duration_ms: int = 1500, faces: int = 0xFFFFFFFF,
    fade: int = 96, loop_count: int = 1,
) -> bytes:  # fmt: skip
    """``Blink``: ``count`` flashes of ``colour`` (0xRRGGBB) over ``duration_ms``, played
    ``loop_count`` times (the firmware plays 0 once too; the official library sends 1)."""
    return struct.pack(
        "<BBHIIBB", MessageType.BLINK, count, duration_ms, colour, faces, fade, loop_count
    )


# What a die sends: for the simulated dice, and to build test fixtures against.


def roll_state(state: RollState, face_index: int) -> bytes:
    return bytes([MessageType.ROLL_STATE, state, face_index])


def battery_level(level: int, state: BatteryState = BatteryState.OK) -> bytes:
    return bytes([MessageType.BATTERY_LEVEL, level, state])


def _battery(identity: Identity) -> tuple[int, BatteryState]:
    """What a die of today's firmware tells of its battery, which it always tells."""
    if identity.battery is None:
        raise PixelsError("batteryLevel", "today's firmware tells its battery")
    return identity.battery, BatteryState.CHARGING if identity.charging else BatteryState.OK


def i_am_a_die(identity: Identity, *, legacy: bool = False) -> bytes:
    """``IAmADie`` as a die of current (chunked) or legacy firmware sends it (legacy: as
    since May 2023, its battery states numbered as today): the chunks as the firmware's
    structs are (``src/bluetooth/bluetooth_messages.h``), its die info ending with the run
    mode, each name in ``NAME_ROOM`` bytes."""
    roll = (identity.roll_state, identity.face_index)
    battery = _battery(identity)
    if legacy:
        return struct.pack(
            "<BBBBIIHIBBBB", MessageType.I_AM_A_DIE, identity.led_count, 0, identity.die_type,
            0, identity.pixel_id, 0, identity.firmware, *roll, *battery,
        )  # fmt: skip
    name = identity.name.encode()
    if len(name) > NAME_ROOM:
        raise PixelsError("IAmADie.dieName", f"{len(name)} bytes, {NAME_ROOM} at most")
    return b"".join((
        bytes([MessageType.I_AM_A_DIE]),
        struct.pack("<BHIHHHH", 15, 0x100, identity.firmware, 0x100, 0x100, 0x100, 0x100),
        struct.pack("<BIBBBBB", 10, identity.pixel_id, 1, identity.die_type,
                    identity.led_count, 0, 0),
        bytes([1 + NAME_ROOM]) + bytes(NAME_ROOM),  # no custom design name
        bytes([1 + NAME_ROOM]) + name.ljust(NAME_ROOM, b"\0"),
        struct.pack("<BIII", 13, 0, 0, 0),
        bytes([5, *battery, *roll]),
    ))  # fmt: skip


def advertised(
    identity: Identity, *, legacy: bool = False
) -> tuple[dict[int, bytes], dict[str, bytes]]:
    """The manufacturer and service data a die advertises (advert and scan response together,
    as a host's scanner gathers them): of current firmware, or of firmware from July 2022 on
    the legacy service, whose manufacturer data has the unassigned company key."""
    battery = _battery(identity)[0] | (0x80 if identity.charging else 0)
    design = identity.die_type << 4
    manufacturer = bytes([identity.led_count, design, identity.roll_state,
                          identity.face_index, battery])  # fmt: skip
    service = struct.pack("<II", identity.pixel_id, identity.firmware)
    company = UNASSIGNED_COMPANY if legacy else COMPANY_ID
    return {company: manufacturer}, {DEVICE_INFORMATION: service}
