"""The RCS demo table's smart dice: two Pixels of Jena's and two GoDice of Tomas's, reached
by a die station through a simulated radio, as players' own dice would be by a station beside
the table. The simulated radio lives in one process, so the dice and their station run inside
the server's, and reach the table over its API with the GM's token as any station does.

The dice are registered to their owners in the table's die registry once it answers; from then
on, whenever the table awaits the 2D6 of a player with dice, those dice roll (once a round, as
the demo's hands decide: server/demo/devices.py), and the station enters the roll on its owner
with the dice's ids. What the station says of its dice is logged at debug level: a demo rolls
all the while.
"""

from __future__ import annotations

import asyncio
import logging
import random
from typing import Any

from adapters.dice import DiceStation
from adapters.link import TableLink
from adapters.registry import TableRegistry
from adapters.simulators.dice import Air, SimulatedDie, SimulatedGoDice, SimulatedPixel, roll_any


def _dice(air: Air) -> dict[str, dict[str, SimulatedDie]]:
    """Each owner's dice, by the id the station knows them by."""
    return {
        "jena": {
            "pixels-00de0001": air.add(SimulatedPixel.make(0xDE0001, "Jena's red d6")),
            "pixels-00de0002": air.add(SimulatedPixel.make(0xDE0002, "Jena's blue d6")),
        },
        "tomas": {
            "godice-DEMO1": air.add(SimulatedGoDice.make("DEMO1")),
            "godice-DEMO2": air.add(SimulatedGoDice.make("DEMO2")),
        },
    }


class DemoDice:
    """The dice, the room they are in, and the station that reaches them for ``table`` (its
    id and GM token) on the server at ``base``."""

    def __init__(self, base: str, table: tuple[str, str]) -> None:
        self.air = Air()
        self.owned = _dice(self.air)
        scanner, client = self.air.backends()
        self.station = DiceStation(
            TableLink(base, *table),
            TableRegistry(base, *table),
            name="demo dice",
            scanner_backend=scanner,
            client_backend=client,
            chatter=logging.DEBUG,
        )
        self.registered = False
        self.rng = random.Random()

    async def run(self, stop: asyncio.Event) -> None:
        await self.station.run(stop)

    async def register(self) -> None:
        """Register each die to its owner, once: the GM may reassign them from the console."""
        if self.registered:
            return
        dice: dict[str, Any] = {
            die_id: {"owner": owner, "name": die.name[:40]}
            for owner, held in self.owned.items()
            for die_id, die in held.items()
        }
        # The station reads the registry again every second or so; it rolls on it at once.
        self.station.book = await self.station.registry.change({"dice": dice})
        self.registered = True

    def owns(self, character: str) -> bool:
        """Whether ``character`` rolls dice of their own (registered), not the tray."""
        return self.registered and character in self.owned

    def ready(self, character: str) -> bool:
        """Whether the station holds all ``character``'s dice: a GoDice keeps nothing of a roll
        no host heard, so they are not rolled while still being connected."""
        return all(die.host is not None for die in self.owned[character].values())

    def roll(self, character: str) -> None:
        for die in self.owned[character].values():
            roll_any(die, self.rng)
