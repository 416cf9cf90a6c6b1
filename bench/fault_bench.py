"""Fault benchmark: what a table's users feel through one PostgreSQL outage and one Redis
restart, with two servers sharing both. Prints figures; asserts nothing.

    .venv/bin/python -m bench.fault_bench [--quick]

Two servers (``seize serve``, one process each) over a PostgreSQL and a Redis of the run's own
(initdb and pg_ctl, redis-server: Debian's packages), a subscriber on each, and a sender on
each sending one command after another, each with an idempotency key and sent again until it
is acknowledged. Phases, in order: steady; PostgreSQL stopped; PostgreSQL back; Redis killed and
started again; steady. For each phase it prints the commands acknowledged per second; for each
subscriber, the longest wait between two events it was sent, the longest time from a command's
acknowledgement to its arrival, whether it saw every sequence once and in order, and how often
it was told to resume.
"""

from __future__ import annotations

import argparse
import asyncio
import itertools
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import aiohttp

from tests.server.following import Subscriber, command, following, new_rcs_table
from tests.server.private_postgres import PrivatePostgres, private_postgres
from tests.server.process import UNLIMITED, ServerProcess
from tests.server.redis_server import RedisServer

Step = Callable[[], None]
Phase = tuple[str, Step, float]
"""A phase's name, what starts it (a fault, or nothing), and how long it lasts."""
COLUMNS = (
    ("subscriber", 12),
    ("longest wait", 13),
    ("ack to arrival", 15),
    ("complete", 9),
    ("resumed", 8),
)


class Sender:
    """Commands to one server, one after another, each until acknowledged."""

    def __init__(self, session: aiohttp.ClientSession, url: str, table: dict[str, Any]) -> None:
        self.session, self.url, self.table = session, url, table
        self.acknowledged: dict[int, float] = {}
        self.stopping = False

    async def run(self) -> None:
        for n in itertools.count():
            key = f"{self.url}-{n}"
            while True:
                status, answer = await command(self.session, self.url, self.table, key)
                if status == 200:
                    self.acknowledged[int(answer["seq"])] = time.monotonic()
                    break
                await asyncio.sleep(0.05)
            if self.stopping:
                return


async def phases(session: aiohttp.ClientSession, urls: list[str], steps: list[Phase]) -> None:
    table = await new_rcs_table(session, urls[0])
    async with (
        following(session, urls[0], table) as first,
        following(session, urls[1], table) as second,
    ):
        senders = [Sender(session, url, table) for url in urls]
        tasks = [asyncio.create_task(sender.run()) for sender in senders]
        print(f"{'phase':<28} {'seconds':>8} {'commands/s':>11}")
        for name, step, seconds in steps:
            before, started = acknowledged(senders), time.monotonic()
            await asyncio.to_thread(step)
            await asyncio.sleep(seconds)
            took = time.monotonic() - started
            done = acknowledged(senders) - before
            print(f"{name:<28} {took:>8.1f} {done / took:>11.0f}")
        for sender in senders:
            sender.stopping = True
        await asyncio.gather(*tasks)
        last = max(seq for sender in senders for seq in sender.acknowledged)
        acks = {seq: at for sender in senders for seq, at in sender.acknowledged.items()}
        print()
        print(
            " ".join(
                f"{name:<{width}}" if n == 0 else f"{name:>{width}}"
                for n, (name, width) in enumerate(COLUMNS)
            )
        )
        for name, subscriber in (("first", first), ("second", second)):
            await subscriber.until(last)
            report(name, subscriber, acks)


def acknowledged(senders: list[Sender]) -> int:
    return sum(len(sender.acknowledged) for sender in senders)


def report(name: str, subscriber: Subscriber, acks: dict[int, float]) -> None:
    arrived = subscriber.arrived
    waits = [later - earlier for earlier, later in itertools.pairwise(arrived)]
    late = [at - acks[seq] for seq, at in zip(subscriber.seen, arrived, strict=True) if seq in acks]
    complete = subscriber.seen == list(range(1, len(subscriber.seen) + 1))
    longest, latest = max(waits, default=0) * 1000, max(late, default=0) * 1000
    print(
        f"{name:<12} {longest:>10.0f} ms {latest:>12.0f} ms"
        f" {'yes' if complete else 'NO':>9} {len(subscriber.goodbyes):>8}"
    )


def run(quick: bool) -> None:
    steady = 1.0 if quick else 3.0
    redis = RedisServer().start()
    try:
        with private_postgres() as postgres, tempfile.TemporaryDirectory() as folder:
            servers = [
                ServerProcess(
                    postgres.url(),
                    output=Path(folder) / f"server{n}.log",
                    bus=redis.url,
                    **UNLIMITED,
                )
                for n in range(2)
            ]
            with servers[0], servers[1]:
                steps = plan(postgres, redis, steady)
                asyncio.run(session_phases([s.url for s in servers], steps))
    finally:
        redis.kill()


def plan(
    postgres: PrivatePostgres, redis: RedisServer, steady: float
) -> list[tuple[str, Step, float]]:
    def nothing() -> None:
        """A phase with no fault."""

    def restart_redis() -> None:
        redis.kill()
        redis.start()

    return [
        ("steady", nothing, steady),
        ("PostgreSQL stopped", lambda: postgres.stop("fast"), steady),
        ("PostgreSQL back", postgres.start, steady),
        ("Redis restarted", restart_redis, steady),
        ("steady again", nothing, steady),
    ]


async def session_phases(urls: list[str], steps: list[Phase]) -> None:
    async with aiohttp.ClientSession() as session:
        await phases(session, urls, steps)


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--quick", action="store_true", help="one second a phase, for a smoke run")
    run(parser.parse_args().quick)


if __name__ == "__main__":
    main()
