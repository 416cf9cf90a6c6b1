"""Hardware to subscriber: how long from a roll written on the tray's line, or a tag laid on the
reader, to the WebSocket message. Prints figures; asserts nothing.

    .venv/bin/python -m bench.hardware_bench [--count N] [--gap SECONDS] [--where FOLDER]

Rolls, twice: ``seize serve`` in its own process with the tray configured in its settings file,
and then ``seize adapter tray`` in a third process reaching that server over the network; the
simulated tray and the subscriber are in this process. The table has six
characters; each roll is taken back by the GM's undo, so the next is awaited at a table of the
same size. Rolls come ``--gap`` apart (a die takes far longer than that to settle), after a few
unmeasured ones (the standalone adapter opens its live stream on the first).

Dice: ``seize serve`` in its own process; the die station (as ``seize adapter dice`` runs it,
reaching the server over the network), the simulated Pixels dice and the overlay's subscriber
in this process. Three characters own two d6 each (six dice); each roll is both of one
character's dice landing together, taken back by the GM's undo, and is measured from the
notification of its second die to the command's answer at the station (the event committed)
and to the overlay's WebSocket message.

Foundry's rolls: the same server and station; a client on the table's WebSocket asks for the
GM's d20 as the Foundry module does (docs/api.md, "Dice requests"), and the GM's Pixels d20
answers. Measured from the die's notification to the ``dice-rolled`` message on that socket:
the module's fulfillment handler resolves Foundry's roll with it in the same turn of its loop.
Then a d100, answered by a percentile pair: the GM's Pixels d00 and d10, the d10 landing last,
measured from its notification (the pair's second) to the ``dice-rolled`` message.

Tags: the server and the card adapter run in this process as they would in one program; the
simulated tag runs in its own process. The tag figure is measured from the moment the tag is
laid, so it includes nfcpy's own detection (its udp driver polls once a second with a
one-second timeout); the figure beside it is the part after nfcpy read the tag.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import subprocess
import sys
import tempfile
import time
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import aiohttp
import pytest
from aiohttp import web

from adapters import pixels_protocol as px
from adapters.card_reader import CardAdapter
from adapters.dice import DiceStation
from adapters.link import TableLink
from adapters.simulators.dice import Air, SimulatedPixel
from adapters.simulators.tray import TraySimulator
from server.run.app import make_app
from server.settings import Settings
from tests.adapters.nfc_driver import Senses
from tests.adapters.stations import die_id, station_at
from tests.adapters.test_card_reader import Ntag
from tests.server.process import UNLIMITED, ServerProcess, call, free_port


def pct(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(len(ordered) * p))]


async def table(
    session: aiohttp.ClientSession, url: str, system: str, commands: list[dict[str, Any]]
) -> dict[str, Any]:
    async with session.post(f"{url}/api/tables", json={"system": system, "name": "b"}) as a:
        made: dict[str, Any] = await a.json()
    for command in commands:
        async with session.post(
            f"{url}/api/tables/{made['id']}/commands",
            json=command,
            headers={"Authorization": f"Bearer {made['gm_token']}"},
        ):
            pass
    return made


WARM_UP = 5
PLAYERS = 6


def table_awaiting_rolls(folder: Path, count: int) -> tuple[Path, dict[str, Any]]:
    """An RCS table of ``count`` characters awaiting their rolls from a tray, and the settings
    file that runs the tray."""
    db, config = folder / "rolls.db", folder / "seize.toml"
    with ServerProcess(db, **UNLIMITED) as first:
        _, made = call(
            f"{first.url}/api/tables", "POST", {"system": "megatraveller-rcs", "name": "b"}
        )
        commands = f"{first.url}/api/tables/{made['id']}/commands"
        for n in range(count):
            character = {"id": f"c{n}", "name": f"C{n}", "side": "a", "dex": 0, "movement": 0}
            call(commands, "POST", {"type": "join", "character": character}, made["gm_token"])
        call(commands, "POST", {"type": "roll_initiative", "source": "device"}, made["gm_token"])
    config.write_text(
        f'[[devices]]\nkind = "tray"\ndevice = "{folder / "tray"}"\n'
        f'table = "{made["id"]}"\ntoken = "{made["gm_token"]}"\n'
    )
    return config, made


async def rolls(
    url: str, tray: TraySimulator, made: dict[str, Any], count: int, gap: float
) -> list[float]:
    delays = []
    async with (
        aiohttp.ClientSession() as session,
        session.ws_connect(
            f"{url}/api/tables/{made['id']}/ws",
            headers={"Authorization": f"Bearer {made['gm_token']}"},
        ) as ws,
    ):
        await ws.receive_json()
        for n in range(WARM_UP + count):
            start = time.perf_counter()
            tray.roll(6, 1 + n % 6, 1 + (n * 5) % 6)
            await asyncio.wait_for(ws.receive_json(), 10)
            if n >= WARM_UP:
                delays.append((time.perf_counter() - start) * 1000)
            # The GM takes the roll back, so the table awaits it again at the same size.
            async with session.post(
                f"{url}/api/tables/{made['id']}/commands",
                json={"type": "undo"},
                headers={"Authorization": f"Bearer {made['gm_token']}"},
            ):
                await ws.receive_json()
            await asyncio.sleep(gap)
    return delays


def measure_rolls(folder: Path, count: int, gap: float, *, inside: bool) -> list[float]:
    """Rolls through a tray configured in ``seize serve`` (``inside``), or through ``seize
    adapter tray`` in a process of its own, reaching the server over the network."""
    config, made = table_awaiting_rolls(folder, PLAYERS)
    tray = TraySimulator(folder / "tray").plug()
    settings: dict[str, Any] = {"config": config} if inside else {}
    try:
        with ServerProcess(folder / "rolls.db", **settings, **UNLIMITED) as server:
            beside = None
            if not inside:
                beside = subprocess.Popen(
                    [sys.executable, "-m", "server", "adapter", "tray", "--port",
                     str(folder / "tray"), "--server", server.url, "--table", made["id"],
                     "--token", made["gm_token"]],
                    stdout=subprocess.DEVNULL,
                    stderr=subprocess.DEVNULL,
                )  # fmt: skip
            devices = f"{server.url}/api/tables/{made['id']}/devices"
            while (
                not call(devices, token=made["gm_token"])[1]["devices"]
                .get("tray", {})
                .get("connected")
            ):
                time.sleep(0.05)
            try:
                return asyncio.run(rolls(server.url, tray, made, count, gap))
            finally:
                if beside is not None:
                    beside.terminate()
                    beside.wait()
    finally:
        tray.unplug()


async def tags(url: str, count: int) -> tuple[list[float], list[float]]:
    # nfcpy's udp driver, watched as the tests watch it, so a card is lifted as soon as the
    # reader has seen it go, not after a guessed pause.
    with pytest.MonkeyPatch.context() as patch:
        return await _tags(url, count, Ntag(Senses(patch)))


async def _tags(url: str, count: int, ntag: Ntag) -> tuple[list[float], list[float]]:
    async with aiohttp.ClientSession() as session:
        joins = [
            {"type": "join", "member": {"id": f"v{n}", "name": f"V{n}", "kind": "villain"}}
            for n in range(count)
        ]
        made = await table(
            session, url, "four-color", [*joins, {"type": "deal", "source": "device"}]
        )
        link = TableLink(url, made["id"], made["gm_token"])
        adapter = CardAdapter(f"udp:127.0.0.1:{ntag.port}", link, debounce=0)
        read_at: list[float] = []
        original = adapter.dealt

        async def timed(read: Any) -> None:
            read_at.append(time.perf_counter())
            await original(read)

        adapter.dealt = timed  # type: ignore[method-assign]
        stop = asyncio.Event()
        running = asyncio.create_task(adapter.run(stop))
        total, after_read = [], []
        async with session.ws_connect(
            f"{url}/api/tables/{made['id']}/ws",
            headers={"Authorization": f"Bearer {made['gm_token']}"},
        ) as ws:
            await ws.receive_json()
            cards = ["AS", "KH", "QD", "JC", "10S", "9H", "8D", "7C", "6S", "5H"]
            for n in range(count):
                start = time.perf_counter()
                await asyncio.to_thread(ntag.present, f"04B0000000{n:04X}", cards[n % len(cards)])
                await ws.receive_json()
                done = time.perf_counter()
                total.append((done - start) * 1000)
                after_read.append((done - read_at[-1]) * 1000)
                await asyncio.to_thread(ntag.remove)
        stop.set()
        await running
    ntag.close()
    return total, after_read


DICE_OWNERS = 3


@contextlib.asynccontextmanager
async def station_on(
    url: str, made: dict[str, Any], air: Air, owners: dict[str, str]
) -> AsyncIterator[tuple[aiohttp.ClientSession, DiceStation]]:
    """The die station for the dice in ``air``, each registered to its owner (die id to owner),
    running against the table until the block ends, and every die connected before it begins."""
    registry = {die: {"owner": owner} for die, owner in owners.items()}
    gm = {"Authorization": f"Bearer {made['gm_token']}"}
    async with aiohttp.ClientSession() as session:
        dice = f"{url}/api/tables/{made['id']}/dice"
        async with session.put(dice, json={"dice": registry}, headers=gm):
            pass
        async with station_at(url, made["id"], made["gm_token"], air) as station:
            yield session, station


async def dice_rolls(url: str, made: dict[str, Any], count: int) -> tuple[list[float], list[float]]:
    """``count`` 2D6 rolls from the owners' Pixels dice, each taken back by the GM's undo."""
    air = Air()
    dice = {f"c{n}": [air.add(SimulatedPixel.make(0xB0 + 2 * n + k, f"C{n} {k}")) for k in (0, 1)]
            for n in range(DICE_OWNERS)}  # fmt: skip
    gm = {"Authorization": f"Bearer {made['gm_token']}"}
    base = f"{url}/api/tables/{made['id']}"
    owners = {die_id(d): owner for owner, pair in dice.items() for d in pair}
    committed: list[float] = []
    to_event, to_overlay = [], []
    overlay_token = {"Authorization": f"Bearer {made['overlay_token']}"}
    async with (
        station_on(url, made, air, owners) as (session, station),
        session.ws_connect(f"{base}/ws", headers=overlay_token) as overlay,
    ):
        link = station.link
        assert isinstance(link, TableLink)
        send = link.send

        async def timed(command: dict[str, Any]) -> tuple[int, dict[str, Any]]:
            answer = await send(command)
            committed.append(time.perf_counter())
            return answer

        link.send = timed  # type: ignore[method-assign]
        await overlay.receive_json()
        for n in range(WARM_UP + count):
            first, second = dice[f"c{n % DICE_OWNERS}"]
            first.roll(1 + n % 6)
            start = time.perf_counter()
            second.roll(1 + (n * 5) % 6)
            seen = await asyncio.wait_for(overlay.receive_json(), 10)
            arrived = time.perf_counter()
            while len(committed) <= n:  # the station's answer may come after the overlay's
                await asyncio.sleep(0.0005)
            if n >= WARM_UP:
                to_event.append((committed[-1] - start) * 1000)
                to_overlay.append((arrived - start) * 1000)
            async with session.post(f"{base}/commands", json={"type": "undo"}, headers=gm):
                undone = (await overlay.receive_json())["seq"]
            while (link.seen or 0) < undone:  # the station sees the roll awaited again
                await asyncio.sleep(0.001)
            assert seen["seq"] < undone
    return to_event, to_overlay


async def foundry_rolls(url: str, made: dict[str, Any], count: int, sides: int) -> list[float]:
    """``count`` requests on the GM's socket for a d``sides``, each answered by the GM's Pixels:
    a d20 for a d20; for a d100 a d00 and a d10, the d10 landing last."""
    air = Air()
    kinds = [px.DieType.D00, px.DieType.D10] if sides == 100 else [px.DieType.D20]
    dice = [
        air.add(SimulatedPixel.make(0x20F1 + n, kind.name, kind)) for n, kind in enumerate(kinds)
    ]
    faces = [[10 * (1 + n % 10), 1 + n % 10] if sides == 100 else [1 + n % 20]
             for n in range(WARM_UP + count)]  # fmt: skip
    gm = {"Authorization": f"Bearer {made['gm_token']}"}
    delays: list[float] = []
    async with (
        station_on(url, made, air, dict.fromkeys(map(die_id, dice), "gm")) as (session, _),
        session.ws_connect(f"{url}/api/tables/{made['id']}/ws", headers=gm) as ws,
    ):
        await ws.receive_json()  # the view
        for n, shown in enumerate(faces):
            ident = f"d{n}"
            await ws.send_json({"type": "dice", "id": ident, "owner": "gm", "sides": sides})
            while (await asyncio.wait_for(ws.receive_json(), 10)).get("id") != ident:
                pass  # the request is open once asked
            for die, number in zip(dice, shown, strict=True):
                start = time.perf_counter()  # the last die's notification
                die.roll(number)
            while (answer := await asyncio.wait_for(ws.receive_json(), 10)).get("id") != ident:
                pass
            assert answer["type"] == "dice-rolled", answer
            if n >= WARM_UP:
                delays.append((time.perf_counter() - start) * 1000)
    return delays


def measure_dice(folder: Path, count: int) -> None:
    db = folder / "dice.db"
    with ServerProcess(db, **UNLIMITED) as server:
        _, made = call(f"{server.url}/api/tables", "POST",
                       {"system": "megatraveller-rcs", "name": "b"})  # fmt: skip
        commands = f"{server.url}/api/tables/{made['id']}/commands"
        for n in range(DICE_OWNERS):
            character = {"id": f"c{n}", "name": f"C{n}", "side": "a", "dex": 0, "movement": 0}
            call(commands, "POST", {"type": "join", "character": character}, made["gm_token"])
        call(commands, "POST", {"type": "roll_initiative", "source": "device"}, made["gm_token"])
        to_event, to_overlay = asyncio.run(dice_rolls(server.url, made, count))
        _, other = call(f"{server.url}/api/tables", "POST",
                        {"system": "megatraveller-rcs", "name": "f"})  # fmt: skip
        to_foundry = asyncio.run(foundry_rolls(server.url, other, count, 20))
        _, third = call(f"{server.url}/api/tables", "POST",
                        {"system": "megatraveller-rcs", "name": "p"})  # fmt: skip
        to_percent = asyncio.run(foundry_rolls(server.url, third, count, 100))
    for what, delays in (("event committed", to_event), ("overlay message", to_overlay)):
        print(
            f"die notification → {what:<16}              p50 {pct(delays, 0.5):6.2f} ms   "
            f"p99 {pct(delays, 0.99):6.2f} ms   ({count} 2D6 rolls, 6 dice; target p99 < 20 ms)"
        )
    print(
        f"die notification → Foundry roll resolved       p50 {pct(to_foundry, 0.5):6.2f} ms   "
        f"p99 {pct(to_foundry, 0.99):6.2f} ms   ({count} d20 dice requests, the GM's Pixels)"
    )
    print(
        f"percentile pair → Foundry d100 resolved        p50 {pct(to_percent, 0.5):6.2f} ms   "
        f"p99 {pct(to_percent, 0.99):6.2f} ms   ({count} d100 requests, a d00 and a d10 Pixels)"
    )


def main_sync(count: int, gap: float, where: Path | None) -> None:
    with tempfile.TemporaryDirectory(dir=where) as folder:
        for inside, how in ((True, "tray in seize serve"), (False, "seize adapter tray  ")):
            place = Path(folder) / ("inside" if inside else "beside")
            place.mkdir()
            delays = measure_rolls(place, count, gap, inside=inside)
            print(
                f"roll → WebSocket message, {how}  p50 {pct(delays, 0.5):6.2f} ms   "
                f"p99 {pct(delays, 0.99):6.2f} ms   ({count} rolls {gap * 1000:.0f} ms apart; "
                "target p99 ≤ 5 ms)"
            )
        measure_dice(Path(folder), count)
        asyncio.run(measure_tags(Path(folder), min(count, 10)))


async def measure_tags(folder: Path, count: int) -> None:
    settings = Settings(db=folder / "tags.db", **UNLIMITED)
    runner = web.AppRunner(make_app(settings), access_log=None)
    await runner.setup()
    port = free_port()
    await web.TCPSite(runner, "127.0.0.1", port).start()
    total, after = await tags(f"http://127.0.0.1:{port}", count)
    print(
        f"tag laid → WebSocket message                   p50 {pct(total, 0.5):7.1f} ms   "
        f"p99 {pct(total, 0.99):7.1f} ms   (nfcpy udp polling included)"
    )
    print(
        f"  of which after nfcpy read the tag            p50 {pct(after, 0.5):7.2f} ms   "
        f"p99 {pct(after, 0.99):7.2f} ms   (target p99 ≤ 50 ms beyond detection)"
    )
    await runner.cleanup()


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--count", type=int, default=200)
    parser.add_argument("--only-dice", action="store_true", help="measure the dice alone")
    parser.add_argument("--gap", type=float, default=0.05, help="seconds between rolls")
    parser.add_argument(
        "--where",
        type=Path,
        help="the folder for the databases (default: the system's temporary folder); "
        "/dev/shm shows the figures without the disk's flushes",
    )
    args = parser.parse_args()
    if args.only_dice:
        with tempfile.TemporaryDirectory(dir=args.where) as folder:
            measure_dice(Path(folder), args.count)
        return
    main_sync(args.count, args.gap, args.where)


if __name__ == "__main__":
    main()
