"""Hardware to subscriber: how long from a roll written on the tray's line, or a tag laid on the
reader, to the WebSocket message. Prints figures; asserts nothing.

    .venv/bin/python -m bench.hardware_bench [--count N]

The server, the tray adapter and the card adapter run in this process as they would in one
program; the simulated tag runs in its own process. The tag figure is measured from the
moment the tag is laid, so it includes nfcpy's own detection (its udp driver polls once a
second with a one-second timeout); the figure beside it is the part after nfcpy read the tag.
"""

from __future__ import annotations

import argparse
import asyncio
import tempfile
import time
from pathlib import Path
from typing import Any

import aiohttp
from aiohttp import web

from adapters.card_reader import CardAdapter
from adapters.link import TableLink
from adapters.simulators.tray import TraySimulator
from adapters.tray import TrayAdapter
from server.app import make_app
from server.settings import Settings
from tests.adapters.test_card_reader import Ntag
from tests.server.process import free_port


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


async def rolls(url: str, folder: Path, count: int) -> list[float]:
    async with aiohttp.ClientSession() as session:
        joins = [
            {
                "type": "join",
                "character": {"id": f"c{n}", "name": f"C{n}", "side": "a", "dex": 0, "movement": 0},
            }
            for n in range(count)
        ]
        made = await table(
            session,
            url,
            "megatraveller-rcs",
            [*joins, {"type": "roll_initiative", "source": "device"}],
        )
        tray = TraySimulator(folder / "tray").plug()
        adapter = TrayAdapter(str(folder / "tray"), TableLink(url, made["id"], made["gm_token"]))
        stop = asyncio.Event()
        running = asyncio.create_task(adapter.run(stop))
        while not adapter.status.connected:
            await asyncio.sleep(0.01)
        delays = []
        async with session.ws_connect(
            f"{url}/api/tables/{made['id']}/ws",
            headers={"Authorization": f"Bearer {made['gm_token']}"},
        ) as ws:
            await ws.receive_json()
            for n in range(count):
                start = time.perf_counter()
                tray.roll(6, 1 + n % 6, 1 + (n * 5) % 6)
                await ws.receive_json()
                delays.append((time.perf_counter() - start) * 1000)
        stop.set()
        await running
        tray.unplug()
        return delays


async def tags(url: str, count: int) -> tuple[list[float], list[float]]:
    ntag = Ntag()
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


async def main_async(count: int) -> None:
    with tempfile.TemporaryDirectory() as folder:
        settings = Settings(db=Path(folder) / "bench.db", rate_burst=10**6, rate_per_second=10**6)
        runner = web.AppRunner(make_app(settings), access_log=None)
        await runner.setup()
        port = free_port()
        await web.TCPSite(runner, "127.0.0.1", port).start()
        url = f"http://127.0.0.1:{port}"
        delays = await rolls(url, Path(folder), count)
        print(
            f"roll on the tray's line → WebSocket message   p50 {pct(delays, 0.5):6.2f} ms   "
            f"p99 {pct(delays, 0.99):6.2f} ms   ({count} rolls; target p99 ≤ 5 ms)"
        )
        total, after = await tags(url, min(count, 10))
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
    asyncio.run(main_async(parser.parse_args().count))


if __name__ == "__main__":
    main()
