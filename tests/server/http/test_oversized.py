"""The bound before a socket's reader: whatever frames a client sends, cut wherever the network
cuts them, the reader is handed exactly the frames before the first message over the bound
(and the client's close after it), and the refusal comes once, naming the message's size."""

from __future__ import annotations

import os

from hypothesis import given
from hypothesis import strategies as st

from server.http.oversized import Bounded, close_frame

LARGEST = 300


def frame(opcode: int, payload: bytes, final: bool = True) -> bytes:
    """A client's frame, masked as a client's always are."""
    size = len(payload)
    if size < 126:
        length = bytes([0x80 | size])
    elif size < 1 << 16:
        length = bytes([0x80 | 126]) + size.to_bytes(2, "big")
    else:
        length = bytes([0x80 | 127]) + size.to_bytes(8, "big")
    mask = os.urandom(4)
    masked = bytes(b ^ mask[i % 4] for i, b in enumerate(payload))
    return bytes([(0x80 if final else 0) | opcode]) + length + mask + masked


class Reader:
    """What aiohttp's reader is given."""

    def __init__(self) -> None:
        self.given = bytearray()

    def feed_data(self, data: bytes) -> tuple[bool, bytes]:
        self.given += data
        return False, b""

    def feed_eof(self) -> None:
        pass


MESSAGES = st.lists(
    st.one_of(
        st.lists(st.integers(0, 70_000), min_size=1, max_size=3).map(lambda s: ("data", s)),
        st.just(("ping", [4])),
    ),
    max_size=6,
)


@given(MESSAGES, st.lists(st.integers(1, 5000), max_size=40))
def test_the_reader_gets_what_comes_before_a_message_too_big_and_the_close(
    messages: list[tuple[str, list[int]]], cuts: list[int]
) -> None:
    sent, expected, refused_at = bytearray(), bytearray(), None
    for kind, sizes in messages:
        if kind == "ping":
            piece = frame(0x9, b"ping")
            sent += piece
            expected += piece if refused_at is None else b""
            continue
        total = 0
        for n, size in enumerate(sizes):
            piece = frame(0x1 if n == 0 else 0x0, b"x" * size, final=n == len(sizes) - 1)
            sent += piece
            total += size
            if refused_at is None and total > LARGEST:
                refused_at = total
            if refused_at is None:
                expected += piece
    goodbye = frame(0x8, (1000).to_bytes(2, "big"))
    sent += goodbye
    expected += goodbye
    reader, refusals = Reader(), list[int]()
    bounded = Bounded(reader, LARGEST, refusals.append)
    data = bytes(sent)
    for cut in [*cuts, len(data)]:
        piece, data = data[:cut], data[cut:]
        if piece:
            bounded.feed_data(piece)
    assert reader.given == expected
    assert refusals == ([] if refused_at is None else [refused_at])


def test_a_close_frame_says_its_code_and_reason_within_a_control_frames_bytes() -> None:
    closing = close_frame(1009, "é" * 200)
    assert closing[:4] == bytes([0x88, 124]) + (1009).to_bytes(2, "big")
    assert closing[4:].decode() == "é" * 61  # whole characters, within 125 bytes
