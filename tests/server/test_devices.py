"""Device reports for the GM's console: kept per table, bounded in number and in size, so a
server that runs for weeks does not grow with every adapter ever named."""

from __future__ import annotations

from typing import Any

from server.devices import MAX_DEVICES, MAX_REPORT

from .conftest import Client, bearer, new_table


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
