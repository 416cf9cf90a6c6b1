"""Where one durable command's time goes. Prints figures; asserts nothing.

    .venv/bin/python -m bench.command_path [--commands 400] [--rate 10] [--durability disk|os]

One GM sends ``set_pool`` commands on its WebSocket, one after another at ``rate`` a second (the
console's way), to a server over a fresh SQLite file (``durability`` disk, the default:
synchronous=FULL; os: synchronous=NORMAL, no fsync before the answer) with that socket as its
only subscriber. The server runs in this process, on uvloop where installed, so that each step
of a command can be stamped where it happens; the GM runs in a process of its own. Stamps are
CLOCK_MONOTONIC, which both processes share:

    sent        the GM's client writes the frame
    read        the server has the frame (``socket_commands.reply`` begins)
    obeyed      the message is checked, its table and token found (``apply_command`` begins)
    showing     the command is validated, its seed drawn, its table's lock held (``show`` begins)
    decided     the rules have decided it and each role's view is encoded (``show`` returns)
    queued      its append is handed to the writer thread (``SqliteStore._write``)
    committing  the writer thread begins its transaction
    on disk     the commit (and its fsync, under disk) has returned
    resumed     the loop takes the command up again (``Runner._apply`` begins)
    answered    the answer is written to the socket, in the write of its events (the socket's
                ``_due`` hands it over)
    event       the GM's client has the command's event
    answer      the GM's client has the answer

Each step's p50 and p99 are printed, and beside them two floors measured in the same run, at the
commands' rate: the fsync floor (a small WAL commit with synchronous=FULL on the same disk), and
the relay floor (the same GM's client, process and frames, sent → answer on an aiohttp server on
the same loop that decides, stores and renders nothing: it writes a fixed event and the answer
back). What separates sent → answer from the relay floor is Seize's own work; what the relay
floor itself takes, any server on aiohttp pays here. The stamps wrap the server's own
functions from here, and nothing of them is in the server's code. The machine's other work
shows in every figure: read ``uptime`` first, and repeat a run before believing a difference.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import functools
import itertools
import json
import multiprocessing
import sqlite3
import tempfile
import time
from collections.abc import AsyncIterator, Callable
from multiprocessing.queues import Queue
from pathlib import Path
from typing import Any, TypeVar, get_args

import aiohttp
from aiohttp import web

from bench.server_bench import fsync_floor, new_table, pct
from server.http import socket_commands
from server.live.hub import SocketSubscriber, websocket_frame
from server.run.app import make_app
from server.settings import Durability, Settings
from server.store.sql import Query
from server.store.sqlite import SqliteStore, Write
from server.tables import runner

STEPS = (
    "sent",
    "read",
    "obeyed",
    "showing",
    "decided",
    "queued",
    "committing",
    "on disk",
    "resumed",
    "answered",
)
"""The server's and the sender's stamps, in the order a command passes them."""

F = TypeVar("F", bound=Callable[..., Any])
stamps: dict[str, list[int]] = {step: [] for step in STEPS}
APPEND = "insert into events"
"""How an append's query begins: the writes stamped (not a device's last sight, nor a snapshot)."""


def stamped(step: str, function: F, *, after: bool = False) -> F:
    """``function``, stamping ``step`` as it begins (or once it has returned)."""

    if asyncio.iscoroutinefunction(function):

        @functools.wraps(function)
        async def waited(*args: Any, **kwargs: Any) -> Any:
            if not after:
                stamps[step].append(time.monotonic_ns())
            result = await function(*args, **kwargs)
            if after:
                stamps[step].append(time.monotonic_ns())
            return result

        return waited  # type: ignore[return-value]

    @functools.wraps(function)
    def called(*args: Any, **kwargs: Any) -> Any:
        if not after:
            stamps[step].append(time.monotonic_ns())
        result = function(*args, **kwargs)
        if after:
            stamps[step].append(time.monotonic_ns())
        return result

    return called  # type: ignore[return-value]


def queued_stamped(write: Callable[..., Any]) -> Callable[..., Any]:
    """The store's hand-off to its writer, stamping an append of events."""

    async def queued(store: SqliteStore, *queries: Query) -> Any:
        if any(APPEND in query.text for query in queries):
            stamps["queued"].append(time.monotonic_ns())
        return await write(store, *queries)

    return queued


def commit_stamped(commit: Callable[[sqlite3.Connection, list[Write]], None]) -> Any:
    """The writer's commit, stamping a batch that appends events (not a device's last sight)."""

    def committed(connection: sqlite3.Connection, batch: list[Write]) -> None:
        appends = any(APPEND in query.text for queries, _ in batch for query in queries)
        began = time.monotonic_ns()
        commit(connection, batch)
        if appends:
            stamps["committing"].append(began)
            stamps["on disk"].append(time.monotonic_ns())

    return staticmethod(committed)


def due_stamped(due: Callable[[SocketSubscriber], list[bytes]]) -> Any:
    """The socket's replies handed to a write, stamping those that go (an answer rides in the
    write of its events; asked before them, when it is handed over, none is due yet)."""

    def handed(subscriber: SocketSubscriber) -> list[bytes]:
        replies = due(subscriber)
        if replies:
            stamps["answered"].append(time.monotonic_ns())
        return replies

    return handed


def rewrap(owner: object, name: str, wrap: Callable[[Any], Any]) -> None:
    """Put ``wrap`` of ``owner.name`` where the server looks ``name`` up."""
    setattr(owner, name, wrap(getattr(owner, name)))


def stamp_the_server() -> None:
    """Wrap each step's function where the server looks it up."""
    rewrap(socket_commands, "reply", functools.partial(stamped, "read"))
    rewrap(socket_commands, "apply_command", functools.partial(stamped, "obeyed"))
    rewrap(runner, "show", functools.partial(stamped, "decided", after=True))
    rewrap(runner, "show", functools.partial(stamped, "showing"))
    rewrap(SqliteStore, "_write", queued_stamped)
    rewrap(SqliteStore, "_commit", commit_stamped)
    rewrap(runner.Runner, "_apply", functools.partial(stamped, "resumed"))
    rewrap(SocketSubscriber, "_due", due_stamped)


def gm(url: str, count: int, rate: float, results: Queue[dict[str, list[int]]]) -> None:
    """The GM's client, in its own process: its stamps of each command sent, its event heard and
    its answer. Given a table's server (``http://``) it makes a table and follows it; given a
    socket (``ws://``, the relay floor) it follows that."""
    results.put(asyncio.run(_gm(url, count, rate)))


async def _gm(url: str, count: int, rate: float) -> dict[str, list[int]]:
    heard: dict[str, list[int]] = {"sent": [], "event": [], "answer": []}
    async with aiohttp.ClientSession() as session:
        headers: dict[str, str] = {}
        socket_url = url
        if url.startswith("http"):
            table = await new_table(session, url)
            socket_url, headers = table["url"].replace("http", "ws", 1) + "/ws", table["headers"]
        async with session.ws_connect(socket_url, headers=headers) as ws:
            await ws.receive_json()  # the view
            start = time.monotonic()
            for n in range(count):
                delay = start + n / rate - time.monotonic()
                if delay > 0:
                    await asyncio.sleep(delay)
                body = {"type": "set_pool", "side": "crew", "points": n % 5}
                heard["sent"].append(time.monotonic_ns())
                await ws.send_str(json.dumps({"type": "command", "id": str(n), "command": body}))
                event = False
                while (message := await ws.receive_json())["type"] != "answer":
                    assert message["type"] != "refused", message
                    if not event:
                        heard["event"].append(time.monotonic_ns())
                        event = True
                heard["answer"].append(time.monotonic_ns())
    return heard


RELAYED_VIEW = json.dumps({"type": "view", "seq": 0, "view": {}})


async def relay(request: web.Request) -> web.WebSocketResponse:
    """The relay floor's one route: a socket that answers each command with a fixed event and
    its answer in one write, as Seize answers its sender, and reads no table."""
    socket = web.WebSocketResponse()
    await socket.prepare(request)
    await socket.send_str(RELAYED_VIEW)
    async for message in socket:
        ident = json.loads(message.data)["id"]
        event = json.dumps({"type": "event", "seq": int(ident) + 1, "event": {}})
        assert request.transport is not None
        request.transport.writelines(
            websocket_frame(text.encode())
            for text in (event, json.dumps({"type": "answer", "id": ident, "seq": 0}))
        )
    return socket


async def relay_floor(count: int, rate: float) -> tuple[float, float]:
    """p50 and p99 ms, sent → answer, of the GM's client on the relay (see above)."""
    app = web.Application()
    app.router.add_get("/ws", relay)
    async with _served(app) as port:
        heard = await _in_a_process(f"ws://127.0.0.1:{port}/ws", count, rate)
    whole = [(b - a) / 1e6 for a, b in zip(heard["sent"], heard["answer"], strict=True)]
    return pct(whole, 0.5), pct(whole, 0.99)


@contextlib.asynccontextmanager
async def _served(app: web.Application) -> AsyncIterator[int]:
    """``app`` served on a free loopback port, in this process, for the block: the port."""
    site_runner = web.AppRunner(app)
    await site_runner.setup()
    await web.TCPSite(site_runner, "127.0.0.1", 0).start()
    try:
        yield site_runner.addresses[0][1]
    finally:
        await site_runner.cleanup()


async def _in_a_process(url: str, count: int, rate: float) -> dict[str, list[int]]:
    """The GM's stamps, from its own process (``gm``)."""
    context = multiprocessing.get_context("spawn")
    results: Queue[dict[str, list[int]]] = context.Queue()
    client = context.Process(target=gm, args=(url, count, rate, results))
    client.start()
    heard = await asyncio.get_running_loop().run_in_executor(None, results.get)
    client.join()
    return heard


async def serve(
    folder: Path, count: int, rate: float, durability: Durability
) -> dict[str, list[int]]:
    settings = Settings(
        db=folder / "seize.db",
        port=0,
        rate_per_second=1000,
        rate_burst=1000,
        durability=durability,
    )
    async with _served(make_app(settings)) as port:
        return await _in_a_process(f"http://127.0.0.1:{port}", count, rate)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--commands", type=int, default=400)
    parser.add_argument("--rate", type=float, default=10.0)
    parser.add_argument("--durability", choices=get_args(Durability), default="disk")
    options = parser.parse_args()
    stamp_the_server()
    try:
        import uvloop  # noqa: PLC0415  (where installed, as the server runs)

        run: Callable[..., Any] = uvloop.run
    except ImportError:
        run = asyncio.run
    with tempfile.TemporaryDirectory() as folder:
        heard = run(serve(Path(folder), options.commands, options.rate, options.durability))
        fsync50, fsync99 = fsync_floor(Path(folder), 100, options.rate)
        relay50, relay99 = run(relay_floor(options.commands, options.rate))
    stamps["sent"] = heard["sent"]
    # The table's creation and the seats' appends are stamped too: the commands are the last.
    count = len(heard["answer"])
    line = {step: times[-count:] for step, times in stamps.items()}
    line["event"], line["answer"] = heard["event"], heard["answer"]
    order = [*STEPS, "event", "answer"]
    print(
        f"one GM, {count} set_pool commands on its WebSocket at {options.rate:.0f}/s, SQLite, "
        f"durability {options.durability}:"
    )
    print(f"  {'step':28} {'p50 ms':>8} {'p99 ms':>8}   (since the step before)")
    for before, step in itertools.pairwise(order):
        gaps = [(b - a) / 1e6 for a, b in zip(line[before], line[step], strict=True)]
        print(f"  {before + ' → ' + step:28} {pct(gaps, 0.5):8.3f} {pct(gaps, 0.99):8.3f}")
    whole = [(b - a) / 1e6 for a, b in zip(line["sent"], line["answer"], strict=True)]
    print(f"  {'sent → answer':28} {pct(whole, 0.5):8.3f} {pct(whole, 0.99):8.3f}")
    print(
        f"  fsync floor (WAL commit, synchronous=FULL, {options.rate:.0f}/s): "
        f"p50 {fsync50:.3f} ms, p99 {fsync99:.3f}"
    )
    print(
        f"  relay floor (aiohttp, nothing decided or stored, sent → answer, {options.rate:.0f}/s): "
        f"p50 {relay50:.3f} ms, p99 {relay99:.3f}"
    )


if __name__ == "__main__":
    main()
