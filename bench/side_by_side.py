"""Seize beside Improved Initiative: a GM's change to each viewer. Prints figures; asserts nothing.

    .venv/bin/python -m bench.side_by_side --ii CHECKOUT-or-URL [--quick] [--subscribers N]...

Improved Initiative (II, github.com/cynicaloptimist/improved-initiative, MIT) is an open-source
combat tracker whose player view follows the GM's encounter live. Its live path, read at commit
ca10dc0af09696555f081a03ac21ed52bc98b335 (3.11.8):

- ``server/server.ts``: an Express server on ``PORT`` with a socket.io server on it;
- ``client/PlayerView/PlayerViewClient.ts``: the GM's page emits ``"update encounter"`` (the
  encounter id, then the whole encounter as players see it), debounced by 100 ms, and
  ``"join encounter"``;
- ``client/PlayerView/ReactPlayerView.tsx``: a player's page emits ``"join encounter"`` and
  listens for ``"encounter updated"``;
- ``server/sockets.ts``: on ``"update encounter"`` the server joins the GM's socket to the
  encounter's room, keeps the state (``server/playerviewmanager.ts``: in memory,
  ``server/InMemoryPlayerViewManager.ts``, unless ``REDIS_URL`` is set) and sends it to the
  room's other sockets with ``socket.broadcast.to(id).volatile.emit("encounter updated", …)``:
  a volatile packet is dropped for a socket whose transport is busy writing.

So the two servers do different work for one change. Seize's command is decided by the rules,
made durable (SQLite, synchronous=FULL, committed before it is answered and sent) and its event
sent to each subscriber; II's update is held in memory only and the whole encounter is sent to
each viewer. The frame each viewer gets from each is printed. A change II drops for a viewer
(volatile) is made good by the next, which carries the whole encounter: it counts as arriving
with that next one, and the drops are printed beside the figures; only a change no later one
made good counts as lost. The bench measures the servers, not II's page: the GM's 100 ms
debounce is the client's.

Both are driven alike: one sender, ``S`` subscribers (1, 100 and 1000) spread over four
processes, each reading its sockets at the byte level (``bench.server_bench``'s ``Follower``;
for II, the same with Engine.IO v4 framing: the open packet, socket.io's connect, the join, and a
``"3"`` for each ``"2"`` ping); 200 changes at 10 a second, three repetitions, the two servers
taking turns to go first. Each delivery counts, from the change sent to its arrival at each
subscriber, on CLOCK_MONOTONIC, which every process on the machine shares. For Seize the change
is ``set_pool`` sent on the GM's WebSocket and the subscribers are overlays, as in
``bench.server_bench``'s fan-out, on a server started as it starts one (its default loop, rate
limits lifted, no heartbeat within a run) over a fresh SQLite file; for II the change is an
encounter of six combatants whose turn moves on, its ``RoundCounter`` carrying the change's
number, and the subscribers are player views. The load average is printed at the start and the
end: the machine's other work shows in every figure.

Getting II (it is not part of Seize; nothing here fetches or builds it)::

    git clone https://github.com/cynicaloptimist/improved-initiative
    cd improved-initiative
    git checkout ca10dc0af09696555f081a03ac21ed52bc98b335
    npm ci
    npx grunt ts:server        # the server only (server/*.ts to .js); the page bundles not needed

Given the checkout (``--ii improved-initiative``) the bench starts II itself on a free port with
``node -e`` and the ``II_START`` below, and stops it at the end. Or start it by hand and give its
URL (``--ii http://127.0.0.1:8090``)::

    PORT=8090 node -e '<II_START>'

``II_START`` starts ``server/server.js`` with two of its start-up steps replaced, neither on the
live path: with no ``DB_CONNECTION_STRING``, ``server/getDbConnectionString.ts`` starts
mongodb-memory-server, which downloads a MongoDB build at start; here it answers an empty
connection string, which ``server/dbconnection.ts`` takes as no database (accounts and saved
libraries only). And ``server/configureOpen5eContent.ts`` loads Open5e's monster listings at
start, trying again without a pause while Open5e is out of reach, which would spin a core
throughout; here it is left out.
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
import subprocess
import tempfile
import time
import urllib.error
import urllib.request
import uuid
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from multiprocessing.queues import Queue
from multiprocessing.synchronize import Event as EventType
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import aiohttp

from bench.server_bench import (
    FanOut,
    Follower,
    _frame_size,
    _table,
    fan_out,
    fsync_floor,
    pct,
    serving,
)
from server.live.hub import websocket_frame
from tests.server.process import ServerProcess, free_port
from tests.waiting import PACE, PATIENCE

II_START = (
    "const stub = (name, exports) => {"
    " require.cache[require.resolve(name)] = { loaded: true, exports }; };"
    ' stub("mongodb-memory-server",'
    ' { MongoMemoryServer: { create: async () => ({ getUri: () => "" }) } });'
    ' stub("./server/configureOpen5eContent.js", { configureOpen5eContent: () => {} });'
    ' require("./server/server.js");'
)
"""What ``node -e`` runs in II's checkout: its server, without MongoDB and Open5e (see above)."""

II_SOCKET = "/socket.io/?EIO=4&transport=websocket"
"""Engine.IO v4 straight on the WebSocket transport, as socket.io's client does after its
upgrade (the long-polling start changes nothing once the socket is open)."""

UPDATED = re.compile(rb'42\["encounter updated",\{"ActiveCombatantId":"[^"]*","RoundCounter":(\d+)')
"""The head of a player view's update: the change's number is the encounter's round counter."""

GRACE = 10.0
"""Seconds after the last change was sent before a change not yet at a viewer counts as lost
(II drops volatile packets, so a viewer may never see the last one)."""

PROCESSES = 4
"""Processes the subscribers are spread over, as ``bench.server_bench``'s fan-out does."""


def masked(payload: bytes) -> bytes:
    """A client's text frame: a client masks every frame it sends (RFC 6455, 5.3)."""
    size = len(payload)
    head = bytes([0x81, 0x80 | size]) if size < 126 else b"\x81\xfe" + size.to_bytes(2, "big")
    key = os.urandom(4)
    return head + key + bytes(byte ^ key[n % 4] for n, byte in enumerate(payload))


class Viewer(Follower):
    """One II player view, read at the byte level as ``Follower`` reads Seize's overlays. Once
    connected it joins the encounter, then asks for a custom id, which II refuses at once to a
    socket without Epic Initiative: the refusal (``431[false]``) comes after the join is done, so
    it stands for the view Seize sends first. Each ``"2"`` ping (every 25 s) is answered, or II
    would close the socket 20 s later, within a run at a thousand viewers."""

    def __init__(
        self, request: bytes, final: int, arrivals: dict[int, list[int]], encounter: str
    ) -> None:
        super().__init__(request, final, arrivals)
        self.joining = masked(b"42" + json.dumps(["join encounter", encounter]).encode())
        self.joining += masked(b"421" + json.dumps(["request custom id", ""]).encode())

    def text(self, start: int, size: int, now: int) -> None:
        if (update := UPDATED.match(self.buffer, start)) is not None:
            self.message(False, int(update.group(1)), now)
        else:
            self.packet(bytes(self.buffer[start : start + size]))

    def message(self, view: bool, seq: int, now: int) -> None:
        """As ``Follower.message``; a change II dropped (see ``superseded``) arrives with the
        first later one, whose whole encounter shows it."""
        if not view:
            for skipped in range(self.expected, seq):
                self.arrivals.setdefault(skipped, []).append(now)
        super().message(view, seq, now)

    def packet(self, packet: bytes) -> None:
        """An Engine.IO or socket.io packet other than an update."""
        assert self.transport is not None
        if packet == b"2":  # Engine.IO ping
            self.transport.write(masked(b"3"))
        elif packet.startswith(b"0"):  # Engine.IO open: connect to socket.io's main namespace
            self.transport.write(masked(b"40"))
        elif packet.startswith(b"40"):  # connected
            self.transport.write(self.joining)
        elif packet.startswith(b"431"):  # the refusal: joined
            self.message(True, 0, now=0)


def viewer_process(
    socket_url: str,
    encounter: str,
    count: int,
    final: int,
    ready: Queue[int],
    results: Queue[dict[str, Any]],
    sent: EventType,
    finished: EventType,
) -> None:
    asyncio.run(_view(socket_url, encounter, count, final, ready, results, sent, finished))


async def _view(
    socket_url: str,
    encounter: str,
    count: int,
    final: int,
    ready: Queue[int],
    results: Queue[dict[str, Any]],
    sent: EventType,
    finished: EventType,
) -> None:
    """As ``bench.server_bench``'s subscribers, with II's viewers: hold ``count`` sockets and
    report each change's arrivals, the messages that came and those lost; wait for the last
    change at most ``GRACE`` seconds after the sender is done, as it may have been dropped."""
    arrivals: dict[int, list[int]] = {}
    url = urlsplit(socket_url)
    assert url.hostname is not None and url.port is not None
    host, port = url.hostname, url.port
    key = base64.b64encode(os.urandom(16)).decode()
    request = (
        f"GET {url.path}?{url.query} HTTP/1.1\r\nHost: {url.netloc}\r\nUpgrade: websocket\r\n"
        f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n"
    ).encode()
    loop = asyncio.get_running_loop()

    async def connect() -> Viewer:
        _, viewer = await loop.create_connection(
            lambda: Viewer(request, final, arrivals, encounter), host, port
        )
        return viewer

    viewers = await asyncio.gather(*(connect() for _ in range(count)))
    await asyncio.gather(*(v.started for v in viewers))
    ready.put(count)
    every = asyncio.gather(*(v.done for v in viewers), return_exceptions=True)
    sender_done: asyncio.Future[Any] = asyncio.ensure_future(loop.run_in_executor(None, sent.wait))
    await asyncio.wait([every, sender_done], return_when=asyncio.FIRST_COMPLETED)
    await asyncio.wait({every}, timeout=GRACE)
    every.cancel()
    lost = sum(max(0, final + 1 - v.expected) for v in viewers)  # never shown, nor any later
    received = sum(v.received for v in viewers)
    results.put({"arrivals": arrivals, "lost": lost, "received": received})
    await loop.run_in_executor(None, finished.wait)
    for viewer in viewers:
        if viewer.transport is not None:
            viewer.transport.close()


COMBATANTS = [
    ("Aldric", True, 17, 18),
    ("Brianna", True, 15, 14),
    ("Corwin", True, 12, 16),
    ("Dagny", True, 9, 13),
    ("Goblin Boss", False, 14, 17),
    ("Goblin", False, 11, 15),
]
"""An evening's fight: four characters and two foes (name, a character?, initiative, AC)."""


def encounter(number: int) -> dict[str, Any]:
    """The encounter as II's player view gets it (``common/EncounterState.ts``,
    ``common/PlayerViewCombatantState.ts``) after change ``number``: the turn has moved on one
    combatant, and a foe's health shows the wear."""
    combatants = [
        {
            "Name": name,
            "HPDisplay": f"{max(0, 40 - number % 40)}/40" if pc else "<span>Bloodied</span>",
            "HPColor": "hsl(90, 60%, 40%)" if pc else "hsl(30, 60%, 40%)",
            "Initiative": initiative,
            "Id": f"c{n}",
            "Tags": [{"Text": "Concentrating", "DurationRemaining": 0}] if n == 2 else [],
            "IsPlayerCharacter": pc,
            "ImageURL": "",
            "AC": ac,
            "ReactionsSpent": number % 2,
        }
        for n, (name, pc, initiative, ac) in enumerate(COMBATANTS)
    ]
    return {
        "ActiveCombatantId": f"c{number % len(COMBATANTS)}",
        "RoundCounter": number,
        "ElapsedSeconds": 6 * number,
        "Combatants": combatants,
    }


def ii_update(encounter_id: str, number: int) -> str:
    """The GM's ``"update encounter"`` packet, as socket.io's client writes it."""
    return "42" + json.dumps(
        ["update encounter", encounter_id, encounter(number)], separators=(",", ":")
    )


def ii_frame_size() -> int:
    """The bytes of one change's frame as II's viewers get it (JSON as JavaScript writes it)."""
    state = json.dumps(["encounter updated", encounter(100)], separators=(",", ":"))
    return len(websocket_frame(("42" + state).encode()))


async def _send_ii(
    socket_url: str, encounter_id: str, count: int, rate: float
) -> dict[int, tuple[int, int]]:
    """Send changes 1 to ``count`` at ``rate`` per second as II's GM page does, each timed as
    it is written: II answers none (the pair is (sent, sent), as ``FanOut`` has it)."""
    sent: dict[int, tuple[int, int]] = {}
    async with aiohttp.ClientSession() as session, session.ws_connect(socket_url) as ws:
        assert (await ws.receive_str()).startswith("0")  # Engine.IO open
        await ws.send_str("40")
        assert (await ws.receive_str()).startswith("40")  # connected to socket.io

        async def answer_pings() -> None:
            async for message in ws:
                if message.data == "2":
                    await ws.send_str("3")

        pings = asyncio.create_task(answer_pings())
        start = time.monotonic()
        for number in range(1, count + 1):
            delay = start + (number - 1) / rate - time.monotonic()
            if delay > 0:
                await asyncio.sleep(delay)
            at = time.monotonic_ns()
            await ws.send_str(ii_update(encounter_id, number))
            sent[number] = (at, at)
        pings.cancel()
    return sent


def ii_fan_out(url: str, subscribers: int, count: int, rate: float) -> FanOut:
    """``bench.server_bench.fan_out`` for II: a fresh encounter, ``subscribers`` player views in
    ``PROCESSES`` processes, ``count`` changes at ``rate`` to them."""
    context = multiprocessing.get_context("spawn")
    ready: Queue[int] = context.Queue()
    results: Queue[dict[str, Any]] = context.Queue()
    sent_all, finished = context.Event(), context.Event()
    socket_url = url.replace("http", "ws", 1) + II_SOCKET
    encounter_id = uuid.uuid4().hex[:8]
    shares = [
        subscribers // PROCESSES + (1 if n < subscribers % PROCESSES else 0)
        for n in range(PROCESSES)
    ]
    workers = [
        context.Process(
            target=viewer_process,
            args=(socket_url, encounter_id, share, count, ready, results, sent_all, finished),
        )
        for share in shares
        if share
    ]
    for worker in workers:
        worker.start()
    for _ in workers:
        ready.get(timeout=120)
    sent = asyncio.run(_send_ii(socket_url, encounter_id, count, rate))
    sent_all.set()
    arrivals: dict[int, list[int]] = {}
    lost = received = 0
    for _ in workers:
        report = results.get(timeout=120)
        lost += report["lost"]
        received += report["received"]
        for number, times in report["arrivals"].items():
            arrivals.setdefault(number, []).extend(times)
    finished.set()
    for worker in workers:
        worker.join()
    return FanOut(sent, arrivals, lost, received, math.nan)


def seize_fan_out(server: ServerProcess, subscribers: int, count: int, rate: float) -> FanOut:
    """``bench.server_bench``'s fan-out on a fresh table, the commands on the GM's WebSocket."""
    table = asyncio.run(_table(server.url))
    return fan_out(server, table, subscribers, count, rate, PROCESSES, sender="WebSocket")


def deliveries(run: FanOut) -> list[float]:
    """Each delivery's ms from the change sent to its arrival at one subscriber."""
    return [(at - run.sent[n][0]) / 1e6 for n in run.sent for at in run.arrivals.get(n, ())]


def superseded(run: FanOut, subscribers: int) -> int:
    """Changes a subscriber did not get but saw in a later one: II's volatile broadcast drops a
    change for a viewer whose socket is still writing the one before (two changes read in one
    turn of its loop, say), and the next whole encounter makes it good. Seize has none: its
    ``lost`` counts every gap, and a gap there is a lost event."""
    return len(run.sent) * subscribers - run.received - run.lost


@contextmanager
def ii_serving(where: str, folder: Path) -> Iterator[str]:
    """II's URL: ``where`` itself when it is one, else a server started in that checkout."""
    if where.startswith(("http://", "https://")):
        yield where.rstrip("/")
        return
    port = free_port()
    url = f"http://127.0.0.1:{port}"
    printed = folder / "ii.txt"
    with printed.open("ab") as output:
        process = subprocess.Popen(
            ["node", "-e", II_START],
            cwd=where,
            env={**os.environ, "PORT": str(port)},
            stdout=output,
            stderr=subprocess.STDOUT,
        )
    try:
        deadline = time.monotonic() + PATIENCE
        while not _answers(f"{url}/socket.io/?EIO=4&transport=polling"):
            if process.poll() is not None or time.monotonic() > deadline:
                lines = printed.read_text().strip().splitlines() or ["it printed nothing"]
                raise RuntimeError(f"Improved Initiative did not start: {lines[-1]}")
            time.sleep(PACE)
        print(f"Improved Initiative started at {url}: PORT={port} node -e '{II_START}'")
        yield url
    finally:
        process.terminate()
        process.wait(timeout=PATIENCE)


def _answers(url: str) -> bool:
    try:
        with urllib.request.urlopen(url, timeout=PATIENCE) as answer:
            return bool(answer.status == 200)
    except (urllib.error.URLError, ConnectionError):
        return False


def commit(folder: Path | str) -> str:
    """The commit checked out in ``folder``, or why it is not known."""
    found = subprocess.run(
        ["git", "-C", str(folder), "rev-parse", "HEAD"], capture_output=True, text=True, check=False
    )
    return found.stdout.strip() if found.returncode == 0 else "not a git checkout"


def load() -> str:
    return subprocess.run(["uptime"], capture_output=True, text=True, check=False).stdout.strip()


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument(
        "--ii", required=True, help="Improved Initiative's checkout (built), or its URL"
    )
    parser.add_argument("--quick", action="store_true", help="a smoke run: few and small")
    parser.add_argument(
        "--subscribers", type=int, action="append", help="only this many (repeatable)"
    )
    args = parser.parse_args()
    sizes = args.subscribers or ([1, 10] if args.quick else [1, 100, 1000])
    count, repetitions, rate = (30, 2, 10.0) if args.quick else (200, 3, 10.0)
    print(f"load at the start: {load()}")
    seize_commit = commit(Path(__file__).resolve().parent.parent)
    ii_commit = "started by hand" if "://" in args.ii else commit(args.ii)
    print(f"Seize {seize_commit}; Improved Initiative {ii_commit}")
    with (
        tempfile.TemporaryDirectory() as name,
        ii_serving(args.ii, Path(name)) as ii,
        serving(Path(name) / "disk.db", [], Path(name)) as disk,
        serving(Path(name) / "os.db", ["--durability", "os"], Path(name)) as os_hands,
    ):
        for started in (disk, os_hands):
            if isinstance(started, str):
                raise SystemExit(f"Seize did not start: {started}")
        assert isinstance(disk, ServerProcess) and isinstance(os_hands, ServerProcess)
        size = asyncio.run(_frame_size(asyncio.run(_table(disk.url))))
        print(
            f"one change's frame to each subscriber: Seize {size} bytes (the event), "
            f"Improved Initiative {ii_frame_size()} bytes (the encounter, six combatants)"
        )
        fsync50, fsync99 = fsync_floor(Path(name), 100, rate)
        print(
            f"the fsync floor on this disk (a small WAL commit, synchronous=FULL, {rate:.0f}/s): "
            f"p50 {fsync50:.2f} ms  p99 {fsync99:.2f} ms"
        )
        print(
            f"{count} changes at {rate:.0f}/s, {repetitions} repetitions; "
            "sent → arrival at each subscriber, all repetitions' deliveries together:"
        )
        runs: dict[str, Callable[[int], FanOut]] = {
            "Seize disk": lambda s: seize_fan_out(disk, s, count, rate),
            "Seize os": lambda s: seize_fan_out(os_hands, s, count, rate),
            "II": lambda s: ii_fan_out(ii, s, count, rate),
        }
        for subscribers in sizes:
            compare(runs, subscribers, repetitions)
    print(f"load at the end: {load()}")


def compare(runs: dict[str, Callable[[int], FanOut]], subscribers: int, repetitions: int) -> None:
    """Each server ``repetitions`` times at ``subscribers``, taking turns to go first."""
    each: dict[str, list[float]] = {name: [] for name in runs}
    p99s: dict[str, list[float]] = {name: [] for name in runs}
    lost, dropped = dict.fromkeys(runs, 0), dict.fromkeys(runs, 0)
    for repetition in range(repetitions):
        order = list(runs) if repetition % 2 == 0 else list(reversed(runs))
        for name in order:
            run = runs[name](subscribers)
            times = deliveries(run)
            each[name] += times
            p99s[name].append(pct(times, 0.99))
            lost[name] += run.lost
            dropped[name] += superseded(run, subscribers)
    for name in runs:
        print(
            f"  {subscribers:4} subscribers  {name:10} p50 {pct(each[name], 0.5):7.2f} ms  "
            f"p99 {pct(each[name], 0.99):7.2f} ms   (p99 of each repetition: "
            + ", ".join(f"{p:.2f}" for p in p99s[name])
            + f"; {len(each[name])} deliveries"
            + (f"; {dropped[name]} dropped, shown by a later one" if dropped[name] else "")
            + (f"; LOST {lost[name]}" if lost[name] else "")
            + ")"
        )
    for name in runs:
        if name != "II":
            p50 = pct(each[name], 0.5) / pct(each["II"], 0.5)
            p99 = pct(each[name], 0.99) / pct(each["II"], 0.99)
            print(f"  {subscribers:4} subscribers  {name} / II: p50 {p50:.2f}, p99 {p99:.2f}")


if __name__ == "__main__":
    main()
