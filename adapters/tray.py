"""A dice tray on a serial port: lines in, rolls to the table.

The port is read by ``SerialLines`` (no ESP32 reset, found again after an unplug). Bad lines are
counted by reason and reported, never rolled.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

import aiohttp

from adapters.link import Link, command_for_roll, unanswered
from adapters.serial_lines import SerialLines
from adapters.tray_protocol import Heartbeat, Hello, Roll, Tray

log = logging.getLogger("seize.tray")


REPORT_PAUSE = 1.0
"""Seconds a refused line's report may wait for the next: a tray at the wrong speed refuses
lines many times a second, and each report spends the GM token's request budget."""


@dataclass
class TrayStatus:
    """What the tray adapter reports."""

    connected: bool = False
    firmware: dict[str, str] = field(default_factory=dict)
    last_heard: float | None = None
    rolls_sent: int = 0
    rolls_unwanted: int = 0
    asking: str | None = None  # why the last roll was not entered, if it was not
    reconnects: int = 0

    def report(self, refused: Counter[str]) -> dict[str, Any]:
        """The report, with the tray's refused lines counted by reason."""
        return {
            "kind": "dice tray",
            "connected": self.connected,
            "firmware": self.firmware,
            "rolls": self.rolls_sent,
            "unwanted": self.rolls_unwanted,
            "refused": dict(refused),
            "asking": self.asking,
        }


class TrayAdapter:
    def __init__(
        self, path: str, link: Link, *, max_pause: float = 5.0, name: str = "tray"
    ) -> None:
        self.path = path
        self.name = name
        self.link = link
        self.tray = Tray()
        self.status = TrayStatus()
        self.lines = SerialLines(path, self.heard, self.connected, max_pause=max_pause)
        self._reported_at = -REPORT_PAUSE
        self._unreported = False  # refused lines the last report did not count

    async def run(self, stop: asyncio.Event) -> None:
        """Read the tray until ``stop``, reopening it whenever it comes back."""
        try:
            await self.lines.run(stop)
        finally:
            await self.link.close()

    async def connected(self, now: bool) -> None:
        if self.status.connected and not now:
            self.status.reconnects += 1
        self.status.connected = now
        await self.report()

    async def heard(self, line: bytes) -> None:
        """One line from the tray. A refused line is logged and counted; its report waits for
        the next message, or goes at once when none went out for ``REPORT_PAUSE``."""
        message = self.tray.feed(line)
        if message is None:
            if (refusal := self.tray.refusal) is not None:
                log.warning(
                    "tray line refused",
                    extra={"port": self.path, "reason": refusal.reason, "why": str(refusal),
                           "refused": dict(self.tray.bad)},
                )  # fmt: skip
                self._unreported = True
                if time.monotonic() - self._reported_at >= REPORT_PAUSE:
                    await self.report()
            return
        self.status.last_heard = time.monotonic()
        match message:
            case Hello():
                self.status.firmware = dict(self.tray.firmware)
                await self.report()
            case Heartbeat():
                pass
            case Roll():
                await self.rolled(message)
        if self._unreported:
            await self.report()

    async def rolled(self, roll: Roll) -> None:
        try:
            await self._route(roll)
        except (aiohttp.ClientError, OSError) as error:  # the server is away: say so, go on
            self.status.asking = f"roll lost: {unanswered(error)}"
            log.warning("roll lost", extra={"why": unanswered(error), "error": repr(error)})
        await self.report()

    async def _route(self, roll: Roll) -> None:
        command = command_for_roll(await self.link.view(), roll)
        if command is None:
            self.status.rolls_unwanted += 1
            log.info("roll not awaited", extra={"sides": roll.sides, "faces": roll.faces})
            return
        status, answer = await self.link.send(command)
        if status == 200:
            self.status.rolls_sent += 1
            self.status.asking = None
        else:
            self.status.asking = answer.get("message")
            log.warning("roll refused", extra={"answer": answer})

    async def report(self) -> None:
        self._reported_at, self._unreported = time.monotonic(), False
        with contextlib.suppress(Exception):  # the console's view of devices is best effort
            await self.link.report(self.name, self.status.report(self.tray.bad))
