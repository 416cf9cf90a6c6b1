"""A reader station on a serial line: an ESP32 with a PN532 (firmware-config/esphome/
reader-station.yaml) that prints ``TAG <UID>`` for each tag laid on it. The deck map names the
cards; from there a read goes where an nfcpy reader's does."""

from __future__ import annotations

import asyncio
import re
import time

from adapters.card_reader import CardDealer, Read
from adapters.deck import DeckMap
from adapters.link import Link
from adapters.serial_lines import SerialLines

TAG_LINE = re.compile(rb"^TAG ([0-9A-F]{8,20})\r?\n?$")


class StationAdapter:
    def __init__(
        self,
        path: str,
        link: Link,
        deck: DeckMap,
        *,
        seat: str | None = None,
        name: str = "station",
        debounce: float = 1.5,
        max_pause: float = 5.0,
    ) -> None:
        self.deck, self.debounce = deck, debounce
        self.dealer = CardDealer(link, seat, name)
        self.lines = SerialLines(path, self.heard, self.dealer.connected, max_pause=max_pause)
        self.ignored = 0
        self._last: tuple[str, float] | None = None

    async def run(self, stop: asyncio.Event) -> None:
        try:
            await self.lines.run(stop)
        finally:
            await self.dealer.link.close()

    async def heard(self, line: bytes) -> None:
        """One line: a tag's UID (a quick second tap of the same tag is the same tap)."""
        match = TAG_LINE.match(line)
        if match is None:
            self.ignored += 1
            return
        uid, now = match.group(1).decode(), time.monotonic()
        if self._last and self._last[0] == uid and now - self._last[1] < self.debounce:
            return
        self._last = (uid, now)
        await self.dealer.dealt(Read(uid=uid, card=self.deck.card(uid), text=None))
