"""A server process killed with SIGKILL under load loses nothing it acknowledged, on either
backend (the SQLite file, or PostgreSQL) and with either durability: ``disk``, each command on
the disk before its answer, and ``os``, each with the operating system (or PostgreSQL) before
it, which a crash of the server cannot take back either."""

from __future__ import annotations

import random
import threading
from collections.abc import Callable
from typing import Any

import pytest

from rules.four_color import FOUR_COLOR, FourColorOptions
from rules.roles import GM
from tests.server.conftest import Database
from tests.server.process import UNLIMITED, ServerProcess, call
from tests.waiting import until

Acknowledged = dict[tuple[str, int], dict[str, Any]]


def new_table(url: str) -> dict[str, Any]:
    """A Four Color Hack table that can be dealt and played without end: one hero (so no
    extra cards wait to be spent) and three villains."""
    _, created = call(f"{url}/api/tables", "POST", {"system": "four-color", "name": "crash"})
    table: dict[str, Any] = created
    for member_id, kind in (("h1", "hero"), ("v1", "villain"), ("v2", "villain"), ("m1", "mob")):
        member = {"id": member_id, "name": member_id, "kind": kind}
        call(
            f"{url}/api/tables/{table['id']}/commands",
            "POST",
            {"type": "join", "member": member},
            table["gm_token"],
        )
    return table


def hammer(
    url: str, table: dict[str, Any], acknowledged: Acknowledged, stop: threading.Event
) -> None:
    """Send commands until the server dies; remember every event it acknowledged."""
    command: dict[str, Any] = {"type": "next_panel"}
    while not stop.is_set():
        try:
            status, answer = call(
                f"{url}/api/tables/{table['id']}/commands",
                "POST",
                command,
                table["gm_token"],
            )
        except OSError:  # killed: its connections reset at once
            return
        if status == 200:
            first = answer["seq"] - len(answer["events"]) + 1
            for n, event in enumerate(answer["events"]):
                acknowledged[(table["id"], first + n)] = event
            command = {"type": "next_panel"}
        else:
            command = {"type": "deal"}


@pytest.mark.parametrize("durability", ["disk", "os"])
def test_sigkill_at_random_moments_loses_nothing_acknowledged(
    database: Database, durability: str
) -> None:
    """About ten seconds or more: ten kills, each followed by starting a new server process
    and replaying the table, and fewer kills would try fewer moments of a write."""
    flags = ["--durability", durability]
    server = ServerProcess(database(), None, flags, snapshot_every=7, **UNLIMITED).start()
    tables = [new_table(server.url), new_table(server.url)]
    acknowledged: Acknowledged = {}
    chance = random.Random(2026)
    try:
        for _ in range(10):
            before = len(acknowledged)
            stop = threading.Event()
            workers = [
                threading.Thread(target=hammer, args=(server.url, t, acknowledged, stop))
                for t in tables
            ]
            for worker in workers:
                worker.start()
            # A random moment, counted in events acknowledged rather than in seconds, so
            # that a slow machine kills it as far into the load as a fast one.
            target = before + chance.randint(1, 60)
            until(reached(acknowledged, target, workers), "the load never reached the moment")
            server.kill()
            stop.set()
            for worker in workers:
                worker.join()
            assert len(acknowledged) > before, "no command was acknowledged before the kill"
            server.start()
            for table in tables:
                check_table(server.url, table, acknowledged)
    finally:
        server.stop()


def reached(
    acknowledged: Acknowledged, events: int, workers: list[threading.Thread]
) -> Callable[[], bool]:
    """Whether ``events`` are acknowledged, or the senders have stopped short of it."""
    return lambda: len(acknowledged) >= events or not any(w.is_alive() for w in workers)


def check_table(url: str, table: dict[str, Any], acknowledged: Acknowledged) -> None:
    """Every acknowledged event is in the log as acknowledged; the state is the log's replay."""
    base = f"{url}/api/tables/{table['id']}"
    _, log = call(f"{base}/events", token=table["gm_token"])
    stored = {entry["seq"]: entry["event"] for entry in log["events"]}
    assert list(stored) == list(range(1, len(stored) + 1))
    for (table_id, seq), event in acknowledged.items():
        if table_id == table["id"]:
            assert stored.get(seq) == event, f"acknowledged event {seq} lost or changed"
    replayed = FOUR_COLOR.table(
        FourColorOptions(), [FOUR_COLOR.events.validate_python(e) for e in stored.values()]
    )
    _, served = call(base, token=table["gm_token"])
    assert served["seq"] == len(stored)
    assert served["view"] == replayed.view(GM).model_dump(mode="json")
