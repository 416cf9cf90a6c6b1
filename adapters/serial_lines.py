"""A device on a serial port, read line by line: a dice tray, a reader station.

The port is opened with DTR and RTS held low, so opening it does not reset an ESP32. It is
read without blocking, when the event loop sees bytes waiting on it: a line reaches its handler
without a hop through a worker thread or a byte-at-a-time ``readline``, which cost a roll about a
millisecond. A device unplugged is reported and looked for again with growing pauses; plugged
back, it is reopened without a restart.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable

import serial

log = logging.getLogger("seize.serial")

LONGEST_LINE = 1024
"""Bytes without a line end that are handed on as one (bad) line: a port at the wrong speed
spews noise, and that must not grow without bound."""


def open_port(path: str, baudrate: int = 115200) -> serial.Serial:
    port = serial.Serial()
    port.port = path
    port.baudrate = baudrate
    port.timeout = 0  # reads take what is waiting and never block the event loop
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
                await self._lines(port, stop)
            except (serial.SerialException, OSError):
                log.warning("device unplugged", extra={"port": self.path})
            finally:
                port.close()
                await self.on_connected(False)

    async def _lines(self, port: serial.Serial, stop: asyncio.Event) -> None:
        """Hand on each line until ``stop``; an unplugged device raises from ``read``."""
        loop = asyncio.get_running_loop()
        readable = asyncio.Event()
        woken = loop.create_task(stop.wait())
        woken.add_done_callback(lambda _: readable.set())
        loop.add_reader(port.fileno(), readable.set)
        pending = b""
        try:
            while True:
                await readable.wait()
                readable.clear()
                if stop.is_set():
                    return
                pending += port.read(max(port.in_waiting, 1))
                *lines, pending = pending.split(b"\n")
                if len(pending) > LONGEST_LINE:
                    lines, pending = [*lines, pending], b""
                for line in lines:
                    await self.on_line(line + b"\n")
        finally:
            loop.remove_reader(port.fileno())
            woken.cancel()
