"""``seize serve --workers 2``: two processes share the port and one SQLite file, each shows the
other's commands to its subscribers (no bus named: they poll the file), a worker killed with
SIGKILL is started again while the other serves, and SIGTERM stops them all."""

from __future__ import annotations

import asyncio
import json
import os
import signal
import subprocess
import sys
import time
import urllib.request
from collections.abc import Callable
from pathlib import Path
from typing import Any

import aiohttp
import pytest

from server.http.metrics import INDEX
from server.run.workers import FIRST_PAUSE, LAST_PAUSE, SETTLED
from tests import waiting
from tests.server.following import CHARACTER, POOL, follow
from tests.server.process import UNLIMITED, ServerProcess
from tests.waiting import PACE, PATIENCE, eventually_async, within

SUBSCRIBERS = 8
CLOSED = (aiohttp.WSMsgType.CLOSE, aiohttp.WSMsgType.CLOSED)
COMMANDS = 20

pytestmark = pytest.mark.skipif(not hasattr(os, "sched_getaffinity"), reason="Linux's /proc")


def workers_of(parent: int) -> dict[int, int]:
    """The parent's live worker processes: {worker index: pid}."""
    found = {}
    children = Path(f"/proc/{parent}/task/{parent}/children").read_text().split()
    for pid in map(int, children):
        try:
            environ = Path(f"/proc/{pid}/environ").read_bytes().split(b"\0")
        except OSError:  # killed, and not yet reaped
            continue
        for entry in environ:
            if entry.startswith(f"{INDEX}=".encode()):
                found[int(entry.split(b"=", 1)[1])] = pid
    return found


def until(check: Callable[[], Any], what: str = "it never happened") -> Any:
    """What ``check`` found first (a worker's pid, the workers' map…)."""
    return waiting.until(check, what)


def listening(pid: int, port: int) -> bool:
    """Whether process ``pid`` holds a socket listening on ``port`` (each worker has its own,
    with SO_REUSEPORT)."""
    try:
        held = {os.readlink(fd) for fd in Path(f"/proc/{pid}/fd").iterdir()}
    except OSError:  # gone, or a descriptor closed while it was read
        return False
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        for line in Path(table).read_text().splitlines()[1:]:
            fields = line.split()
            local, state, inode = fields[1], fields[3], fields[9]
            ours = f"socket:[{inode}]" in held
            if ours and state == "0A" and int(local.rsplit(":", 1)[1], 16) == port:
                return True
    return False


async def send(session: aiohttp.ClientSession, url: str, table: dict[str, Any], body: Any) -> None:
    """One command on a connection of its own, so the kernel may give it to either worker; a
    connection to a worker being killed is retried."""
    headers = {"Authorization": f"Bearer {table['gm_token']}", "Connection": "close"}
    while True:
        try:
            async with session.post(
                f"{url}/api/tables/{table['id']}/commands", json=body, headers=headers
            ) as answer:
                assert answer.status == 200, await answer.text()
                return
        except aiohttp.ClientConnectionError:
            await asyncio.sleep(PACE)  # a pause before trying again


@pytest.mark.parametrize("durability", ["disk", "os"])
async def test_workers_share_the_port_show_each_others_commands_and_come_back(
    tmp_path: Path, durability: str
) -> None:
    """With either durability: a command a worker answered before its kill is still shown."""
    printed = tmp_path / "printed.log"
    server = ServerProcess(
        tmp_path / "seize.db", printed, workers=2, durability=durability, **UNLIMITED
    ).start()
    try:
        assert server.process is not None
        parent = server.process.pid
        first = until(lambda: len(w := workers_of(parent)) == 2 and w)
        async with aiohttp.ClientSession(connector=aiohttp.TCPConnector(force_close=True)) as s:
            async with s.post(
                f"{server.url}/api/tables", json={"system": "megatraveller-rcs", "name": "w"}
            ) as answer:
                table = await answer.json()
            subscribed = [asyncio.Event() for _ in range(SUBSCRIBERS)]
            followers = [
                asyncio.create_task(follow(s, [server.url], table, COMMANDS + 1, 0, caught_up))
                for caught_up in subscribed
            ]
            for caught_up in subscribed:  # each following live before the first command
                await within(caught_up.wait(), "a subscriber never caught up")
            await send(s, server.url, table, {"type": "join", "character": CHARACTER})
            for n in range(COMMANDS):
                await send(s, server.url, table, POOL)
                if n == COMMANDS // 2:
                    killed = until(lambda: workers_of(parent).get(1))
                    os.kill(killed, signal.SIGKILL)
            seen = await within(asyncio.gather(*followers), "a subscriber fell behind")
        for subscriber in seen:
            assert subscriber == list(range(1, COMMANDS + 2))
        again = until(lambda: len(w := workers_of(parent)) == 2 and w[1] != killed and w)
        # The other worker served on, untouched: the kill was the only restart.
        assert again[0] == first[0], printed.read_text()
        assert printed.read_text().count("worker ended") == 1, printed.read_text()
    finally:
        server.stop()
    assert server.process.returncode == 0
    assert not any(alive(pid) for pid in again.values())
    assert printed.read_text().count("Seize is serving at") == 1  # the first worker's links


async def test_any_worker_answers_metrics_for_every_worker(tmp_path: Path) -> None:
    """A scrape reaches one worker, whichever the kernel gives its connection to: each answers
    with every worker's figures, labelled by worker, so the counters add up and none of them
    seems to go back from one scrape to the next."""
    sent = 12
    with ServerProcess(tmp_path / "seize.db", workers=2, **UNLIMITED) as server:
        assert server.process is not None
        parent = server.process.pid
        until(lambda: len(workers_of(parent)) == 2)
        async with aiohttp.ClientSession(connector=aiohttp.TCPConnector(force_close=True)) as s:
            async with s.post(
                f"{server.url}/api/tables", json={"system": "megatraveller-rcs", "name": "m"}
            ) as answer:
                table = await answer.json()
            await send(s, server.url, table, {"type": "join", "character": CHARACTER})
            for _ in range(sent - 1):
                await send(s, server.url, table, POOL)
            scraped: list[tuple[set[str], int]] = []

            async def every_worker_counted() -> bool:
                scraped[:] = [await scrape(s, server.url) for _ in range(8)]
                return all(workers == {"0", "1"} and total == sent for workers, total in scraped)

            await eventually_async(every_worker_counted, lambda: str(scraped))


async def scrape(session: aiohttp.ClientSession, url: str) -> tuple[set[str], int]:
    """One scrape of ``/metrics``: the workers it has figures of (each has a gauge of its
    subscribers), and the commands applied by all of them."""
    async with session.get(f"{url}/metrics") as answer:
        text = await answer.text()
    workers, applied = set(), 0
    for line in text.splitlines():
        name, _, rest = line.partition("{")
        if not rest:
            continue
        labels, value = rest.split("} ")
        named = {k: v.strip('"') for k, v in (pair.split("=") for pair in labels.split(","))}
        if name == "seize_subscribers":
            workers.add(named["worker"])
        if name == "seize_commands_total" and named["outcome"] == "applied":
            applied += int(value)
    return workers, applied


def test_a_worker_that_cannot_start_again_is_retried_ever_more_slowly(tmp_path: Path) -> None:
    """A worker killed while it cannot start (the database away, or here the settings file
    broken since) fails each start; the parent waits 1, 2, 4… seconds between starts rather
    than spin and fill the log, the other worker serves on, and once the cause is gone the
    worker is back. About twenty seconds: the five seconds a worker must serve to have
    crashed, then the pauses themselves (1 + 2 + 4 + 8), which are what is under test."""
    printed, config = tmp_path / "printed.log", tmp_path / "seize.toml"
    config.write_text("log_level = 'info'\n")
    server = ServerProcess(tmp_path / "seize.db", printed, workers=2, config=config, **UNLIMITED)
    server.start()
    try:
        assert server.process is not None
        parent = server.process.pid
        port = int(server.url.rsplit(":", 1)[1])
        first = until(lambda: len(w := workers_of(parent)) == 2 and w)
        until(lambda: listening(first[1], port), "the second worker never listened")
        # A crash, not a worker that could not start in the first place: the parent tells
        # them apart by how long the worker served, so this sleep is the rule under test, not
        # a wait for something that could be watched.
        time.sleep(SETTLED)
        config.write_text("log_level = 'chatty'\n")
        os.kill(first[1], signal.SIGKILL)
        # Until the pauses have doubled to 4 s. Each pause follows from how long its worker
        # served, as the parent logged it; one that never got past its settings never served,
        # however long a busy machine took it to fail there.
        pauses = until(lambda: 4.0 in (p := [pause for _, pause in ended(printed)]) and p)
        expected = 0.0
        for served, pause in ended(printed):
            quick = served < SETTLED
            expected = min(max(expected * 2, FIRST_PAUSE), LAST_PAUSE) if quick else 0.0
            assert pause == expected, (served, pause, expected)
        with urllib.request.urlopen(f"{server.url}/healthz", timeout=PATIENCE) as answer:
            assert answer.status == 200  # the other worker, all along
        config.write_text("log_level = 'info'\n")
        back = until(lambda: (w := workers_of(parent)).get(0) == first[0] and 1 in w and w)
        # Started, and past its settings (which failed it until now): it listens.
        until(lambda: listening(back[1], port), "the worker started again never listened")
        assert workers_of(parent) == back
        assert len(ended(printed)) == len(pauses)  # it did not end again
    finally:
        server.stop()
    assert server.process.returncode == 0
    times = [served for served, _ in ended(printed)]
    assert times[0] > 0 and times[1:] == [0.0] * (len(times) - 1), "failed starts never served"


def ended(printed: Path) -> list[tuple[float, float]]:
    """How long each ended worker served and the pause the parent logged before starting it
    again (what else was printed: the links, what the failing worker said as it ended)."""
    logged = [json.loads(line) for line in printed.read_text().splitlines() if line[:1] == "{"]
    return [
        (line["served_seconds"], line["in_seconds"])
        for line in logged
        if line["message"] == "worker ended: starting again"
    ]


def test_a_second_server_on_a_port_in_use_is_refused_in_one_line(tmp_path: Path) -> None:
    """Workers listen with SO_REUSEPORT, which would let another server's workers join them
    quietly and take a share of their clients: it is refused before it starts anything."""
    with ServerProcess(tmp_path / "first.db", workers=2, **UNLIMITED) as first:
        port = first.url.rsplit(":", 1)[1]
        for workers in ("2", "1"):
            serve = ["serve", "--port", port, "--workers", workers]
            second = subprocess.run(
                [sys.executable, "-m", "server", *serve, "--db", str(tmp_path / "second.db")],
                check=False,
                capture_output=True,
                text=True,
                timeout=PATIENCE,
            )
            assert second.returncode == 2
            assert second.stdout == ""  # no links to a server that is not there
            assert second.stderr.startswith(f"seize: port {port} on 127.0.0.1: ")
            assert len(second.stderr.splitlines()) == 1


def test_workers_stop_when_their_parent_is_killed(tmp_path: Path) -> None:
    """A parent killed with SIGKILL cannot stop its workers: they notice, and stop."""
    server = ServerProcess(tmp_path / "seize.db", workers=2, **UNLIMITED).start()
    assert server.process is not None
    parent = server.process.pid
    workers = until(lambda: len(w := workers_of(parent)) == 2 and w)
    server.kill()
    until(lambda: not any(alive(pid) for pid in workers.values()))


def alive(pid: int) -> bool:
    """Running: not gone, nor a zombie left for whichever process adopted it to reap."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    return stat.rsplit(")", 1)[1].split()[0] != "Z"


async def test_sigterm_stops_every_worker_with_a_goodbye_to_each_subscriber(
    tmp_path: Path,
) -> None:
    """The parent stops each worker once, gracefully: every subscriber is told where to resume,
    and its socket is closed."""
    server = ServerProcess(tmp_path / "seize.db", workers=2, **UNLIMITED).start()
    assert server.process is not None
    async with aiohttp.ClientSession(connector=aiohttp.TCPConnector(force_close=True)) as s:
        async with s.post(
            f"{server.url}/api/tables", json={"system": "four-color", "name": "w"}
        ) as answer:
            table = await answer.json()
        url = f"{server.url}/api/tables/{table['id']}/ws?token={table['overlay_token']}"
        sockets = [await s.ws_connect(url) for _ in range(SUBSCRIBERS)]
        for ws in sockets:
            assert (await ws.receive_json())["type"] == "view"
        server.process.send_signal(signal.SIGTERM)
        for ws in sockets:
            assert (await within(ws.receive_json(), "no goodbye came"))["type"] == "bye"
            assert (await within(ws.receive(), "the socket stayed open")).type in CLOSED
    assert server.process.wait(timeout=PATIENCE) == 0
