"""A dice tray on a pseudo-terminal, behind a stable path as udev would give a real one.

It speaks the tray protocol, and can be unplugged (its side of the terminal closed, its path
removed) and plugged back (a new terminal behind the same path), as a USB tray can.
"""

from __future__ import annotations

import os
import pty
import tty
from pathlib import Path

from adapters.tray_protocol import framed


class TraySimulator:
    def __init__(self, link: Path, device: str = "tray1", firmware: str = "1.0.0") -> None:
        self.link = link
        self.device = device
        self.firmware = firmware
        self.seq = 0
        self._master: int | None = None
        self._slave: int | None = None

    def plug(self) -> TraySimulator:
        master, slave = pty.openpty()
        tty.setraw(slave)
        self._master, self._slave = master, slave
        if self.link.is_symlink() or self.link.exists():
            self.link.unlink()
        self.link.symlink_to(os.ttyname(slave))
        return self

    def unplug(self) -> None:
        for fd in (self._master, self._slave):
            if fd is not None:
                os.close(fd)
        self._master = self._slave = None
        if self.link.is_symlink():
            self.link.unlink()

    def send(self, line: str) -> None:
        self.spew(line.encode() + b"\r\n")

    def spew(self, data: bytes) -> None:
        """Raw bytes on the line, as a tray at the wrong speed or a loose wire gives."""
        assert self._master is not None, "the tray is unplugged"
        os.write(self._master, data)

    def message(self, kind: str, *fields: str) -> str:
        line = framed(self.device, self.seq, kind, *fields)
        self.seq = (self.seq + 1) % 65536
        self.send(line)
        return line

    def hello(self) -> str:
        return self.message("HELLO", self.firmware)

    def heartbeat(self) -> str:
        return self.message("HB")

    def roll(self, sides: int, *faces: int) -> str:
        return self.message("ROLL", str(sides), *map(str, faces))
