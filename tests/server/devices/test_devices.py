"""Device reports for the GM's console: kept per table, bounded in number and in size, so a
server that runs for weeks does not grow with every adapter ever named; kept in the store, so
servers sharing a database each show what a device reported to any of them."""

from __future__ import annotations

import asyncio
from typing import Any

from server.devices.reports import MAX_DEVICES, MAX_REPORT
from server.run.app import make_app
from server.settings import Settings
from tests.server.conftest import Client, bearer, new_table
from tests.server.databases import query


async def put(client: Client, table: dict[str, Any], device: str, body: Any) -> int:
    answer = await client.put(
        f"/api/tables/{table['id']}/devices/{device}",
        json=body,
        headers=bearer(table["gm_token"]),
    )
    return answer.status


async def listed(client: Client, table: dict[str, Any]) -> dict[str, Any]:
    answer = await client.get(
        f"/api/tables/{table['id']}/devices", headers=bearer(table["gm_token"])
    )
    devices: dict[str, Any] = (await answer.json())["devices"]
    return devices


async def test_a_table_keeps_the_devices_that_reported_latest(client: Client) -> None:
    table = await new_table(client, "awareness")
    other = await new_table(client, "awareness")
    assert await put(client, other, "tray", {"connected": True}) == 200
    for number in range(MAX_DEVICES):
        assert await put(client, table, f"tray{number}", {"connected": True}) == 200
    assert await put(client, table, "tray0", {"connected": False}) == 200  # reported again
    assert await put(client, table, "reader", {"connected": True}) == 200
    devices = await listed(client, table)
    assert len(devices) == MAX_DEVICES
    assert "tray1" not in devices  # the one that reported longest ago made room
    assert devices["tray0"]["connected"] is False and "reader" in devices
    assert list(await listed(client, other)) == ["tray"]  # another table's are its own


async def test_a_report_too_large_is_refused_and_changes_nothing(client: Client) -> None:
    table = await new_table(client, "awareness")
    assert await put(client, table, "tray", {"connected": True}) == 200
    answer = await client.put(
        f"/api/tables/{table['id']}/devices/tray",
        json={"connected": False, "asking": "x" * MAX_REPORT},
        headers=bearer(table["gm_token"]),
    )
    assert answer.status == 422
    refused = await answer.json()
    assert refused["field"] == "body" and str(MAX_REPORT) in refused["message"]
    assert (await listed(client, table))["tray"]["connected"] is True


async def test_servers_on_one_database_show_the_devices_reported_to_either(
    aiohttp_client: Any, settings: Settings
) -> None:
    """A device's report reaches one server and the console's read another: each shows every
    report, and the limits hold over both together."""
    first: Client = await aiohttp_client(make_app(settings))
    second: Client = await aiohttp_client(make_app(settings))
    table = await new_table(first, "awareness")
    assert await put(second, table, "tray", {"connected": True}) == 200
    assert (await listed(first, table))["tray"]["connected"] is True
    for number in range(MAX_DEVICES):
        server = first if number % 2 else second
        assert await put(server, table, f"reader{number}", {"connected": True}) == 200
    devices = await listed(first, table)
    assert devices == await listed(second, table)
    assert len(devices) == MAX_DEVICES and "tray" not in devices  # the longest ago made room
    assert list(devices) == [f"reader{number}" for number in range(MAX_DEVICES)]

    answer = await second.put(
        f"/api/tables/{table['id']}/devices/reader0",
        json={"connected": False, "asking": "x" * MAX_REPORT},
        headers=bearer(table["gm_token"]),
    )
    assert answer.status == 422 and (await answer.json())["field"] == "body"
    assert await listed(first, table) == devices  # nothing stored
    assert await query(settings.db, "select count(*) from device_reports") == [(MAX_DEVICES,)]


async def test_reports_sent_at_once_to_two_servers_keep_the_limit(
    aiohttp_client: Any, settings: Settings
) -> None:
    """Reports of new devices racing each other through both servers: each write forgets the
    devices beyond the limit in its own transaction, and none keeps one more than the limit by
    not yet seeing another's report."""
    first: Client = await aiohttp_client(make_app(settings))
    second: Client = await aiohttp_client(make_app(settings))
    table = await new_table(first, "awareness")
    sent = await asyncio.gather(
        *(
            put(first if number % 2 else second, table, f"tray{number}", {"connected": True})
            for number in range(3 * MAX_DEVICES)
        )
    )
    assert sent == [200] * (3 * MAX_DEVICES)
    assert len(await listed(second, table)) == MAX_DEVICES
    assert await query(settings.db, "select count(*) from device_reports") == [(MAX_DEVICES,)]
