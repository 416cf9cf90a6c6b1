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
        self._header = bytearray()
        self._left = 0  # payload bytes of the frame under way
        self._passing = True  # the frame under way is handed on
        self._message = 0  # bytes of the data message under way
        self._refused = False

    def feed_eof(self) -> None:
        self.inner.feed_eof()

    def feed_data(self, data: bytes) -> tuple[bool, bytes]:
        passed = bytearray()
        view = memoryview(data)
        while view:
            if self._left:
                taken, view = view[: self._left], view[self._left :]
                self._left -= len(taken)
                if self._passing:
                    passed += taken
                continue
            needed = _header_length(self._header)
            taken, view = view[: needed - len(self._header)], view[needed - len(self._header) :]
            self._header += taken
            if len(self._header) < _header_length(self._header):
                continue  # the rest of the header is in what follows, or comes next time
            header, self._header = bytes(self._header), bytearray()
            self._left = _payload_length(header)
            self._passing = self._admits(header[0])
            if self._passing:
                passed += header
        return self.inner.feed_data(bytes(passed)) if passed else (False, b"")

    def _admits(self, first: int) -> bool:
        """Whether the frame starting with ``first`` is handed on: all of them until a message
        grows past the bound; from then on only the client's close."""
        opcode, final = first & 0x0F, bool(first & 0x80)
        if self._refused:
            return opcode == CLOSE
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


def _header_length(header: bytearray) -> int:
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
