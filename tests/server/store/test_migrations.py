"""The store creates and migrates its own schema: a file written before migrations were
recorded opens migrated in place, so does a database written before the device reports were
stored, a migrated database opens unchanged, and one migrated by a newer server is refused
rather than written."""

from __future__ import annotations

import sqlite3
import subprocess
import sys
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlsplit

import pytest

from server.errors import SchemaTooNewError
from server.run.app import make_app
from server.settings import Settings
from server.store import open_store
from server.store.migrations import LATEST, MIGRATIONS
from tests.server.conftest import Client, Database, bearer, new_table, send
from tests.server.databases import query
from tests.waiting import PATIENCE

BEFORE = Path(__file__).parents[1] / "fixtures" / "before_migrations.sql"
GM_TOKEN = "YjgAQUZwachdapWbXcUTYgi45mSS7mZOc6Ut_ZVbYI8"
PLAYER_TOKEN = "Dz_7yfKCoaRkUK9k0aDV9fd4OAaPPa7nphL1JYzEWg4"


async def before_named_devices(db: str | Path) -> None:
    """The tokens table as it was before migration 6."""
    await query(db, "alter table tokens drop column name")
    await query(db, "alter table tokens drop column seen")


async def test_a_file_from_before_migrations_opens_migrated_in_place(
    aiohttp_client: Any, tmp_path: Path
) -> None:
    path = tmp_path / "seize.db"
    with sqlite3.connect(path) as file:
        file.executescript(BEFORE.read_text())
    client = await aiohttp_client(make_app(Settings(db=path, port=0)))
    (table_id,) = [row[0] for row in await query(path, "select id from tables")]
    table = {"id": table_id, "gm_token": GM_TOKEN}

    read = await client.get(f"/api/tables/{table_id}", headers=bearer(GM_TOKEN))
    body = await read.json()
    assert body["seq"] == 4 and [m["id"] for m in body["view"]["members"]] == [
        "h1",
        "v1",
        "v2",
        "m1",
    ]
    mine = await client.get(f"/api/tables/{table_id}", headers=bearer(PLAYER_TOKEN))
    assert (await mine.json())["you"] == {"role": "player", "participants": ["h1"]}
    retried = await send(
        client,
        table,
        {"type": "join", "member": {"id": "h1", "name": "h1", "kind": "hero"}},
        **{"Idempotency-Key": "join-h1"},
    )
    assert retried[0] == 200 and retried[1]["seq"] == 1  # answered as before, applied once
    status, dealt = await send(client, table, {"type": "deal"})
    assert status == 200 and dealt["seq"] == 5
    undone = await send(client, table, {"type": "undo"})
    assert undone[0] == 200

    versions = await query(path, "select version from schema_version order by version")
    assert versions == [(m.version,) for m in MIGRATIONS]
    indexes = await query(path, "select name from sqlite_master where type = 'index'")
    assert {"tokens_by_table", "tables_by_name"} <= {name for (name,) in indexes}
    reported = await client.put(
        f"/api/tables/{table_id}/devices/tray", json={"connected": True}, headers=bearer(GM_TOKEN)
    )
    assert reported.status == 200


async def test_a_database_from_before_device_reports_gains_them_in_place(
    aiohttp_client: Any, database: Database
) -> None:
    """A database at version 2 (as a server from before migration 3 left it) is upgraded by
    the next server to open it: its tables and tokens serve as before, and devices report."""
    settings = Settings(db=database(), port=0)
    before: Client = await aiohttp_client(make_app(settings))
    table = await new_table(before, "awareness")
    await before.close()
    await query(settings.db, "drop table device_reports")
    await query(settings.db, "alter table snapshots add column standing text not null default ''")
    await query(settings.db, "alter table idempotency drop column command")
    await before_named_devices(settings.db)
    await query(settings.db, "delete from schema_version where version >= 3")

    client = await aiohttp_client(make_app(settings))
    gm = bearer(table["gm_token"])
    devices = f"/api/tables/{table['id']}/devices"
    assert (await client.put(f"{devices}/tray", json={"connected": True}, headers=gm)).status == 200
    assert (await (await client.get(devices, headers=gm)).json())["devices"]["tray"]["connected"]
    versions = await query(settings.db, "select version from schema_version order by version")
    assert versions == [(m.version,) for m in MIGRATIONS]


async def test_a_snapshot_that_kept_what_stands_loads_and_its_table_undoes(
    aiohttp_client: Any, database: Database
) -> None:
    """A database at version 3 kept, with each snapshot, the positions of the events that
    stand. Migrated, the snapshot loads and the first undo rebuilds what stands from the log,
    taking back the last event that stood, not the last of the snapshot."""
    settings = Settings(db=database(), port=0, snapshot_every=2)
    before: Client = await aiohttp_client(make_app(settings))
    table = await new_table(before, "four-color")
    for hero in ("a", "b", "c"):
        join = {"type": "join", "member": {"id": hero, "name": hero, "kind": "hero"}}
        assert (await send(before, table, join))[0] == 200
    assert (await send(before, table, {"type": "undo"}))[0] == 200  # c no longer stands
    await before.close()
    await query(
        settings.db, "alter table snapshots add column standing text not null default '[0, 1]'"
    )
    await query(settings.db, "alter table idempotency drop column command")
    await before_named_devices(settings.db)
    await query(settings.db, "delete from schema_version where version >= 4")

    client = await aiohttp_client(make_app(settings))
    status, answer = await send(client, table, {"type": "undo"})
    assert status == 200 and answer["events"] == [{"type": "undone", "undoes": 2}]
    read = await client.get(f"/api/tables/{table['id']}", headers=bearer(table["gm_token"]))
    assert [m["id"] for m in (await read.json())["view"]["members"]] == ["a"]
    columns = await query(settings.db, "select * from snapshots")
    assert len(columns[0]) == 3  # table, seq, state: the column is gone


async def test_an_answer_kept_before_its_command_was_still_answers_its_retry(
    aiohttp_client: Any, database: Database
) -> None:
    """At version 4 an idempotency answer was kept without its command. Migrated, a retry under
    its key gets the first answer, and nothing is applied twice."""
    settings = Settings(db=database(), port=0)
    before: Client = await aiohttp_client(make_app(settings))
    table = await new_table(before, "awareness")
    sheet = {"id": "a", "name": "A", "perception": 5, "stealth": 5, "coordination": 5}
    join = {"type": "join", "sheet": sheet}
    first = await send(before, table, join, **{"Idempotency-Key": "join-a"})
    await before.close()
    await query(settings.db, "alter table idempotency drop column command")
    await before_named_devices(settings.db)
    await query(settings.db, "delete from schema_version where version >= 5")

    client = await aiohttp_client(make_app(settings))
    assert await send(client, table, join, **{"Idempotency-Key": "join-a"}) == first
    assert await query(settings.db, "select count(*) from events") == [(1,)]
    assert await query(settings.db, "select command from idempotency") == [("",)]


async def test_gm_links_made_before_named_devices_are_listed_and_still_open_the_table(
    aiohttp_client: Any, database: Database
) -> None:
    """Before version 6 a GM link was a token labelled "gm link", with no name and no sight.
    Migrated, it still opens the table and the console lists it as "GM link", beside the
    table's own token."""
    settings = Settings(db=database(), port=0)
    before: Client = await aiohttp_client(make_app(settings))
    table = await new_table(before, "awareness")
    made = await before.post(
        f"/api/tables/{table['id']}/handoff/gm", headers=bearer(table["gm_token"])
    )
    link = parse_qs(urlsplit((await made.json())["url"]).fragment)["token"][0]
    await before.close()
    await query(settings.db, "update tokens set label = 'gm link' where label = 'gm device'")
    await before_named_devices(settings.db)
    await query(settings.db, "delete from schema_version where version >= 6")

    client = await aiohttp_client(make_app(settings))
    read = f"/api/tables/{table['id']}"
    assert (await client.get(read, headers=bearer(link))).status == 200
    listed = await client.get(f"{read}/handoff/gm", headers=bearer(link))
    shown = [(d["name"], d["this"]) for d in (await listed.json())["devices"]]
    assert shown == [("Where the table was made", False), ("GM link", True)]


async def test_a_migrated_database_opens_unchanged(database: Database) -> None:
    db = database()
    for _ in range(2):
        store = open_store(db)
        await store.open()
        await store.close()
    versions = await query(db, "select version from schema_version order by version")
    assert versions == [(version,) for version in range(1, LATEST + 1)]


OPEN_AND_CLOSE = """
import asyncio, sys
from pathlib import Path
from server.store import open_store
db = sys.argv[1]
store = open_store(db if db.startswith("postgresql://") else Path(db))
async def open_and_close():
    await store.open()
    await store.close()
print("ready", flush=True)
sys.stdin.readline()
asyncio.run(open_and_close())
"""


def test_servers_starting_together_on_a_new_database_all_open_it(database: Database) -> None:
    """``--workers`` starts its workers at once on one file: each must open and migrate it,
    whichever comes first. (On SQLite, switching a new file to WAL answered "locked" at once
    to all but one, and the others failed to start.)"""
    for _ in range(5):
        db = str(database())
        starting = [
            subprocess.Popen(
                [sys.executable, "-c", OPEN_AND_CLOSE, db],
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                text=True,
            )
            for _ in range(4)
        ]
        for process in starting:  # all imported: then all open at once
            assert process.stdout is not None and process.stdout.readline() == "ready\n"
        for process in starting:
            assert process.stdin is not None
            process.stdin.write("go\n")
            process.stdin.flush()
        for process in starting:
            _, printed = process.communicate(timeout=PATIENCE)
            assert process.returncode == 0, printed


async def test_a_database_from_a_newer_server_is_refused(database: Database) -> None:
    db = database()
    store = open_store(db)
    await store.open()
    await store.close()
    newer = LATEST + 1
    if isinstance(db, Path):
        with sqlite3.connect(db) as file:
            file.execute("insert into schema_version values (?, 0)", (newer,))
    else:
        await query(db, f"insert into schema_version values ({newer}, 0) returning version")
    store = open_store(db)
    with pytest.raises(SchemaTooNewError, match=rf"^the database is at schema version {newer},"):
        await store.open()
