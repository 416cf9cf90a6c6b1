"""The Raspberry Pi at the table, simulated. Prints figures; asserts nothing.

    .venv/bin/python -m bench.pi_bench [--delays 0 5 10 20] [--share 0.3] [--pace 0.5]
        [--commands 60] [--bursts 10]

A Pi beside the card reader and the dice tray runs ``seize serve`` on an SD card, whose fsync
takes milliseconds to tens of them, on a core slower than this machine's. Both are simulated:

- the card: ``bench/slow_fsync.c``, built here with the machine's ``cc`` and loaded into the
  server with ``LD_PRELOAD``, waits ``--delays`` milliseconds before each fsync and fdatasync
  (0 is this disk as it is); without a compiler only this disk is measured, and the harness says
  so;
- the core: the server's threads held to one core (``sched_setaffinity``, as ``taskset`` does),
  and given ``--share`` of it (0.3: a Raspberry Pi 4's core does about a third of this
  machine's Python) in each 10 ms: a cgroup v2 ``cpu.max`` where one can be made, else cgroup
  v1's ``cpu.cfs_quota_us``, else a stopper process that reads the server's CPU clock every half
  millisecond and holds it (SIGSTOP) for the rest of each period once it has used its share, as
  the kernel's quota would. Each line says which.

The table: MegaTraveller RCS, six characters, each player's phone following the table on its
own WebSocket with its own player token (six views rendered per command), and the card reader
and the tray each on a WebSocket of its own with the GM's token, as ``seize adapter`` keeps
one. The devices send ``set_pool`` (always legal, so the supply never ends; a card or a roll
costs the same path):

- at table pace: one command every ``--pace`` seconds, the reader and the tray in turn, each
  sent once the one before is answered;
- in device bursts: ``--bursts`` bursts a second apart, each ten commands in 100 ms (one every
  10 ms, the reader and the tray in turn, none waiting for another's answer), as dice landing
  together and cards swept over the reader.

For each durability (disk, os) and each fsync delay: each command's answer, from the device's
frame sent to its answer read, p50 and p99, and the fsyncs the server asked for per command.
Then a ``kill -9`` in the middle of a burst; the server is started again on its file, and every
command it answered before the kill must be in the log as answered: the commands lost are
counted (must be 0).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import itertools
import json
import multiprocessing
import os
import shutil
import signal
import subprocess
import tempfile
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from multiprocessing.synchronize import Event as EventType
from pathlib import Path
from typing import Any

import aiohttp

from bench.server_bench import command, new_table, pct, ws_url
from tests.server.process import UNLIMITED, ServerProcess

SHIM = Path(__file__).with_name("slow_fsync.c")
PERIOD_US = 10_000
"""The quota's period: short, so that a held server waits at most a few ms, as on a Pi that is
slow all the time rather than stopped now and then."""
PHONES = 6
BURST = 10
BURST_SPACING = 0.010
Table = dict[str, Any]


def build_shim(folder: Path) -> Path | None:
    """The fsync shim, compiled with the machine's cc; None without one."""
    cc = shutil.which("cc")
    if cc is None:
        return None
    built = folder / "slow_fsync.so"
    subprocess.run([cc, "-shared", "-fPIC", "-O2", "-o", str(built), str(SHIM), "-ldl"], check=True)
    return built


CGROUPS = (
    ("cgroup v2 cpu.max", Path("/sys/fs/cgroup"), "cgroup.controllers", ("cpu.max",)),
    (
        "cgroup v1 cpu.cfs_quota_us",
        Path("/sys/fs/cgroup/cpu"),
        "cpu.cfs_quota_us",
        ("cpu.cfs_period_us", "cpu.cfs_quota_us"),
    ),
)
"""The kernel's CPU quotas, the first that can be made: cgroup v2, else v1's cpu controller."""


def cgroup_quota(pid: int, share: float) -> tuple[Path, str] | str:
    """A cgroup of its own for ``pid``, holding it to ``share`` of one core: its folder and
    what it is, or why none could be made."""
    quota = int(share * PERIOD_US)
    values = {
        "cpu.max": f"{quota} {PERIOD_US}",
        "cpu.cfs_period_us": str(PERIOD_US),
        "cpu.cfs_quota_us": str(quota),
    }
    why = []
    for name, root, marker, files in CGROUPS:
        if not (root / marker).exists():
            why.append(f"no {name.split(' cpu')[0]}")
            continue
        group = root / f"seize-pi-{pid}"
        try:
            group.mkdir()
            for limit in files:
                (group / limit).write_text(values[limit])
            (group / "cgroup.procs").write_text(str(pid))
        except OSError as refused:
            with contextlib.suppress(OSError):
                group.rmdir()
            why.append(f"{name} not writable ({refused.strerror})")
            continue
        return group, f"{name} {quota} per {PERIOD_US} µs"
    return "; ".join(why)


def stopper(pid: int, share: float, done: EventType) -> None:
    """Hold ``pid`` to ``share`` of a core: each period, once its CPU clock has advanced by its
    share, SIGSTOP it until the period ends (then SIGCONT). Run in real time where allowed, so
    that a busy machine does not leave the server stopped longer than its period."""
    with contextlib.suppress(OSError, AttributeError):
        os.sched_setscheduler(0, os.SCHED_FIFO, os.sched_param(10))
    clock = ((~pid) << 3) | 2  # the process's CPU clock (Linux's MAKE_PROCESS_CPUCLOCK, SCHED)
    period, quota = PERIOD_US * 1000, int(share * PERIOD_US * 1000)
    try:
        while not done.is_set():
            begun, used = time.monotonic_ns(), time.clock_gettime_ns(clock)
            while (now := time.monotonic_ns()) < begun + period:
                if time.clock_gettime_ns(clock) - used >= quota:
                    os.kill(pid, signal.SIGSTOP)
                    time.sleep(max(0, begun + period - now) / 1e9)
                    os.kill(pid, signal.SIGCONT)
                    break
                time.sleep(0.0005)
    except OSError:  # the server is gone (killed)
        return


@contextlib.contextmanager
def held(pid: int, share: float) -> Iterator[str]:
    """The server at ``share`` of one core while in the block; says how."""
    made = cgroup_quota(pid, share)
    if not isinstance(made, str):
        group, how = made
        try:
            yield how
        finally:
            with contextlib.suppress(OSError):
                group.rmdir()  # once the server has left it (killed, or moved on its restart)
        return
    context = multiprocessing.get_context("spawn")
    done = context.Event()
    process = context.Process(target=stopper, args=(pid, share, done), daemon=True)
    process.start()
    try:
        yield f"{made}: a stopper process, {share:.0%} of each {PERIOD_US // 1000} ms"
    finally:
        done.set()
        process.join()
        with contextlib.suppress(ProcessLookupError):
            os.kill(pid, signal.SIGCONT)


@dataclass
class Device:
    """A device's WebSocket with the GM's token: commands sent without waiting, each answer
    matched to its command by id, and the events of every answer kept (by sequence)."""

    ws: aiohttp.ClientWebSocketResponse
    waiting: dict[str, tuple[int, asyncio.Future[int]]] = field(default_factory=dict)
    answered: dict[int, Any] = field(default_factory=dict)
    ids: Iterator[int] = field(default_factory=itertools.count)

    async def listen(self) -> None:
        async for message in self.ws:
            if message.type != aiohttp.WSMsgType.TEXT:
                break
            body = json.loads(message.data)
            if body.get("type") not in ("answer", "refused") or body.get("id") not in self.waiting:
                continue
            sent, future = self.waiting.pop(body["id"])
            if body["type"] == "answer":
                first = body["seq"] - len(body["events"]) + 1
                for n, event in enumerate(body["events"]):
                    self.answered[first + n] = event
                future.set_result(time.monotonic_ns() - sent)
            else:
                future.set_exception(RuntimeError(f"refused: {body}"))
        for _, future in self.waiting.values():  # the server is gone: never answered
            if not future.done():
                future.set_exception(ConnectionError("closed"))

    async def send(self, points: int) -> asyncio.Future[int]:
        """Send one command; the future is its answer's time, ns."""
        ident = str(next(self.ids))
        future: asyncio.Future[int] = asyncio.get_running_loop().create_future()
        body = {"type": "set_pool", "side": "crew", "points": points % 5}
        self.waiting[ident] = (time.monotonic_ns(), future)
        await self.ws.send_str(json.dumps({"type": "command", "id": ident, "command": body}))
        return future


async def _table(session: aiohttp.ClientSession, url: str) -> tuple[Table, list[str]]:
    """The RCS table with six characters, and each one's player token."""
    table = await new_table(session, url)  # its first character, "a"
    ids = ["a", *(f"p{n}" for n in range(1, PHONES))]
    for who in ids[1:]:
        character = {"id": who, "name": who, "side": "crew", "dex": 1, "movement": 1}
        await command(session, table, {"type": "join", "character": character})
    tokens = []
    for who in ids:
        async with session.post(
            f"{table['url']}/tokens",
            json={"participants": [who], "label": f"{who}'s phone"},
            headers=table["headers"],
        ) as minted:
            tokens.append((await minted.json())["token"])
    return table, tokens


async def _drain(ws: aiohttp.ClientWebSocketResponse) -> None:
    """A phone: reads every message the table sends it."""
    async for message in ws:
        if message.type != aiohttp.WSMsgType.TEXT:
            break


@dataclass
class Run:
    paced: list[float]
    bursts: list[float]
    answered: dict[int, Any]
    flushed: int
    """The fsyncs the server asked for while the commands were played (the table's setup not
    counted)."""


async def _play(
    url: str, commands: int, pace: float, bursts: int, counted: Path
) -> tuple[Run, Table]:
    async with aiohttp.ClientSession() as session:
        table, tokens = await _table(session, url)
        async with contextlib.AsyncExitStack() as stack:
            phones = [
                await stack.enter_async_context(
                    session.ws_connect(ws_url(table), headers={"Authorization": f"Bearer {t}"})
                )
                for t in tokens
            ]
            readers = [asyncio.create_task(_drain(phone)) for phone in phones]
            devices = [
                Device(await stack.enter_async_context(
                    session.ws_connect(ws_url(table), headers=table["headers"])
                ))
                for _ in ("card reader", "tray")
            ]  # fmt: skip
            listening = [asyncio.create_task(device.listen()) for device in devices]
            paced: list[float] = []
            before = flushes(counted)
            start = time.monotonic()
            for n in range(commands):
                await asyncio.sleep(max(0.0, start + n * pace - time.monotonic()))
                paced.append(await (await devices[n % 2].send(n)) / 1e6)
            in_bursts: list[float] = []
            start = time.monotonic()
            for b in range(bursts):
                await asyncio.sleep(max(0.0, start + b - time.monotonic()))
                sent = []
                for n in range(BURST):
                    await asyncio.sleep(max(0.0, start + b + n * BURST_SPACING - time.monotonic()))
                    sent.append(await devices[n % 2].send(n))
                in_bursts += [ns / 1e6 for ns in await asyncio.gather(*sent)]
            flushed = flushes(counted) - before
            for task in (*readers, *listening):
                task.cancel()
        answered = {seq: e for device in devices for seq, e in device.answered.items()}
    return Run(paced, in_bursts, answered, flushed), table


async def _killed_mid_burst(url: str, table: Table, server: ServerProcess) -> dict[int, Any]:
    """A burst, and the server killed with SIGKILL once half of it is answered: every command
    it answered, by sequence."""
    async with (
        aiohttp.ClientSession() as session,
        session.ws_connect(ws_url(table), headers=table["headers"]) as ws,
    ):
        device = Device(ws)
        listening = asyncio.create_task(device.listen())
        sent = []
        for n in range(BURST):
            sent.append(await device.send(n))
            await asyncio.sleep(BURST_SPACING)
            if sum(f.done() for f in sent) >= BURST // 2 or n == BURST - 1:
                break
        await asyncio.to_thread(server.kill)
        await asyncio.gather(*sent, return_exceptions=True)
        listening.cancel()
    return device.answered


async def _lost(url: str, table: Table, answered: dict[int, Any]) -> int:
    """The answered commands' events missing from the log, or changed in it."""
    async with (
        aiohttp.ClientSession() as session,
        session.get(f"{table['url']}/events", headers=table["headers"]) as read,
    ):
        stored = {entry["seq"]: entry["event"] for entry in (await read.json())["events"]}
    return sum(stored.get(seq) != event for seq, event in answered.items())


def flushes(counted: Path) -> int:
    return counted.stat().st_size if counted.exists() else 0


def one_run(
    folder: Path, shim: Path | None, durability: str, delay: int, options: argparse.Namespace
) -> str:
    """One server (durability, fsync delay) played, killed and read again: its line."""
    db, counted = folder / f"{durability}-{delay}.db", folder / f"{durability}-{delay}.flushes"
    server = ServerProcess(db, None, ["--durability", durability], **UNLIMITED)
    if shim is not None:
        server.env |= {
            "LD_PRELOAD": str(shim),
            "SLOW_FSYNC_MS": str(delay),
            "SLOW_FSYNC_COUNT": str(counted),
        }
    everywhere = os.sched_getaffinity(0)
    core = max(everywhere)
    os.sched_setaffinity(0, {core})  # the server's threads are born on its core
    try:
        server.start()
    finally:
        os.sched_setaffinity(0, everywhere - {core} or everywhere)  # the table elsewhere
    assert server.process is not None
    pid = server.process.pid
    try:
        with held(pid, options.share) as how:
            run, table = asyncio.run(
                _play(server.url, options.commands, options.pace, options.bursts, counted)
            )
            per_command = run.flushed / (options.commands + BURST * options.bursts)
            answered = asyncio.run(_killed_mid_burst(server.url, table, server))
        server.start(same_port=True)  # where the table's links point
        lost = asyncio.run(_lost(server.url, table, {**run.answered, **answered}))
    finally:
        server.stop()
    return (
        f"  {durability:4} {delay:3} ms   paced p50 {pct(run.paced, 0.5):6.2f} "
        f"p99 {pct(run.paced, 0.99):6.2f}   bursts p50 {pct(run.bursts, 0.5):6.2f} "
        f"p99 {pct(run.bursts, 0.99):6.2f}   fsyncs/command {per_command:4.2f}   "
        f"lost after kill -9: {lost} of {len(answered)} answered in the burst "
        f"({len(run.answered) + len(answered)} in all)   [{how}]"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--delays", type=int, nargs="+", default=[0, 5, 10, 20])
    parser.add_argument("--share", type=float, default=0.3)
    parser.add_argument("--pace", type=float, default=0.5, help="seconds between commands")
    parser.add_argument("--commands", type=int, default=60, help="commands at table pace")
    parser.add_argument("--bursts", type=int, default=10, help="bursts of ten commands")
    options = parser.parse_args()
    with tempfile.TemporaryDirectory() as where:
        folder = Path(where)
        shim = build_shim(folder)
        delays = options.delays
        if shim is None:
            print("no C compiler (cc): the SD card's fsync is not simulated; this disk only")
            delays = [0]
        print(
            f"the Pi at the table: {PHONES} phones, a card reader and a tray; "
            f"{options.commands} commands every {options.pace} s, then {options.bursts} bursts "
            f"of {BURST} in {BURST * BURST_SPACING * 1000:.0f} ms; answers in ms (sent → answer "
            "at the device)"
        )
        for delay in delays:
            for durability in ("disk", "os"):
                print(one_run(folder, shim, durability, delay, options), flush=True)


if __name__ == "__main__":
    main()
