"""A simulated PN532 on a pseudo-terminal → nfcpy's own pn532 serial driver → the card adapter →
a real server → a subscriber; and the reader unplugged and plugged back mid-deal.

nfcpy opens only serial devices listed under /dev, so the simulated reader is reached through a
symlink there, which needs root (as CI runs); elsewhere these tests are skipped.
"""

from __future__ import annotations

import asyncio
import os
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest

from adapters.card_reader import CardAdapter
from adapters.link import TableLink
from adapters.simulators.pn532 import Pn532Simulator
from tests.server.conftest import Client, bearer
from tests.waiting import eventually, within

from .test_card_reader import dealing


@pytest.fixture
def pn532() -> Iterator[Pn532Simulator]:
    if not os.access("/dev", os.W_OK):
        pytest.skip("the simulated reader needs a symlink under /dev: run as root")
    simulator = Pn532Simulator(Path("/dev") / f"seize-pn532-{uuid.uuid4().hex[:8]}").plug()
    yield simulator
    simulator.unplug()


async def test_a_card_on_a_pn532_reaches_a_subscriber_and_survives_an_unplug(
    client: Client, pn532: Pn532Simulator
) -> None:
    table = await dealing(client)
    link = TableLink(str(client.make_url("")), table["id"], table["gm_token"])
    adapter = CardAdapter(f"tty:{pn532.link.name}:pn532", link, name="pn532", debounce=0)
    stop = asyncio.Event()
    running = asyncio.create_task(adapter.run(stop))
    url = f"/api/tables/{table['id']}/ws"
    try:
        async with client.ws_connect(url, headers=bearer(table["overlay_token"])) as ws:
            await ws.receive_json()
            await eventually(lambda: adapter.status.connected)
            pn532.present(bytes.fromhex("04a1b2c3d4e5f6"), "KH")
            dealt = await within(ws.receive_json(), "the first card was never dealt")
            assert (dealt["event"]["to"], dealt["event"]["card"]) == ("h1", "KH")

            pn532.remove()
            pn532.unplug()  # the reader's cable is pulled
            await eventually(lambda: not adapter.status.connected)
            pn532.plug()  # and plugged back in
            await eventually(lambda: adapter.status.connected)
            pn532.present(bytes.fromhex("04a1b2c3d4e5f7"), "2S")
            dealt = await within(ws.receive_json(), "no card was dealt after the replug")
            assert (dealt["event"]["to"], dealt["event"]["card"]) == ("v1", "2S")
            assert adapter.status.reopened >= 1
    finally:
        stop.set()
        await running
