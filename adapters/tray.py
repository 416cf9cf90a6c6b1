"""A dice tray on a serial port: lines in, rolls to the table.

The port is read by ``SerialLines`` (no ESP32 reset, found again after an unplug). Bad lines are
counted by reason and reported, never rolled.

A VTT may ask the table's dice for a roll of its own (an attack, a save: a dice request, kept in
the table's die registry, ``server/devices/dice_requests.py``). The tray's dice are nobody's, so
a tray roll answers the oldest request of an owner with no die registered (one with a die waits
for it) that asks for as many dice of the roll's faces; only a roll no request asks for goes on
to initiative. The registry is read at every roll, before it is routed, so a request opened a
moment before is never missed; and every few seconds besides, for the report.
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
from adapters.registry import Registry
from adapters.serial_lines import SerialLines
from adapters.tray_protocol import Heartbeat, Hello, Roll, Tray

log = logging.getLogger("seize.tray")


REPORT_PAUSE = 1.0
"""Seconds a refused line's report may wait for the next: a tray at the wrong speed refuses
lines many times a second, and each report spends the GM token's request budget."""
REQUESTS_EVERY = 2.0
"""Seconds between looks at the dice requests for the report: a roll looks again itself."""


def waiting_on_the_tray(book: dict[str, Any]) -> list[tuple[str, dict[str, Any]]]:
    """The open dice requests a tray roll may answer, oldest first: those of owners with no die
    registered. An owner's own die answers their request, as the die station routes it."""
    owned = {entry["owner"] for entry in book["dice"].values()}
    requests: dict[str, dict[str, Any]] = book.get("requests", {})
    return [(rid, one) for rid, one in requests.items() if one["owner"] not in owned]


def request_for(book: dict[str, Any], roll: Roll) -> tuple[str, dict[str, Any]] | None:
    """The oldest request the roll answers: one the tray may answer, of the roll's faces and
    its number of dice."""
    for rid, one in waiting_on_the_tray(book):
        if (one["sides"], one["count"]) == (roll.sides, len(roll.faces)):
            return rid, one
    return None


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
    requests: int = 0  # the dice requests a roll in the tray may answer, as last looked
    answered: int = 0  # dice requests answered
    last_answer: dict[str, Any] | None = None  # whose request the last answer was, and its faces

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
            "requests": self.requests,
            "answered": self.answered,
            "last_answer": self.last_answer,
        }


class TrayAdapter:
    def __init__(
        self,
        path: str,
        link: Link,
        registry: Registry,
        *,
        max_pause: float = 5.0,
        name: str = "tray",
    ) -> None:
        self.path = path
        self.name = name
        self.link, self.registry = link, registry
        self.tray = Tray()
        self.status = TrayStatus()
        self.lines = SerialLines(path, self.heard, self.connected, max_pause=max_pause)
        self._reported_at = -REPORT_PAUSE
        self._unreported = False  # refused lines the last report did not count

    async def run(self, stop: asyncio.Event) -> None:
        """Read the tray until ``stop``, reopening it whenever it comes back."""
        looking = asyncio.create_task(self._look())
        try:
            await self.lines.run(stop)
        finally:
            looking.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await looking
            await self.registry.close()
            await self.link.close()

    async def _look(self) -> None:
        """Count the dice requests a roll would answer, every ``REQUESTS_EVERY`` seconds,
        reporting when the count changes."""
        while True:
            with contextlib.suppress(aiohttp.ClientError, OSError):
                waiting = len(waiting_on_the_tray(await self.registry.load()))
                if waiting != self.status.requests:
                    self.status.requests = waiting
                    await self.report()
            await asyncio.sleep(REQUESTS_EVERY)

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
        """A dice request the roll answers, else the roll awaited: the registry and the view
        read side by side, so the roll waits for the slower read, not for both."""
        view, book = await asyncio.gather(self.link.view(), self.registry.load())
        request = request_for(book, roll)
        if request is not None:
            await self._answer(roll, *request)
            return
        command = command_for_roll(view, roll)
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

    async def _answer(self, roll: Roll, rid: str, request: dict[str, Any]) -> None:
        """Answer request ``rid`` with the roll, each die named as the tray's."""
        faces, dice = list(roll.faces), [f"tray:{roll.device}"] * len(roll.faces)
        await self.registry.change({"answers": {rid: {"faces": faces, "dice": dice}}})
        self.status.answered += 1
        self.status.asking = None
        self.status.last_answer = {"request": rid, "owner": request["owner"], "faces": faces}
        log.info("dice request answered", extra={"request": rid, "faces": faces})

    async def report(self) -> None:
        self._reported_at, self._unreported = time.monotonic(), False
        with contextlib.suppress(Exception):  # the console's view of devices is best effort
            await self.link.report(self.name, self.status.report(self.tray.bad))
