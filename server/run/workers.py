"""``seize serve --workers N``: N processes serving one port, and a parent that keeps them up.

Each worker is the same ``seize serve`` in a process of its own, listening with SO_REUSEPORT, so
the kernel spreads connections over them; they share the database, and learn of each other's
commands through the bus (``bus.py``). The parent only supervises: a worker that dies (a crash,
a SIGKILL, memory) is started again, and its subscribers, whose connections dropped, reconnect
with ``?after=`` and land on another worker that catches them up. The first worker is the one
that prints the links, readies the demo tables and runs the configured devices: those must
exist once, not once per worker.
"""

from __future__ import annotations

import asyncio
import json
import logging
import os
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import AsyncIterator, Callable, Sequence
from pathlib import Path
from types import FrameType

from aiohttp import web

from server.http.context import SEIZE
from server.http.metrics import FIGURES, INDEX, worker_index

log = logging.getLogger("seize")

PARENT = "SEIZE_WORKER_PARENT"
"""Set in a worker's environment: its parent's pid, which it stays with."""
AGAIN = "SEIZE_WORKER_AGAIN"
"""Set in a restarted worker's environment: what was printed and handed out stands."""
FIGURES_EVERY = 1.0
"""Seconds between a worker's leaving its metrics for the others: ``/metrics`` answered by
any worker has every worker's figures, the others' this old at most."""
SETTLED = 5.0
"""Seconds a worker must have served for its death to be a crash worth an immediate restart;
one that dies sooner, or before it ever served (its figures never left: ``share_figures``), is
started again after a pause that doubles each time, from ``FIRST_PAUSE`` to ``LAST_PAUSE``, so
a worker that cannot start (the database away) does not spin, nor fill the log. Counted from
its serving, not from its start: on a slow or busy machine a worker may take longer than this
to import and read its settings, and one failing there is still one that cannot start."""
FIRST_PAUSE, LAST_PAUSE = 1.0, 30.0
GRACE = 10.0
"""Seconds workers have to finish (say goodbye to subscribers, flush writes) on shutdown."""
ORPHAN_CHECK = 1.0
"""Seconds between a worker's looks at whether its parent is still there."""
CANNOT_START = 2
"""A worker's exit code for a setting or a database it cannot start with: no use retrying."""


def restarted() -> bool:
    """Whether this worker replaces one that died: it prints nothing, and keeps the demo
    tables' tokens, which clients of the running server hold."""
    return AGAIN in os.environ


def supervise(argv: Sequence[str], workers: int) -> int:
    """Run ``workers`` copies of ``seize <argv>`` until SIGINT or SIGTERM; returns the exit
    code (2 when a worker could not start at all)."""
    if not hasattr(socket, "SO_REUSEPORT"):
        print("seize: workers: several workers need SO_REUSEPORT (Linux, macOS)", file=sys.stderr)
        return CANNOT_START
    stopping = False

    def stop(signum: int, frame: FrameType | None) -> None:
        nonlocal stopping
        stopping = True

    signal.signal(signal.SIGINT, stop)
    signal.signal(signal.SIGTERM, stop)
    with tempfile.TemporaryDirectory(prefix="seize-figures-") as figures:
        os.environ[FIGURES] = figures
        return _supervise(argv, workers, lambda: stopping)


def _supervise(argv: Sequence[str], workers: int, stopping: Callable[[], bool]) -> int:
    started = {index: (time.monotonic(), time.time()) for index in range(workers)}
    running = {index: _start(argv, index, again=False) for index in range(workers)}
    serving: dict[int, float] = {}  # since when each running worker has served
    pause = dict.fromkeys(running, 0.0)
    due: dict[int, float] = {}  # ended workers, and when each starts again
    restarted: set[int] = set()
    code = 0
    while not stopping():
        time.sleep(0.2)
        now = time.monotonic()
        for index in [index for index, when in due.items() if when <= now]:
            del due[index]
            started[index] = (now, time.time())
            running[index] = _start(argv, index, again=True)
        for index, process in list(running.items()):
            returned = process.poll()
            if returned is None:
                if index not in serving and _figures_since(index, started[index][1]):
                    serving[index] = now
                continue
            if returned == CANNOT_START and index not in restarted:
                # It said why (a setting, the database) and the others will say the same. A
                # restarted worker that cannot start (the database away for now) is retried.
                code = CANNOT_START
                break
            served = now - serving.pop(index, now)
            quick = served < SETTLED
            pause[index] = min(max(pause[index] * 2, FIRST_PAUSE), LAST_PAUSE) if quick else 0.0
            log.warning(
                "worker ended: starting again",
                extra={
                    "worker": index,
                    "code": returned,
                    "ran_seconds": round(now - started[index][0], 3),
                    "served_seconds": round(served, 3),
                    "in_seconds": pause[index],
                },
            )
            del running[index]
            due[index] = now + pause[index]
            restarted.add(index)
        if code:
            break
    _stop(list(running.values()))
    return code


def _figures(index: int | None) -> Path:
    return Path(os.environ[FIGURES]) / f"{index}.json"


def _figures_since(index: int, started: float) -> bool:
    """Whether worker ``index`` left its figures since ``started`` (by the file clock): it got
    through its settings and its database, and serves."""
    try:
        return _figures(index).stat().st_mtime >= started
    except FileNotFoundError:
        return False


async def share_figures(app: web.Application) -> AsyncIterator[None]:
    """Leave this worker's metrics where the others find them, every ``FIGURES_EVERY`` seconds:
    a scrape reaches one worker (whichever the kernel gives the connection to), and must count
    them all, or a counter would seem to go back each time it reached another."""
    seize, index = app[SEIZE], worker_index()
    mine = _figures(index)

    async def leave() -> None:
        while True:
            written = mine.with_suffix(".tmp")
            written.write_text(json.dumps(seize.metrics.figures()))
            written.replace(mine)  # whole, never half-written, for a reader
            await asyncio.sleep(FIGURES_EVERY)

    leaving = asyncio.create_task(leave())
    yield
    leaving.cancel()


def _start(argv: Sequence[str], index: int, *, again: bool) -> subprocess.Popen[bytes]:
    """A worker in a session of its own: Ctrl-C at a terminal, or a signal to the parent's
    process group, reaches the parent alone, which stops each worker once, gracefully."""
    environment = {**os.environ, INDEX: str(index), PARENT: str(os.getpid())}
    if again:
        environment[AGAIN] = "1"
    return subprocess.Popen(
        [sys.executable, "-m", "server", *argv], env=environment, start_new_session=True
    )


async def leave_with_parent(app: web.Application) -> AsyncIterator[None]:
    """A worker whose parent is gone (killed with SIGKILL, so it could not stop its workers)
    stops too, gracefully, rather than serve on unsupervised: a port nobody watches over would
    take a share of the next server's connections."""
    parent = int(os.environ[PARENT])  # not getppid(): the parent may be gone already

    async def watch() -> None:
        while os.getppid() == parent:
            await asyncio.sleep(ORPHAN_CHECK)
        log.warning("the workers' parent is gone: stopping", extra={"parent": parent})
        os.kill(os.getpid(), signal.SIGTERM)

    watching = asyncio.create_task(watch())
    yield
    watching.cancel()


def _stop(processes: list[subprocess.Popen[bytes]]) -> None:
    """SIGTERM (a worker's graceful shutdown), then SIGKILL for any still running after
    ``GRACE``."""
    for process in processes:
        if process.poll() is None:
            process.terminate()
    deadline = time.monotonic() + GRACE
    for process in processes:
        try:
            process.wait(max(0.0, deadline - time.monotonic()))
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
