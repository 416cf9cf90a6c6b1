"""The die station run for a test, over simulated dice: on the test's own event loop, or on one
of its own in a thread beside a test whose thread a synchronous browser holds."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import AsyncIterator, Coroutine
from concurrent.futures import Future
from contextlib import asynccontextmanager
from types import TracebackType
from typing import Any, Self, TypeVar

from adapters.dice import DiceStation, StationStatus
from adapters.link import TableLink
from adapters.registry import TableRegistry
from adapters.simulators.dice import Air, SimulatedGoDice, SimulatedPixel
from tests.waiting import PATIENCE, eventually, until

T = TypeVar("T")


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


class Aside:
    """An event loop of its own, in a thread, for a test whose thread a synchronous browser
    holds (Playwright's synchronous API keeps a loop of its own there): what runs on it (a
    station, a VTT's socket) is reached with ``run``."""

    def __init__(self) -> None:
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self.loop.run_forever, daemon=True)

    def __enter__(self) -> Self:
        self.thread.start()
        return self

    def run(self, coroutine: Coroutine[Any, Any, T]) -> T:
        """``coroutine`` run on the loop, and its result, under the shared deadline."""
        return asyncio.run_coroutine_threadsafe(coroutine, self.loop).result(timeout=PATIENCE)

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        trace: TracebackType | None,
    ) -> None:
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join(timeout=PATIENCE)
        self.loop.close()


class StationAside(Aside):
    """``station_at`` on an event loop of its own, in a thread, beside a synchronous browser.
    The dice are rolled on the station's loop, where the simulated radio answers."""

    def __init__(self, server: str, table: str, token: str, air: Air) -> None:
        super().__init__()
        self.where = (server, table, token, air)
        self.stop = asyncio.Event()
        self.ready: DiceStation | None = None
        self.running: Future[None] | None = None

    async def _run(self) -> None:
        async with station_at(*self.where) as station:
            self.ready = station
            await self.stop.wait()

    def __enter__(self) -> Self:
        super().__enter__()
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
            super().__exit__(kind, error, trace)
