"""A PN532 reader on a pseudo-terminal, for nfcpy's own ``pn532`` serial driver.

The chip speaks frames ``00 00 FF LEN LCS D4|D5 … DCS 00``: every command is acknowledged with
``00 00 FF 00 FF 00``, then answered in a frame of its own (nfcpy reads exactly six bytes, then
the rest, so the two must not run together). Tag commands (InListPassiveTarget,
InCommunicateThru, InDataExchange) go to a simulated NTAG215 when one is on the reader.

nfcpy only opens serial devices listed under /dev, so the reader is reached through a symlink
there (``/dev/seize-pn532`` → the pty): ``--device tty:seize-pn532:pn532``. Unplugging closes
the terminal; plugging back opens a new one behind the same symlink.
"""

from __future__ import annotations

import os
import pty
import select
import threading
import tty
from pathlib import Path

from adapters.simulators.ntag import Ntag215

ACK = bytes.fromhex("0000ff00ff00")


def frame(data: bytes) -> bytes:
    """An information frame as the PN532 sends it (a single 0x00 preamble): normal, or
    extended when the data is longer than 254 bytes."""
    checksum = (-sum(data)) & 0xFF
    length = len(data)
    if length < 255:
        head = bytes([length, (-length) & 0xFF])
    else:
        high, low = length >> 8, length & 0xFF
        head = bytes([0xFF, 0xFF, high, low, (-(high + low)) & 0xFF])
    return bytes([0x00, 0x00, 0xFF, *head, *data, checksum, 0x00])


def crc_a(data: bytes) -> bytes:
    """ISO/IEC 14443-3 CRC_A, low byte first."""
    crc = 0x6363
    for byte in data:
        mixed = byte ^ (crc & 0xFF)
        mixed = (mixed ^ (mixed << 4)) & 0xFF
        crc = ((crc >> 8) ^ (mixed << 8) ^ (mixed << 3) ^ (mixed >> 4)) & 0xFFFF
    return bytes([crc & 0xFF, crc >> 8])


class Pn532Simulator:
    def __init__(self, link: Path) -> None:
        self.link = link
        self.tag: Ntag215 | None = None
        self._master: int | None = None
        self._slave: int | None = None
        self._thread: threading.Thread | None = None
        self._buffer = bytearray()

    def plug(self) -> Pn532Simulator:
        master, slave = pty.openpty()
        tty.setraw(slave)
        self._master, self._slave, self._buffer = master, slave, bytearray()
        if self.link.is_symlink() or self.link.exists():
            self.link.unlink()
        self.link.symlink_to(os.ttyname(slave))
        self._thread = threading.Thread(target=self._serve, args=(master,), daemon=True)
        self._thread.start()
        return self

    def unplug(self) -> None:
        master, slave = self._master, self._slave
        self._master = self._slave = None
        for fd in (master, slave):
            if fd is not None:
                os.close(fd)
        if self._thread is not None:
            self._thread.join(timeout=2)
        if self.link.is_symlink():
            self.link.unlink()

    def present(self, uid: bytes, text: str | None) -> None:
        self.tag = Ntag215(uid, text)

    def remove(self) -> None:
        self.tag = None

    def _serve(self, master: int) -> None:
        """Answer the host until unplugged; the terminal closing under a read or a write is how
        an unplug reaches this thread."""
        while self._master == master:
            try:
                readable, _, _ = select.select([master], [], [], 0.1)
                if not readable:
                    continue
                self._buffer += os.read(master, 1024)
                for command in self._commands():
                    os.write(master, ACK)
                    reply = self.answer(command)
                    if reply is not None:
                        os.write(master, frame(bytes([0xD5, command[1] + 1, *reply])))
            except OSError:
                return

    def _commands(self) -> list[bytes]:
        """Complete host frames in the buffer (wake-up preambles and ACKs skipped)."""
        found: list[bytes] = []
        while True:
            start = self._buffer.find(b"\x00\xff")
            if start < 0 or len(self._buffer) < start + 4:
                return found
            length, body = self._buffer[start + 2], start + 4
            if length == 0:  # an ACK from the host
                del self._buffer[:body]
                continue
            if length == 0xFF and self._buffer[start + 3] == 0xFF:  # an extended frame
                if len(self._buffer) < start + 7:
                    return found
                length, body = self._buffer[start + 4] << 8 | self._buffer[start + 5], start + 7
            end = body + length + 1
            if len(self._buffer) < end:
                return found
            found.append(bytes(self._buffer[body : body + length]))
            del self._buffer[:end]

    def answer(self, command: bytes) -> bytes | None:
        """The data of the chip's answer (after D5 and the answer code)."""
        code, data = command[1], command[2:]
        if code == 0x00:  # Diagnose, the communication line test: echoes its data
            return data
        if code == 0x02:  # GetFirmwareVersion: PN532 v1.6, all card types
            return bytes.fromhex("32010607")
        if code == 0x06:  # ReadRegister: two bytes an address
            return bytes(len(data) // 2)
        if code == 0x4A:  # InListPassiveTarget
            if self.tag is None or data[1:2] != b"\x00":
                return b"\x00"
            uid = self.tag.uid
            return bytes([1, 1, 0x00, 0x44, 0x00, len(uid), *uid])
        if code in (0x40, 0x42):  # InDataExchange (target number first) or InCommunicateThru
            frame_data = data[1:] if code == 0x40 else data
            reply = self.tag.answer(frame_data) if self.tag else None
            if reply is None:
                return b"\x01"  # status: timeout
            if code == 0x42 and len(reply) > 1:
                # nfcpy turns the chip's CRC check off for Type 2 Tags (to see ACK and NAK) and
                # checks the tag's CRC_A itself: pass it through, as the chip then does.
                reply += crc_a(reply)
            return b"\x00" + reply
        if code in (0x16, 0x44, 0x52):  # PowerDown, InDeselect, InRelease: a status
            return b"\x00"
        return b""  # SAMConfiguration, RFConfiguration, WriteRegister, SetParameters, …
