"""A device on a serial port, read line by line: a dice tray, a reader station.

The port is opened with DTR and RTS held low, so opening it does not reset an ESP32. Where the
event loop can watch the port (POSIX), it is read when the loop sees bytes waiting on it: a line
reaches its handler without a hop through a worker thread or a byte-at-a-time ``readline``,
which cost a roll about a millisecond. Where it cannot (Windows' proactor loop watches no
serial port), a thread blocks in ``read`` and hands the bytes to the loop. A device unplugged is
reported and looked for again with growing pauses; plugged back, it is reopened without a
restart.
"""

from __future__ import annotations

import asyncio
import contextlib
import io
import logging
import threading
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
        arrived: asyncio.Queue[bytes | Exception | None] = asyncio.Queue()
        woken = asyncio.get_running_loop().create_task(stop.wait())
        woken.add_done_callback(lambda _: arrived.put_nowait(None))
        unwatch = self._watch(port, arrived.put_nowait)
        pending = b""
        try:
            while (chunk := await arrived.get()) is not None:
                if isinstance(chunk, Exception):
                    raise chunk
                pending += chunk
                *lines, pending = pending.split(b"\n")
                if len(pending) > LONGEST_LINE:
                    lines, pending = [*lines, pending], b""
                for line in lines:
                    await self.on_line(line + b"\n")
        finally:
            await unwatch()
            woken.cancel()

    def _watch(
        self, port: serial.Serial, arrived: Callable[[bytes | Exception], None]
    ) -> Callable[[], Awaitable[None]]:
        """Hand what ``port`` reads (or the error that ends it) to ``arrived``, from the event
        loop where it can watch the port, else from a thread; returns how to stop."""
        loop = asyncio.get_running_loop()
        try:
            fd = port.fileno()
            loop.add_reader(fd, _read, port, arrived, lambda: loop.remove_reader(fd))
        except (NotImplementedError, io.UnsupportedOperation):
            log.info("reading the port in a thread", extra={"port": self.path})
            return _read_in_thread(port, loop, arrived, self.path)

        async def unwatch() -> None:
            loop.remove_reader(fd)

        return unwatch


READ_WAIT = 0.2
"""Seconds a thread's blocked ``read`` waits before it looks whether to stop."""


def _read(
    port: serial.Serial, arrived: Callable[[bytes | Exception], None], ended: Callable[[], object]
) -> bool:
    """Read what is waiting on the port (at least a byte); False once the port is gone."""
    try:
        data = port.read(max(port.in_waiting, 1))
    except (serial.SerialException, OSError) as lost:
        ended()
        arrived(lost)
        return False
    if data:
        arrived(data)
    return True


def _read_in_thread(
    port: serial.Serial,
    loop: asyncio.AbstractEventLoop,
    arrived: Callable[[bytes | Exception], None],
    path: str,
) -> Callable[[], Awaitable[None]]:
    """Read ``port`` in a thread of its own, each read waiting at most ``READ_WAIT``."""
    halted = threading.Event()
    port.timeout = READ_WAIT

    def relay(item: bytes | Exception) -> None:
        loop.call_soon_threadsafe(arrived, item)

    def reading() -> None:
        while not halted.is_set() and _read(port, relay, halted.set):
            pass

    thread = threading.Thread(target=reading, name=f"seize-serial {path}", daemon=True)
    thread.start()

    async def unwatch() -> None:
        halted.set()
        await asyncio.to_thread(thread.join)

    return unwatch
