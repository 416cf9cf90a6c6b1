"""A simulated NTAG215 → nfcpy (udp driver) → the card adapter → a real server → a subscriber."""

from __future__ import annotations

import asyncio
import contextlib
import subprocess
import sys
import threading
from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager
from typing import Any

import pytest

from adapters.card_reader import CardAdapter, Read
from adapters.deck import DeckMap
from adapters.link import TableLink
from rules.cards import parse_card
from tests.server.conftest import Client, bearer, new_table, send
from tests.server.process import free_port
from tests.waiting import PATIENCE, eventually, eventually_async, until, within

from .nfc_driver import Senses


class Ntag:
    """The tag simulator in its own process, as a reader's tag is in its own world."""

    def __init__(self, senses: Senses) -> None:
        self.senses = senses
        self.port = free_port()
        self.process = subprocess.Popen(
            [sys.executable, "-m", "adapters.simulators.ntag", "--port", str(self.port)],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
        )
        assert self.process.stdout is not None and self.process.stdin is not None
        assert self.process.stdout.readline().startswith("ready")

    def tell(self, line: str) -> None:
        assert self.process.stdin is not None and self.process.stdout is not None
        self.process.stdin.write(line + "\n")
        self.process.stdin.flush()
        assert self.process.stdout.readline().strip() == "ok"

    def present(self, uid: str, text: str = "") -> None:
        self.tell(f"present {uid} {text}".strip())

    def remove(self) -> None:
        """Lift the card, and wait, as a hand would, until the reader has seen it go: it polls
        again only once the card it holds is lifted. A card laid sooner would answer the
        reader's checks that the lifted one is still there."""
        polls = self.senses.polls
        self.tell("remove")
        until(lambda: self.senses.polls > polls, "the reader never saw the card lifted")

    def lift(self) -> None:
        """Lift the card, from the reader's own thread between its reads (enrolment asks for
        the next card from there): the reader cannot be holding on to it."""
        self.tell("remove")

    def looked_at(self, read: int) -> None:
        """Wait until the reader has looked at more cards than ``read``."""
        until(lambda: self.senses.read > read, "the reader never read the card")

    def close(self) -> None:
        self.tell("remove")
        assert self.process.stdin is not None
        self.process.stdin.write("quit\n")
        self.process.stdin.flush()
        self.process.wait(timeout=PATIENCE)


@pytest.fixture
def ntag(senses: Senses) -> Iterator[Ntag]:
    tag = Ntag(senses)
    yield tag
    tag.close()


@asynccontextmanager
async def reader(
    client: Client,
    table: dict[str, Any],
    ntag: Ntag,
    deck: DeckMap | None = None,
    debounce: float = 1.5,
) -> AsyncIterator[CardAdapter]:
    link = TableLink(str(client.make_url("")), table["id"], table["gm_token"])
    adapter = CardAdapter(
        f"udp:127.0.0.1:{ntag.port}", link, deck, name="reader1", debounce=debounce
    )
    stop = asyncio.Event()
    running = asyncio.create_task(adapter.run(stop))
    await eventually(lambda: adapter.status.connected)
    try:
        yield adapter
    finally:
        stop.set()
        await running


async def dealing(client: Client) -> dict[str, Any]:
    """A Four Color Hack table in a physical deal: a hero, then a villain, owed a card each."""
    table = await new_table(client, "four-color")
    for member, kind in (("h1", "hero"), ("v1", "villain")):
        await send(
            client, table, {"type": "join", "member": {"id": member, "name": member, "kind": kind}}
        )
    await send(client, table, {"type": "deal", "source": "device"})
    return table


async def test_a_card_laid_on_the_reader_reaches_a_subscriber(client: Client, ntag: Ntag) -> None:
    table = await dealing(client)
    deck = DeckMap(cards={"04AABBCCDDEE01": parse_card("9C")})
    url = f"/api/tables/{table['id']}/ws"
    async with (
        client.ws_connect(url, headers=bearer(table["overlay_token"])) as ws,
        reader(client, table, ntag, deck),
    ):
        await ws.receive_json()
        ntag.present("04a1b2c3d4e5f6", "queen of hearts")  # named by its NDEF text record
        dealt = await within(ws.receive_json(), "the queen was never dealt")
        assert dealt["event"] == {
            "type": "card_dealt",
            "to": "h1",
            "card": "QH",
            "source": "device",
        }
        ntag.remove()
        ntag.present("04aabbccddee01")  # no text: the deck map names it
        dealt = await within(ws.receive_json(), "the card the deck map names was never dealt")
        assert (dealt["event"]["to"], dealt["event"]["card"]) == ("v1", "9C")
        assert dealt["view"]["phase"] == "panels"


async def test_a_joker_for_a_hero_is_asked_back_with_a_replacement(
    client: Client, ntag: Ntag
) -> None:
    table = await dealing(client)
    async with reader(client, table, ntag) as adapter:
        ntag.present("04000000000001", "RJ")
        await eventually(lambda: adapter.status.asking is not None)
        assert "replacement" in (adapter.status.asking or "")
        listing = f"/api/tables/{table['id']}/devices"

        async def reported() -> str | None:
            answer = await client.get(listing, headers=bearer(table["gm_token"]))
            asking: str | None = (await answer.json())["devices"]["reader1"]["asking"]
            return asking

        # The report follows the reading.
        asking = await eventually_async(reported, "the reader's report never reached the server")
        assert asking is not None and "replacement" in asking
        ntag.remove()
        ntag.present("04000000000002", "5D")
        await eventually(lambda: adapter.status.dealt == 1)
        assert adapter.status.asking is None
    view = (
        await (
            await client.get(f"/api/tables/{table['id']}", headers=bearer(table["gm_token"]))
        ).json()
    )["view"]
    assert view["order"][0]["card"] == "5D" and view["order"][0]["holder"] == "h1"


async def test_an_unknown_tag_is_reported_and_never_dealt(client: Client, ntag: Ntag) -> None:
    table = await dealing(client)
    async with reader(client, table, ntag) as adapter:
        ntag.present("04DEADBEEF0001", "not a card")
        await eventually(lambda: list(adapter.status.unknown) == ["04DEADBEEF0001"])
    read = await client.get(f"/api/tables/{table['id']}", headers=bearer(table["gm_token"]))
    assert (await read.json())["seq"] == 3  # two joins and the deal: nothing dealt


async def test_a_card_tapped_again_at_once_is_one_tap(
    client: Client, ntag: Ntag, monkeypatch: pytest.MonkeyPatch
) -> None:
    table = await dealing(client)
    # The window in which a tap again is the same tap outlasts any wait of the test's below.
    async with reader(client, table, ntag, debounce=PATIENCE) as adapter:
        handled: list[str] = []  # every card the reader handed on, in order
        hand_on = adapter.dealt

        async def dealt(read: Read) -> None:
            handled.append(read.card.code if read.card else read.uid)
            await hand_on(read)

        monkeypatch.setattr(adapter, "dealt", dealt)
        ntag.present("04a1b2c3d4e5f6", "QH")
        await eventually(lambda: adapter.status.dealt == 1)
        ntag.remove()
        read = ntag.senses.read
        ntag.present("04a1b2c3d4e5f6", "QH")  # lifted and laid again by accident
        ntag.looked_at(read)  # what it would hand on, it has
        ntag.remove()
        ntag.present("04aabbccddee01", "9C")  # the villain's card, which comes after it
        await eventually(lambda: len(handled) == 2)
        assert handled == ["QH", "9C"]  # the tap again was not handed on
        await eventually(lambda: adapter.status.dealt == 2)
        assert adapter.status.asking is None
    view = (
        await (
            await client.get(f"/api/tables/{table['id']}", headers=bearer(table["gm_token"]))
        ).json()
    )["view"]
    assert {(c["card"], c["holder"]) for c in view["order"]} == {("QH", "h1"), ("9C", "v1")}


async def test_a_reader_stops_within_one_sense_cycle(
    client: Client, ntag: Ntag, senses: Senses
) -> None:
    """nfcpy asks whether to stop only between its sense cycles, and nfcpy's udp driver waits a
    second in each for a tag that is not there: a reader that polled five cycles between asks
    held a stopping server for up to seven seconds. Asked to stop inside a sense cycle, the
    reader begins no other."""
    table = await dealing(client)
    async with reader(client, table, ntag) as adapter:
        senses.hold(until_stopped=True)
        await eventually(senses.held)  # inside a cycle, waiting on its driver
        await asyncio.to_thread(adapter.reader.stop)
        await asyncio.to_thread(adapter.reader.thread.join, PATIENCE)
        assert not adapter.reader.thread.is_alive()
    assert senses.at_stop[0] == senses.begun  # no sense cycle begun after the stop


def test_a_reader_that_outlives_its_event_loop_stops_silently(
    ntag: Ntag, senses: Senses, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A server that cancels its devices after a moment's grace closes its event loop while the
    reader's thread may still be waiting on its driver: that thread's last report finds the
    loop closed, and is dropped rather than raised in the thread."""
    raised: list[threading.ExceptHookArgs] = []
    monkeypatch.setattr(threading, "excepthook", raised.append)
    link = TableLink(f"http://127.0.0.1:{free_port()}", "t", "token")  # nobody answers
    adapter = CardAdapter(f"udp:127.0.0.1:{ntag.port}", link, name="reader1")

    async def cancelled_while_stopping() -> None:
        stop = asyncio.Event()
        running = asyncio.create_task(adapter.run(stop))
        await eventually(lambda: adapter.status.connected)
        senses.hold()  # the thread waits on the driver until let go below
        await eventually(senses.held)
        stop.set()
        await eventually(lambda: bool(senses.at_stop))  # the run is stopping its reader
        running.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await running

    loop = asyncio.new_event_loop()
    loop.run_until_complete(cancelled_while_stopping())
    loop.close()  # as aiohttp's run_app does, without waiting for the thread
    assert adapter.reader.thread.is_alive()
    senses.let_go()
    adapter.reader.thread.join(PATIENCE)
    assert not adapter.reader.thread.is_alive() and raised == []
