"""The durability setting, as each database holds it: ``disk`` commits every write through to
the disk before it returns (SQLite's ``synchronous=FULL``; PostgreSQL's ``synchronous_commit``
as the database has it), ``os`` hands it to the operating system, or to PostgreSQL's memory,
without waiting for the disk (``synchronous=NORMAL``; ``synchronous_commit=off``). What a crash
of the server loses under each, nothing, is tested in tests/server/run/test_crash.py."""

from __future__ import annotations

import pytest

from server.settings import Durability
from server.store import open_store
from server.store.sql import Query, SqlStore
from tests.server.conftest import Database

ASKED = {"sqlite": "pragma synchronous", "postgresql": "show synchronous_commit"}
EXPECTED: dict[tuple[str, Durability], object] = {
    ("sqlite", "disk"): 2,  # FULL
    ("sqlite", "os"): 1,  # NORMAL
    ("postgresql", "disk"): "on",  # the database's own, here its default
    ("postgresql", "os"): "off",
}


@pytest.mark.parametrize("durability", ["disk", "os"])
async def test_every_write_is_committed_as_the_durability_says(
    database: Database, backend: str, durability: Durability
) -> None:
    """Asked inside a write, where the commit that acknowledges a command happens (SQLite's
    writer thread, a PostgreSQL connection of the pool), and again once the connection has
    been given back and taken again: what the store sets stays set."""
    store = open_store(database(), durability)
    assert isinstance(store, SqlStore)
    await store.open()
    try:
        for _ in range(2):
            ((said,),) = await store._write(Query(ASKED[backend]))
            assert said == EXPECTED[backend, durability]
    finally:
        await store.close()
