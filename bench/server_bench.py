"""Server benchmark. Prints figures; asserts nothing.

    .venv/bin/python -m bench.server_bench [--quick] [--db postgresql://…] [--setup NAME]
        [--part fan-out|throughput|memory|many-tables] [--tables N] [--save FILE]
        [--compare FILE]

The server runs in its own process over a fresh SQLite file (synchronous=FULL), or over the
PostgreSQL database ``--db`` names (its tables are created there if missing); the sender and
the WebSocket subscribers run in other processes (subscribers split over several, each reading
its sockets' bytes with little more than a pattern match, so that the time to the last of a
thousand subscribers is mostly the server's). Times are taken on CLOCK_MONOTONIC, which every
process on the machine shares, so a command sent and its arrival compare directly.

Each setup in turn: the server on asyncio's own loop, on uvloop, and as two workers sharing the
port with Redis carrying events between them (subscribers are spread over the workers by the
kernel). A setup whose server does not start, or on which no WebSocket can follow a table, is
reported as skipped with the reason. For each:

- round trip: one client sending commands one after another over a kept-alive connection;
- fan-out: 1, 10, 100 and 1000 subscribers, commands at 20 a second sent over HTTP and then on
  the sender's own WebSocket (as the console and the adapters can): each delivery's time from
  the command sent to its arrival, p50 and p99, and the command's answer;
- the server's CPU per delivery, as the marginal cost of a subscriber: its CPU time (user and
  system, of its process and every process under it, from /proc, in ticks of 10 ms) at 100
  subscribers less that at 10, over the deliveries added, so that idle and per-command costs
  cancel; beside it the ``send`` floor, measured in the same run: a loop writing a frame of the
  same size to as many plain non-blocking loopback sockets, as often, the same way;
- the fsync floor (a small WAL commit with synchronous=FULL on the same disk, at the commands'
  rate) beside a WebSocket command's answer with one subscriber;
- on uvloop (the default where installed), a command's acknowledgement to the overlay's DOM
  showing it, in Debian's Chromium (``bench/glass_bench.py`` times a tap in the console to the
  overlay's paint);
- the highest event rate 100 subscribers receive with nothing lost (no gap, no goodbye).

Then durable commands per second over 100 tables, one sender each, with one worker held to one
core and with two workers (and Redis), on SQLite and on PostgreSQL (the tests' server,
``SEIZE_TEST_POSTGRES``); and the server's memory per table held and per live subscriber (its
resident memory before and after), the units of the sizing model in docs/deploy.md; per
table after 1,000 and 10,000 events, which should not grow it; and a soak of 1,000 commands on
each of 200 tables, the server's resident memory at the start, half way and the end, which
should stay flat.

Last, many tables each in a fight (``--part many-tables``): at each of 25, 50, 100 and 200
tables (``--tables N``, repeatable, for others), every table followed by six subscribers on the
overlay's link and sent one durable command every 2 s on its GM's WebSocket, the tables' turns
spread evenly over the 2 s, for 30 s (6 s with ``--quick``); on one worker (uvloop) and on two
workers with Redis, each started afresh. For each: the server's CPU (every process of it, from
/proc, as above) per command and per delivery, over the whole run, idle time included; and each
delivery's time from its command sent, p50 and p99. Then the crossover: the fewest tables from
which on two workers' CPU per command (and, apart, their p99) is below one worker's at every
count measured, or that there is none up to the most measured.

``--save FILE`` writes every figure printed to a JSON file; ``--compare FILE`` prints the figures
of such a file beside today's, with their ratio. ``bench/saved/`` keeps such runs of main, named
by their day, to compare a change with: ``2026-12-06.json`` is ``--part fan-out --setup uvloop``
and ``--part many-tables`` (at 25 to 800 tables) on a 2-core host, SQLite on its disk, load
under 0.5. The machine's other work shows in every figure: repeat a run before believing a
difference, and compare only runs of the same host.
"""

from __future__ import annotations

import argparse
import asyncio
import base64
import json
import math
import multiprocessing
import os
import re
import socket
import sqlite3
import tempfile
import time
import urllib.request
import uuid
from collections.abc import Callable, Coroutine, Iterator
from contextlib import AsyncExitStack, ExitStack, contextmanager
from dataclasses import dataclass
from multiprocessing.queues import Queue
from multiprocessing.synchronize import Event as EventType
from pathlib import Path
from typing import Any, TypeVar
from urllib.parse import urlsplit

import aiohttp

from server.live.hub import websocket_frame
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


def ws_url(table: Table) -> str:
    """The table's WebSocket, which every role follows it on."""
    return f"{table['url'].replace('http', 'ws', 1)}/ws"


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
    made = await _tables(url, tables)
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


@dataclass(frozen=True)
class Follow:
    """``count`` subscribers of one table, on its WebSocket ``url`` with ``token``, each
    waiting for the sequence ``final``."""

    url: str
    token: str
    count: int
    final: int


Seen = tuple[dict[str, dict[int, list[int]]], int, int]
"""A subscriber process's report: each table's sequences' arrivals (by the table's WebSocket),
the messages received, the messages lost. Plain data, as it crosses between processes."""


def subscriber_process(
    follows: list[Follow], ready: Queue[int], results: Queue[Seen], finished: EventType
) -> None:
    asyncio.run(_subscribe(follows, ready, results, finished))


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
            if buffer[0] & 0x0F == 1:
                self.text(start, size, now)
            del buffer[: start + size]

    def text(self, start: int, size: int, now: int) -> None:
        """A text frame, ``size`` bytes at ``start`` in the buffer, that came at ``now``."""
        if (head := SEQ.match(self.buffer, start)) is not None:
            self.message(head.group(1) == b"view", int(head.group(2)), now)

    def message(self, view: bool, seq: int, now: int) -> None:
        if view:
            self.expected = seq + 1
            self.started.set_result(None)
            return
        self.received += 1
        self.lost += seq - self.expected
        self.expected = seq + 1
        self.arrivals.setdefault(seq, []).append(now)
        if seq >= self.final and not self.done.done():
            self.done.set_result(None)


async def _subscribe(
    follows: list[Follow], ready: Queue[int], results: Queue[Seen], finished: EventType
) -> None:
    """Hold every follow's sockets; report each table's sequences' arrivals, how many messages
    came, and losses. The sockets close only once ``finished`` is set, so that closing them
    does not count in the server's time."""
    arrivals: dict[str, dict[int, list[int]]] = {follow.url: {} for follow in follows}
    key = base64.b64encode(os.urandom(16)).decode()
    loop = asyncio.get_running_loop()

    async def connect(follow: Follow) -> Follower:
        url = urlsplit(follow.url)
        assert url.hostname is not None and url.port is not None
        request = (
            f"GET {url.path} HTTP/1.1\r\nHost: {url.netloc}\r\nUpgrade: websocket\r\n"
            f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n"
            f"Authorization: Bearer {follow.token}\r\n\r\n"
        ).encode()
        _, follower = await loop.create_connection(
            lambda: Follower(request, follow.final, arrivals[follow.url]), url.hostname, url.port
        )
        return follower

    followers = await asyncio.gather(*(connect(f) for f in follows for _ in range(f.count)))
    await asyncio.gather(*(f.started for f in followers))
    ready.put(len(followers))
    await asyncio.gather(*(f.done for f in followers))
    lost = sum(f.lost + max(0, f.final + 1 - f.expected) for f in followers)
    received = sum(f.received for f in followers)
    results.put((arrivals, received, lost))
    await loop.run_in_executor(None, finished.wait)
    for follower in followers:
        if follower.transport is not None:
            follower.transport.close()


@dataclass
class Report:
    """What every subscriber saw: each table's sequences' arrivals (by the table's WebSocket),
    the messages received, the messages lost."""

    arrivals: dict[str, dict[int, list[int]]]
    received: int
    lost: int


@contextmanager
def following(shares: list[list[Follow]]) -> Iterator[Callable[[], Report]]:
    """Subscribers in a process per share, every socket connected and shown its table's view;
    yields what waits until each has had its final sequence and merges what they saw. The
    sockets close only as the block ends, so that closing them is not counted in the server's
    time."""
    context = multiprocessing.get_context("spawn")
    ready: Queue[int] = context.Queue()
    results: Queue[Seen] = context.Queue()
    finished = context.Event()
    workers = [
        context.Process(target=subscriber_process, args=(share, ready, results, finished))
        for share in shares
        if share
    ]

    def reports() -> Report:
        merged = Report({}, 0, 0)
        for _ in workers:
            arrivals, received, lost = results.get(timeout=120)
            merged.received += received
            merged.lost += lost
            for url, seen in arrivals.items():
                into = merged.arrivals.setdefault(url, {})
                for seq, times in seen.items():
                    into.setdefault(seq, []).extend(times)
        return merged

    for worker in workers:
        worker.start()
    try:
        for _ in workers:
            ready.get(timeout=120)
        yield reports
    except BaseException:
        for worker in workers:
            worker.terminate()  # they may be waiting for sequences that will not come
        raise
    finally:
        finished.set()
        for worker in workers:
            worker.join()


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


async def _send_paced_ws(table: Table, count: int, rate: float) -> dict[int, tuple[int, int]]:
    """As ``_send_paced``, with the commands sent on the GM's WebSocket (as the console sends
    them)."""
    async with (
        aiohttp.ClientSession() as session,
        session.ws_connect(ws_url(table), headers=table["headers"]) as ws,
    ):
        await ws.receive_json()  # the view
        return await _paced(ws, count, rate, time.monotonic())


async def _paced(
    ws: aiohttp.ClientWebSocketResponse, count: int, rate: float, start: float
) -> dict[int, tuple[int, int]]:
    """Send ``count`` commands on a GM's WebSocket, the n-th at ``start + n / rate`` or once
    the one before is answered, whichever is later: each is answered once durable. Each
    sequence's (sent, acknowledged)."""
    sent: dict[int, tuple[int, int]] = {}
    body = {"type": "set_pool", "side": "crew", "points": 3}
    for n in range(count):
        delay = start + n / rate - time.monotonic()
        if delay > 0:
            await asyncio.sleep(delay)
        at = time.monotonic_ns()
        await ws.send_str(json.dumps({"type": "command", "id": str(n), "command": body}))
        while (message := await ws.receive_json())["type"] != "answer":
            assert message["type"] != "refused", message
        sent[message["seq"]] = (at, time.monotonic_ns())
    return sent


SENDERS = {"HTTP": _send_paced, "WebSocket": _send_paced_ws}
"""How a fan-out's commands are sent: over HTTP, or on the sender's own WebSocket."""


@dataclass
class FanOut:
    """One fan-out run: each sequence's (sent, acknowledged) and every arrival of it, the
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
    sender: str = "HTTP",
) -> FanOut:
    """Subscribers in ``processes`` processes, ``count`` commands at ``rate`` to them."""
    url, final = ws_url(table), asyncio.run(_version(table)) + count
    shares = [
        [Follow(url, table["overlay_token"], share, final)]
        for n in range(processes)
        if (share := subscribers // processes + (1 if n < subscribers % processes else 0))
    ]
    with following(shares) as reports:
        before = server_cpu(server)
        sent = asyncio.run(SENDERS[sender](table, count, rate))
        report = reports()
        cpu = server_cpu(server) - before
    return FanOut(sent, report.arrivals.get(url, {}), report.lost, report.received, cpu)


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


FIGURES: dict[str, float] = {}
"""Every figure the run printed, by name: written out with ``--save``, and read back by
``--compare`` to print a previous run's beside today's."""


def noted(name: str, value: float) -> float:
    FIGURES[name] = value
    return value


SUBSCRIBERS = (1, 10, 100, 1000)
"""Table sizes the fan-out is measured at; 10 and 100 give the marginal cost of a subscriber."""


def latencies(server: ServerProcess, setup: str, count: int, rate: float) -> None:
    """Latency at a pace the machine sustains, for commands sent over HTTP and on the sender's
    WebSocket; capacity is ``highest_rate``'s question. Each delivery counts: a command's
    arrival at every subscriber, from the moment its sender sent it."""
    table = asyncio.run(_table(server.url))
    print(f"  fan-out, {count} commands at {rate:.0f}/s, sent → arrival at each subscriber:")
    for sender in SENDERS:
        cpu: dict[int, tuple[float, int]] = {}
        for subscribers in SUBSCRIBERS:
            run = fan_out(server, table, subscribers, count, rate, sender=sender)
            sent, arrivals = run.sent, run.arrivals
            each = [(at - sent[s][0]) / 1e6 for s in sent for at in arrivals.get(s, ())]
            first = [(min(arrivals[s]) - sent[s][0]) / 1e6 for s in sent if s in arrivals]
            answered = [(ack - at) / 1e6 for at, ack in sent.values()]
            name = f"{setup}, {sender} commands, {subscribers} subscribers"
            print(
                f"  {sender:9} {subscribers:4} subscribers: per delivery "
                f"p50 {noted(f'{name}: delivery p50 ms', pct(each, 0.5)):6.2f} ms  "
                f"p99 {noted(f'{name}: delivery p99 ms', pct(each, 0.99)):6.2f} ms   "
                f"first p50 {pct(first, 0.5):6.2f}   answered p50 "
                f"{noted(f'{name}: answered p50 ms', pct(answered, 0.5)):6.2f}  "
                f"p99 {noted(f'{name}: answered p99 ms', pct(answered, 0.99)):6.2f}"
                + (f"   LOST {run.lost}" if run.lost else "")
            )
            cpu[subscribers] = (run.cpu, run.received)
        (low, low_received), (high, high_received) = cpu[10], cpu[100]
        marginal = (high - low) / max(1, high_received - low_received)
        print(
            f"  {sender:9} server CPU per delivery, marginal from 10 to 100 subscribers: "
            f"{noted(f'{setup}, {sender} commands: CPU µs per delivery', marginal * 1e6):6.2f} µs"
            f"   (at 1000: {cpu[1000][0] / max(1, cpu[1000][1]) * 1e6:.2f} µs, commands' "
            "own included; /proc counts in 10 ms ticks)"
        )


def send_floor(size: int, count: int, rate: float) -> float:
    """The ``send`` floor: CPU µs per frame for a loop that writes a frame of ``size`` bytes to
    plain non-blocking loopback sockets, as many and as often as the fan-out does, marginal
    from 10 to 100 sockets (as the server's figure is), the reader in another process."""
    context = multiprocessing.get_context("spawn")
    ports: Queue[int] = context.Queue()
    finished = context.Event()
    sink = context.Process(target=_sink, args=(ports, finished))
    sink.start()
    port = ports.get(timeout=60)
    frame = bytes(size)
    used: dict[int, float] = {}
    try:
        for sockets in (10, 100):
            plain = [socket.create_connection(("127.0.0.1", port)) for _ in range(sockets)]
            for each in plain:
                each.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, 64 * 1024)
                each.setblocking(False)
            spent = 0.0
            start = time.monotonic()
            for n in range(count):
                time.sleep(max(0.0, start + n / rate - time.monotonic()))
                before = time.process_time()
                for each in plain:
                    each.send(frame)
                spent += time.process_time() - before
            used[sockets] = spent
            for each in plain:
                each.close()
    finally:
        finished.set()
        sink.join()
    return (used[100] - used[10]) / (90 * count)


def _sink(ports: Queue[int], finished: EventType) -> None:
    """Accept connections on a free port and read and drop whatever comes, until told."""

    class Drain(asyncio.Protocol):
        def data_received(self, data: bytes) -> None:
            """Dropped: only the sender's cost is measured."""

    async def serve() -> None:
        loop = asyncio.get_running_loop()
        server = await loop.create_server(Drain, "127.0.0.1", 0)
        ports.put(server.sockets[0].getsockname()[1])
        await loop.run_in_executor(None, finished.wait)
        server.close()

    asyncio.run(serve())


async def _frame_size(table: Table) -> int:
    """The bytes of one command's frame as the overlay's subscribers get it."""
    overlay = {"Authorization": f"Bearer {table['overlay_token']}"}
    async with (
        aiohttp.ClientSession() as session,
        session.ws_connect(ws_url(table), headers=overlay) as ws,
    ):
        await ws.receive_json()  # the view
        await command(session, table)
        text = (await ws.receive()).data
    return len(websocket_frame(text.encode()))


def fsync_floor(folder: Path, commits: int, rate: float) -> tuple[float, float]:
    """p50 and p99 ms of one small WAL commit with synchronous=FULL on the server's disk, at
    ``rate`` commits a second, as the commands come. Paced commits are the fair floor: back to
    back, with the disk's cache warm and no core asleep between them, the same commit took a
    tenth of the time a commit every 100 ms did (0.08 against 1.7 ms on one machine)."""
    connection = sqlite3.connect(folder / "fsync.db", isolation_level=None)
    connection.execute("pragma journal_mode=wal")
    connection.execute("pragma synchronous=full")
    connection.execute("create table if not exists t (body text)")
    times = []
    begun = time.perf_counter()
    for n in range(commits):
        time.sleep(max(0.0, begun + n / rate - time.perf_counter()))
        start = time.perf_counter()
        connection.execute("begin immediate")
        connection.execute("insert into t values (?)", ("x" * 300,))
        connection.execute("commit")
        times.append((time.perf_counter() - start) * 1000)
    connection.close()
    return pct(times, 0.5), pct(times, 0.99)


def floors(server: ServerProcess, setup: str, folder: Path, count: int, rate: float) -> None:
    """The floors the fan-out and the command path are compared with, measured in the same
    run: a plain ``send`` per delivery, and an fsync per command."""
    size = asyncio.run(_frame_size(asyncio.run(_table(server.url))))
    floor = noted(f"{setup}: send floor µs", send_floor(size, count, rate) * 1e6)
    for sender in SENDERS:
        cost = FIGURES.get(f"{setup}, {sender} commands: CPU µs per delivery", math.nan)
        print(
            f"  {sender:9} CPU per delivery {cost:6.2f} µs, send floor {floor:5.2f} µs "
            f"({size} bytes): ratio "
            f"{noted(f'{setup}, {sender}: CPU / send floor', cost / floor):.2f}   (goal ≤ 1.5)"
        )
    fsync50, fsync99 = fsync_floor(folder, 100, rate)
    noted(f"{setup}: fsync p50 ms", fsync50)
    answered = FIGURES.get(f"{setup}, WebSocket commands, 1 subscribers: answered p50 ms", math.nan)
    answered99 = FIGURES.get(
        f"{setup}, WebSocket commands, 1 subscribers: answered p99 ms", math.nan
    )
    print(
        f"  fsync floor (WAL commit, synchronous=FULL, {rate:.0f}/s) p50 {fsync50:5.2f} ms  "
        f"p99 {fsync99:5.2f} ms; WebSocket command, 1 subscriber, answered p50 {answered:5.2f} ms "
        f"(goal ≤ fsync + 0.5 = {fsync50 + 0.5:.2f}), p99 {answered99:5.2f} ms (goal ≤ 4)"
    )


async def _table(url: str) -> Table:
    async with aiohttp.ClientSession() as session:
        return await new_table(session, url)


async def _tables(url: str, count: int) -> list[Table]:
    async with aiohttp.ClientSession(connector=aiohttp.TCPConnector(limit=0)) as session:
        return [await new_table(session, url) for _ in range(count)]


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


def setups(args: argparse.Namespace, folder: Path) -> None:
    """Round trip, fan-out latency and CPU, and the lossless rate, on each setup in turn."""
    count = 50 if args.quick else 200
    for name, flags in SETUPS.items():
        if args.setup and name not in args.setup:
            continue
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
            before = full_passes(server.url)
            latencies(server, name, count, rate=20)
            passes = noted(f"{name}: full collector passes", full_passes(server.url) - before)
            print(f"  full passes of the cycle collector during the fan-out: {passes:.0f}")
            floors(server, name, folder, count, rate=20)
            if name == "uvloop":  # the default loop
                overlay_latency(server.url, count)
            highest_rate(server, 0.5 if args.quick else 2.0)


def full_passes(url: str) -> int:
    """The server's full passes of its cycle collector so far, from its ``/metrics`` (every
    worker's, summed): each holds up every table of its process."""
    with urllib.request.urlopen(f"{url}/metrics", timeout=10) as answer:
        text = answer.read().decode()
    found = re.findall(
        r'^seize_collections_total\{(?:worker="\d+",)?generation="2"\} (\d+)$', text, re.M
    )
    return sum(int(n) for n in found)


async def _not_followed(url: str) -> str | None:
    """Why a WebSocket cannot follow a table on this server, or None when one can."""
    async with aiohttp.ClientSession() as session:
        table = await new_table(session, url)
        try:
            async with session.ws_connect(ws_url(table), headers=table["headers"]) as ws:
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
                if workers == 1:
                    assert server.process is not None
                    pin(server.process.pid, 0)
                rate, stale = asyncio.run(throughput(server.url, seconds, tables=100))
            print(
                f"{label:52} {noted(label, rate):7.0f}   (100 tables, a sender each, answered "
                f"once durable; {'on one core' if workers == 1 else 'on every core'}"
                + (f"; {stale} refused as stale and sent again" if stale else "")
                + ")"
            )


def pin(pid: int, core: int) -> None:
    """Hold every thread of a process (the event loop and the store's writer) to one core."""
    cores = os.sched_getaffinity(0)
    if core in cores and len(cores) > 1:
        for thread in Path(f"/proc/{pid}/task").iterdir():
            os.sched_setaffinity(int(thread.name), {core})


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
            await session.ws_connect(ws_url(made[n % tables]), headers=made[n % tables]["headers"])
            for n in range(subscribers)
        ]
        for ws in sockets:
            await ws.receive_json()
        with_sockets = resident_kb(pid)
        for ws in sockets:
            await ws.close()
    return (with_tables - before) / tables, (with_sockets - with_tables) / subscribers


Measured = TypeVar("Measured")


def _on_a_server(
    db: Path, measure: Callable[[str, int], Coroutine[Any, Any, Measured]]
) -> Measured | None:
    """What ``measure(url, pid)`` finds on a server of its own over ``db``; None, with why
    printed, when the server does not start."""
    with serving(db, [], db.parent) as server:
        if isinstance(server, str):
            print(f"memory: skipped: {server}")
            return None
        assert server.process is not None
        return asyncio.run(measure(server.url, server.process.pid))


def memory(args: argparse.Namespace, folder: Path) -> None:
    """The server's memory per table held and per live subscriber: the sizing model's units."""
    tables, subscribers = (200, 400) if args.quick else (1000, 2000)
    filled = _on_a_server(
        folder / "memory.db", lambda url, pid: _fill(url, tables, subscribers, pid)
    )
    if filled is None:
        return
    per_table, per_socket = filled
    print(f"memory per table in memory (20 events)  {per_table:6.1f} KB   ({tables} tables)")
    print(f"memory per WebSocket subscriber          {per_socket:6.1f} KB   ({subscribers})")
    noted("memory per table, 20 events, KB", per_table)
    noted("memory per WebSocket subscriber, KB", per_socket)
    long_tables = 2 if args.quick else 10
    grown = _on_a_server(folder / "long.db", lambda url, pid: _long_tables(url, long_tables, pid))
    if grown is None:
        return
    for events, per in grown.items():
        print(
            f"memory per table after {events:6} events  "
            f"{noted(f'memory per table, {events} events, KB', per):8.1f} KB   "
            f"({long_tables} tables)"
        )
    (low, low_kb), (high, high_kb) = grown.items()
    print(f"  growth per event between them: {(high_kb - low_kb) * 1024 / (high - low):.0f} bytes")
    soak_tables, soak_events = (50, 400) if args.quick else (200, 1000)
    soaked = _on_a_server(
        folder / "soak.db", lambda url, pid: _soak(url, soak_tables, soak_events, pid)
    )
    if soaked is None:
        return
    print(
        f"soak: {soak_tables * soak_events} commands over {soak_tables} tables: resident "
        + " -> ".join(f"{kb / 1024:.0f} MB" for kb in soaked)
        + " (start, half way, end)"
    )
    noted("soak, resident MB at half way", soaked[1] / 1024)
    noted("soak, resident MB at the end", soaked[2] / 1024)


async def _soak(url: str, tables: int, events: int, pid: int) -> list[int]:
    """The server's resident KB with ``tables`` tables in play, then after half and all of
    ``events`` commands on each: what a long evening of many tables does to it."""
    async with aiohttp.ClientSession(connector=aiohttp.TCPConnector(limit=0)) as session:
        made = [await new_table(session, url) for _ in range(tables)]
        seen = [resident_kb(pid)]
        for _ in range(2):
            for start in range(0, tables, 20):
                part = made[start : start + 20]
                await asyncio.gather(*(_pipelined(session, t, events // 2) for t in part))
            seen.append(resident_kb(pid))
    return seen


LONG = (1000, 10000)
"""The events a long-lived table is measured after: memory should not grow with them."""


async def _long_tables(url: str, tables: int, pid: int) -> dict[int, float]:
    """KB of the server's memory per table after each of ``LONG`` events, the commands sent on
    each table's WebSocket, many in flight at once."""
    async with aiohttp.ClientSession() as session:
        made = [await new_table(session, url) for _ in range(tables)]
        before = resident_kb(pid)
        grown: dict[int, float] = {}
        done = 1  # the join
        for events in LONG:
            await asyncio.gather(*(_pipelined(session, t, events - done) for t in made))
            done = events
            grown[events] = (resident_kb(pid) - before) / tables
    return grown


async def _pipelined(session: aiohttp.ClientSession, table: Table, count: int) -> None:
    """Send ``count`` commands on the table's WebSocket, up to 100 unanswered at a time."""
    message = json.dumps(
        {"type": "command", "id": "m", "command": {"type": "set_pool", "side": "crew", "points": 3}}
    )
    async with session.ws_connect(ws_url(table), headers=table["headers"]) as ws:
        sent = answered = 0
        while answered < count:
            while sent < count and sent - answered < 100:
                await ws.send_str(message)
                sent += 1
            reply = await ws.receive_json()
            assert reply["type"] != "refused", reply
            answered += reply["type"] == "answer"


PERIOD = 2.0
"""Seconds between a table's commands in the many-tables part: a table in a fight."""
WATCHERS = 6
"""Subscribers of each table in the many-tables part besides its GM's console, which sends:
the sizing model's seven (four players' pages, an overlay, a VTT module, and the console)."""
TABLE_COUNTS = (25, 50, 100, 200)
"""The table counts the many-tables part is measured at, unless ``--tables`` names others."""
CROSSOVER = ("uvloop", "two workers + Redis")
"""The setups the many-tables part compares: one worker on the default loop, and two."""


@dataclass
class Busy:
    """One many-tables run: the commands sent, each delivery's time from its command sent (ms),
    the messages received and lost, and the server's CPU seconds while it ran."""

    commands: int
    delivered: list[float]
    received: int
    lost: int
    cpu: float


def busy(server: ServerProcess, tables: int, each: int, processes: int = 4) -> Busy:
    """``tables`` tables, each followed by ``WATCHERS`` subscribers (in ``processes`` processes)
    and sent ``each`` commands on its GM's WebSocket, one every ``PERIOD`` seconds, the tables'
    turns spread evenly over the period so that the load is even."""
    made = asyncio.run(_tables(server.url, tables))
    follows = [
        Follow(ws_url(table), table["overlay_token"], WATCHERS, version + each)
        for table, version in zip(made, asyncio.run(_versions(made)), strict=True)
    ]
    with following([follows[n::processes] for n in range(processes)]) as reports:
        return asyncio.run(_busy(server, made, each, reports))


async def _versions(tables: list[Table]) -> list[int]:
    return list(await asyncio.gather(*(_version(table) for table in tables)))


async def _busy(
    server: ServerProcess, made: list[Table], each: int, reports: Callable[[], Report]
) -> Busy:
    """The commands of ``busy``, on GM sockets all open before the server's CPU is first read
    and closed after it is read again, once every subscriber has had its last event."""
    async with AsyncExitStack() as held:
        session = await held.enter_async_context(
            aiohttp.ClientSession(connector=aiohttp.TCPConnector(limit=0))
        )
        sockets = [
            await held.enter_async_context(session.ws_connect(ws_url(t), headers=t["headers"]))
            for t in made
        ]
        for ws in sockets:
            await ws.receive_json()  # the view
        before = server_cpu(server)
        start = time.monotonic()
        sent = await asyncio.gather(
            *(
                _paced(ws, each, 1 / PERIOD, start + n * PERIOD / len(sockets))
                for n, ws in enumerate(sockets)
            )
        )
        report = await asyncio.get_running_loop().run_in_executor(None, reports)
        cpu = server_cpu(server) - before
    delivered = [
        (at - sent_at) / 1e6
        for table, times in zip(made, sent, strict=True)
        for seq, (sent_at, _) in times.items()
        for at in report.arrivals.get(ws_url(table), {}).get(seq, ())
    ]
    return Busy(sum(map(len, sent)), delivered, report.received, report.lost, cpu)


def many_tables(args: argparse.Namespace, folder: Path) -> None:
    """Many tables each in a fight, on one worker and on two with Redis, at several table
    counts: the server's CPU per command and per delivery, and each delivery's time, to find
    from how many tables on two workers take less CPU per command than one (the crossover)."""
    if (missing := redis_missing()) is not None:
        print(f"many tables: skipped: {missing}")
        return
    each = 3 if args.quick else 15
    print(
        f"many tables, each followed by {WATCHERS} subscribers and sent a command on its GM's "
        f"WebSocket every {PERIOD:.0f} s, {each} a table:"
    )
    ratios: dict[str, dict[int, float]] = {"CPU per command": {}, "delivery p99": {}}
    for tables in args.tables or TABLE_COUNTS:
        measured: dict[str, tuple[float, float]] = {}
        for setup in CROSSOVER:
            db = args.db or folder / f"many-{tables}-{setup.split()[0]}.db"
            with serving(db, SETUPS[setup], folder) as server:
                if isinstance(server, str):
                    print(f"  {tables:4} tables, {setup}: skipped: {server}")
                    continue
                run = busy(server, tables, each)
            name = f"many tables, {tables} tables, {setup}"
            per_command = noted(f"{name}: CPU µs per command", run.cpu / max(1, run.commands) * 1e6)
            per_delivery = noted(
                f"{name}: CPU µs per delivery", run.cpu / max(1, run.received) * 1e6
            )
            p50 = noted(f"{name}: delivery p50 ms", pct(run.delivered, 0.5))
            p99 = noted(f"{name}: delivery p99 ms", pct(run.delivered, 0.99))
            measured[setup] = (per_command, p99)
            print(
                f"  {tables:4} tables, {setup:20} {run.commands:5} commands: server CPU per "
                f"command {per_command:7.1f} µs, per delivery {per_delivery:6.1f} µs; "
                f"per delivery p50 {p50:6.2f} ms  p99 {p99:6.2f} ms"
                + (f"   LOST {run.lost}" if run.lost else "")
            )
        if len(measured) == len(CROSSOVER):
            (one_cpu, one_p99), (two_cpu, two_p99) = (measured[setup] for setup in CROSSOVER)
            for what, one, two in (
                ("CPU per command", one_cpu, two_cpu),
                ("delivery p99", one_p99, two_p99),
            ):
                ratios[what][tables] = noted(
                    f"many tables, {tables} tables: {what}, two workers / one",
                    two / one if one > 0 else math.nan,
                )
    for what, ratio in ratios.items():
        print(crossover_line(what, ratio))


def crossover_line(what: str, ratios: dict[int, float]) -> str:
    """Where two workers start to pay on ``what``, from their figure over one worker's at each
    table count (``ratios``): the fewest tables from which on it is below 1 at every count."""
    if not ratios:
        return f"crossover, {what}: not measured"
    found = None
    for tables in sorted(ratios, reverse=True):
        if not ratios[tables] < 1:
            break
        found = tables
    each = ", ".join(f"{tables}: {ratios[tables]:.2f}" for tables in sorted(ratios))
    if found is None:
        return (
            f"crossover, {what}: none; two workers + Redis took as much as one worker or more at "
            f"{max(ratios)} tables, the most measured   (two / one at {each})"
        )
    return (
        f"crossover, {what}: two workers + Redis take less than one worker from "
        f"{noted(f'many tables: crossover, {what}, tables', found):.0f} tables on   "
        f"(two / one at {each})"
    )


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--quick", action="store_true", help="fewer commands, for a smoke run")
    parser.add_argument("--db", help="a postgresql:// URL to run the fan-out over, not SQLite")
    parser.add_argument(
        "--setup",
        action="append",
        choices=list(SETUPS),
        help="only this setup, in the fan-out (repeatable)",
    )
    parser.add_argument(
        "--part", action="append", choices=list(PARTS), help="only this part (repeatable)"
    )
    parser.add_argument(
        "--tables",
        action="append",
        type=int,
        help="a table count for the many-tables part (repeatable; "
        f"default {', '.join(map(str, TABLE_COUNTS))})",
    )
    parser.add_argument("--save", type=Path, help="write the figures to this JSON file")
    parser.add_argument(
        "--compare", type=Path, help="print the figures a previous --save wrote beside today's"
    )
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        for name, part in PARTS.items():
            if not args.part or name in args.part:
                part(args, Path(folder))
    if args.save is not None:
        args.save.write_text(json.dumps(FIGURES, indent=1, ensure_ascii=False) + "\n")
    if args.compare is not None:
        compare(json.loads(args.compare.read_text()))


def compare(before: dict[str, float]) -> None:
    """Each figure of today's run beside the same figure of a previous one."""
    print(f"\n{'figure':78} {'before':>9} {'today':>9}  today/before")
    for name, today in FIGURES.items():
        earlier = before.get(name, math.nan)
        print(f"{name:78} {earlier:9.2f} {today:9.2f}  {today / earlier:6.2f}")


PARTS: dict[str, Callable[[argparse.Namespace, Path], None]] = {
    "fan-out": setups,
    "throughput": throughputs,
    "memory": memory,
    "many-tables": many_tables,
}
"""The bench's parts, in the order they run; ``--part`` picks some."""


if __name__ == "__main__":
    main()
