"""A simulated tray on a pseudo-terminal → pyserial → the adapter → a real server → a subscriber."""

from __future__ import annotations

import asyncio
import json
import signal
import sys
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

from adapters.link import Link, TableLink
from adapters.registry import Registry, TableRegistry
from adapters.simulators.tray import TraySimulator
from adapters.tray import TrayAdapter
from server.devices.local_link import LocalLink, LocalRegistry
from server.http.context import SEIZE
from tests.server.conftest import Client, bearer, new_table, send
from tests.waiting import eventually, within

from .conftest import Gate


@asynccontextmanager
async def tray_at(
    client: Client, table: dict[str, Any], path: Path, *, inside: bool = False
) -> AsyncIterator[tuple[TraySimulator, TrayAdapter]]:
    """The tray of ``table``, reaching it over the network as ``seize adapter tray`` does, or
    ``inside`` the server as ``seize serve`` runs it."""
    simulator = TraySimulator(path).plug()
    link: Link
    registry: Registry
    if inside:
        link = LocalLink(client.app[SEIZE], table["id"], table["gm_token"])
        registry = LocalRegistry(link)
    else:
        link = TableLink(str(client.make_url("")), table["id"], table["gm_token"])
        registry = TableRegistry(str(client.make_url("")), table["id"], table["gm_token"])
    adapter = TrayAdapter(str(path), link, registry, max_pause=0.2)
    stop = asyncio.Event()
    running = asyncio.create_task(adapter.run(stop))
    await eventually(lambda: adapter.status.connected)
    try:
        yield simulator, adapter
    finally:
        stop.set()
        await running
        simulator.unplug()


async def rcs_awaiting_rolls(client: Client) -> dict[str, Any]:
    table = await new_table(client, "megatraveller-rcs")
    for cid in ("jena", "guard"):
        await send(
            client,
            table,
            {
                "type": "join",
                "character": {"id": cid, "name": cid, "side": cid, "dex": 0, "movement": 0},
            },
        )
    await send(client, table, {"type": "roll_initiative", "source": "device"})
    return table


async def awareness_awaiting_rolls(client: Client, **coordination: int) -> dict[str, Any]:
    """An awareness table of alert characters (Score 5) with the given Coordination, awaiting
    each one's initiative d10 from the table."""
    table = await new_table(client, "awareness")
    for cid, value in coordination.items():
        sheet = {"id": cid, "name": cid, "perception": 5, "stealth": 5, "coordination": value}
        await send(client, table, {"type": "join", "sheet": sheet})
    await send(client, table, {"type": "roll_initiative", "source": "device"})
    return table


async def test_a_roll_in_the_tray_reaches_a_subscriber_and_survives_an_unplug(
    client: Client, tmp_path: Path
) -> None:
    table = await rcs_awaiting_rolls(client)
    url = f"/api/tables/{table['id']}/ws"
    async with (
        client.ws_connect(url, headers=bearer(table["overlay_token"])) as ws,
        tray_at(client, table, tmp_path / "seize-tray") as (tray, adapter),
    ):
        await ws.receive_json()
        tray.hello()
        tray.send("$SEIZE,tray1,9,ROLL,6,6,6*00")  # a bad checksum: counted, never rolled
        tray.roll(6, 3, 5)
        rolled = await ws.receive_json()
        assert rolled["event"]["type"] == "roll_entered"
        assert rolled["event"]["roll"] == {"character": "jena", "dice": [3, 5], "initiative": 8}
        assert rolled["event"]["source"] == "device"
        assert adapter.tray.bad["bad_checksum"] == 1
        assert adapter.status.firmware == {"tray1": "1.0.0"}

        tray.unplug()
        await eventually(lambda: not adapter.status.connected)
        tray.plug()
        await eventually(lambda: adapter.status.connected)
        tray.roll(6, 6, 6)
        rolled = await ws.receive_json()
        assert rolled["event"]["roll"]["character"] == "guard"
        assert rolled["view"]["phase"] == "round"
        # The link's own answer follows the events on its socket, so it may come after the
        # subscriber's message.
        await eventually(lambda: adapter.status.rolls_sent == 2)
        assert adapter.status.reconnects == 1


async def test_rolls_go_on_the_links_socket_and_by_post_while_it_is_down(
    gated: tuple[Client, Gate], tmp_path: Path
) -> None:
    client, gate = gated
    table = await rcs_awaiting_rolls(client)
    async with tray_at(client, table, tmp_path / "seize-tray") as (tray, adapter):
        link = adapter.link
        assert isinstance(link, TableLink)
        await link.view()  # it follows the table from here on
        await eventually(lambda: link.seen == 3)
        posted = gate.posted
        tray.roll(6, 3, 5)
        await eventually(lambda: adapter.status.rolls_sent == 1)
        assert gate.posted == posted  # the roll went on the socket

        gate.streams_open = False
        client.app[SEIZE].hub.close_all("going away")  # the stream drops, and stays down
        await eventually(lambda: link.seen is None)
        tray.roll(6, 6, 6)
        await eventually(lambda: adapter.status.rolls_sent == 2)
        assert gate.posted == posted + 1
    read = await client.get(f"/api/tables/{table['id']}", headers=bearer(table["gm_token"]))
    view = (await read.json())["view"]
    assert view["phase"] == "round" and len(view["characters"]) == 2


async def test_a_roll_nobody_waits_for_is_reported_and_dropped(
    client: Client, tmp_path: Path
) -> None:
    table = await rcs_awaiting_rolls(client)
    async with tray_at(client, table, tmp_path / "seize-tray") as (tray, adapter):
        tray.roll(10, 7)  # a d10 at a table waiting for 2D6
        tray.roll(6, 2)  # one die where two are rolled
        await eventually(lambda: adapter.status.rolls_unwanted == 2)
    read = await client.get(f"/api/tables/{table['id']}", headers=bearer(table["gm_token"]))
    assert (await read.json())["seq"] == 3  # nothing was entered


async def test_an_awareness_d10_goes_to_the_next_character_awaited(
    client: Client, tmp_path: Path
) -> None:
    table = await awareness_awaiting_rolls(client, kid=5, marshal=5)
    async with tray_at(client, table, tmp_path / "seize-tray") as (tray, adapter):
        tray.roll(10, 4)
        tray.roll(10, 9)
        await eventually(lambda: adapter.status.rolls_sent == 2)
    read = await client.get(f"/api/tables/{table['id']}", headers=bearer(table["gm_token"]))
    view = (await read.json())["view"]
    dice = {c["id"]: c["initiative"]["die"] for c in view["characters"]}
    assert dice == {"kid": 4, "marshal": 9} and view["phase"] == "declaring"


async def test_a_preemption_d10_from_the_tray_places_the_reaction(
    client: Client, tmp_path: Path
) -> None:
    """The player declares a pre-emption and rolls for it in the tray: the exchange waits for
    that die, and the subscriber sees the reaction placed by it."""
    table = await awareness_awaiting_rolls(client, kid=6, marshal=5)
    url = f"/api/tables/{table['id']}/ws"
    async with (
        client.ws_connect(url, headers=bearer(table["overlay_token"])) as ws,
        tray_at(client, table, tmp_path / "seize-tray") as (tray, adapter),
    ):
        await ws.receive_json()
        tray.roll(10, 3)  # the kid: QR 3
        tray.roll(10, 5)  # the marshal: QR 5
        await eventually(lambda: adapter.status.rolls_sent == 2)
        await send(client, table, {"type": "wait", "character": "kid", "trigger": "he draws"})
        await send(client, table, {"type": "act", "character": "marshal", "what": "draws"})
        react = {"type": "react", "character": "kid", "to": "marshal", "timing": "before",
                 "what": "fires first", "source": "device"}  # fmt: skip
        assert (await send(client, table, react))[0] == 200
        seen = [await ws.receive_json() for _ in range(5)]
        assert seen[-1]["event"]["type"] == "preemption_awaited"
        assert seen[-1]["view"]["awaiting"][0] == {"what": "preemption", "who": ["kid"]}
        tray.roll(10, 8)  # target 6 + (5 - 3) = 8: made it
        placed = await ws.receive_json()
    assert placed["event"]["type"] == "reacted" and placed["event"]["placed"] == "before"
    assert placed["event"]["die"] is None  # the overlay never sees the die
    assert adapter.status.rolls_sent == 3
    gm = await client.get(f"/api/tables/{table['id']}", headers=bearer(table["gm_token"]))
    (reaction,) = (await gm.json())["view"]["exchange"]["reactions"]
    assert reaction["die"] == 8 and reaction["target"] == 8


async def test_noise_with_no_line_end_is_refused_in_pieces_and_rolls_go_on(
    client: Client, tmp_path: Path
) -> None:
    table = await rcs_awaiting_rolls(client)
    async with tray_at(client, table, tmp_path / "seize-tray") as (tray, adapter):
        tray.spew(b"\xff\x00noise" * 1000)  # 7000 bytes and never a line end
        await eventually(lambda: adapter.tray.bad["garbled"] >= 1)  # handed on, not hoarded
        tray.spew(b"\r\n")
        tray.roll(6, 3, 5)
        await eventually(lambda: adapter.status.rolls_sent == 1)
    assert adapter.status.rolls_unwanted == 0


async def test_refused_lines_are_counted_by_reason_in_the_devices_report(
    client: Client, tmp_path: Path
) -> None:
    table = await rcs_awaiting_rolls(client)
    async with tray_at(client, table, tmp_path / "seize-tray") as (tray, adapter):
        tray.send("$SEIZE,tray1,9,ROLL,6,6,6*00")  # a bad checksum
        tray.send("$SEIZE,tray1,10,ROLL,6,3,5")  # no checksum
        tray.spew(b"$SEIZE,tray1,1,HB*78\r\r\n")  # a second line end
        tray.roll(6, 3, 5)
        await eventually(lambda: adapter.status.rolls_sent == 1)
    listed = await client.get(
        f"/api/tables/{table['id']}/devices", headers=bearer(table["gm_token"])
    )
    report = (await listed.json())["devices"]["tray"]
    assert report["refused"] == {"bad_checksum": 1, "unchecksummed": 1, "garbled": 1}
    assert report["rolls"] == 1 and report["asking"] is None


def as_at_a_terminal() -> None:
    """Ctrl-C as a terminal delivers it: a run started in the background (``cmd &`` in a
    script, ``nohup``) passes its children SIGINT ignored, and a Python started so never
    hears Ctrl-C at all; the adapter's Ctrl-C is what is under test, not how the tests were
    started."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


async def test_seize_adapter_tray_logs_each_refused_line_as_json(
    client: Client, tmp_path: Path
) -> None:
    """The command as a GM runs it, against a real server: its log is JSON lines on stderr,
    like the server's, and a refused line is logged with its reason."""
    table = await rcs_awaiting_rolls(client)
    path = tmp_path / "seize-tray"
    tray = TraySimulator(path).plug()
    process = await asyncio.create_subprocess_exec(
        *(sys.executable, "-m", "server", "adapter", "tray", "--port", str(path)),
        *("--server", str(client.make_url("")), "--table", table["id"]),
        *("--token", table["gm_token"]),
        stderr=asyncio.subprocess.PIPE,
        preexec_fn=as_at_a_terminal,
    )

    async def logged(message: str) -> dict[str, Any]:
        assert process.stderr is not None
        while True:
            line = await within(process.stderr.readline(), f"never logged {message!r}")
            assert line, "the adapter ended"
            entry: dict[str, Any] = json.loads(line)  # every line is one JSON object
            if entry["message"] == message:
                return entry

    try:
        await logged("device connected")
        tray.send("$SEIZE,tray1,9,ROLL,6,6,6*00")
        refused = await logged("tray line refused")
        process.send_signal(signal.SIGINT)  # Ctrl-C
        rest = await within(process.communicate(), "the adapter never ended on Ctrl-C")
    finally:
        if process.returncode is None:
            process.kill()
            await process.wait()
        tray.unplug()
    assert process.returncode == 130 and b"Traceback" not in rest[1]  # an end, not a crash
    assert refused["level"] == "warning" and refused["reason"] == "bad_checksum"
    assert refused["refused"] == {"bad_checksum": 1} and refused["port"] == str(path)


async def test_a_tray_whose_token_is_refused_says_so_and_goes_on(
    client: Client, tmp_path: Path
) -> None:
    """The standalone adapter with a token the table does not know (revoked, mistyped): each
    roll is lost with the server's answer named, and the tray keeps reading."""
    table = await rcs_awaiting_rolls(client)
    async with tray_at(client, {**table, "gm_token": "not-a-token"}, tmp_path / "t") as (
        tray,
        adapter,
    ):
        tray.roll(6, 3, 5)
        await eventually(lambda: adapter.status.asking is not None)
        assert adapter.status.asking == "roll lost: the server answered 401"
        tray.send("$SEIZE,tray1,9,HB*00")
        await eventually(lambda: adapter.tray.bad["bad_checksum"] == 1)  # still reading
