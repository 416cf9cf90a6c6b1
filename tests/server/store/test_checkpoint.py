"""SQLite's write-ahead log is copied back into the file beside the writer, never inside a
command's commit (``SqliteStore._checkpoint_loop``): the file alone soon holds what was
acknowledged, as a backup that copies ``seize.db`` while the server runs takes it, and the
writer's own connection never checkpoints."""

from __future__ import annotations

import shutil
import sqlite3
from pathlib import Path

import pytest

from server.store import Append, TableRow
from server.store.sql import Query
from server.store.sqlite import SqliteStore
from tests.waiting import eventually

pytestmark = pytest.mark.sqlite_only

TABLE = TableRow("t1", "four-color", "t", "{}")


def events_in_the_file_alone(path: Path, copy: Path) -> int:
    """The events in ``path`` read without its WAL: what a copy of the file alone holds (none
    while the file has no schema yet, or when the copy caught the checkpointer writing it)."""
    shutil.copyfile(path, copy)
    try:
        with sqlite3.connect(copy) as alone:
            return int(alone.execute("select count(*) from events").fetchone()[0])
    except sqlite3.DatabaseError:
        return 0


async def test_the_file_alone_soon_holds_every_acknowledged_event(tmp_path: Path) -> None:
    store = SqliteStore(tmp_path / "seize.db")
    await store.open()
    try:
        await store.create_table(TABLE, [])
        for seq in range(1, 41):
            await store.append(Append(TABLE.id, seq, [("joined", f'"{seq}"')]))
        assert (tmp_path / "seize.db-wal").stat().st_size > 0, "the events went to the WAL"
        copy = tmp_path / "copy.db"
        await eventually(lambda: events_in_the_file_alone(tmp_path / "seize.db", copy) == 40)
    finally:
        await store.close()


async def test_the_writer_leaves_checkpoints_to_the_checkpointer(tmp_path: Path) -> None:
    """Its connection's own checkpoint is off, so no commit waits for a copy of the WAL."""
    store = SqliteStore(tmp_path / "seize.db")
    await store.open()
    try:
        assert await store._write(Query("pragma wal_autocheckpoint", {})) == [(0,)]
    finally:
        await store.close()
