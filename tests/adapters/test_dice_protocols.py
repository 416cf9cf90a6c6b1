"""The smart dice codecs, against bytes laid out by hand from the documented layouts (Pixels'
communications protocol and firmware messages, GoDice's notifications), and fuzzed: any bytes
parse or are refused with an error naming the field, never anything else."""

from __future__ import annotations

import doctest
import struct

import pytest
from hypothesis import given
from hypothesis import strategies as st

import adapters.godice_protocol
import adapters.pixels_protocol
from adapters import godice_protocol as go
from adapters import pixels_protocol as px
from adapters.pixels_protocol import BatteryState, DieType, Identity, RollState


def test_the_docstring_examples_hold() -> None:
    assert doctest.testmod(adapters.pixels_protocol).failed == 0
    assert doctest.testmod(adapters.godice_protocol).failed == 0


# Pixels: IAmADie as legacy firmware sends it (22 bytes, the table in the protocol document):
# id, LED count, design, die type, data set hash, pixel id, available flash, build timestamp,
# roll state, face index, battery level, battery state; built in November 2023.
LEGACY = struct.pack("<BBBBIIHIBBBB", 2, 20, 3, 7, 0xAABBCCDD, 0x01020304, 1024, 1_700_000_000,
                     1, 19, 88, 2)  # fmt: skip

# IAmADie since 2023: sized chunks (version, die, design name, die name, settings, status).
CHUNKED = b"".join((
    bytes([2]),
    struct.pack("<BHIHHHH", 15, 0x0201, 1_720_000_000, 0x0101, 0x0100, 0x0100, 0x0100),
    struct.pack("<BIBBBBB", 10, 0xDEADBEEF, 2, 4, 10, 6, 0),
    bytes([1]),
    bytes([6]) + b"Jena\0",
    struct.pack("<BIII", 13, 0x1234, 4096, 8192),
    bytes([5, 55, 0, 5, 0]),
))  # fmt: skip


def test_a_legacy_i_am_a_die_tells_who_the_die_is() -> None:
    assert len(LEGACY) == 22
    assert px.parse(LEGACY) == Identity(
        pixel_id=0x01020304, die_type=DieType.D20, led_count=20, firmware=1_700_000_000,
        name="", roll_state=RollState.ROLLED, face_index=19, battery=88, charging=True,
    )  # fmt: skip


def test_a_chunked_i_am_a_die_tells_who_the_die_is_and_its_name() -> None:
    identity = px.parse(CHUNKED)
    assert identity == Identity(
        pixel_id=0xDEADBEEF, die_type=DieType.D10, led_count=10, firmware=1_720_000_000,
        name="Jena", roll_state=RollState.ON_FACE, face_index=0, battery=55, charging=False,
    )  # fmt: skip
    assert isinstance(identity, Identity) and identity.face(0) == 10  # a d10's "0" is 10


def test_a_longer_chunk_from_newer_firmware_is_read_past() -> None:
    grown = CHUNKED[:1] + bytes([17]) + CHUNKED[2:16] + b"\x09\x09" + CHUNKED[16:]
    identity = px.parse(grown)
    assert isinstance(identity, Identity) and identity.name == "Jena"


def test_the_die_side_encoders_match_the_documented_bytes() -> None:
    die = px.parse(CHUNKED)
    assert isinstance(die, Identity)
    assert px.parse(px.i_am_a_die(die)) == die
    legacy = px.parse(LEGACY)
    assert isinstance(legacy, Identity)
    encoded = px.i_am_a_die(legacy, legacy=True)
    assert encoded[8:12] == LEGACY[8:12] and encoded[14:] == LEGACY[14:]  # id, time, state


def test_roll_state_battery_and_blink() -> None:
    assert px.parse(bytes([3, 1, 5])) == px.RollUpdate(RollState.ROLLED, 5)
    assert px.parse(bytes([34, 40, 3])) == px.Battery(40, BatteryState.DONE)
    assert px.parse(bytes([34, 40, 3])).charging  # type: ignore[union-attr]
    assert px.parse(bytes([30])) == px.Other(30)  # BlinkAck: nothing to do
    # Blink: id, count, duration (2), colour ARGB (4), face mask (4), fade, loop count.
    assert px.blink(0x00FF00, count=2, duration_ms=1000, fade=0) == struct.pack(
        "<BBHIIBB", 29, 2, 1000, 0x00FF00, 0xFFFFFFFF, 0, 1
    )
    assert px.who_are_you() == b"\x01"


@pytest.mark.parametrize(
    ("kind", "index", "firmware", "up"),
    [
        (DieType.D20, 19, 1_720_000_000, 20), (DieType.D6, 0, 1_720_000_000, 1),
        (DieType.D10, 0, 1_720_000_000, 10), (DieType.D10, 7, 1_720_000_000, 7),
        (DieType.D00, 0, 1_720_000_000, 100), (DieType.D00, 3, 1_720_000_000, 30),
        (DieType.D6, 4, 1_700_000_000, 2), (DieType.D4, 5, 1_700_000_000, 4),
        (DieType.D4, 3, 1_720_000_000, 4),
    ],
)  # fmt: skip
def test_the_face_comes_from_the_index_by_die_type_and_firmware(
    kind: DieType, index: int, firmware: int, up: int
) -> None:
    assert px.face(kind, index, firmware) == up


def test_a_die_of_unknown_type_is_known_by_its_leds() -> None:
    legacy = px.parse(LEGACY[:3] + b"\x00" + LEGACY[4:])  # the byte the document leaves unused
    assert isinstance(legacy, Identity) and legacy.kind is DieType.D20 and legacy.sides == 20


def test_a_crooked_landing_of_an_old_d6_is_a_roll() -> None:
    old = Identity(1, DieType.D6, 6, 1_700_000_000, "", RollState.CROOKED, 2, 50, False)
    assert px.landed(old, RollState.CROOKED) is RollState.ROLLED
    new = Identity(1, DieType.D6, 6, 1_720_000_000, "", RollState.CROOKED, 2, 50, False)
    assert px.landed(new, RollState.CROOKED) is RollState.CROOKED


@pytest.mark.parametrize(
    ("data", "field"),
    [
        (b"", "type"), (bytes([3, 1]), "RollState"), (bytes([3, 9, 1]), "RollState.state"),
        (bytes([34, 101, 0]), "BatteryLevel.level"), (bytes([34, 50, 7]), "BatteryLevel.state"),
        (CHUNKED[:21], "IAmADie.dieInfo"), (CHUNKED[:-5], "IAmADie.statusInfo"),
        (CHUNKED[:-2] + b"\x09\x00", "IAmADie.statusInfo.rollState"),
        (LEGACY[:-1] + b"\x08", "IAmADie.batteryState"),
    ],
)  # fmt: skip
def test_bad_bytes_are_refused_naming_the_field(data: bytes, field: str) -> None:
    with pytest.raises(px.PixelsError) as refused:
        px.parse(data)
    assert refused.value.field == field


def test_a_face_the_die_has_not_is_refused() -> None:
    with pytest.raises(px.PixelsError, match="faceIndex"):
        px.face(DieType.D6, 6)
    with pytest.raises(px.PixelsError, match="faceIndex"):
        px.face(DieType.D6_FUDGE, 6)
    with pytest.raises(px.PixelsError, match="dieType"):
        px.face(DieType.UNKNOWN, 1)


def test_a_fudge_die_is_a_fate_die_each_symbol_on_two_opposite_faces() -> None:
    """Its six faces read as a d6's, whose opposite faces make 7 (DiceFirmware's D6 normals):
    1 and 6 are plus, 3 and 4 minus, 2 and 5 blank, a third of the die each (``FUDGE`` says
    whence)."""
    assert px.sides(DieType.D6_FUDGE) == px.FATE == 3 and px.faces(DieType.D6_FUDGE) == 6
    read = [px.face(DieType.D6_FUDGE, index) for index in range(6)]
    assert read == [3, 2, 1, 1, 2, 3]
    assert all(read[index] == read[5 - index] for index in range(6))  # opposite faces
    assert sorted(read) == [1, 1, 2, 2, 3, 3]
    # Its firmware gives it a d6's layout, but it never had a d6's wrong normals to mend.
    assert px.face(DieType.D6_FUDGE, 0, 1_700_000_000) == 3


DEVICE_INFORMATION = "0000180a-0000-1000-8000-00805f9b34fb"  # 0x180A, as bleak reports it


def test_adverts_carry_the_roll_state_and_battery() -> None:
    # Manufacturer data: LEDs, design (die type in the high nibble), roll state, face, battery
    # (the high bit: charging); service data, under 0x180A: pixel id, build timestamp.
    manufacturer = {0x0D39: bytes([20, 0x70, 1, 13, 0x80 | 64])}
    services = {DEVICE_INFORMATION: struct.pack("<II", 77, 1_720_000_000)}
    seen = px.advert("Jena", manufacturer, services)
    assert seen == Identity(77, DieType.D20, 20, 1_720_000_000, "Jena", RollState.ROLLED, 13,
                            64, True)  # fmt: skip
    # July 2022 to October 2024: the same, under the unassigned company key.
    assert px.advert("Jena", {0xFFFF: manufacturer[0x0D39]}, services) == seen
    # A host that kept the older key beside the new one (the die was updated) reads the new.
    kept = {0xFFFF: bytes([20, 0x70, 3, 2, 50]), **manufacturer}
    assert px.advert("Jena", kept, services) == seen
    # Service data under another key is read as the official scanner reads it: the first.
    assert px.advert("Jena", manufacturer, {px.SERVICE: services[DEVICE_INFORMATION]}) == seen
    # The advert alone, before its scan response: no service data, nothing to read yet.
    assert px.advert("Jena", manufacturer, {}) is None
    # Before July 2022: no service data; the company id field holds LEDs and design.
    old = px.advert("Old", {(6 << 8) | 1: struct.pack("<IBBB", 78, 1, 2, 255)}, {})
    assert old is not None and old.kind is DieType.D6 and old.battery == 100
    assert px.advert("Restarted", {}, {}) is None


# June to December 2022 (DiceFirmware 1eeb4f4 to 64a2f59, src/bluetooth/bluetooth_stack.cpp):
# CustomManufacturerData {ledCount, designAndColor (the look: DesignAndColor_Onyx_Back is 9),
# rollState, currentFace, batteryLevel = getCurrentLevel() * 255} under company 0xFFFF, and
# CustomServiceData {deviceId, buildTimestamp} under 0x180A; a d20 built 1 September 2022.
BUILT_2022 = 1_662_000_000


@pytest.mark.parametrize(("charge", "battery"), [(0.8, 80), (1.0, 100), (0.0, 0), (0.5, 50)])
def test_an_advert_of_2022_firmware_reads_its_charge_of_255_as_a_percentage(
    charge: float, battery: int
) -> None:
    manufacturer = {0xFFFF: struct.pack("<BBBBB", 20, 9, 1, 19, int(charge * 255))}
    services = {DEVICE_INFORMATION: struct.pack("<II", 0x2022, BUILT_2022)}
    seen = px.advert("Pixel", manufacturer, services)
    assert seen == Identity(0x2022, DieType.UNKNOWN, 20, BUILT_2022, "Pixel", RollState.ROLLED,
                            19, battery, False)  # fmt: skip
    assert seen.kind is DieType.D20 and seen.face(19) == 20  # its type from its LEDs


def test_an_advert_of_the_week_service_data_came_is_read() -> None:
    # 10 to 16 June 2022 (DiceFirmware 5c028a7): CustomServiceData {deviceId, firmwareBuild}, a
    # 16-bit build number where later firmware has its build time; the rest as above.
    manufacturer = {0xFFFF: struct.pack("<BBBBB", 6, 1, 1, 2, 255)}
    services = {DEVICE_INFORMATION: struct.pack("<IH", 0x0610, 42)}
    seen = px.advert("June", manufacturer, services)
    assert seen is not None and (seen.pixel_id, seen.kind, seen.battery) == (
        0x0610,
        DieType.D6,
        100,
    )
    assert seen.firmware == px.UNDATED_FIRMWARE and seen.face(2) == 4  # its old d6 normals


@given(st.integers(0, 255), st.integers(px.UNDATED_FIRMWARE, px.PERCENT_BATTERY_SINCE - 1))
def test_any_battery_byte_of_2022_firmware_is_a_percentage_and_no_charging(
    raw: int, built: int
) -> None:
    manufacturer = {0xFFFF: bytes([6, 1, 5, 0, raw])}
    seen = px.advert(None, manufacturer, {DEVICE_INFORMATION: struct.pack("<II", 9, built)})
    assert seen is not None and seen.battery is not None and 0 <= seen.battery <= 100
    assert not seen.charging


# What firmware before the chunks sent, written from DiceFirmware at the commit named: its
# WhoAreYouHandler (src/die_main.cpp) filling MessageIAmADie, and BatteryController's
# getBatteryLevel filling MessageBatteryLevel (src/bluetooth/bluetooth_messages.h, packed,
# little-endian). The IAmADie fields common to all: 02 (the type), LED count, DesignAndColor
# (src/config/dice_variants.h), a byte of padding (the behaviour's index until 2deba3f), the
# data set hash, the die's id, the flash left for data.
HEAD = "02 14 07 00 7adaed5e eeffc000 000c"  # a d20, V5_Black, hash, id 0x00C0FFEE, 3072 bytes
ERAS = {
    # 8b54da3 (21 September 2020): then versionInfo[6], strncpy'd from the Makefile's VERSION.
    "September 2020": HEAD + "30395f303500",  # "09_05"
    # 53dcd99 (23 November 2021): VERSION_INFO_SIZE 10.
    "November 2021": HEAD + "31315f32355f32310000",  # "11_25_21"
    # 5c028a7 (10 June 2022): and firmwareBuild, FW_VER = 0x1.
    "June 2022": HEAD + "30355f32375f32320000" + "0100",  # "05_27_22", build 1
    # 1eeb4f4 (16 June 2022): buildTimestamp, for the version and the build.
    "June to December 2022": HEAD + "801b1063",  # built 1 September 2022
}


@pytest.mark.parametrize("era", ERAS)
def test_an_i_am_a_die_of_each_era_before_december_2022_tells_who_the_die_is(era: str) -> None:
    """Neither its roll state nor its battery (it tells them apart), nor its type (known by its
    LEDs); its build time, if it tells one, else as of the undated firmware's adverts."""
    built = 1_662_000_000 if era == "June to December 2022" else px.UNDATED_FIRMWARE
    identity = px.parse(bytes.fromhex(ERAS[era]))
    assert identity == Identity(0x00C0FFEE, DieType.UNKNOWN, 20, built, "", RollState.UNKNOWN,
                                0, None, False)  # fmt: skip
    assert identity.kind is DieType.D20 and identity.sides == 20


# 64a2f59 to e4cfbbc (19 December 2022 to 16 May 2023): roll state and battery in IAmADie, and
# BatteryLevel {levelPercent, state} told unasked (src/notifications/battery_notifications.cpp,
# e41cdc3), the state one of the battery controller's own (src/modules/battery_controller.h,
# 2c2604a): 0 unknown, 1 ok, 2 low, 3 transition, 4 bad charging, 5 error, 6 charging,
# 7 trickle charge, 8 done, 9 too cold, 10 too hot.
WINTER_2023 = 1_673_000_000  # built 6 January 2023


@pytest.mark.parametrize(
    ("state", "read"),
    [(0, BatteryState.OK), (1, BatteryState.OK), (2, BatteryState.LOW), (3, BatteryState.OK),
     (4, BatteryState.BAD_CHARGING), (5, BatteryState.ERROR), (6, BatteryState.CHARGING),
     (7, BatteryState.CHARGING), (8, BatteryState.DONE), (9, BatteryState.ERROR),
     (10, BatteryState.ERROR)],
)  # fmt: skip
def test_the_battery_states_of_early_2023_are_read_as_that_firmware_meant_them(
    state: int, read: BatteryState
) -> None:
    assert px.parse(bytes([34, 61, state]), WINTER_2023) == px.Battery(61, read)
    told = px.parse(bytes.fromhex(HEAD + "40f4b763" + f"01 05 3d {state:02x}"))
    assert isinstance(told, Identity) and told.firmware == WINTER_2023
    assert (told.battery, told.charging) == (61, px.Battery(61, read).charging)
    assert (told.roll_state, told.face_index) == (RollState.ROLLED, 5)


def test_a_battery_state_no_firmware_of_the_time_had_is_refused() -> None:
    with pytest.raises(px.PixelsError, match=r"^BatteryLevel\.state"):
        px.parse(bytes([34, 61, 11]), WINTER_2023)
    with pytest.raises(px.PixelsError, match=r"^IAmADie\.batteryState"):
        px.parse(bytes.fromhex(HEAD + "40f4b763" + "01 05 3d 0b"))
    assert px.parse(bytes([34, 61, 1])) == px.Battery(61, BatteryState.LOW)  # today's 1


@pytest.mark.parametrize(
    ("data", "told"),
    [
        # 191a7c2 (October 2020) to 64a2f59: level (LookupChargeLevel, 0 to 1), vBat, charging.
        ("22 cdcc4c3f 9a997940 01", px.Battery(80, BatteryState.CHARGING)),  # 0.8, 3.9 V
        ("22 0000803f 66668640 00", px.Battery(100, BatteryState.OK)),  # 1.0, 4.2 V
        ("22 00000000 9a994940 00", px.Battery(0, BatteryState.OK)),  # 0.0, 3.15 V
    ],
)
def test_a_battery_level_of_before_december_2022_is_a_fraction_and_a_charging_flag(
    data: str, told: px.Battery
) -> None:
    assert px.parse(bytes.fromhex(data)) == told


@pytest.mark.parametrize(
    ("data", "field"),
    [("22 0000c03f 9a997940 00", "BatteryLevel.level"),  # 1.5
     ("22 0000c07f 9a997940 00", "BatteryLevel.level"),  # NaN
     ("22 cdcc4c3f 9a997940 02", "BatteryLevel.charging")],
)  # fmt: skip
def test_an_old_battery_level_out_of_its_range_is_refused(data: str, field: str) -> None:
    with pytest.raises(px.PixelsError) as refused:
        px.parse(bytes.fromhex(data))
    assert refused.value.field == field


ERA_BUILT = st.sampled_from([px.UNDATED_FIRMWARE, 1_662_000_000, WINTER_2023, 1_720_000_000])
"""A build time of each era whose battery states differ."""


@given(st.binary(max_size=80), ERA_BUILT)
def test_any_bytes_parse_or_are_refused_naming_a_field(data: bytes, built: int) -> None:
    try:
        px.parse(data, built)
    except px.PixelsError as refused:
        assert refused.field and str(refused).startswith(refused.field)


@given(
    st.sampled_from([2, 34]), st.sampled_from(sorted({*px.FIXED_I_AM_A_DIE, 10})), st.data(),
    ERA_BUILT,
)  # fmt: skip
def test_bytes_of_an_old_layouts_length_parse_or_are_refused_naming_a_field(
    kind: int, size: int, data: st.DataObject, built: int
) -> None:
    """Bytes as long as an ``IAmADie`` or ``BatteryLevel`` of some era, which random bytes
    seldom are: read as that era's, or refused."""
    message = bytes([kind]) + data.draw(st.binary(min_size=size - 1, max_size=size - 1))
    try:
        read = px.parse(message, built)
    except px.PixelsError as refused:
        assert refused.field.startswith(("IAmADie", "BatteryLevel"))
    else:
        assert isinstance(read, Identity | px.Battery | px.Other)


@given(st.binary(max_size=10), st.binary(max_size=10))
def test_any_advert_parses_or_is_refused_naming_a_field(manuf: bytes, service: bytes) -> None:
    try:
        px.advert(None, {px.COMPANY_ID: manuf}, {DEVICE_INFORMATION: service} if service else {})
    except px.PixelsError as refused:
        assert refused.field.startswith("advert.")


@given(
    st.integers(1, 2**32 - 1), st.sampled_from([DieType.D6, DieType.D10, DieType.D20]),
    st.sampled_from(list(RollState)), st.integers(0, 5), st.integers(0, 100), st.booleans(),
    st.text(max_size=12).filter(lambda name: "\0" not in name and len(name.encode()) < 32),
    st.booleans(),
)  # fmt: skip
def test_what_a_die_says_of_itself_reads_back(
    pixel_id: int, kind: DieType, state: RollState, index: int, battery: int, charging: bool,
    name: str, legacy: bool,
) -> None:  # fmt: skip
    die = Identity(pixel_id, kind, 20, 1_720_000_000, name, state, index, battery, charging)
    read = px.parse(px.i_am_a_die(die, legacy=legacy))
    assert read == (die if not legacy else Identity(**{**die.__dict__, "name": ""}))
    assert px.advert(name, *px.advertised(die, legacy=legacy)) == die


# GoDice: "S" and x, y, z as signed bytes when it settles.


@pytest.mark.parametrize(
    ("xyz", "shell", "up"),
    [
        ((64, 0, 0), go.Shell.D6, 6), ((-60, 3, -2), go.Shell.D6, 1), ((1, 2, 63), go.Shell.D6, 2),
        ((0, -64, 4), go.Shell.D6, 4),
        ((64, 0, 22), go.Shell.D20, 20), ((-64, 0, -22), go.Shell.D20, 1),
        ((40, 44, 41), go.Shell.D20, 14), ((0, 22, 64), go.Shell.D20, 4),
        ((42, -42, -42), go.Shell.D10, 5), ((-42, -42, 42), go.Shell.D10, 4),
        ((64, 0, -22), go.Shell.D10, 10), ((64, 0, -22), go.Shell.D10X, 100),
    ],
)  # fmt: skip
def test_a_settled_vector_is_a_face_for_its_shell(
    xyz: tuple[int, int, int], shell: go.Shell, up: int
) -> None:
    message = go.parse(b"S" + struct.pack("bbb", *xyz))
    assert message == go.Settled(go.Stability.STABLE, xyz) and message.rolled
    assert go.face(xyz, shell) == up


@pytest.mark.parametrize(
    ("data", "up"),
    [
        # One rest of the 24, (20, -60, -20), read in each shell that rests on them.
        (b"S\x14\xc4\xec", {go.Shell.D4: 3, go.Shell.D8: 3, go.Shell.D12: 1}),
        # Its opposite, (-20, 60, 20): a d12's numbers there are not a d6's "sum to 7".
        (b"S\xec\x3c\x14", {go.Shell.D4: 2, go.Shell.D8: 6, go.Shell.D12: 12}),
        # (60, 0, 20) and (40, 20, 40), a little off as a die at rest on felt would be.
        (b"S\x3a\x02\x15", {go.Shell.D4: 1, go.Shell.D8: 5, go.Shell.D12: 12}),
        (b"S\x2a\x12\x26", {go.Shell.D4: 4, go.Shell.D8: 2, go.Shell.D12: 5}),
    ],
)  # fmt: skip
def test_the_d4_d8_and_d12_shells_read_a_settled_die_on_their_24_rests(
    data: bytes, up: dict[go.Shell, int]
) -> None:
    message = go.parse(data)
    assert isinstance(message, go.Settled) and message.rolled
    assert {shell: go.face(message.vector, shell) for shell in up} == up


def test_each_shell_shows_its_own_numbers_and_nothing_else() -> None:
    assert {shell.value: go.sides(shell) for shell in go.Shell} == {
        "d4": 4, "d6": 6, "d8": 8, "d10": 10, "d10x": 100, "d12": 12, "d20": 20,
    }  # fmt: skip
    for shell in go.Shell:
        # every vector the die may report lands on a number of the shell
        shown = {go.face((x, y, z), shell) for x in range(-64, 65, 16)
                 for y in range(-64, 65, 16) for z in range(-64, 65, 16)}  # fmt: skip
        assert shown == set(go.numbers(shell)), shell
    with pytest.raises(go.GoDiceError, match="face"):
        go.vector(9, go.Shell.D8)


def test_godice_messages() -> None:
    assert go.parse(b"R") == go.Rolling()
    assert go.parse(b"TS" + bytes([64, 0, 0])) == go.Settled(go.Stability.TILT, (64, 0, 0))
    assert not go.Settled(go.Stability.TILT, (64, 0, 0)).rolled
    assert go.parse(b"Bat" + bytes([73])) == go.BatteryLevel(73)
    assert go.parse(b"Col" + bytes([3])) == go.Colour(3)
    # Pulse: 16, count, on and off (10 ms steps), red, green, blue, then 1, 0.
    assert go.pulse(3, 20, 10, (0, 255, 0)) == bytes([16, 3, 20, 10, 0, 255, 0, 1, 0])


@pytest.mark.parametrize(
    ("data", "field"),
    [
        (b"", "type"), (b"S\x01", "S.vector"), (b"FS\x01\x02\x03\x04", "FS.vector"),
        (b"Bat", "Bat.level"), (b"Bat\xff", "Bat.level"), (b"Col\x09", "Col.colour"),
        (b"Q\x00", "type"),
    ],
)  # fmt: skip
def test_bad_godice_bytes_are_refused_naming_the_field(data: bytes, field: str) -> None:
    with pytest.raises(go.GoDiceError) as refused:
        go.parse(data)
    assert refused.value.field == field


def test_a_pulse_out_of_range_is_refused() -> None:
    with pytest.raises(go.GoDiceError, match=r"pulse\.rgb"):
        go.pulse(1, 1, 1, (0, 256, 0))


@given(st.binary(max_size=12))
def test_any_godice_bytes_parse_or_are_refused_naming_a_field(data: bytes) -> None:
    try:
        go.parse(data)
    except go.GoDiceError as refused:
        assert refused.field and str(refused).startswith(refused.field)


@given(st.sampled_from(list(go.Shell)), st.data())
def test_every_face_of_every_shell_reads_back(shell: go.Shell, data: st.DataObject) -> None:
    number = data.draw(st.sampled_from(go.numbers(shell)))
    xyz = go.vector(number, shell)
    jitter = data.draw(st.tuples(*[st.integers(-8, 8)] * 3))
    x, y, z = (max(-128, min(127, a + b)) for a, b in zip(xyz, jitter, strict=True))
    nudged = (x, y, z)
    assert go.face(nudged, shell) == number
