"""Server benchmark. Prints figures; asserts nothing.

    .venv/bin/python -m bench.server_bench [--quick] [--db postgresql://…]

The server runs in its own process over a fresh SQLite file (synchronous=FULL), or over the
PostgreSQL database ``--db`` names (its tables are created there if missing); the sender and
the WebSocket subscribers run in other processes (subscribers split over several). Times are
taken on CLOCK_MONOTONIC, which every process on the machine shares, so an acknowledgement seen
by the sender and an arrival seen by a subscriber compare directly.

- round trip: one client sending commands one after another over a kept-alive connection;
- durable commands per second: concurrent senders on several tables, each answer after fsync;
- fan-out: a command's acknowledgement (the sender has the 200) to its arrival at the first and
  the last of 1, 100 and 1000 subscribers, at 20 commands a second (at 1000 subscribers that is
  20,000 messages a second for the clients, which share the machine's two cores with the
  server). The server publishes before it answers, so an arrival can precede the
  acknowledgement: such latencies are negative. Command sent to arrival is printed too;
- a command's acknowledgement to the overlay's DOM showing it, in Debian's Chromium;
- the highest event rate 100 subscribers receive with nothing lost (no gap, no goodbye).
"""

from __future__ import annotations

import argparse
import asyncio
import math
import multiprocessing
import os
import re
import tempfile
import time
import uuid
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass
from multiprocessing.queues import Queue
from multiprocessing.synchronize import Event as EventType
from pathlib import Path
from typing import Any

import aiohttp

from tests.server.databases import postgres_missing, postgres_schema
from tests.server.process import UNLIMITED, ServerProcess, call

Table = dict[str, Any]
SEQ = re.compile(r'\{"type": "event", "seq": (\d+)')


def pct(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(len(ordered) * p))]


async def new_table(session: aiohttp.ClientSession, url: str) -> Table:
    """An RCS table whose `set_pool` command is always legal: an endless supply of events."""
    async with session.post(
        f"{url}/api/tables", json={"system": "megatraveller-rcs", "name": "bench"}
    ) as answer:
        table: Table = await answer.json()
    table["url"] = f"{url}/api/tables/{table['id']}"
    table["headers"] = {"Authorization": f"Bearer {table['gm_token']}"}
    character = {"id": "a", "name": "A", "side": "crew", "dex": 1, "movement": 1}
    await command(session, table, {"type": "join", "character": character})
    return table


async def command(
    session: aiohttp.ClientSession, table: Table, body: dict[str, Any] | None = None
) -> int:
    body = body or {"type": "set_pool", "side": "crew", "points": 3}
    async with session.post(
        f"{table['url']}/commands", json=body, headers=table["headers"]
    ) as answer:
        assert answer.status == 200, await answer.text()
        seq: int = (await answer.json())["seq"]
        return seq


async def round_trip(url: str, count: int) -> None:
    async with aiohttp.ClientSession() as session:
        table = await new_table(session, url)
        times = []
        for _ in range(count):
            start = time.perf_counter()
            await command(session, table)
            times.append((time.perf_counter() - start) * 1000)
    print(
        f"  HTTP command round trip      p50 {pct(times, 0.5):6.2f} ms   "
        f"p99 {pct(times, 0.99):6.2f} ms   ({count} commands)"
    )


async def throughput(url: str, seconds: float, tables: int) -> tuple[float, int]:
    """Commands per second from one sender per table, each on a connection of its own (as a GM's
    console keeps one), so with several workers a table's commands go to one of them; and how
    many were refused as stale (another worker appended first) and sent again."""
    async with aiohttp.ClientSession(connector=aiohttp.TCPConnector(limit=0)) as session:
        made = [await new_table(session, url) for _ in range(tables)]
    done = stale = 0
    deadline = time.monotonic() + seconds

    async def send(table: Table) -> None:
        nonlocal done, stale
        body = {"type": "set_pool", "side": "crew", "points": 3}
        async with aiohttp.ClientSession(connector=aiohttp.TCPConnector(limit=1)) as own:
            while time.monotonic() < deadline:
                async with own.post(
                    f"{table['url']}/commands", json=body, headers=table["headers"]
                ) as answer:
                    if answer.status == 409:
                        stale += 1
                        continue
                    assert answer.status == 200, await answer.text()
                    done += 1

    start = time.monotonic()
    await asyncio.gather(*(send(table) for table in made))
    return done / (time.monotonic() - start), stale


def subscriber_process(
    socket_url: str,
    token: str,
    count: int,
    final: int,
    ready: Queue[int],
    results: Queue[dict[str, Any]],
    finished: EventType,
) -> None:
    asyncio.run(_subscribe(socket_url, token, count, final, ready, results, finished))


async def _subscribe(
    socket_url: str,
    token: str,
    count: int,
    final: int,
    ready: Queue[int],
    results: Queue[dict[str, Any]],
    finished: EventType,
) -> None:
    """Hold ``count`` sockets; report each sequence's first and last arrival, how many messages
    came, and losses. The sockets close only once ``finished`` is set, so that closing them
    does not count in the server's time for the fan-out."""
    arrivals: dict[int, list[int]] = {}
    lost = received = 0
    connector = aiohttp.TCPConnector(limit=0)
    async with aiohttp.ClientSession(connector=connector) as session:
        sockets = await asyncio.gather(
            *(
                session.ws_connect(
                    socket_url, headers={"Authorization": f"Bearer {token}"}, max_msg_size=0
                )
                for _ in range(count)
            )
        )
        for ws in sockets:
            start = (await ws.receive_json())["seq"]
        ready.put(count)

        async def read(ws: aiohttp.ClientWebSocketResponse) -> None:
            nonlocal lost, received
            expected = start + 1
            async for message in ws:
                now = time.monotonic_ns()
                head = SEQ.match(message.data)  # the client only needs the sequence: read the
                if head is None:  # prefix, not the whole message, to spare the shared CPUs
                    break
                received += 1
                seq = int(head.group(1))
                lost += seq - expected
                expected = seq + 1
                first_last = arrivals.setdefault(seq, [now, now])
                first_last[0] = min(first_last[0], now)
                first_last[1] = max(first_last[1], now)
                if seq >= final:
                    break
            lost += max(0, final + 1 - expected)

        await asyncio.gather(*(read(ws) for ws in sockets))
        results.put({"arrivals": arrivals, "lost": lost, "received": received})
        await asyncio.get_running_loop().run_in_executor(None, finished.wait)
        for ws in sockets:
            await ws.close()


async def _send_paced(table: Table, count: int, rate: float) -> dict[int, tuple[int, int]]:
    """Send ``count`` commands at ``rate`` per second; each sequence's (sent, acknowledged)."""
    sent: dict[int, tuple[int, int]] = {}
    async with aiohttp.ClientSession(connector=aiohttp.TCPConnector(limit=0)) as session:
        start = time.monotonic()

        async def one(n: int) -> None:
            delay = start + n / rate - time.monotonic()
            if delay > 0:
                await asyncio.sleep(delay)
            at = time.monotonic_ns()
            seq = await command(session, table)
            sent[seq] = (at, time.monotonic_ns())

        await asyncio.gather(*(one(n) for n in range(count)))
    return sent


@dataclass
class FanOut:
    """One fan-out run: each sequence's (sent, acknowledged) and (first, last) arrival, the
    messages lost and received, and the server's CPU seconds while it ran."""

    sent: dict[int, tuple[int, int]]
    arrivals: dict[int, list[int]]
    lost: int
    received: int
    cpu: float


def fan_out(
    server: ServerProcess,
    table: Table,
    subscribers: int,
    count: int,
    rate: float,
    processes: int = 4,
) -> FanOut:
    """Subscribers in ``processes`` processes, ``count`` commands at ``rate`` to them."""
    context = multiprocessing.get_context("spawn")
    ready: Queue[int] = context.Queue()
    results: Queue[dict[str, Any]] = context.Queue()
    finished = context.Event()
    version = asyncio.run(_version(table))
    final = version + count
    shares = [
        subscribers // processes + (1 if n < subscribers % processes else 0)
        for n in range(processes)
    ]
    socket_url = table["url"].replace("http", "ws", 1) + "/ws"
    workers = [
        context.Process(
            target=subscriber_process,
            args=(socket_url, table["overlay_token"], share, final, ready, results, finished),
        )
        for share in shares
        if share
    ]
    for worker in workers:
        worker.start()
    for _ in workers:
        ready.get(timeout=120)
    before = server_cpu(server)
    sent = asyncio.run(_send_paced(table, count, rate))
    arrivals: dict[int, list[int]] = {}
    lost = received = 0
    for _ in workers:
        report = results.get(timeout=120)
        lost += report["lost"]
        received += report["received"]
        for seq, (first, last) in report["arrivals"].items():
            merged = arrivals.setdefault(seq, [first, last])
            merged[0], merged[1] = min(merged[0], first), max(merged[1], last)
    cpu = server_cpu(server) - before
    finished.set()
    for worker in workers:
        worker.join()
    return FanOut(sent, arrivals, lost, received, cpu)


TICKS = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100


def server_cpu(server: ServerProcess) -> float:
    """CPU seconds (user and system) the server's process and every process under it have used,
    from /proc: several workers count together, and one that ended counts in its parent's
    children's time. NaN where there is no /proc."""
    assert server.process is not None
    try:
        parents: dict[int, int] = {}
        used: dict[int, int] = {}
        for entry in Path("/proc").iterdir():
            if not entry.name.isdigit():
                continue
            try:
                stat = (entry / "stat").read_text()
            except OSError:  # gone meanwhile
                continue
            fields = stat[stat.rindex(")") + 2 :].split()  # after the command's name
            parents[int(entry.name)] = int(fields[1])
            used[int(entry.name)] = sum(int(field) for field in fields[11:15])
    except OSError:
        return math.nan
    tree = {server.process.pid}
    grew = True
    while grew:
        below = {pid for pid, parent in parents.items() if parent in tree} - tree
        grew = bool(below)
        tree |= below
    return sum(used.get(pid, 0) for pid in tree) / TICKS


async def _version(table: Table) -> int:
    async with (
        aiohttp.ClientSession() as session,
        session.get(table["url"], headers=table["headers"]) as answer,
    ):
        seq: int = (await answer.json())["seq"]
        return seq


def latencies(server: ServerProcess, count: int, rate: float) -> None:
    """Latency at a pace the machine sustains; capacity is ``highest_rate``'s question."""
    table = asyncio.run(_table(server.url))
    print(f"  fan-out, {count} commands at {rate:.0f}/s:")
    for subscribers in (1, 100, 1000):
        run = fan_out(server, table, subscribers, count, rate)
        sent, arrivals = run.sent, run.arrivals
        figures = {}
        for name, index in (("first", 0), ("last", 1)):
            ack = [(arrivals[s][index] - sent[s][1]) / 1e6 for s in sent if s in arrivals]
            send = [(arrivals[s][index] - sent[s][0]) / 1e6 for s in sent if s in arrivals]
            figures[name] = (pct(ack, 0.5), pct(ack, 0.99), pct(send, 0.5), pct(send, 0.99))
        for name, (a50, a99, s50, s99) in figures.items():
            print(
                f"  ack → arrival, {subscribers:4} subscribers, {name:5}  p50 {a50:6.2f} ms  "
                f"p99 {a99:6.2f} ms   (sent → arrival p50 {s50:6.2f}  p99 {s99:6.2f})"
                + (f"   LOST {run.lost}" if run.lost else "")
            )
        print(
            f"  server CPU per delivered message, {subscribers:4} subscribers: "
            f"{run.cpu / max(1, run.received) * 1e6:7.2f} µs   "
            f"({run.cpu:.2f} s for {run.received} messages)"
        )
    print("     targets: p99 to the last of 1000 subscribers ≤ 10 ms; ≤ 4.5 µs per delivery")


async def _table(url: str) -> Table:
    async with aiohttp.ClientSession() as session:
        return await new_table(session, url)


def highest_rate(server: ServerProcess, seconds: float) -> None:
    table = asyncio.run(_table(server.url))
    best = 0.0
    for rate in (100, 250, 500, 1000, 2000, 4000):
        count = int(rate * seconds)
        started = time.monotonic()
        run = fan_out(server, table, 100, count, rate)
        times = [at for at, _ in run.sent.values()]
        achieved = len(run.sent) / max(1e-9, (max(times) - min(times)) / 1e9)
        whole = all(s in run.arrivals for s in run.sent) and not run.lost
        print(
            f"  100 subscribers at {rate:5} events/s asked: {achieved:6.0f}/s sent, "
            f"{'nothing lost' if whole else f'LOST {run.lost}'}"
            f"   ({time.monotonic() - started:.1f} s)"
        )
        if not whole:
            break
        best = max(best, min(achieved, rate))
    print(f"  highest event rate delivered to 100 subscribers with nothing lost: {best:.0f}/s")


CHROMIUM = Path("/usr/bin/chromium")
RECORD_RENDERS = """() => {
  window.shown = {};
  const root = document.getElementById("overlay");
  new MutationObserver(() => {
    const seq = Number(root.dataset.seq);
    if (!(seq in window.shown)) window.shown[seq] = performance.timeOrigin + performance.now();
  }).observe(root, { attributes: true, childList: true, subtree: true });
}"""


def overlay_latency(url: str, count: int) -> None:
    """Acknowledgement (the sender has the 200) to the overlay's DOM showing that sequence, in
    Debian's Chromium; both read the machine's wall clock."""
    if not CHROMIUM.exists():
        print("overlay latency: skipped, no /usr/bin/chromium (apt-get install chromium)")
        return
    from playwright.sync_api import sync_playwright  # noqa: PLC0415 - only with a browser

    table = asyncio.run(_table(url))
    acknowledged: dict[int, float] = {}
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=str(CHROMIUM),
            args=[
                "--no-sandbox",
                "--disable-gpu",
                "--disable-background-networking",
                "--disable-component-update",
                "--disable-sync",
                "--no-first-run",
            ],
        )
        page = browser.new_page(viewport={"width": 1920, "height": 1080})
        page.goto(f"{url}/overlay/{table['id']}?token={table['overlay_token']}")
        page.wait_for_selector(".rcs")
        page.evaluate(RECORD_RENDERS)
        for _ in range(count):
            _, answer = call(
                f"{table['url']}/commands",
                "POST",
                {"type": "set_pool", "side": "crew", "points": 2},
                table["gm_token"],
            )
            acknowledged[answer["seq"]] = time.time() * 1000
            time.sleep(0.02)
        last = max(acknowledged)
        page.wait_for_function(f"window.shown[{last}] !== undefined")
        shown = {int(seq): at for seq, at in page.evaluate("window.shown").items()}
        browser.close()
    delays = [shown[seq] - at for seq, at in acknowledged.items() if seq in shown]
    print(
        f"ack → overlay DOM updated in Chromium  p50 {pct(delays, 0.5):6.2f} ms   "
        f"p99 {pct(delays, 0.99):6.2f} ms   ({len(delays)} of {count} commands; "
        f"target p99 ≤ 50 ms)"
    )


REDIS = "redis://127.0.0.1:6379"
SETUPS = {
    "asyncio": ["--loop", "asyncio"],
    "uvloop": ["--loop", "uvloop"],
    "two workers + Redis": ["--workers", "2", "--bus", REDIS],
}
"""Each fan-out setup: a name and its flags for ``seize serve``."""


@contextmanager
def serving(db: Path | str, flags: list[str], folder: Path) -> Iterator[ServerProcess | str]:
    """A server started with ``flags``, or why it did not start (its last printed line)."""
    printed = folder / f"server-{uuid.uuid4().hex[:8]}.txt"
    server = ServerProcess(db, output=printed, extra_args=flags, **UNLIMITED)
    try:
        server.start()
    except RuntimeError as failed:
        server.stop()
        lines = printed.read_text().strip().splitlines() if printed.exists() else []
        yield f"{failed}: {lines[-1] if lines else 'it printed nothing'}"
        return
    try:
        yield server
    finally:
        server.stop()


def setups(args: argparse.Namespace, count: int, folder: Path) -> None:
    """Round trip, fan-out latency and CPU, and the lossless rate, on each setup in turn."""
    for name, flags in SETUPS.items():
        db = args.db or folder / f"{name.split()[0]}.db"
        with serving(db, flags, folder) as server:
            if isinstance(server, str):
                print(f"{name}: skipped: {server}")
                continue
            print(f"{name}:")
            asyncio.run(round_trip(server.url, count * 2))
            latencies(server, count, rate=20)
            if name == "uvloop":
                overlay_latency(server.url, count)
            highest_rate(server, 0.5 if args.quick else 2.0)


def throughputs(args: argparse.Namespace, folder: Path) -> None:
    """Durable commands per second over 100 tables with one and two workers, on each database."""
    seconds = 1.0 if args.quick else 3.0
    missing = postgres_missing()
    for workers in (1, 2):
        flags = ["--workers", "2", "--bus", REDIS] if workers == 2 else []
        for backend in ("SQLite", "PostgreSQL"):
            label = f"durable commands per second, {workers} worker{'s' * (workers > 1)}, {backend}"
            if backend == "PostgreSQL" and missing is not None:
                print(f"{label}: skipped: {missing}")
                continue
            with ExitStack() as held:
                db = (
                    folder / f"throughput-{workers}.db"
                    if backend == "SQLite"
                    else held.enter_context(postgres_schema())
                )
                server = held.enter_context(serving(db, flags, folder))
                if isinstance(server, str):
                    print(f"{label}: skipped: {server}")
                    continue
                rate, stale = asyncio.run(throughput(server.url, seconds, tables=100))
            print(
                f"{label:52} {rate:7.0f}   (100 tables, a sender each, answered once durable"
                + (f"; {stale} refused as stale and sent again" if stale else "")
                + ")"
            )


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--quick", action="store_true", help="fewer commands, for a smoke run")
    parser.add_argument("--db", help="a postgresql:// URL to run the fan-out over, not SQLite")
    args = parser.parse_args()
    count = 50 if args.quick else 200
    with tempfile.TemporaryDirectory() as folder:
        setups(args, count, Path(folder))
        throughputs(args, Path(folder))


if __name__ == "__main__":
    main()
