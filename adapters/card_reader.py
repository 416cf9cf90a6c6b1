"""An NFC reader at the table: each card laid on it becomes the command the table waits for.

nfcpy's connect loop runs in a thread beside the event loop. A card is named by its NDEF text
record, or by the deck map. A card held on the reader is read once until it is lifted, and the
same card tapped again within ``debounce`` seconds is taken as the same tap. An unknown tag is
reported and never dealt. A reader that goes away is reported and opened again with growing
pauses.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import threading
import time
from collections import deque
from dataclasses import dataclass, field
from typing import Any

import aiohttp
import nfc

from adapters.deck import DeckMap, card_from_text
from adapters.link import Link, unanswered
from rules.cards import Card

log = logging.getLogger("seize.nfc")


@dataclass(frozen=True)
class Read:
    uid: str
    card: Card | None
    text: str | None


@dataclass
class ReaderStatus:
    connected: bool = False
    last_read: str | None = None
    dealt: int = 0
    unknown: deque[str] = field(default_factory=lambda: deque(maxlen=5))  # the latest only
    asking: str | None = None  # what the table asks of whoever deals (a joker back, …)
    reopened: int = 0

    def report(self) -> dict[str, Any]:
        return {
            "kind": "card reader",
            "connected": self.connected,
            "last_read": self.last_read,
            "dealt": self.dealt,
            "unknown": list(self.unknown),
            "asking": self.asking,
        }


def text_of(tag: Any) -> str | None:
    try:
        records = tag.ndef.records if tag.ndef else []
    except Exception:  # a tag that cannot be read as NDEF is a tag without a text record
        return None
    return next((r.text for r in records if getattr(r, "type", "") == "urn:nfc:wkt:T"), None)


class CardReader:
    """nfcpy in a thread: calls ``on_read`` (from that thread) for every new card."""

    def __init__(
        self,
        device: str,
        deck: DeckMap | None,
        on_read: Any,
        on_status: Any,
        *,
        debounce: float = 1.5,
        max_pause: float = 5.0,
        poll: float = 0.1,
    ) -> None:
        self.device, self.deck, self.on_read, self.on_status = device, deck, on_read, on_status
        self.debounce, self.max_pause, self.poll = debounce, max_pause, poll
        self._stop = threading.Event()
        self._last: tuple[str, float] | None = None
        self.thread = threading.Thread(target=self._run, name="seize-nfc", daemon=True)
        # Playing cards carry NFC-A (NTAG) stickers: polling other technologies only adds
        # their timeouts to every cycle. nfcpy asks ``terminate`` only every ``iterations``
        # sense cycles, each of which may wait a second for a tag to answer (the udp driver
        # does): at its default of 5, stopping took several seconds. One cycle at a time,
        # paced by ``_paused``, keeps the pace of polling and stops within one cycle.
        self._options = {
            "targets": ["106A"],
            "iterations": 1,
            "on-connect": self._connected,
            "beep-on-connect": False,
        }

    def start(self) -> CardReader:
        self.thread.start()
        return self

    def stop(self) -> None:
        self._stop.set()
        self.thread.join(timeout=5)

    def _run(self) -> None:
        pause = 0.05
        while not self._stop.is_set():
            try:
                clf = nfc.ContactlessFrontend(self.device)
            except OSError:
                self.on_status(False)
                self._stop.wait(pause)
                pause = min(pause * 2, self.max_pause)
                continue
            pause = 0.05
            self.on_status(True)
            try:
                while not self._stop.is_set():
                    if clf.connect(rdwr=self._options, terminate=self._paused) is False:
                        break  # the reader failed: open it again
            except Exception as error:
                # A driver failing in any way means: reopen the reader. (pyserial raises
                # termios.error, not OSError, when the cable is pulled mid-command.)
                log.warning("reader lost", extra={"error": repr(error)})
            finally:
                with contextlib.suppress(Exception):
                    clf.close()
                self.on_status(False)

    def _paused(self) -> bool:
        """nfcpy's ``terminate``, asked between sense cycles and between presence checks of a
        card held on the reader: the pause between polls, cut short by ``stop``."""
        return self._stop.wait(self.poll)

    def _connected(self, tag: Any) -> bool:
        uid = tag.identifier.hex().upper()
        now = time.monotonic()
        if self._last and self._last[0] == uid and now - self._last[1] < self.debounce:
            self._last = (uid, now)
            return True  # the same tap again: keep it, say nothing
        self._last = (uid, now)
        text = text_of(tag)
        card = card_from_text(text) or (self.deck.card(uid) if self.deck else None)
        self.on_read(Read(uid=uid, card=card, text=text))
        return True  # wait until the card is lifted


def command_for_card(view: dict[str, Any], card: Card, seat: str | None) -> dict[str, Any] | None:
    """The card's command: the next card of a physical deal (or a seat's card)."""
    if view["system"] != "four-color" or not view["to_deal"]:
        return None
    return {"type": "deal_card", "card": card.code, "to": seat, "source": "device"}


class CardDealer:
    """What happens to a card read at the table, whoever read it: the command it answers, and
    what is reported to the GM."""

    def __init__(self, link: Link, seat: str | None, name: str) -> None:
        self.link, self.seat, self.name = link, seat, name
        self.status = ReaderStatus()

    async def connected(self, now: bool) -> None:
        if self.status.connected and not now:
            self.status.reopened += 1
        self.status.connected = now
        await self.report()

    async def dealt(self, read: Read) -> None:
        self.status.last_read = read.card.code if read.card else read.uid
        if read.card is None:
            self.status.unknown.append(read.uid)
            log.warning("unknown tag: not dealt", extra={"uid": read.uid})
        else:
            try:
                await self._deal(read.card)
            except (aiohttp.ClientError, OSError) as error:  # the server is away: say so, go on
                self.status.asking = f"{read.card.code} not dealt: {unanswered(error)}"
                log.warning("card lost", extra={"why": unanswered(error), "error": repr(error)})
        await self.report()

    async def _deal(self, card: Card) -> None:
        command = command_for_card(await self.link.view(), card, self.seat)
        if command is None:
            self.status.asking = f"{card.code} read, but no card is awaited"
            return
        status, answer = await self.link.send(command)
        if status == 200:
            self.status.dealt += 1
            self.status.asking = None
        else:
            self.status.asking = answer.get("message")

    async def report(self) -> None:
        with contextlib.suppress(Exception):  # the console's view of devices is best effort
            await self.link.report(self.name, self.status.report())


class CardAdapter:
    """An nfcpy reader feeding one table through a ``CardDealer``."""

    def __init__(
        self,
        device: str,
        link: Link,
        deck: DeckMap | None = None,
        seat: str | None = None,
        name: str = "reader",
        debounce: float = 1.5,
    ) -> None:
        self.dealer = CardDealer(link, seat, name)
        self.reads: asyncio.Queue[Read] = asyncio.Queue()
        self._loop: asyncio.AbstractEventLoop | None = None
        self.reader = CardReader(
            device,
            deck,
            self._from_thread(self.reads.put_nowait),
            self._from_thread(self._connected),
            debounce=debounce,
        )

    @property
    def status(self) -> ReaderStatus:
        return self.dealer.status

    def _from_thread(self, callback: Any) -> Any:
        """``callback`` handed to the event loop from the reader's thread. A reader slow to
        stop (a driver waiting on a tag, a cancelled shutdown) may still report after the
        loop has closed: nobody is left to tell, so that report is dropped."""

        def relay(*args: Any) -> None:
            loop = self._loop
            assert loop is not None
            try:
                loop.call_soon_threadsafe(callback, *args)
            except RuntimeError:
                if not loop.is_closed():
                    raise

        return relay

    def _connected(self, connected: bool) -> None:
        assert self._loop is not None
        self._loop.create_task(self.dealer.connected(connected))

    async def run(self, stop: asyncio.Event) -> None:
        self._loop = asyncio.get_running_loop()
        self.reader.start()
        try:
            while not stop.is_set():
                getting = asyncio.ensure_future(self.reads.get())
                stopping = asyncio.ensure_future(stop.wait())
                done, _ = await asyncio.wait(
                    {getting, stopping}, return_when=asyncio.FIRST_COMPLETED
                )
                stopping.cancel()
                if getting in done:
                    await self.dealt(getting.result())
                else:
                    getting.cancel()
        finally:
            try:
                await asyncio.to_thread(self.reader.stop)
            finally:  # cancelled while the reader stops, the link is still closed
                await self.dealer.link.close()

    async def dealt(self, read: Read) -> None:
        await self.dealer.dealt(read)
