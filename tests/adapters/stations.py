"""The die station run for a test, over simulated dice: on the test's own event loop, or on one
of its own in a thread beside a test whose thread a synchronous browser holds."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import AsyncIterator
from concurrent.futures import Future
from contextlib import asynccontextmanager
from types import TracebackType
from typing import Any

from adapters.dice import DiceStation, StationStatus
from adapters.link import TableLink
from adapters.registry import TableRegistry
from adapters.simulators.dice import Air, SimulatedGoDice, SimulatedPixel
from tests.waiting import PATIENCE, eventually, until


def die_id(die: SimulatedPixel) -> str:
    return f"pixels-{die.identity.pixel_id:08x}"


@asynccontextmanager
async def station_at(
    server: str, table: str, token: str, air: Air, **options: Any
) -> AsyncIterator[DiceStation]:
    """The station of ``table`` on the server at ``server``, once it has every die in the air
    connected (as many as it may hold)."""
    scanner, radio = air.backends()
    station = DiceStation(
        TableLink(server, table, token), TableRegistry(server, table, token),
        scanner_backend=scanner, client_backend=radio, **options,
    )  # fmt: skip
    stop = asyncio.Event()
    running = asyncio.create_task(station.run(stop))
    try:
        await eventually(lambda: all(d.connected for d in station.dice.values())
                         and len(station.dice) == min(len(air.dice), station.limit))  # fmt: skip
        yield station
    finally:
        stop.set()
        await running


class StationAside:
    """``station_at`` on an event loop of its own, in a thread: for a test driving a browser
    with Playwright's synchronous API, which holds the test's thread and a loop of its own. The
    dice are rolled on the station's loop, where the simulated radio answers."""

    def __init__(self, server: str, table: str, token: str, air: Air) -> None:
        self.where = (server, table, token, air)
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self.loop.run_forever, daemon=True)
        self.stop = asyncio.Event()
        self.ready: DiceStation | None = None
        self.running: Future[None] | None = None

    async def _run(self) -> None:
        async with station_at(*self.where) as station:
            self.ready = station
            await self.stop.wait()

    def __enter__(self) -> StationAside:
        self.thread.start()
        running = self.running = asyncio.run_coroutine_threadsafe(self._run(), self.loop)
        until(lambda: self.ready is not None or running.done(), "the station never started")
        if running.done():
            running.result()  # what stopped it
        return self

    def roll(self, die: SimulatedPixel | SimulatedGoDice, number: int) -> None:
        self.loop.call_soon_threadsafe(die.roll, number)

    @property
    def status(self) -> StationStatus:
        assert self.ready is not None
        return self.ready.status

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        trace: TracebackType | None,
    ) -> None:
        assert self.running is not None
        self.loop.call_soon_threadsafe(self.stop.set)
        try:
            self.running.result(timeout=PATIENCE)
        finally:
            self.loop.call_soon_threadsafe(self.loop.stop)
            self.thread.join(timeout=PATIENCE)
            self.loop.close()
