"""``[[devices]]`` in the settings file: ``seize serve`` runs those adapters itself, so a table's
dice tray works from the moment the server is up, with no second command to keep alive."""

from __future__ import annotations

import asyncio
import sqlite3
from pathlib import Path

import pytest
from pydantic import ValidationError

from adapters.simulators.tray import TraySimulator
from adapters.tray import TrayAdapter
from server.devices.local_link import LocalLink
from server.http.context import SEIZE
from server.settings import DeviceSetting, Settings
from tests.adapters.test_tray import rcs_awaiting_rolls
from tests.server.conftest import Client, bearer
from tests.server.process import ServerProcess, call
from tests.waiting import eventually, until

pytestmark = pytest.mark.sqlite_only


def test_a_configured_tray_rolls_into_its_table(tmp_path: Path) -> None:
    db, config, port = tmp_path / "seize.db", tmp_path / "seize.toml", tmp_path / "seize-tray"
    with ServerProcess(db) as first:
        _, table = call(
            f"{first.url}/api/tables", "POST", {"system": "megatraveller-rcs", "name": "t"}
        )
        commands = f"{first.url}/api/tables/{table['id']}/commands"
        for cid in ("jena", "guard"):
            character = {"id": cid, "name": cid, "side": cid, "dex": 0, "movement": 0}
            call(commands, "POST", {"type": "join", "character": character}, table["gm_token"])
        awaiting = {"type": "roll_initiative", "source": "device"}
        assert call(commands, "POST", awaiting, table["gm_token"])[0] == 200
    config.write_text(
        f'[[devices]]\nkind = "tray"\ndevice = "{port}"\nname = "tray"\n'
        f'table = "{table["id"]}"\ntoken = "{table["gm_token"]}"\n'
    )
    tray = TraySimulator(port).plug()
    try:
        with ServerProcess(db, config=config) as server:
            devices = f"{server.url}/api/tables/{table['id']}/devices"
            until(lambda: call(devices, token=table["gm_token"])[1]["devices"].get("tray"))
            tray.hello()
            tray.roll(6, 3, 5)
            events = f"{server.url}/api/tables/{table['id']}/events?after=3"
            rolled = until(lambda: call(events, token=table["gm_token"])[1]["events"])
    finally:
        tray.unplug()
    (entered,) = rolled
    assert entered["event"]["type"] == "roll_entered" and entered["event"]["source"] == "device"
    assert entered["event"]["roll"] == {"character": "jena", "dice": [3, 5], "initiative": 8}


def test_a_device_setting_is_checked_field_by_field() -> None:
    with pytest.raises(ValidationError, match="table"):
        DeviceSetting.model_validate({"kind": "tray", "device": "/dev/ttyACM0", "token": "x"})
    with pytest.raises(ValidationError, match="kind"):
        DeviceSetting.model_validate(
            {"kind": "dice", "device": "/dev/ttyACM0", "token": "x", "table": "t"}
        )
    with pytest.raises(ValidationError, match="deck"):
        DeviceSetting.model_validate(
            {"kind": "station", "device": "/dev/ttyACM0", "token": "x", "table": "t"}
        )


def test_a_device_configured_with_a_wrong_token_is_not_started_and_says_why(
    tmp_path: Path,
) -> None:
    db, config, output = tmp_path / "seize.db", tmp_path / "seize.toml", tmp_path / "printed"
    with ServerProcess(db) as first:
        _, table = call(f"{first.url}/api/tables", "POST", {"system": "awareness", "name": "t"})
    config.write_text(
        f'[[devices]]\nkind = "tray"\ndevice = "{tmp_path / "tray"}"\n'
        f'table = "{table["id"]}"\ntoken = "{table["overlay_token"]}"\n'
    )
    with ServerProcess(db, output=output, config=config) as server:
        devices = f"{server.url}/api/tables/{table['id']}/devices"
        assert call(devices, token=table["gm_token"]) == (200, {"devices": {}})
    printed = output.read_text()
    assert "not started: token: a device needs the table's GM token" in printed
    assert table["overlay_token"] not in printed  # the secret is never printed


async def test_a_device_in_the_server_outlives_a_failing_database(
    client: Client, settings: Settings, tmp_path: Path
) -> None:
    """The SQLite file refuses every new event (a trigger aborts the insert, as a full or
    failing disk would): the tray's roll is answered as the API answers, with a 500, the
    tray goes on, and once the file takes events again its next roll is entered."""
    table = await rcs_awaiting_rolls(client)
    seize = client.app[SEIZE]
    path = tmp_path / "seize-tray"
    tray = TraySimulator(path).plug()
    adapter = TrayAdapter(str(path), LocalLink(seize, table["id"], table["gm_token"]))
    stop = asyncio.Event()
    running = asyncio.create_task(adapter.run(stop))
    database = sqlite3.connect(settings.db)
    try:
        await eventually(lambda: adapter.status.connected)
        database.execute(
            "create trigger failing before insert on events"
            " begin select raise(abort, 'the disk is full'); end"
        )
        tray.roll(6, 3, 5)
        await eventually(lambda: adapter.status.asking is not None)
        assert adapter.status.asking == "the server failed; it is logged"
        assert not running.done()
        database.execute("drop trigger failing")
        tray.roll(6, 4, 4)
        await eventually(lambda: adapter.status.rolls_sent == 1)
    finally:
        stop.set()
        await running
        tray.unplug()
        database.close()
    answer = await client.get(
        f"/api/tables/{table['id']}/events?after=3", headers=bearer(table["gm_token"])
    )
    (entered,) = (await answer.json())["events"]  # nothing of the failed roll was kept
    assert entered["event"]["roll"] == {"character": "jena", "dice": [4, 4], "initiative": 8}
