"""A reader station (ESPHome printing tag UIDs) on a pseudo-terminal → pyserial → the station
adapter → a real server."""

from __future__ import annotations

import asyncio
from pathlib import Path

from adapters.deck import DeckMap
from adapters.link import TableLink
from adapters.simulators.tray import TraySimulator
from adapters.station import StationAdapter
from rules.cards import parse_card
from tests.server.conftest import Client, bearer
from tests.waiting import eventually

from .test_card_reader import dealing


async def test_uids_from_a_station_deal_cards_by_the_deck_map(
    client: Client, tmp_path: Path
) -> None:
    table = await dealing(client)
    deck = DeckMap(cards={"04A1B2C3D4E5F6": parse_card("JD"), "04A1B2C3D4E5F7": parse_card("4C")})
    station = TraySimulator(tmp_path / "seize-reader").plug()  # a line device on a pty
    link = TableLink(str(client.make_url("")), table["id"], table["gm_token"])
    adapter = StationAdapter(str(station.link), link, deck, max_pause=0.2)
    stop = asyncio.Event()
    running = asyncio.create_task(adapter.run(stop))
    try:
        await eventually(lambda: adapter.dealer.status.connected)
        station.send("[I][pn532:123]: boot noise")  # not a tag line: ignored
        station.send("TAG 04A1B2C3D4E5F6")
        station.send("TAG 04A1B2C3D4E5F6")  # the same tag again at once: one tap
        station.send("TAG 04FFFFFFFFFFFF")  # not in the deck: reported, never dealt
        await eventually(lambda: list(adapter.dealer.status.unknown) == ["04FFFFFFFFFFFF"])
        station.unplug()
        await eventually(lambda: not adapter.dealer.status.connected)
        station.plug()
        await eventually(lambda: adapter.dealer.status.connected)
        assert adapter.dealer.status.reopened == 1
        station.send("TAG 04A1B2C3D4E5F7")
        await eventually(lambda: adapter.dealer.status.dealt == 2)
    finally:
        stop.set()
        await running
        station.unplug()
    assert adapter.ignored == 1
    view = (
        await (
            await client.get(f"/api/tables/{table['id']}", headers=bearer(table["gm_token"]))
        ).json()
    )["view"]
    assert [(c["holder"], c["card"]) for c in view["order"]] == [("h1", "JD"), ("v1", "4C")]
