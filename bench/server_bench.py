"""Server benchmark. Prints figures; asserts nothing.

    .venv/bin/python -m bench.server_bench [--quick] [--db postgresql://…]

The server runs in its own process over a fresh SQLite file (synchronous=FULL), or over the
PostgreSQL database ``--db`` names (its tables are created there if missing); the sender and
the WebSocket subscribers run in other processes (subscribers split over several, each reading
its sockets' bytes with little more than a pattern match, so that the time to the last of a
thousand subscribers is mostly the server's). Times are
taken on CLOCK_MONOTONIC, which every process on the machine shares, so an acknowledgement seen
by the sender and an arrival seen by a subscriber compare directly.

Each setup in turn: the server on asyncio's own loop, on uvloop, and as two workers sharing the
port with Redis carrying events between them (subscribers are spread over the workers by the
kernel). A setup whose server does not start, or on which no WebSocket can follow a table, is
reported as skipped with the reason. For each:

- round trip: one client sending commands one after another over a kept-alive connection;
- fan-out: a command's acknowledgement (the sender has the 200) to its arrival at the first and
  the last of 1, 100 and 1000 subscribers, at 20 commands a second (at 1000 subscribers that is
  20,000 messages a second for the clients, which share the machine's two cores with the
  server). The server publishes before it answers, so an arrival can precede the
  acknowledgement: such latencies are negative. Command sent to arrival is printed too;
- the server's CPU time per delivered message: user and system time of the server's process
  and every process under it (from /proc, so in ticks of 10 ms), from the subscribers all
  connected to their last message, over the messages they received. It includes the commands'
  own handling; the figure less that (as measured with one subscriber) is printed beside it;
- on uvloop (the default where installed), a command's acknowledgement to the overlay's DOM showing
  it, in Debian's Chromium;
- the highest event rate 100 subscribers receive with nothing lost (no gap, no goodbye).

Then durable commands per second over 100 tables, one sender each, with one worker and with
two (and Redis), on SQLite and on PostgreSQL (the tests' server, ``SEIZE_TEST_POSTGRES``); and
the server's memory per table held and per live subscriber (its resident memory before and
after), the units of the sizing model in docs/deploy.md.
"""

from __future__ import annotations

import argparse
import asyncio
import base64
import math
import multiprocessing
import os
import re
import socket
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
from urllib.parse import urlsplit

import aiohttp

from tests.server.databases import postgres_missing, postgres_schema
from tests.server.process import UNLIMITED, ServerProcess, call

Table = dict[str, Any]
SEQ = re.compile(rb'\{"type": "(event|view)", "seq": (\d+)')


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


class Follower(asyncio.Protocol):
    """One subscriber's WebSocket, read at the byte level: a client that costs the CPUs the
    server shares with it little, so that the time to the last of a thousand subscribers is the
    server's rather than the clients'. It reads each text frame's sequence from its prefix and
    answers nothing (the bench's server sends no heartbeat within a run)."""

    def __init__(self, request: bytes, final: int, arrivals: dict[int, list[int]]) -> None:
        self.request, self.final, self.arrivals = request, final, arrivals
        self.buffer = bytearray()
        self.transport: asyncio.Transport | None = None
        loop = asyncio.get_running_loop()
        self.started: asyncio.Future[None] = loop.create_future()  # the first view came
        self.done: asyncio.Future[None] = loop.create_future()  # the final sequence came
        self.upgraded = False
        self.expected = 0
        self.lost = self.received = 0

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        assert isinstance(transport, asyncio.Transport)
        self.transport = transport
        transport.write(self.request)

    def connection_lost(self, error: Exception | None) -> None:
        for waiting in (self.started, self.done):
            if not waiting.done():
                waiting.set_exception(ConnectionError(f"closed: {error}"))

    def data_received(self, data: bytes) -> None:
        now = time.monotonic_ns()
        buffer = self.buffer
        buffer += data
        if not self.upgraded:
            end = buffer.find(b"\r\n\r\n")
            if end < 0:
                return
            if not buffer.startswith(b"HTTP/1.1 101"):
                self.started.set_exception(ConnectionError(bytes(buffer[:end]).decode()))
                return
            self.upgraded = True
            del buffer[: end + 4]
        while len(buffer) >= 2:
            size, start = buffer[1] & 0x7F, 2
            if size >= 126:
                start = 4 if size == 126 else 10
                if len(buffer) < start:
                    return
                size = int.from_bytes(buffer[2:start], "big")
            if len(buffer) < start + size:
                return
            if buffer[0] & 0x0F == 1 and (head := SEQ.match(buffer, start)) is not None:
                self.message(head.group(1) == b"view", int(head.group(2)), now)
            del buffer[: start + size]

    def message(self, view: bool, seq: int, now: int) -> None:
        if view:
            self.expected = seq + 1
            self.started.set_result(None)
            return
        self.received += 1
        self.lost += seq - self.expected
        self.expected = seq + 1
        first_last = self.arrivals.setdefault(seq, [now, now])
        first_last[0] = min(first_last[0], now)
        first_last[1] = max(first_last[1], now)
        if seq >= self.final and not self.done.done():
            self.done.set_result(None)


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
    url = urlsplit(socket_url)
    assert url.hostname is not None and url.port is not None
    host, port = url.hostname, url.port
    key = base64.b64encode(os.urandom(16)).decode()
    request = (
        f"GET {url.path} HTTP/1.1\r\nHost: {url.netloc}\r\nUpgrade: websocket\r\n"
        f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n"
        f"Authorization: Bearer {token}\r\n\r\n"
    ).encode()
    loop = asyncio.get_running_loop()

    async def connect() -> Follower:
        _, follower = await loop.create_connection(
            lambda: Follower(request, final, arrivals), host, port
        )
        return follower

    followers = await asyncio.gather(*(connect() for _ in range(count)))
    await asyncio.gather(*(f.started for f in followers))
    ready.put(count)
    await asyncio.gather(*(f.done for f in followers))
    lost = sum(f.lost + max(0, final + 1 - f.expected) for f in followers)
    received = sum(f.received for f in followers)
    results.put({"arrivals": arrivals, "lost": lost, "received": received})
    await loop.run_in_executor(None, finished.wait)
    for follower in followers:
        if follower.transport is not None:
            follower.transport.close()


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
    per_command = 0.0  # the server's CPU for a command itself, from the one-subscriber run
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
        if subscribers == 1:
            per_command = run.cpu / max(1, len(run.sent))
        delivering = (run.cpu - per_command * len(run.sent)) / max(1, run.received)
        print(
            f"  server CPU per delivered message, {subscribers:4} subscribers: "
            f"{run.cpu / max(1, run.received) * 1e6:7.2f} µs   "
            f"({run.cpu:.2f} s for {run.received} messages"
            + (f"; {delivering * 1e6:.2f} µs less the commands' own" if subscribers > 1 else "")
            + ")"
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
HEARTBEAT = 3600  # seconds: no pings within a run, which the bench's subscribers do not answer
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
    server = ServerProcess(db, output=printed, extra_args=flags, heartbeat=HEARTBEAT, **UNLIMITED)
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


def redis_missing() -> str | None:
    """Why Redis cannot carry the two workers' events, or None: without it they would fall
    back to polling the database, and the figures would not be the bus's."""
    try:
        socket.create_connection(("127.0.0.1", 6379), timeout=1).close()
    except OSError as failed:
        return f"Redis is not reachable at {REDIS} ({failed})"
    return None


def setups(args: argparse.Namespace, count: int, folder: Path) -> None:
    """Round trip, fan-out latency and CPU, and the lossless rate, on each setup in turn."""
    for name, flags in SETUPS.items():
        if REDIS in flags and (missing := redis_missing()) is not None:
            print(f"{name}: skipped: {missing}")
            continue
        db = args.db or folder / f"{name.split()[0]}.db"
        with serving(db, flags, folder) as server:
            if isinstance(server, str):
                print(f"{name}: skipped: {server}")
                continue
            if (broken := asyncio.run(_not_followed(server.url))) is not None:
                print(f"{name}: skipped: no WebSocket follows a table on it ({broken})")
                continue
            print(f"{name}:")
            asyncio.run(round_trip(server.url, count * 2))
            latencies(server, count, rate=20)
            if name == "uvloop":  # the default loop
                overlay_latency(server.url, count)
            highest_rate(server, 0.5 if args.quick else 2.0)


async def _not_followed(url: str) -> str | None:
    """Why a WebSocket cannot follow a table on this server, or None when one can."""
    async with aiohttp.ClientSession() as session:
        table = await new_table(session, url)
        try:
            async with session.ws_connect(
                table["url"].replace("http", "ws", 1) + "/ws", headers=table["headers"]
            ) as ws:
                await ws.receive_json(timeout=5)
        except (aiohttp.ClientError, TypeError, TimeoutError) as failed:
            return f"{type(failed).__name__}: {failed}"
    return None


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
            if workers == 2 and (no_bus := redis_missing()) is not None:
                print(f"{label}: skipped: {no_bus}")
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


def resident_kb(pid: int) -> int:
    """The process's resident memory (VmRSS), in KB."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    raise LookupError("no VmRSS")


async def _fill(url: str, tables: int, subscribers: int, pid: int) -> tuple[float, float]:
    """KB of the server's memory per table in memory (20 events each), and per WebSocket."""
    limits = aiohttp.TCPConnector(limit=50)
    async with aiohttp.ClientSession(connector=limits) as session:
        before = resident_kb(pid)
        made: list[Table] = []
        for _ in range(0, tables, 50):
            made += await asyncio.gather(*(new_table(session, url) for _ in range(50)))
        for start in range(0, tables, 50):  # 20 events each: the join and 19 pools
            for _ in range(19):
                await asyncio.gather(*(command(session, t) for t in made[start : start + 50]))
        with_tables = resident_kb(pid)
    async with aiohttp.ClientSession(connector=aiohttp.TCPConnector(limit=0)) as session:
        sockets = [
            await session.ws_connect(
                made[n % tables]["url"].replace("http", "ws", 1) + "/ws",
                headers=made[n % tables]["headers"],
            )
            for n in range(subscribers)
        ]
        for ws in sockets:
            await ws.receive_json()
        with_sockets = resident_kb(pid)
        for ws in sockets:
            await ws.close()
    return (with_tables - before) / tables, (with_sockets - with_tables) / subscribers


def memory(args: argparse.Namespace, folder: Path) -> None:
    """The server's memory per table held and per live subscriber: the sizing model's units."""
    tables, subscribers = (200, 400) if args.quick else (1000, 2000)
    with serving(folder / "memory.db", [], folder) as server:
        if isinstance(server, str):
            print(f"memory: skipped: {server}")
            return
        assert server.process is not None
        per_table, per_socket = asyncio.run(
            _fill(server.url, tables, subscribers, server.process.pid)
        )
    print(f"memory per table in memory (20 events)  {per_table:6.1f} KB   ({tables} tables)")
    print(f"memory per WebSocket subscriber          {per_socket:6.1f} KB   ({subscribers})")


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
        memory(args, Path(folder))


if __name__ == "__main__":
    main()
