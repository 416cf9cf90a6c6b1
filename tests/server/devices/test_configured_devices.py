"""``[[devices]]`` in the settings file: ``seize serve`` runs those adapters itself, so a table's
dice tray works from the moment the server is up, with no second command to keep alive."""

from __future__ import annotations

import asyncio
import sqlite3
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import pytest
from pydantic import ValidationError

from adapters import godice_protocol as go
from adapters.simulators.dice import Air, SimulatedGoDice, SimulatedPixel
from adapters.simulators.tray import TraySimulator
from adapters.tray import TrayAdapter
from server.devices import commands as hardware
from server.devices.dice import MAX_DICE
from server.devices.local_link import LocalLink, LocalRegistry
from server.http.context import SEIZE
from server.run.cli import main
from server.settings import DeviceSetting, Settings
from tests.adapters.stations import die_id
from tests.adapters.test_dice_station import register
from tests.adapters.test_tray import rcs_awaiting_rolls
from tests.server.conftest import Client, bearer
from tests.server.process import ServerProcess, call
from tests.waiting import eventually, eventually_async, until

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


@pytest.mark.parametrize(
    ("setting", "field"),
    [
        ({"kind": "tray", "device": "/dev/ttyACM0", "token": "x"}, "table"),
        ({"kind": "pixels", "token": "x", "table": "t"}, "kind"),
        ({"kind": "station", "device": "/dev/ttyACM0", "token": "x", "table": "t"}, "deck: a"),
        ({"kind": "tray", "token": "x", "table": "t"}, "device: a tray needs"),
        ({"kind": "dice", "device": "/dev/ttyACM0", "token": "x", "table": "t"}, "device: a die"),
        ({"kind": "tray", "device": "/dev/ttyACM0", "token": "x", "table": "t",
          "shells": {"godice-1": "d20"}}, "limit, shells: only a die station"),
        ({"kind": "dice", "token": "x", "table": "t", "limit": 0}, "limit"),
        ({"kind": "dice", "token": "x", "table": "t", "shells": ["d20"]}, "shells"),
    ],
)  # fmt: skip
def test_a_device_setting_is_checked_field_by_field(setting: dict[str, Any], field: str) -> None:
    with pytest.raises(ValidationError) as refused:
        DeviceSetting.model_validate(setting)
    (error,) = refused.value.errors()
    assert field in f"{'.'.join(map(str, error['loc']))} {error['msg']}"


def test_a_die_stations_unknown_shell_is_refused_before_the_server_starts() -> None:
    setting = DeviceSetting.model_validate(
        {"kind": "dice", "token": "x", "table": "t", "shells": {"godice-B0C7B0": "d7"}}
    )
    with pytest.raises(ValueError, match=r"shells: godice-B0C7B0=d7: a shell is one of d4, d6"):
        hardware.prepare(setting)


def test_the_command_lines_shells_are_checked_as_the_settings_are(
    capsys: pytest.CaptureFixture[str],
) -> None:
    command = ["adapter", "dice", "--server", "http://127.0.0.1:9", "--table", "t", "--token",
               "x", "--shell", "godice-B0C7B0=d12", "--shell", "godice-A1=d7"]  # fmt: skip
    assert main(command) == 2
    assert "seize: --shell godice-A1=d7: a shell is one of d4, d6" in capsys.readouterr().err


async def reported(client: Client, table: dict[str, Any], ready: Callable[[Any], bool]) -> Any:
    """The table's devices and registry once ``ready`` holds of them, read as the console
    does: polled, never waited on for a time."""
    devices: Any = None

    async def read() -> Any:
        nonlocal devices
        answer = await client.get(
            f"/api/tables/{table['id']}/devices", headers=bearer(table["gm_token"])
        )
        devices = (await answer.json())["devices"]
        return devices if ready(devices) else None

    return await eventually_async(read, lambda: str(devices))


def _connected(devices: dict[str, Any]) -> int:
    """The dice the configured station reports connected."""
    station = devices.get("by the table", {"dice": []})
    return sum(die["connected"] for die in station["dice"])


@asynccontextmanager
async def configured(
    client: Client, table: dict[str, Any], air: Air, **entry: Any
) -> AsyncIterator[dict[str, Any]]:
    """A die station as a ``[[devices]]`` entry (named "by the table") of the server under
    test, reaching ``air``'s dice through the simulated radio, once it reports them all
    connected; yields the devices as then reported."""
    setting = DeviceSetting.model_validate({"kind": "dice", "table": table["id"],
        "token": table["gm_token"], "name": "by the table", **entry})  # fmt: skip
    scanner, radio = air.backends()
    starter = hardware.prepare(setting, scanner_backend=scanner, client_backend=radio)
    stop = asyncio.Event()
    link = LocalLink(client.app[SEIZE], table["id"], table["gm_token"])
    running = asyncio.create_task(starter(link)(stop))
    try:
        yield await reported(client, table, lambda found: _connected(found) == len(air.dice))
    finally:
        stop.set()
        await running


async def test_a_configured_die_station_claims_a_die_and_rolls_into_its_table(
    client: Client,
) -> None:
    """A die station as a ``[[devices]]`` entry runs inside the server: the table's link and
    its die registry are reached in-process, with the entry's GM token; the simulated radio
    stands in for Bluetooth."""
    table = await rcs_awaiting_rolls(client)  # Jena's 2D6 is asked first
    air = Air()
    pixel = air.add(SimulatedPixel.make(0xA1, "Jena's d6"))
    godice = air.add(SimulatedGoDice.make("C0FFEE"))
    air.add(SimulatedGoDice.make("D20D20", go.Shell.D20))
    await register(client, table, {"dice": {die_id(pixel): {"owner": "jena"}}, "claims": ["jena"]})
    shells = {"godice-D20D20": "d20"}
    async with configured(client, table, air, limit=3, shells=shells) as found:
        listed = {die["id"]: die for die in found["by the table"]["dice"]}
        assert listed["godice-D20D20"]["sides"] == 20 and listed["godice-C0FFEE"]["sides"] == 6
        godice.roll(4)  # no one's die: Jena's claim makes it hers, and the roll is not entered
        registered = await reported(
            client, table, lambda found: "godice-C0FFEE" in found["dice"]["dice"]
        )
        assert registered["dice"]["dice"]["godice-C0FFEE"]["owner"] == "jena"
        assert registered["dice"]["claims"] == []
        pixel.roll(3)
        godice.roll(5)
        await reported(client, table, lambda found: found["by the table"]["rolls"] == 1)
    answer = await client.get(
        f"/api/tables/{table['id']}/events?after=3", headers=bearer(table["gm_token"])
    )
    (entered,) = (await answer.json())["events"]
    assert entered["event"]["roll"]["character"] == "jena"
    assert sorted(entered["event"]["roll"]["dice"]) == [3, 5]
    assert sorted(entered["event"]["dice_ids"]) == sorted([die_id(pixel), "godice-C0FFEE"])


async def test_a_claim_the_full_registry_refuses_is_the_configured_stations_notice(
    client: Client,
) -> None:
    table = await rcs_awaiting_rolls(client)
    full = {f"pixels-{n:08x}": {"owner": "guard", "name": "d6"} for n in range(MAX_DICE)}
    await register(client, table, {"dice": full, "claims": ["jena"]})
    air = Air()
    godice = air.add(SimulatedGoDice.make("C0FFEE"))
    async with configured(client, table, air):
        godice.roll(4)
        found = await reported(client, table, lambda found: found["by the table"]["notices"])
    (notice,) = found["by the table"]["notices"]
    assert notice.endswith(
        f"not registered: the server refused it (dice: a table registers at most {MAX_DICE} "
        "dice: forget one (null) first)"
    )
    assert found["dice"]["dice"] == full and found["dice"]["claims"] == ["jena"]  # unchanged


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
        status, listed = call(devices, token=table["gm_token"])
        assert (status, listed["devices"]) == (200, {})
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
    link = LocalLink(seize, table["id"], table["gm_token"])
    adapter = TrayAdapter(str(path), link, LocalRegistry(link))
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
