"""The dice-tray line protocol (firmware-config/tray-protocol.md): parsing, checksums, and the
sequence numbers that drop resends.

>>> line = framed("tray1", 2, "ROLL", "6", "3", "5")
>>> line
'$SEIZE,tray1,2,ROLL,6,3,5*70'
>>> parse(line)
Roll(device='tray1', seq=2, sides=6, faces=(3, 5))
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass, field
from functools import reduce

SIDES = frozenset({4, 6, 8, 10, 12, 20, 100})
MAX_LINE = 120
DEVICE = re.compile(r"[A-Za-z0-9-]{1,16}")
PRINTABLE = re.compile(r"[ -~]*")


class LineError(ValueError):
    """A line that is not a message; ``reason`` is what the counters count it under."""

    def __init__(self, reason: str, detail: str = "") -> None:
        super().__init__(f"{reason}: {detail}" if detail else reason)
        self.reason = reason


@dataclass(frozen=True)
class Hello:
    device: str
    seq: int
    firmware: str


@dataclass(frozen=True)
class Heartbeat:
    device: str
    seq: int


@dataclass(frozen=True)
class Roll:
    device: str
    seq: int
    sides: int
    faces: tuple[int, ...]


Message = Hello | Heartbeat | Roll


def checksum(body: str) -> str:
    return f"{reduce(lambda acc, ch: acc ^ ord(ch), body, 0):02X}"


def framed(device: str, seq: int, kind: str, *fields: str) -> str:
    """A message as a tray sends it (without the line ending)."""
    body = ",".join(("SEIZE", device, str(seq), kind, *fields))
    return f"${body}*{checksum(body)}"


def _number(text: str, low: int, high: int, what: str) -> int:
    """A decimal number as a tray writes it: no sign, no leading zero, within its range."""
    if not text.isdigit() or text != str(int(text)):
        raise LineError("garbled", f"{what} {text!r} is not a plain number")
    if not low <= int(text) <= high:
        raise LineError("out_of_range", f"{what} {text!r} is not {low} to {high}")
    return int(text)


def _text(line: str | bytes | bytearray) -> str:
    r"""The line without its one ending (``\r\n`` or ``\n``), refused unless every other
    character is printable ASCII: a second ending, a line end inside it or a stray control
    byte means two lines ran together or a byte was lost, and a ``str`` is held to the same
    bytes a tray can send (``'²'.isdigit()`` is true, but no tray writes it)."""
    if isinstance(line, bytes | bytearray):
        try:
            line = line.decode("ascii")
        except UnicodeDecodeError:
            raise LineError("garbled", "not ASCII") from None
    elif not isinstance(line, str):
        raise LineError("garbled", f"a {type(line).__name__} is not a line")
    if line.endswith("\r\n"):
        line = line[:-2]
    elif line.endswith("\n"):
        line = line[:-1]
    if not PRINTABLE.fullmatch(line):
        raise LineError("garbled", "a line end or a character no tray sends")
    return line


def parse(line: str | bytes | bytearray) -> Message:
    r"""One line (with or without its ending) as a message, or a LineError saying why not.

    >>> parse(b"$SEIZE,tray1,1,HB*78\r\r\n")
    Traceback (most recent call last):
    ...
    adapters.tray_protocol.LineError: garbled: a line end or a character no tray sends
    """
    line = _text(line)
    if len(line) > MAX_LINE:
        raise LineError("garbled", "longer than 120 bytes")
    if not line.startswith("$"):
        raise LineError("garbled", "does not start with $")
    if "*" not in line:
        raise LineError("unchecksummed")
    body, _, given = line[1:].rpartition("*")
    if len(given) != 2 or given.upper() != given or checksum(body) != given:
        raise LineError("bad_checksum", f"{given!r}")
    parts = body.split(",")
    if len(parts) < 4 or parts[0] != "SEIZE":
        raise LineError("garbled", "not a SEIZE sentence")
    _, device, seq_text, kind, *fields = parts
    if not DEVICE.fullmatch(device):
        raise LineError("garbled", f"device id {device!r}")
    seq = _number(seq_text, 0, 65535, "sequence")
    if kind == "HELLO" and len(fields) == 1 and fields[0]:
        return Hello(device, seq, fields[0])
    if kind == "HB" and not fields:
        return Heartbeat(device, seq)
    if kind == "ROLL" and 2 <= len(fields) <= 11:
        sides = _number(fields[0], 4, 100, "die size")
        if sides not in SIDES:
            raise LineError("out_of_range", f"no d{sides}")
        return Roll(device, seq, sides, tuple(_number(f, 1, sides, "face") for f in fields[1:]))
    raise LineError("unknown", f"{kind} with {len(fields)} fields")


@dataclass
class Tray:
    """What a tray has said: lines are fed in as they arrive, and each new message comes out
    once. Bad lines are counted by reason, resends (a sequence seen last) dropped."""

    bad: Counter[str] = field(default_factory=Counter)
    last_seq: dict[str, int] = field(default_factory=dict)
    firmware: dict[str, str] = field(default_factory=dict)
    resends: int = 0
    refusal: LineError | None = None
    """Why the line fed last was refused; None when it was a message or a resend."""

    def feed(self, line: str | bytes) -> Message | None:
        self.refusal = None
        try:
            message = parse(line)
        except LineError as error:
            self.bad[error.reason] += 1
            self.refusal = error
            return None
        if isinstance(message, Hello):
            self.firmware[message.device] = message.firmware
        elif self.last_seq.get(message.device) == message.seq:
            self.resends += 1
            return None
        self.last_seq[message.device] = message.seq
        return message
