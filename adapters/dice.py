"""The die station: the players' own Bluetooth dice (Pixels, GoDice) feeding a table.

The station scans, connects each die it recognises (up to ``MAX_DICE``, about what one
adapter holds at once, and says so when it is full), and keeps every die it has met listed,
connected or not, reconnecting with growing pauses. A Pixels die advertises its roll state
while no host holds it, so a roll made while it was away is still seen (and seen once: the
roll is the die's move into "rolled", or onto another face while rolled; a repeat of the same
state is the same roll).

Each die belongs to someone in the table's registry (``server/devices/dice.py``), and its roll
goes to its owner's pending roll only: the dice an owner rolls within the table's window are
one roll (an RCS 2D6, an awareness d10), entered as soon as there are as many as the table
asks for. A roll nobody asked for is shown to the GM in the station's report and never
applied. A die nobody owns claims the owner the console asked to "roll the die you will use",
or is reported and dropped. When the turn reaches a character whose player has a die, the
die blinks.

A VTT may ask the table's dice for a roll of its own (Foundry's dice fulfillment: an attack, a
save), kept in the registry as a dice request (``server/devices/dice_requests.py``). The
owner's dice blink, and their next roll of as many dice of the faces asked answers it: before
initiative, and never with another owner's die. A request opened for an owner with no die
opens a claim, so the die rolled first is registered to them and answers it.

The dice of the one on deck (next after whoever acts) blink too, once and in another colour:
read from the public order, the overlay's, so that a die never tells who is hidden.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import json
import logging
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Literal

import aiohttp
from bleak import BleakClient, BleakScanner
from bleak.backends.client import BaseBleakClient
from bleak.backends.device import BLEDevice
from bleak.backends.scanner import AdvertisementData, BaseBleakScanner
from bleak.exc import BleakError

from adapters import godice_protocol as go
from adapters import pixels_protocol as px
from adapters.dice_bytes import DiceBytesError
from adapters.link import Link, Turn, View, asked, awaited, unanswered
from adapters.percentile import Rolled, filled, fits
from adapters.registry import Registry

log = logging.getLogger("seize.dice")

MAX_DICE = 7
"""Dice connected at once: most Bluetooth adapters hold about seven links."""
FIRST_PAUSE, LONGEST_PAUSE = 0.25, 10.0
"""Seconds between tries to reach a die that dropped: doubling from the first to the longest."""
PARTIAL_WAIT = 30.0
"""Seconds a roll short of dice waits for the rest (a player with one d6 rolls it twice)."""
WATCH_EVERY = 0.25
"""Seconds between looks at whose turn it is."""
REGISTRY_EVERY = 4
"""Looks at the turn between two reads of the registry (a console may have changed it)."""
NOTICES = 5
REPORT_ROOM = 2048
"""Bytes a device's report may take as JSON (the server keeps no larger one): the oldest
notices give way first."""
GM = "gm"
BLINK_COLOUR = (0, 200, 255)
ON_DECK_COLOUR = (255, 140, 0)
"""On deck: one slow orange flash, told apart from the turn's three blue (as the player page's
dice blink: server/static/play/dice.js)."""


@dataclass
class Die:
    """One die the station has met: listed from then on, connected or not."""

    id: str
    brand: Literal["pixels", "godice"]
    device: BLEDevice
    name: str
    notify: str
    write: str
    sides: int | None = None
    battery: int | None = None
    charging: bool = False
    connected: bool = False
    drops: int = 0
    identity: px.Identity | None = None
    shell: go.Shell = go.Shell.D6
    seen: tuple[px.RollState, int] | None = None  # a Pixels die's last roll state and face
    client: BleakClient | None = None

    @property
    def reads_tens(self) -> bool:
        """A die made to read the tens of a d100: a Pixels d00, a GoDice in its tens shell."""
        if self.brand == "godice":
            return self.shell is go.Shell.D10X
        return self.identity is not None and self.identity.kind is px.DieType.D00

    def report(self, owner: str | None) -> dict[str, Any]:
        return {"id": self.id, "name": self.name, "brand": self.brand, "sides": self.sides,
                "battery": self.battery, "charging": self.charging,
                "connected": self.connected, "owner": owner, "drops": self.drops}  # fmt: skip


def recognised(device: BLEDevice, advert: AdvertisementData) -> Die | None:
    """The die behind an advert, or None for any other device. GoDice and legacy Pixels share
    the Nordic UART service: a GoDice is known by its name."""
    name = advert.local_name or device.name or ""
    if name.startswith(go.NAME_PREFIX):
        tag = name.split("_")[1] or device.address
        return Die(f"godice-{tag}", "godice", device, name, go.NOTIFY, go.WRITE, sides=6)
    uuids = {uuid.lower() for uuid in advert.service_uuids}
    if px.SERVICE not in uuids and px.LEGACY_SERVICE not in uuids:
        return None
    try:
        identity = px.advert(name, advert.manufacturer_data, advert.service_data)
    except px.PixelsError as wrong:
        log.info("pixels advert refused", extra={"why": str(wrong), "address": device.address})
        return None
    if identity is None:
        return None
    legacy = px.SERVICE not in uuids
    return Die(
        f"pixels-{identity.pixel_id:08x}", "pixels", device, name or f"Pixel {identity.pixel_id}",
        px.LEGACY_NOTIFY if legacy else px.NOTIFY, px.LEGACY_WRITE if legacy else px.WRITE,
        sides=identity.sides, battery=identity.battery, charging=identity.charging,
        identity=identity, seen=(identity.roll_state, identity.face_index),
    )  # fmt: skip


def acting(view: View) -> str | None:
    """The character whose turn it is: the Taking Turn Token's holder (RCS), the Panel's
    (four-colour), the one awaited to declare (awareness)."""
    match view.get("system"):
        case "megatraveller-rcs":
            token: str | None = view.get("token")
            return token
        case "four-color":
            return (view.get("current") or {}).get("acting")
        case "awareness":
            who = awaited(view, "declare")
            return who[0] if who else None
    return None


def on_deck(order: list[Turn]) -> str | None:
    """Who comes next in the public order: the first turn after the current one that has a
    place, is not done, and is someone else's. The public order holds no hidden participant,
    so a die on deck tells nothing of one: with someone hidden next, the one after them is on
    deck, as the players' own alerts say."""
    current = next((n for n, turn in enumerate(order) if turn["current"]), None)
    if current is None:
        return None
    now = order[current]["participant"]
    for turn in order[current + 1 :]:
        if turn["placed"] and not turn["done"] and turn["participant"] not in (None, now):
            who: str = turn["participant"]
            return who
    return None


def names(view: View) -> dict[str, str]:
    people = view.get("characters") or view.get("members") or []
    return {one["id"]: one["name"] for one in people}


@dataclass
class Batch:
    """The dice one owner rolled together, in the order rolled."""

    deadline: float
    dice: list[Rolled] = field(default_factory=list)
    waited: bool = False  # already given the time for the rest of a short roll


@dataclass
class StationStatus:
    chatter: int = logging.INFO  # the level notices are logged at
    rolls: int = 0
    answered: int = 0  # dice requests answered (a VTT's own rolls)
    unwanted: int = 0
    blinks: int = 0
    full: str | None = None
    notices: list[str] = field(default_factory=list)
    refused: Counter[str] = field(default_factory=Counter)
    last: dict[str, Any] | None = None

    def notice(self, text: str) -> None:
        log.log(self.chatter, "dice notice", extra={"notice": text})
        self.notices = [*self.notices, text][-NOTICES:]


class DiceStation:
    def __init__(
        self,
        link: Link,
        registry: Registry,
        *,
        name: str = "dice-station",
        limit: int = MAX_DICE,
        shells: dict[str, go.Shell] | None = None,
        scanner_backend: type[BaseBleakScanner] | None = None,
        client_backend: type[BaseBleakClient] | None = None,
        partial_wait: float = PARTIAL_WAIT,
        clock: Callable[[], float] = time.monotonic,
        chatter: int = logging.INFO,
    ) -> None:
        """``chatter`` is the level of what the station says of its dice (notices, dice not
        reached): a demo's dice, rolling all the while, say it at ``DEBUG``."""
        self.link, self.registry, self.name, self.limit = link, registry, name, limit
        self.shells = shells or {}
        self.scanner_backend, self.client_backend = scanner_backend, client_backend
        self.clock, self.partial_wait = clock, partial_wait
        self.dice: dict[str, Die] = {}  # by address
        self.status = StationStatus(chatter)
        self.book: dict[str, Any] = {"dice": {}, "claims": [], "window": 1.0, "blink": True}
        self.batches: dict[str, Batch] = {}
        self.rolled: asyncio.Queue[tuple[Die, int]] = asyncio.Queue()
        self._tasks: set[asyncio.Task[None]] = set()
        self._changed = asyncio.Event()  # something the report shows changed
        self._called: set[str] = set()  # the dice requests whose dice have blinked

    # Running.

    async def run(self, stop: asyncio.Event) -> None:
        """Scan, connect and route until ``stop``; then let every die go."""
        scanner = BleakScanner(self.seen, backend=self.scanner_backend)
        with contextlib.suppress(aiohttp.ClientError, OSError):
            self.book = await self.registry.load()
        for job in (self._route(), self._watch(), self._reporter()):
            self._start(job)
        try:
            await scanner.start()
        except (BleakError, OSError) as error:  # no adapter, no BlueZ: say so, in one line
            await self._close()
            raise ConnectionError(f"bluetooth: {error}") from None
        try:
            await stop.wait()
        finally:
            await scanner.stop()
            await self._close()

    async def _close(self) -> None:
        for task in self._tasks:
            task.cancel()
        await asyncio.gather(*self._tasks, return_exceptions=True)
        for die in self.dice.values():
            if die.client is not None:
                with contextlib.suppress(BleakError, OSError):
                    await die.client.disconnect()
        await self.registry.close()
        await self.link.close()

    def _start(self, job: Any) -> None:
        task = asyncio.create_task(job)
        self._tasks.add(task)
        task.add_done_callback(self._ended)

    def _ended(self, task: asyncio.Task[None]) -> None:
        """A job of the station's ended: none should but at ``stop``, so one that failed is
        logged with its error (it is a bug), not lost with its task."""
        self._tasks.discard(task)
        if not task.cancelled() and (error := task.exception()) is not None:
            log.error("dice station job failed", exc_info=error)

    def seen(self, device: BLEDevice, advert: AdvertisementData) -> None:
        """An advert: a new die is listed and connected, while the station has room; a known
        Pixels die away from the station tells its roll state."""
        die = self.dice.get(device.address)
        if die is None:
            die = recognised(device, advert)
            if die is None:
                return
            if len(self.dice) >= self.limit:
                if self.status.full is None:
                    self.status.full = f"{self.limit} dice: the most this station connects"
                    log.warning("dice station full", extra={"limit": self.limit})
                    self._report()
                return
            if die.brand == "godice":
                die.shell = self.shells.get(die.id, go.Shell.D6)
                die.sides = go.sides(die.shell)
            self.dice[device.address] = die
            self._start(self._keep(die))
            self._report()
            return
        die.device = device
        if die.brand == "pixels" and not die.connected:
            try:
                identity = px.advert(die.name, advert.manufacturer_data, advert.service_data)
                if identity is not None:
                    die.battery, die.charging = identity.battery, identity.charging
                    self._pixels_state(die, identity.roll_state, identity.face_index)
            except px.PixelsError as wrong:  # counted by field, never rolled
                self.status.refused[wrong.field] += 1

    async def _keep(self, die: Die) -> None:
        """Hold the die's connection, reaching for it again with growing pauses whenever it
        drops; the die stays listed all the while."""
        pause = FIRST_PAUSE
        while True:
            dropped = asyncio.Event()

            def gone(_: BleakClient, dropped: asyncio.Event = dropped) -> None:
                dropped.set()

            client = BleakClient(die.device, gone, timeout=10.0, backend=self.client_backend)
            try:
                await client.connect()
                die.client = client
                await client.start_notify(die.notify, lambda _, data: self.heard(die, data))
                hello = px.who_are_you() if die.brand == "pixels" else go.request_battery()
                await client.write_gatt_char(die.write, hello, response=False)
                die.connected, pause = True, FIRST_PAUSE
                self._report()
                await dropped.wait()
            except (BleakError, TimeoutError, OSError) as error:
                log.log(
                    self.status.chatter,
                    "die not reached",
                    extra={"die": die.id, "error": repr(error)},
                )
            finally:
                if die.connected:
                    die.drops += 1
                die.connected, die.client = False, None
                with contextlib.suppress(BleakError, OSError):
                    await client.disconnect()
                self._report()
            await asyncio.sleep(pause)
            pause = min(pause * 2, LONGEST_PAUSE)

    def heard(self, die: Die, data: bytes | bytearray) -> None:
        """A notification from a die; bytes it refuses are counted by field, never rolled."""
        try:
            if die.brand == "pixels":
                assert die.identity is not None  # known by its advert
                self._pixels(die, px.parse(data, die.identity.firmware))
            else:
                self._godice(die, go.parse(data))
        except DiceBytesError as wrong:
            self.status.refused[wrong.field] += 1
            log.warning("die message refused", extra={"die": die.id, "why": str(wrong)})

    def _pixels(self, die: Die, message: px.Message) -> None:
        match message:
            case px.Identity():
                die.identity, die.sides = message, message.sides
                if message.battery is None:  # firmware of 2022 tells it only when asked
                    self._start(self._write(die, px.request_battery_level()))
                else:
                    die.battery, die.charging = message.battery, message.charging
                die.name = message.name or die.name
                self._pixels_state(die, message.roll_state, message.face_index)
                self._report()
            case px.RollUpdate():
                self._pixels_state(die, message.state, message.face_index)
            case px.Battery():
                die.battery, die.charging = message.level, message.charging
                self._report()

    def _pixels_state(self, die: Die, state: px.RollState, index: int) -> None:
        """A roll is the die's move into "rolled", or onto another face while rolled: told
        twice (by a notification and by an advert), it is still one roll."""
        assert die.identity is not None
        state = px.landed(die.identity, state)
        before, die.seen = die.seen, (state, index)
        if state is px.RollState.ROLLED and before != die.seen:
            self.rolled.put_nowait((die, die.identity.face(index)))

    def _godice(self, die: Die, message: go.Message) -> None:
        match message:
            case go.Settled() if message.rolled:
                self.rolled.put_nowait((die, go.face(message.vector, die.shell)))
            case go.BatteryLevel():
                die.battery = message.level
                self._report()

    # Routing.

    def _owner(self, die: Die) -> str | None:
        entry: dict[str, Any] | None = self.book["dice"].get(die.id)
        return None if entry is None else entry["owner"]

    async def _route(self) -> None:
        """Take rolls in the order heard, closing each owner's batch when its window ends."""
        while True:
            due = [batch.deadline for batch in self.batches.values()]
            wait = max(0.0, min(due) - self.clock()) if due else None
            try:
                async with asyncio.timeout(wait):
                    die, number = await self.rolled.get()
            except TimeoutError:
                now = self.clock()
                for owner in [o for o, b in self.batches.items() if b.deadline <= now]:
                    await self._settle(owner, expired=True)
                continue
            await self._roll(die, number)

    async def _roll(self, die: Die, number: int) -> None:
        owner = self._owner(die)
        if owner is None:
            await self._unowned(die, number)
            return
        batch = self.batches.setdefault(owner, Batch(self.clock() + self.book["window"]))
        batch.dice.append(Rolled(die.id, die.sides, number, self._tens(die)))
        await self._settle(owner)

    async def _unowned(self, die: Die, number: int) -> None:
        with contextlib.suppress(aiohttp.ClientError, OSError):  # a claim opened since
            self.book = await self.registry.load()
        claims: list[str] = self.book["claims"]
        if not claims:
            self.status.unwanted += 1
            self.status.notice(f"{die.name} rolled {number}: the die is no one's yet")
            self._report()
            return
        owner = claims[0]
        change = {"dice": {die.id: {"owner": owner, "name": die.name[:40]}},
                  "claims": claims[1:]}  # fmt: skip
        try:
            self.book = await self.registry.change(change)
        except (aiohttp.ClientError, OSError) as error:
            self.status.notice(f"{die.name} not registered: {unanswered(error)}")
        else:
            who = names(await self.link.view()).get(owner, "the GM")
            self.status.notice(f"{die.name} is {who}'s die")
            if any(one["owner"] == owner for one in self.book.get("requests", {}).values()):
                self._report()
                await self._roll(die, number)  # the roll a request waited for: it answers
                return
        self._report()

    def _tens(self, die: Die) -> bool:
        """Whether the die reads tens: made to, or a d10 the table registered as its tens die
        (the registry's ``tens``), so that two d10s make a d100."""
        entry: dict[str, Any] = self.book["dice"].get(die.id) or {}
        return die.reads_tens or (die.sides == 10 and entry.get("tens") is True)

    def _may(self, owner: str) -> Callable[[str], bool]:
        """Whose rolls an owner's dice enter: their own; the GM's enter the rolls of those
        with no die of their own."""
        if owner != GM:
            return lambda who: who == owner
        owned = {entry["owner"] for entry in self.book["dice"].values()}
        return lambda who: who not in owned

    async def _settle(self, owner: str, *, expired: bool = False) -> None:
        """Answer the owner's oldest dice request the roll fits, else enter the owner's roll
        if the table asks for one with as many dice; past the window, a roll not asked for is
        shown to the GM and dropped."""
        batch = self.batches[owner]
        try:
            if len(batch.dice) == 1 and not expired:  # a roll's first die: the registry too,
                # for a dice request made since the last look; side by side with the view, so
                # the roll waits for the slower read, not for both.
                view, self.book = await asyncio.gather(self.link.view(), self.registry.load())
            else:
                view = await self.link.view()
        except (aiohttp.ClientError, OSError) as error:
            self._drop(owner, f"roll lost: {unanswered(error)}")
            return
        who = names(view).get(owner, "The GM")
        faces = [one.number for one in batch.dice]
        request = self._request(owner, batch)
        if request is not None:
            sides, count = request[1]["sides"], request[1]["count"]
            if self._short(owner, who, sides, count, expired=expired):
                return
            await self._answer(owner, who, request[0])
            return
        ask = asked(view, self._may(owner))
        if ask is None:
            if expired:
                self.status.unwanted += 1
                self._drop(owner, f"{who} rolled {_listed(faces)}, unasked")
            return
        if not all(fits(one, ask.sides) for one in batch.dice):
            self._drop(owner, f"{who} rolled {_listed(faces)}: a d{ask.sides} is asked")
            return
        if self._short(owner, who, ask.sides, ask.count, expired=expired):
            return
        del self.batches[owner]
        dice = [one.die for one in batch.dice]
        try:
            status, answer = await self.link.send(ask.command_for(faces, dice))
        except (aiohttp.ClientError, OSError) as error:
            self.status.notice(f"{who}'s roll lost: {unanswered(error)}")
        else:
            if status == 200:
                self.status.rolls += 1
                self.status.last = {"who": ask.character, "faces": faces, "dice": dice,
                                    "seq": answer.get("seq")}  # fmt: skip
            else:
                self.status.notice(f"{who}'s roll refused: {answer.get('message')}")
        self._report()

    def _short(self, owner: str, who: str, sides: int, count: int, *, expired: bool) -> bool:
        """Whether the batch is short of the dice asked (a d100's tens die with no d10 yet):
        then it waits, once past its window for the rest (a player with one die rolls it
        again), and is dropped past that."""
        batch = self.batches[owner]
        if filled(batch.dice, sides, count) is not None:
            return False
        if expired and batch.waited:
            self.status.unwanted += 1
            faces = _listed([one.number for one in batch.dice])
            self._drop(owner, f"{who} rolled {faces}; the rest never came")
        elif expired:
            batch.deadline, batch.waited = self.clock() + self.partial_wait, True
        return True

    def _request(self, owner: str, batch: Batch) -> tuple[str, dict[str, Any]] | None:
        """The oldest dice request this batch answers: the owner's own (another owner's dice
        never answer it), of the faces every die in the batch fits (a d100's, a tens die's and
        a d10's)."""
        for rid, request in self.book.get("requests", {}).items():
            if request["owner"] == owner and all(fits(one, request["sides"]) for one in batch.dice):
                return rid, request
        return None

    async def _answer(self, owner: str, who: str, rid: str) -> None:
        """Answer request ``rid`` with the batch's dice, as many as it asked for (a tens die
        and a d10 make one d100)."""
        batch = self.batches.pop(owner)
        request = self.book["requests"][rid]
        made = filled(batch.dice, request["sides"], request["count"])
        assert made is not None  # not short, or it would wait
        faces, dice = made
        answer = {"answers": {rid: {"faces": faces, "dice": dice}}}
        try:
            self.book = await self.registry.change(answer)
        except (aiohttp.ClientError, OSError) as error:
            self.status.notice(f"{who}'s roll {_listed(faces)} not handed over: "
                               f"{unanswered(error)}")  # fmt: skip
        else:
            self.status.answered += 1
            self.status.last = {"who": owner, "faces": faces, "dice": dice, "request": rid}
        self._report()

    def _drop(self, owner: str, notice: str) -> None:
        self.batches.pop(owner, None)
        self.status.notice(notice)
        self._report()

    # The turn.

    async def _watch(self) -> None:
        """Follow whose turn it is (and the registry), and blink the dice of the one whose
        turn has come, of the one on deck (read from the public order whenever the table
        moves), and of those a new dice request waits on."""
        turn: str | None = None
        deck: str | None = None
        seen: View | None = None
        for look in itertools.count():
            with contextlib.suppress(aiohttp.ClientError, OSError, KeyError):
                if look % REGISTRY_EVERY == 0:
                    self.book = await self.registry.load()
                    await self._call_for_requests()
                view = await self.link.view()
                now = acting(view)
                if now != turn:
                    turn = now
                    if now is not None and self.book["blink"]:
                        await self.blink(now)
                if view != seen:
                    seen = view
                    next_up = on_deck(await self.link.public_order())
                    if next_up != deck:
                        deck = next_up
                        if next_up is not None and self.book["blink"]:
                            await self.blink(next_up, deck=True)
            await asyncio.sleep(WATCH_EVERY)

    async def _call_for_requests(self) -> None:
        """Blink the dice of each owner a new dice request waits on: the die to roll."""
        requests: dict[str, dict[str, Any]] = self.book.get("requests", {})
        self._called &= set(requests)
        for rid, request in requests.items():
            if rid not in self._called:
                self._called.add(rid)
                if self.book["blink"]:
                    await self.blink(request["owner"])

    async def blink(self, character: str, *, deck: bool = False) -> None:
        """Light the connected dice of ``character``: a Pixels ``Blink``, a GoDice pulse; three
        blue flashes for their turn, one slow orange for on deck."""
        colour, count = (ON_DECK_COLOUR, 1) if deck else (BLINK_COLOUR, 3)
        for die in self.dice.values():
            if self._owner(die) != character:
                continue
            message = (px.blink(int.from_bytes(bytes(colour), "big"), count=count)
                       if die.brand == "pixels" else go.pulse(count, 25, 25, colour))  # fmt: skip
            if await self._write(die, message):
                self.status.blinks += 1

    async def _write(self, die: Die, message: bytes) -> bool:
        """Tell a connected die ``message``; False if it is not connected, or went."""
        if die.client is None:
            return False
        with contextlib.suppress(BleakError, OSError):
            await die.client.write_gatt_char(die.write, message, response=False)
            return True
        return False

    # Reporting.

    def report(self) -> dict[str, Any]:
        """How the station is, within ``REPORT_ROOM``: seven dice with long names and long
        notices would pass it, and a report refused is a console left showing the last one."""
        report = self._report_with(self.status.notices)
        while len(json.dumps(report)) > REPORT_ROOM and report["notices"]:
            report = self._report_with(report["notices"][1:])
        return report

    def _report_with(self, notices: list[str]) -> dict[str, Any]:
        return {
            "kind": "dice station",
            "dice": [die.report(self._owner(die)) for die in self.dice.values()],
            "rolls": self.status.rolls,
            "answered": self.status.answered,
            "unwanted": self.status.unwanted,
            "blinks": self.status.blinks,
            "full": self.status.full,
            "notices": notices,
            "refused": dict(self.status.refused),
            "last": self.status.last,
        }

    def _report(self) -> None:
        self._changed.set()

    async def _reporter(self) -> None:
        """Send the report whenever it changed, one at a time, so that the last one kept is
        the latest; changes made while one is under way go in the next."""
        while True:
            await self._changed.wait()
            self._changed.clear()
            with contextlib.suppress(Exception):  # the console's view of devices is best effort
                await self.link.report(self.name, self.report())


def _listed(faces: list[int]) -> str:
    return " and ".join(map(str, faces)) if len(faces) < 3 else ", ".join(map(str, faces))
