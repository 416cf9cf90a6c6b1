"""A device on a serial port, read line by line: a dice tray, a reader station.

The port is opened with DTR and RTS held low, so opening it does not reset an ESP32. pyserial
reads in a worker thread beside the event loop. A device unplugged is reported and looked for
again with growing pauses; plugged back, it is reopened without a restart.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable

import serial

log = logging.getLogger("seize.serial")


def open_port(path: str, baudrate: int = 115200) -> serial.Serial:
    port = serial.Serial()
    port.port = path
    port.baudrate = baudrate
    port.timeout = 0.2
    port.dtr = False  # before open: changing either line resets an ESP32
    port.rts = False
    port.open()
    return port


class SerialLines:
    def __init__(
        self,
        path: str,
        on_line: Callable[[bytes], Awaitable[None]],
        on_connected: Callable[[bool], Awaitable[None]],
        *,
        max_pause: float = 5.0,
    ) -> None:
        self.path, self.on_line, self.on_connected = path, on_line, on_connected
        self.max_pause = max_pause

    async def run(self, stop: asyncio.Event) -> None:
        """Read until ``stop``, reopening the device whenever it comes back."""
        pause = 0.05
        while not stop.is_set():
            try:
                port = await asyncio.to_thread(open_port, self.path)
            except (serial.SerialException, OSError):
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(stop.wait(), pause)
                pause = min(pause * 2, self.max_pause)
                continue
            pause = 0.05
            log.info("device connected", extra={"port": self.path})
            await self.on_connected(True)
            try:
                while not stop.is_set():
                    line = await asyncio.to_thread(port.readline)
                    if line:
                        await self.on_line(line)
            except (serial.SerialException, OSError):
                log.warning("device unplugged", extra={"port": self.path})
            finally:
                port.close()
                await self.on_connected(False)
