"""A dice tray on a serial port: lines in, rolls to the table.

The port is opened with DTR and RTS held low, so opening it does not reset an ESP32. pyserial
reads in a worker thread beside the event loop. A tray unplugged is reported and looked for
again with growing pauses; plugged back, it is reopened without a restart. Bad lines are
counted by reason and reported, never rolled.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from dataclasses import dataclass, field
from typing import Any

import serial

from adapters.link import TableLink, command_for_roll
from adapters.tray_protocol import Heartbeat, Hello, Roll, Tray

log = logging.getLogger("seize.tray")


def open_port(path: str, baudrate: int = 115200) -> serial.Serial:
    port = serial.Serial()
    port.port = path
    port.baudrate = baudrate
    port.timeout = 0.2
    port.dtr = False  # before open: changing either line resets an ESP32
    port.rts = False
    port.open()
    return port


@dataclass
class TrayStatus:
    """What the tray adapter reports."""

    connected: bool = False
    firmware: dict[str, str] = field(default_factory=dict)
    last_heard: float | None = None
    rolls_sent: int = 0
    rolls_unwanted: int = 0
    refused: list[dict[str, Any]] = field(default_factory=list)
    reconnects: int = 0

    def report(self) -> dict[str, Any]:
        return {
            "kind": "dice tray",
            "connected": self.connected,
            "firmware": self.firmware,
            "rolls": self.rolls_sent,
            "unwanted": self.rolls_unwanted,
            "asking": self.refused[-1].get("message") if self.refused else None,
        }


class TrayAdapter:
    def __init__(
        self, path: str, link: TableLink, *, max_pause: float = 5.0, name: str = "tray"
    ) -> None:
        self.path = path
        self.name = name
        self.link = link
        self.max_pause = max_pause
        self.tray = Tray()
        self.status = TrayStatus()
        self._stop = asyncio.Event()

    def stop(self) -> None:
        self._stop.set()

    async def run(self) -> None:
        """Read the tray until stopped, reopening it whenever it comes back."""
        pause = 0.05
        while not self._stop.is_set():
            try:
                port = await asyncio.to_thread(open_port, self.path)
            except (serial.SerialException, OSError):
                await self._wait(pause)
                pause = min(pause * 2, self.max_pause)
                continue
            pause = 0.05
            self.status.connected = True
            log.info("tray connected", extra={"port": self.path})
            await self.report()
            try:
                await self._read(port)
            finally:
                port.close()
                if self.status.connected:
                    self.status.connected = False
                    self.status.reconnects += 1
                    log.warning("tray unplugged", extra={"port": self.path})
                    await self.report()
        await self.link.close()

    async def _wait(self, seconds: float) -> None:
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self._stop.wait(), seconds)

    async def _read(self, port: serial.Serial) -> None:
        while not self._stop.is_set():
            try:
                line = await asyncio.to_thread(port.readline)
            except (serial.SerialException, OSError):
                return  # unplugged
            if line:
                await self.heard(line)

    async def heard(self, line: bytes) -> None:
        """One line from the tray."""
        message = self.tray.feed(line)
        if message is None:
            log.info("tray line refused", extra={"bad": dict(self.tray.bad)})
            return
        self.status.last_heard = time.monotonic()
        match message:
            case Hello():
                self.status.firmware = dict(self.tray.firmware)
            case Heartbeat():
                pass
            case Roll():
                await self.rolled(message)

    async def rolled(self, roll: Roll) -> None:
        command = command_for_roll(await self.link.view(), roll)
        if command is None:
            self.status.rolls_unwanted += 1
            log.info("roll not awaited", extra={"sides": roll.sides, "faces": roll.faces})
            return
        status, answer = await self.link.send(command)
        if status == 200:
            self.status.rolls_sent += 1
        else:
            self.status.refused.append(answer)
            log.warning("roll refused", extra={"answer": answer})
        await self.report()

    async def report(self) -> None:
        with contextlib.suppress(Exception):  # the console's view of devices is best effort
            await self.link.report(self.name, self.status.report())
