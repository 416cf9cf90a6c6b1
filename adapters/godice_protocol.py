"""The Bluetooth messages of GoDice (Particula), apart from any connection.

A GoDice speaks over the Nordic UART service: the host writes commands on one characteristic
and the die notifies on the other. The die does not know which shell it wears (d4, d6, d8, d10,
d10x, d12, d20): when it comes to rest it reports its acceleration, one signed byte per axis
(``S`` + x, y, z; 1 g is about 64), and the host takes the face whose outward direction lies
closest to "down" as read in that shell. The d6 has its own six directions; the d10, the
tens die and the d20 are read on the d20's twenty; the d4, d8 and d12 on a set of 24. A
settled report other than a plain ``S`` (``FS``, ``TS``, ``MS``: a fake, tilted or slid
landing) is a face up but not a roll.

>>> parse(b"S" + bytes([64, 0, 0]))
Settled(stability=<Stability.STABLE: 'S'>, vector=(64, 0, 0))
>>> face((64, 0, 0), Shell.D6)
6
>>> face(vector(10, Shell.D10), Shell.D10)
10
>>> face((20, -60, -20), Shell.D8)
3
"""

from __future__ import annotations

import struct
from dataclasses import dataclass
from enum import Enum

from adapters.dice_bytes import DiceBytesError

SERVICE = "6e400001-b5a3-f393-e0a9-e50e24dcca9e"
WRITE = "6e400002-b5a3-f393-e0a9-e50e24dcca9e"
NOTIFY = "6e400003-b5a3-f393-e0a9-e50e24dcca9e"
NAME_PREFIX = "GoDice_"
"""How a GoDice names itself; its service is the Nordic UART, which other devices share."""

BATTERY_LEVEL = 3
SET_LEDS = 8
PULSE = 16
COLOUR = 23


class Shell(Enum):
    """The shell a die wears, which the host is told: it decides the number up."""

    D4 = "d4"
    D6 = "d6"
    D8 = "d8"
    D10 = "d10"
    D10X = "d10x"  # the percentile tens die
    D12 = "d12"
    D20 = "d20"


class Stability(Enum):
    STABLE = "S"
    FAKE = "FS"
    TILT = "TS"
    MOVE = "MS"


class GoDiceError(DiceBytesError):
    """Bytes that are not a GoDice message."""


@dataclass(frozen=True)
class Rolling:
    """The die started moving."""


@dataclass(frozen=True)
class Settled:
    stability: Stability
    vector: tuple[int, int, int]

    @property
    def rolled(self) -> bool:
        return self.stability is Stability.STABLE


@dataclass(frozen=True)
class BatteryLevel:
    level: int


@dataclass(frozen=True)
class Colour:
    colour: int  # 0 black, 1 red, 2 green, 3 blue, 4 yellow, 5 orange


Message = Rolling | Settled | BatteryLevel | Colour

# Down-facing directions of each face, as Particula's readers hold them (the godice package
# 0.1.2, xyzinterpret.py; the same figures in their JavaScript API and their C SDK).
# A d6's opposite faces sum to 7, along the axes. A d20's sum to 21 and point opposite ways, all
# but face 2: Particula put it at (42, -42, 40), not opposite face 19's (-42, 42, -42). We read
# with their table as it is, so that a die shows here the face their apps show.
_D6 = {1: (-64, 0, 0), 2: (0, 0, 64), 3: (0, 64, 0), 4: (0, -64, 0), 5: (0, 0, -64),
       6: (64, 0, 0)}  # fmt: skip
_D20 = dict(enumerate((
    (-64, 0, -22), (42, -42, 40), (0, 22, -64), (0, 22, 64), (-42, -42, 42),
    (22, 64, 0), (-42, -42, -42), (64, 0, -22), (-22, 64, 0), (42, -42, -42),
    (-42, 42, 42), (22, -64, 0), (-64, 0, 22), (42, 42, 42), (-22, -64, 0),
    (42, 42, -42), (0, -22, -64), (0, -22, 64), (-42, 42, -42), (64, 0, 22),
), 1))  # fmt: skip
_D10_OF_D20 = (8, 2, 6, 1, 4, 3, 9, 0, 7, 5)
"""The number a d10 shell shows for d20 faces 1 to 10; face 21 - n shows the same as n."""


# The d4, d8 and d12 shells share one set of 24 resting directions (Particula's published
# "d24" table, by position 1 to 24): each number of the shell is up in several of them, as
# listed below; the die cannot tell a d12's two rests of one number apart, nor need it.
_D24 = dict(enumerate((
    (20, -60, -20), (20, 0, 60), (-40, -40, 40), (-60, 0, 20), (40, 20, 40), (-20, -60, -20),
    (20, 60, 20), (-40, 20, -40), (-40, 40, 40), (-20, 0, 60), (-20, -60, 20), (60, 0, 20),
    (-60, 0, -20), (20, 60, -20), (20, 0, -60), (40, -20, -40), (-20, 60, -20), (-40, -40, -40),
    (40, -20, 40), (20, -60, 20), (60, 0, -20), (40, 20, -40), (-20, 0, -60), (-20, 60, 20),
), 1))  # fmt: skip
_RESTS_OF: dict[Shell, dict[int, tuple[int, ...]]] = {
    Shell.D4: {1: (2, 4, 7, 11, 12, 13, 22), 2: (9, 15, 18, 19, 20, 24),
               3: (1, 10, 16, 17, 23), 4: (3, 5, 6, 8, 14, 21)},
    Shell.D8: {1: (4, 7, 8), 2: (5, 15, 20), 3: (1, 2, 22), 4: (9, 13, 14), 5: (11, 12, 16),
               6: (3, 23, 24), 7: (10, 17, 18), 8: (6, 19, 21)},
    Shell.D12: {number: (number, number + 12) for number in range(1, 13)},
}  # fmt: skip
"""Which of the 24 rests shows each number, for the shells read on them."""
_UP_AT = {
    shell: {rest: number for number, rests in faces.items() for rest in rests}
    for shell, faces in _RESTS_OF.items()
}
"""The number up at each rest, for each of those shells."""


def _d10(d20_face: int) -> int:
    return _D10_OF_D20[min(d20_face, 21 - d20_face) - 1]


def _nearest(table: dict[int, tuple[int, int, int]], xyz: tuple[int, int, int]) -> int:
    """The number whose direction lies closest to ``xyz``, by the exact squared distance; of
    two as close, the lower number, as Particula's readers keep the first they meet going up
    their table and take a later one only if it is strictly closer."""
    x, y, z = xyz

    def reach(number: int) -> tuple[int, int]:
        a, b, c = table[number]
        return (a - x) ** 2 + (b - y) ** 2 + (c - z) ** 2, number

    return min(table, key=reach)


def face(xyz: tuple[int, int, int], shell: Shell) -> int:
    """The number up for a settled vector in ``shell``. A d10's "0" is 10 and a tens die's
    "00" is 100, as the rules count (Particula's readers give 0 for both)."""
    if shell is Shell.D6:
        return _nearest(_D6, xyz)
    if shell in _UP_AT:
        return _UP_AT[shell][_nearest(_D24, xyz)]
    d20 = _nearest(_D20, xyz)
    if shell is Shell.D20:
        return d20
    if shell is Shell.D10:
        return _d10(d20) or 10
    return _d10(d20) * 10 or 100


def sides(shell: Shell) -> int:
    return 100 if shell is Shell.D10X else int(shell.value[1:])


def numbers(shell: Shell) -> list[int]:
    """The numbers a die in ``shell`` can show."""
    return list(range(10, 101, 10)) if shell is Shell.D10X else list(range(1, sides(shell) + 1))


def vector(number: int, shell: Shell) -> tuple[int, int, int]:
    """A vector a die at rest with ``number`` up reports (for the simulated die)."""
    for xyz in _table(shell).values():
        if face(xyz, shell) == number:
            return xyz
    raise GoDiceError("face", f"a {shell.value} has no {number}")


def _table(shell: Shell) -> dict[int, tuple[int, int, int]]:
    """The resting directions a die in ``shell`` is read against, by their number."""
    if shell is Shell.D6:
        return _D6
    return _D24 if shell in _UP_AT else _D20


def parse(data: bytes | bytearray) -> Message:
    """One notification from a die, or a GoDiceError naming the field at fault."""
    data = bytes(data)
    if data == b"R":
        return Rolling()
    if data[:1] == b"S" or data[:2] in (b"FS", b"TS", b"MS"):
        kind = Stability(data[:1].decode() if data[:1] == b"S" else data[:2].decode())
        xyz = data[len(kind.value) :]
        if len(xyz) != 3:
            raise GoDiceError(f"{kind.value}.vector", f"{len(xyz)} bytes where x, y, z are 3")
        x, y, z = struct.unpack("<bbb", xyz)
        return Settled(kind, (x, y, z))
    if data[:3] == b"Bat":
        if len(data) != 4 or data[3] > 100:
            raise GoDiceError("Bat.level", f"{data[3:].hex()} is no percentage")
        return BatteryLevel(data[3])
    if data[:3] == b"Col":
        if len(data) != 4 or data[3] > 5:
            raise GoDiceError("Col.colour", f"{data[3:].hex()} is no GoDice colour")
        return Colour(data[3])
    raise GoDiceError("type", f"{data[:3]!r} starts no GoDice message")


# What a host sends.


def _rgb(rgb: tuple[int, int, int], field: str) -> bytes:
    if len(rgb) != 3 or not all(0 <= c <= 255 for c in rgb):
        raise GoDiceError(field, f"{rgb} is not three bytes of red, green, blue")
    return bytes(rgb)


def pulse(count: int, on_10ms: int, off_10ms: int, rgb: tuple[int, int, int]) -> bytes:
    """Flash both LEDs ``count`` times, on and off for the times given in 10 ms steps."""
    for value, field in ((count, "count"), (on_10ms, "on"), (off_10ms, "off")):
        if not 0 <= value <= 255:
            raise GoDiceError(f"pulse.{field}", f"{value} is not 0 to 255")
    return bytes([PULSE, count, on_10ms, off_10ms]) + _rgb(rgb, "pulse.rgb") + bytes([1, 0])


def set_leds(first: tuple[int, int, int], second: tuple[int, int, int]) -> bytes:
    return bytes([SET_LEDS]) + _rgb(first, "leds.first") + _rgb(second, "leds.second")


def request_battery() -> bytes:
    return bytes([BATTERY_LEVEL])


# What a die sends: for the simulated dice, and to build test fixtures against.


def settled(xyz: tuple[int, int, int], stability: Stability = Stability.STABLE) -> bytes:
    return stability.value.encode() + struct.pack("<bbb", *xyz)


def battery(level: int) -> bytes:
    return b"Bat" + bytes([level])
