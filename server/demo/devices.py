"""Simulated devices for ``seize serve --demo``: a dealer laying NFC-tagged cards on a reader,
a dice tray, and the players' smart dice (``server/demo/dice.py``), all fed through the real
adapters (nfcpy's udp driver, pyserial on a pseudo-terminal, the die station over bleak with a
simulated radio) into the server's own API, as hardware at a table would be.

Whenever the Four Color Hack demo table awaits a card, the dealer lays the next card of its
shuffled deck, unless the GM has put a card on the table by hand this page: then the dealer
stands aside until the next page, so that a GM typing a card is never raced by the reader.
Whenever the RCS demo table awaits a roll, the dice of the player it awaits roll, or the tray
rolls 2D6 for a character with no dice, once a round, unless the GM has typed a roll this
round or taken back one the dice or the tray rolled: then both stand aside until the next
round. The GM runs the tables from the console as usual: deal by hand, or await rolls, and the
devices answer. The smart dice need bleak (the dice extra); without it the tray rolls for
everyone.
"""

from __future__ import annotations

import asyncio
import contextlib
import importlib.util
import logging
import random
import socket
import subprocess
import sys
import tempfile
from collections.abc import Coroutine, Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

import aiohttp

from adapters.link import awaited
from rules.cards import Card, full_deck

if TYPE_CHECKING:
    from server.demo.dice import DemoDice

log = logging.getLogger("seize.demo")

PAUSE = 0.6  # seconds between a simulated hand's moves


def available() -> bool:
    """The devices need the hardware extras (nfcpy and pyserial) and a POSIX system: the
    tray's simulator sits on a pseudo-terminal, and the tag's waits on its input with
    ``select``, which Windows has for sockets only. Without them the engine deals and rolls."""
    return all(importlib.util.find_spec(name) for name in ("nfc", "serial", "termios"))


class UnansweredError(Exception):
    """A demo table that answered, but not with its view: refused (401, 403, 404) or failed
    (500)."""


class Dealer:
    """The simulated dealer's hand: a shuffled deck, fresh for every page, and the cards it laid
    on this page. A card on the table it did not lay was dealt (or corrected) by the GM by hand,
    and a card it laid that has left the table was undone by the GM, who means to deal it
    again by hand: either way, from then until the next page the dealer stands aside and lays
    nothing (else an undo would be dealt over at once, with another card)."""

    def __init__(self) -> None:
        self.page: int | None = None
        self.deck: list[Card] = []
        self.laid: set[str] = set()
        self.landed: set[str] = set()  # the cards it laid that the table took
        self.aside = False

    def card_for(self, view: dict[str, Any]) -> Card | None:
        """The card to lay now on the table seen as ``view`` (the GM's), if any: the table
        awaits a card, the deck has one, and the GM deals no card by hand this page."""
        if view["page"] != self.page:
            self.page, self.laid, self.landed, self.aside = view["page"], set(), set(), False
            self.deck = list(full_deck())
            random.shuffle(self.deck)
        held = {one["card"] for one in (*view["order"], *view["jokers"], *view["panels"])}
        if held - self.laid or self.landed - held:
            self.aside = True
        self.landed |= self.laid & held
        if self.aside or not view["to_deal"] or not self.deck:
            return None
        card = self.deck.pop()
        self.laid.add(card.code)
        return card


class RollingHands:
    """The simulated hands that roll at the RCS table, the tray's for the characters with no
    dice of their own and each player's at their own smart dice: the characters they rolled
    for this round. A roll that came in without them was typed by the GM, and a roll they made
    that the table awaits again was undone by the GM, who means to type it: either way, from
    then until the next round they stand aside and roll nothing (else an undo would be rolled
    over at once, and the GM's next press would land on the step after). A player at a real
    table does not roll again because the GM took a roll back; the next round asks anew."""

    def __init__(self) -> None:
        self.round: int | None = None
        self.awaited: set[str] = set()  # the rolls the table awaited at the last look
        self.rolled: set[str] = set()
        self.landed: set[str] = set()  # the rolls they made that the table took
        self.aside = False

    def looks(self, view: dict[str, Any]) -> None:
        """The table seen as ``view`` (the GM's)."""
        if view["round"] != self.round:
            self.round, self.awaited, self.rolled, self.landed = view["round"], set(), set(), set()
            self.aside = False
        awaited_now = set(awaited(view, "roll"))
        came_in = self.awaited - awaited_now
        if came_in - self.rolled or self.landed & awaited_now:
            self.aside = True
        self.landed |= self.rolled - awaited_now
        self.awaited = awaited_now

    def throws(self, character: str) -> bool:
        """Whether ``character``'s 2D6 is rolled now, at the tray or with their dice: not while
        the hands stand aside, nor a second time in a round (a roll they made is on its way,
        or was taken back before they looked again)."""
        if self.aside or character in self.rolled:
            return False
        self.rolled.add(character)
        return True


class DemoDevices:
    """The simulated hands at both demo tables. A table that refuses or fails is logged once
    (and once more when it answers again) and the hands go on: one table's trouble never
    stops the other's devices."""

    def __init__(
        self, base: str, cards: tuple[str, str], dice: tuple[str, str], pause: float = PAUSE
    ) -> None:
        self.base, self.pause = base, pause
        self.cards, self.dice = cards, dice  # (table id, GM token)
        self.dealer = Dealer()
        self.hands = RollingHands()
        self.trouble: dict[str, str] = {}  # table id → why its last move failed
        self.smart_dice = _smart_dice(base, dice)

    async def run(self, stop: asyncio.Event) -> None:
        from adapters.card_reader import CardAdapter  # noqa: PLC0415 - hardware extras
        from adapters.link import TableLink  # noqa: PLC0415
        from adapters.registry import TableRegistry  # noqa: PLC0415
        from adapters.simulators.tray import TraySimulator  # noqa: PLC0415
        from adapters.tray import TrayAdapter  # noqa: PLC0415

        dice = self.smart_dice
        with contextlib.ExitStack() as held:  # undone however the run ends, cancelled too
            folder = Path(held.enter_context(tempfile.TemporaryDirectory(prefix="seize-demo-")))
            tray = TraySimulator(folder / "tray").plug()
            held.callback(tray.unplug)
            port = _free_udp_port()
            tag = held.enter_context(_tag_simulator(port))
            tray_adapter = TrayAdapter(
                str(tray.link),
                TableLink(self.base, *self.dice),
                TableRegistry(self.base, *self.dice),
                name="demo tray",
            )
            reader = CardAdapter(
                f"udp:127.0.0.1:{port}",
                TableLink(self.base, *self.cards),
                name="demo reader",
                debounce=0,
            )
            devices = {"demo tray": tray_adapter.run(stop), "demo reader": reader.run(stop)}
            if dice is not None:
                devices["demo dice"] = dice.run(stop)
            tasks = {name: asyncio.create_task(run) for name, run in devices.items()}
            try:
                async with aiohttp.ClientSession() as session:
                    await self._server_up(session, stop)
                    while not stop.is_set():
                        await self._move(self.dice, self._roll(session, tray, dice))
                        await self._move(self.cards, self._lay(session, tag))
                        with contextlib.suppress(TimeoutError):
                            await asyncio.wait_for(stop.wait(), self.pause)
            except asyncio.CancelledError:  # cancelled, not stopped: the devices too
                for task in tasks.values():
                    task.cancel()
                raise
            finally:
                ended = await asyncio.gather(*tasks.values(), return_exceptions=True)
                for name, result in zip(tasks, ended, strict=True):
                    if isinstance(result, Exception):
                        log.error("demo device failed", extra={"device": name}, exc_info=result)

    async def _server_up(self, session: aiohttp.ClientSession, stop: asyncio.Event) -> None:
        """Wait for the server to listen: the devices start while it is still starting."""
        while not stop.is_set():
            with contextlib.suppress(aiohttp.ClientError, OSError):
                async with session.get(f"{self.base}/healthz") as answer:
                    if answer.status == 200:
                        return
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(stop.wait(), self.pause)

    async def _move(self, table: tuple[str, str], move: Coroutine[Any, Any, None]) -> None:
        """One table's move; its trouble is logged when it starts and when it ends."""
        table_id = table[0]
        try:
            await move
        except (aiohttp.ClientError, OSError, UnansweredError) as error:
            why = str(error) or repr(error)
            if self.trouble.get(table_id) != why:
                log.warning("demo table not answering", extra={"table": table_id, "why": why})
            self.trouble[table_id] = why
            return
        if self.trouble.pop(table_id, None) is not None:
            log.info("demo table answers again", extra={"table": table_id})

    async def _roll(self, session: aiohttp.ClientSession, tray: Any, dice: DemoDice | None) -> None:
        """The dice table's move, if a roll is awaited and the hands throw it: the awaited
        player's smart dice roll (once registered and connected), or the tray rolls 2D6."""
        view = await self._view(session, self.dice)
        self.hands.looks(view)
        who = awaited(view, "roll")
        if not who:
            return
        if dice is not None:
            await dice.register()
            if dice.owns(who[0]):
                if dice.ready(who[0]) and self.hands.throws(who[0]):
                    dice.roll(who[0])
                return
        if self.hands.throws(who[0]):
            tray.roll(6, random.randint(1, 6), random.randint(1, 6))

    async def _lay(self, session: aiohttp.ClientSession, tag: subprocess.Popen[str]) -> None:
        """The card table's move: lay the dealer's next card on the reader, if it has one."""
        card = self.dealer.card_for(await self._view(session, self.cards))
        if card is not None:
            await asyncio.to_thread(_tell, tag, f"present {_uid(card.code)} {card}")
            await asyncio.sleep(self.pause / 2)
            await asyncio.to_thread(_tell, tag, "remove")

    async def _view(self, session: aiohttp.ClientSession, table: tuple[str, str]) -> dict[str, Any]:
        table_id, token = table
        async with session.get(
            f"{self.base}/api/tables/{table_id}", headers={"Authorization": f"Bearer {token}"}
        ) as answer:
            if answer.status != 200:
                raise UnansweredError(f"the table answered {answer.status}")
            view: dict[str, Any] = (await answer.json())["view"]
            return view


def _smart_dice(base: str, table: tuple[str, str]) -> DemoDice | None:
    """The demo's smart dice and their station, or None without bleak (the dice extra)."""
    if importlib.util.find_spec("bleak") is None:
        return None
    from server.demo.dice import DemoDice  # noqa: PLC0415 - the dice extra

    return DemoDice(base, table)


@contextlib.contextmanager
def _tag_simulator(port: int) -> Iterator[subprocess.Popen[str]]:
    """The NFC tag's simulator, answering nfcpy's udp driver on ``port``, until told to quit."""
    with subprocess.Popen(
        [sys.executable, "-m", "adapters.simulators.ntag", "--port", str(port)],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
        # Ctrl-C is the server's to handle: it tells the tag to quit, and the tag also
        # quits when its standard input closes, so it never outlives the server.
        start_new_session=True,
    ) as tag:
        assert tag.stdout is not None
        try:
            tag.stdout.readline()
            yield tag
        finally:
            with contextlib.suppress(Exception):
                _tell(tag, "quit")
            tag.wait(timeout=5)


def _free_udp_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


def _uid(code: str) -> str:
    """A stable 7-byte UID for each card of the demo deck."""
    return "04D3" + code.encode().hex().upper().ljust(10, "0")[:10]


def _tell(process: subprocess.Popen[str], line: str) -> None:
    assert process.stdin is not None and process.stdout is not None
    process.stdin.write(line + "\n")
    process.stdin.flush()
    if line != "quit":
        process.stdout.readline()
