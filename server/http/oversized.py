"""A WebSocket message too big to read, closed as the protocol says: 1009, with a reason.

aiohttp refuses a message over its ``max_msg_size`` as soon as the frame's header announces
it, and closes the connection there and then, while the client is still sending the rest: the
client's next bytes meet a closed socket, the kernel answers them with a reset, and the client
sees the connection drop (1006) without ever reading the close frame. So the socket's frames
pass through ``Bounded`` first. It reads only their headers: a message that grows past the
bound is never handed on, the close (1009, and why) is written at once, and the rest of the
message, and whatever else the client sends but its close, is read and let go. The client's
close is handed on to aiohttp, which answers it and closes the connection, with nothing of the
client's left unread, so the client reads the 1009.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from aiohttp import WSCloseCode, web

CLOSE = 0x8
CONTINUATION = 0x0


def close_frame(code: int, reason: str) -> bytes:
    """A server's close frame (unmasked): the code, and the reason, cut to fit a control
    frame's 125 bytes on a character's edge (a reason is UTF-8)."""
    payload = code.to_bytes(2, "big") + reason.encode()[:123].decode(errors="ignore").encode()
    return bytes([0x80 | CLOSE, len(payload)]) + payload


class Bounded:
    """Stands before aiohttp's WebSocket reader on one connection (see the module)."""

    def __init__(self, inner: Any, largest: int, refuse: Callable[[int], None]) -> None:
        self.inner = inner
        self.largest = largest
        self.refuse = refuse
        """Called once, with the bytes announced, when a message grows past ``largest``."""
        self._header = bytearray()  # the start of a header, held back until the rest comes
        self._left = 0  # payload bytes of the frame under way
        self._passing = False  # once refused: whether the frame under way (a close) goes on
        self._message = 0  # bytes of the data message under way
        self._refused = False

    def feed_eof(self) -> None:
        self.inner.feed_eof()

    def feed_data(self, data: bytes) -> tuple[bool, bytes]:
        if self._header:  # a header the last read cut: read whole with what follows
            data, self._header = bytes(self._header) + data, bytearray()
        if self._refused:
            return self._hand_on(self._closes_in(data))
        at, end = 0, len(data)
        while at < end:
            if self._left:  # a payload: counted, not looked at
                step = min(self._left, end - at)
                self._left -= step
                at += step
                continue
            length = _header_length(data[at : at + 2])
            if end - at < length:
                self._header = bytearray(data[at:])  # held back until the rest comes
                break
            header = data[at : at + length]
            self._left = _payload_length(header)
            if not self._admits(header[0]):  # the message is too big: what came before it
                return self._hand_on(data[:at] + self._closes_in(data[at + length :]))
            at += length
        return self._hand_on(data[:at])  # the whole read, but for a header held back

    def _closes_in(self, data: bytes) -> bytes:
        """Once a message was refused: the client's close frames in ``data``, all else let
        go (the rest of the payload under way first)."""
        passed = bytearray()
        at, end = 0, len(data)
        while at < end:
            if self._left:
                step = min(self._left, end - at)
                if self._passing:
                    passed += data[at : at + step]
                self._left -= step
                at += step
                continue
            length = _header_length(data[at : at + 2])
            if end - at < length:
                self._header = bytearray(data[at:])
                break
            header = data[at : at + length]
            self._left = _payload_length(header)
            self._passing = header[0] & 0x0F == CLOSE
            if self._passing:
                passed += header
            at += length
        return bytes(passed)

    def _hand_on(self, data: bytes) -> tuple[bool, bytes]:
        return self.inner.feed_data(data) if data else (False, b"")

    def _admits(self, first: int) -> bool:
        """Whether the frame starting with ``first`` is handed on: every one until a message
        grows past the bound."""
        opcode, final = first & 0x0F, bool(first & 0x80)
        if opcode & 0x8:  # a control frame (close, ping, pong), 125 bytes at most
            return True
        self._message = (self._message if opcode == CONTINUATION else 0) + self._left
        if self._message > self.largest:
            self._refused = True
            self.refuse(self._message)
            return False
        if final:
            self._message = 0
        return True


def _header_length(header: bytes) -> int:
    """The bytes of a frame's header, as far as its first bytes tell (two at least)."""
    if len(header) < 2:
        return 2
    masked = 4 if header[1] & 0x80 else 0
    extended = {126: 2, 127: 8}.get(header[1] & 0x7F, 0)
    return 2 + extended + masked


def _payload_length(header: bytes) -> int:
    short = header[1] & 0x7F
    if short == 126:
        return int.from_bytes(header[2:4], "big")
    if short == 127:
        return int.from_bytes(header[2:10], "big")
    return short


def bound(request: web.Request, largest: int) -> None:
    """Put ``Bounded`` before the reader of the WebSocket ``request`` was just upgraded to."""
    protocol, transport = request.protocol, request.transport
    assert transport is not None  # upgraded: the connection is open

    def refuse(size: int) -> None:
        reason = f"message of {size} bytes: a message is at most {largest} bytes"
        transport.write(close_frame(WSCloseCode.MESSAGE_TOO_BIG, reason))

    protocol._payload_parser = Bounded(protocol._payload_parser, largest, refuse)
