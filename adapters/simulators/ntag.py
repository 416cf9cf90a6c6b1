"""An NTAG215 answering nfcpy's ``udp`` driver: a card with an NFC sticker, in software.

nfcpy's ``udp`` driver sends each frame as a datagram, ``"<bitrate> <hex>"`` (``"106A 26"``), and
expects the tag's answer the same way, without CRCs. This tag answers the anticollision of a
7-byte UID in two cascade levels, keeps silent on AUTHENTICATE (``1A 00``, so nfcpy knows it is
no Ultralight C), answers GET_VERSION (``60``) as an NTAG215, and READs and WRITEs its 135 pages,
which hold an NDEF text record naming the card.

Run ``python -m adapters.simulators.ntag --port 54321``; on standard input, ``present <uid hex>
[<text>]`` puts a tag on the reader (with an NDEF text record if text is given), ``remove``
takes it off, ``quit`` stops.
"""

from __future__ import annotations

import argparse
import functools
import operator
import select
import socket
import sys

import ndef

PAGES = 135
VERSION = bytes.fromhex("0004040201001103")  # NTAG215
ACK, NAK = b"\x0a", b"\x00"


def memory(uid: bytes, text: str | None) -> bytearray:
    """The tag's pages: UID and check bytes, the NDEF capability container, the message."""
    mem = bytearray(PAGES * 4)
    bcc0 = 0x88 ^ uid[0] ^ uid[1] ^ uid[2]
    bcc1 = functools.reduce(operator.xor, uid[3:7])
    mem[0:16] = bytes([*uid[0:3], bcc0, *uid[3:7], bcc1, 0x48, 0, 0, 0xE1, 0x10, 0x3E, 0x00])
    message = b"".join(ndef.message_encoder([ndef.TextRecord(text)])) if text else b""
    tlv = bytes([0x03, len(message)]) + message + b"\xfe"
    mem[16 : 16 + len(tlv)] = tlv
    return mem


class Ntag215:
    def __init__(self, uid: bytes, text: str | None) -> None:
        assert len(uid) == 7, "an NTAG's UID is 7 bytes"
        self.uid = uid
        self.mem = memory(uid, text)

    def answer(self, frame: bytes) -> bytes | None:
        """The tag's answer to one frame, or None to keep silent."""
        uid, command = self.uid, frame[:1]
        if frame in (b"\x26", b"\x52"):  # SENS_REQ / ALL_REQ
            return b"\x44\x00"
        if frame == b"\x93\x20":  # anticollision, cascade level 1: the cascade tag and 3 bytes
            return bytes([0x88, *uid[0:3], 0x88 ^ uid[0] ^ uid[1] ^ uid[2]])
        if frame.startswith(b"\x93\x70"):
            return b"\x04"  # UID not complete
        if frame == b"\x95\x20":  # cascade level 2
            return bytes([*uid[3:7], functools.reduce(operator.xor, uid[3:7])])
        if frame.startswith(b"\x95\x70"):
            return b"\x00"  # complete: a Type 2 Tag
        if command == b"\x60":
            return VERSION
        if command == b"\x30" and len(frame) == 2:  # READ four pages
            page = frame[1]
            if page >= PAGES:
                return NAK
            return bytes(self.mem[(page * 4 + i) % len(self.mem)] for i in range(16))
        if command == b"\xa2" and len(frame) == 6:  # WRITE one page
            page = frame[1]
            if not 4 <= page < 130:
                return NAK
            self.mem[page * 4 : page * 4 + 4] = frame[2:6]
            return ACK
        return None  # AUTHENTICATE, HALT, anything else: silence


def serve(port: int) -> None:
    """Answer on ``port`` while commands arrive on standard input."""
    udp = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    udp.bind(("127.0.0.1", port))
    tag: Ntag215 | None = None
    print(f"ready {udp.getsockname()[1]}", flush=True)
    while True:
        readable, _, _ = select.select([udp, sys.stdin], [], [])
        if sys.stdin in readable:
            words = sys.stdin.readline().split(maxsplit=2)
            if not words or words[0] == "quit":
                return
            if words[0] == "present":
                text = words[2].strip() if len(words) > 2 else None
                tag = Ntag215(bytes.fromhex(words[1]), text)
            elif words[0] == "remove":
                tag = None
            print("ok", flush=True)
        if udp in readable:
            datagram, sender = udp.recvfrom(1024)
            parts = datagram.split()
            if tag is None or len(parts) != 2 or parts[0] != b"106A":
                continue
            reply = tag.answer(bytes.fromhex(parts[1].decode()))
            if reply is not None:
                udp.sendto(b"106A " + reply.hex().encode(), sender)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--port", type=int, default=54321)
    serve(parser.parse_args(argv).port)


if __name__ == "__main__":
    main()
