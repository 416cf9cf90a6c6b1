"""The dice-tray line protocol: what parses, what is refused and why, and a fuzz of 10⁵ lines."""

from __future__ import annotations

import doctest
import os
import random
from pathlib import Path

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

import adapters.tray_protocol
from adapters.tray_protocol import (
    Heartbeat,
    Hello,
    LineError,
    Roll,
    Tray,
    framed,
    parse,
)

SPEC = Path(__file__).parents[2] / "firmware-config" / "tray-protocol.md"


def test_the_docstring_examples_hold() -> None:
    assert doctest.testmod(adapters.tray_protocol).failed == 0


def test_the_specifications_examples_parse_as_it_says() -> None:
    examples = [
        line.strip()
        for line in SPEC.read_text().splitlines()
        if line.strip().startswith("$SEIZE,") and "<" not in line
    ]
    assert [parse(line) for line in examples] == [
        Hello("tray1", 0, "1.2.0"),
        Heartbeat("tray1", 1),
        Roll("tray1", 2, 6, (3, 5)),
        Roll("tray1", 3, 10, (7,)),
    ]


@pytest.mark.parametrize(
    ("line", "reason"),
    [
        ("", "garbled"), ("garbage", "garbled"), ("$SEIZE,tray1,2,ROLL,6,3,5", "unchecksummed"),
        ("$SEIZE,tray1,2,ROLL,6,3,5*71", "bad_checksum"),
        ("$SEIZE,tray1,2,ROLL,6,3,5*70x", "bad_checksum"),
        (framed("tray1", 2, "ROLL", "6", "7"), "out_of_range"),
        (framed("tray1", 2, "ROLL", "7", "3"), "out_of_range"),
        (framed("tray1", 70000, "HB"), "out_of_range"),
        (framed("tray1", 2, "SPIN"), "unknown"), (framed("tray1", 2, "ROLL", "6"), "unknown"),
        (framed("tray one", 2, "HB"), "garbled"), (framed("x" * 17, 2, "HB"), "garbled"),
        ("$" + "A" * 130 + "*00", "garbled"), (b"$SEIZE\xff*00", "garbled"),
    ],
)  # fmt: skip
def test_a_bad_line_is_refused_for_its_reason(line: str | bytes, reason: str) -> None:
    with pytest.raises(LineError) as refused:
        parse(line)
    assert refused.value.reason == reason


def test_a_resend_is_dropped_and_bad_lines_are_counted() -> None:
    tray = Tray()
    roll = framed("tray1", 5, "ROLL", "6", "1", "6")
    assert tray.feed(roll + "\r\n") == Roll("tray1", 5, 6, (1, 6))
    assert tray.feed(roll) is None and tray.resends == 1
    assert tray.feed(framed("tray1", 6, "HB")) == Heartbeat("tray1", 6)
    assert tray.feed("$SEIZE,tray1,7,HB*00") is None and tray.bad["bad_checksum"] == 1


def mutate(line: str, rng: random.Random) -> str:
    """One random change: a flipped, dropped, doubled or inserted byte, or a cut line."""
    if not line:
        return chr(rng.randrange(128))
    at = rng.randrange(len(line))
    match rng.randrange(5):
        case 0:
            return line[:at] + chr(ord(line[at]) ^ (1 << rng.randrange(7))) + line[at + 1 :]
        case 1:
            return line[:at] + line[at + 1 :]
        case 2:
            return line[:at] + line[at] + line[at:]
        case 3:
            return line[:at] + chr(rng.randrange(32, 127)) + line[at:]
        case _:
            return line[:at]


def valid_line(rng: random.Random) -> str:
    sides = rng.choice(sorted(adapters.tray_protocol.SIDES))
    faces = [str(rng.randint(1, sides)) for _ in range(rng.randint(1, 10))]
    kind = rng.choice(["ROLL", "ROLL", "HB", "HELLO"])
    fields = {"ROLL": [str(sides), *faces], "HB": [], "HELLO": ["1.2.0"]}[kind]
    return framed(rng.choice(["tray1", "T-2", "a"]), rng.randrange(65536), kind, *fields)


def reframed(message: Hello | Heartbeat | Roll) -> str:
    match message:
        case Roll():
            return framed(
                message.device, message.seq, "ROLL", str(message.sides), *map(str, message.faces)
            )
        case Hello():
            return framed(message.device, message.seq, "HELLO", message.firmware)
        case Heartbeat():
            return framed(message.device, message.seq, "HB")


LINES_PER_EXAMPLE = 2_500


@settings(max_examples=40 if os.environ.get("CI") else 100)
@given(seed=st.integers(0, 2**32))
def test_fuzz_no_crash_no_false_roll_every_bad_line_counted(seed: int) -> None:
    """40 examples of 2,500 lines: 10⁵ lines in CI; random bytes, mutated and valid lines.
    Some ten seconds outside CI (100 examples, on a loaded machine): a fuzzer finds the
    rare line by the number of lines it tries."""
    rng = random.Random(seed)
    tray = Tray()
    good = 0
    for _ in range(LINES_PER_EXAMPLE):
        kind = rng.randrange(3)
        if kind == 0:
            line = "".join(chr(rng.randrange(256)) for _ in range(rng.randrange(60)))
        else:
            line = valid_line(rng)
            for _ in range(rng.randrange(1, 4) if kind == 1 else 0):
                line = mutate(line, rng)
        before = sum(tray.bad.values()) + tray.resends
        message = tray.feed(line)
        if message is not None:
            good += 1
            assert reframed(message) == line.rstrip("\r\n")  # nothing read loosely
        else:
            assert sum(tray.bad.values()) + tray.resends == before + 1  # every refusal counted
    assert good + sum(tray.bad.values()) + tray.resends == LINES_PER_EXAMPLE


@st.composite
def valid_lines(draw: st.DrawFn) -> str:
    """A line as a tray writes it, without its ending."""
    return valid_line(random.Random(draw(st.integers(0, 2**32))))


@given(line=valid_lines(), ending=st.sampled_from(["", "\n", "\r\n"]))
def test_a_line_parses_the_same_as_text_or_bytes_with_either_ending(line: str, ending: str) -> None:
    assert parse(line + ending) == parse((line + ending).encode("ascii")) == parse(line)


@given(
    line=valid_lines(),
    extra=st.sampled_from(["\r", "\n", "\r\r", "\n\r", "\r\n", "\0"]),
    ending=st.sampled_from(["", "\n", "\r\n"]),
    data=st.data(),
)
def test_an_extra_line_end_anywhere_in_a_line_refuses_it(
    line: str, extra: str, ending: str, data: st.DataObject
) -> None:
    """``…*70\\r\\r\\n``, a ``\\n`` inside the line: two lines ran together or a byte was lost."""
    at = data.draw(st.integers(0, len(line)))
    # At the very end, "\r" then "\n" (or "\n" alone) is not extra: it is the line's ending.
    assume(not (at == len(line) and extra + ending in ("\n", "\r\n")))
    broken = line[:at] + extra + line[at:] + ending
    for given_as in (broken, broken.encode("ascii")):
        with pytest.raises(LineError) as refused:
            parse(given_as)
        assert refused.value.reason == "garbled"


@given(line=st.one_of(st.text(max_size=200), st.binary(max_size=200)))
def test_any_text_or_bytes_is_a_message_or_the_protocols_own_refusal(
    line: str | bytes,
) -> None:
    """No input raises anything but a LineError: not a str of digits no tray writes (``'²'``),
    not a control character, not a line end in the wrong place."""
    try:
        message = parse(line)
    except LineError:
        return
    text = line.decode("ascii") if isinstance(line, bytes) else line
    assert reframed(message) == text.removesuffix("\n").removesuffix("\r")


def test_a_str_with_digits_no_tray_writes_is_refused_not_crashed() -> None:
    """``'²'.isdigit()`` is true but ``int('²')`` raises ValueError: a text line is held to the
    characters a tray sends."""
    body = "SEIZE,tray1,²,HB"
    with pytest.raises(LineError) as refused:
        parse(f"${body}*{adapters.tray_protocol.checksum(body)}")
    assert refused.value.reason == "garbled"
    tray = Tray()
    assert tray.feed(f"${body}*{adapters.tray_protocol.checksum(body)}") is None
    assert tray.bad == {"garbled": 1}


def test_a_bytearray_is_read_as_bytes() -> None:
    assert parse(bytearray(b"$SEIZE,tray1,1,HB*78\r\n")) == Heartbeat("tray1", 1)


@pytest.mark.parametrize("line", [78, None, ["$SEIZE,tray1,1,HB*78"]])
def test_what_is_not_a_line_is_refused_by_the_protocol(line: object) -> None:
    with pytest.raises(LineError, match="is not a line"):
        parse(line)  # type: ignore[arg-type]
