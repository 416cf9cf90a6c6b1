"""Devices at a table (card readers, dice trays) report how they are, for the GM's console.

A device's state is now, not history: a device reports again whenever it changes or reconnects,
and only its latest report is kept. The reports are kept in the store, not in a server's memory:
several servers (workers sharing a port, or servers on several hosts) share one database, and a
device's report and the console's read of it may each reach any of them. A server runs for
weeks, so each table keeps at most ``MAX_DEVICES`` reports of at most ``MAX_REPORT`` bytes: a new
device past the limit makes room by forgetting the device that reported longest ago (an adapter
renamed, a tray long unplugged). The table's die registry is kept among the reports, under
``REGISTRY``, with a bound of its own (``server/devices/dice.py``): the devices' limit neither
counts nor forgets it, so a table's many devices never cost it its dice' owners.
"""

from __future__ import annotations

import json
from collections.abc import Collection
from typing import Any

from aiohttp import web

from server.errors import problem
from server.http.api import caller, game_of, json_body
from server.http.context import SEIZE, Seize
from server.http.reading import shape_fault
from server.http.routes import GM, Content, Route, refusals
from server.tables.access import Principal
from server.tables.games import Game

MAX_DEVICES = 16
"""Reports a table keeps: more readers and trays than a table has hands."""
MAX_REPORT = 2048
"""Bytes of one report as JSON: an adapter's report is a few hundred."""
REGISTRY = "dice"
"""The name the die registry is kept under, which no device reports as."""


class ReportError(ValueError):
    """A report the table will not keep, ``field`` naming the part at fault; nothing is
    changed."""

    def __init__(self, message: str, field: str = "body") -> None:
        super().__init__(message)
        self.field = field


async def gm_only(request: web.Request) -> tuple[Game, Principal]:
    """The table and its GM calling; anyone else is refused."""
    game = await game_of(request)
    principal = await caller(request, game)
    if not principal.viewer.is_gm:
        raise problem(
            web.HTTPForbidden, "forbidden", "devices report with the GM's token", rule="roles"
        )
    return game, principal


async def report(request: web.Request) -> web.Response:
    table_id = (await gm_only(request))[0].id
    body = await json_body(request)
    if not isinstance(body, dict) or len(request.match_info["device"]) > 40:
        raise problem(
            web.HTTPUnprocessableEntity, "invalid", "a device reports a JSON object", field="body"
        )
    try:
        await record(request.app[SEIZE], table_id, request.match_info["device"], body)
    except ReportError as refused:
        raise problem(
            web.HTTPUnprocessableEntity, "invalid", str(refused), field=refused.field
        ) from None
    return web.json_response({"ok": True})


async def record(seize: Seize, table_id: str, device: str, status: dict[str, Any]) -> None:
    """Keep a device's latest report, from the network or from a device inside the server;
    raises ReportError for one larger than ``MAX_REPORT`` or holding a number JSON has not (a
    sensor's NaN), or reporting under the registry's name, and then stores nothing."""
    if device == REGISTRY:
        raise ReportError(f"{REGISTRY!r} is the die registry's name: name the device otherwise",
                          "device")  # fmt: skip
    fault = shape_fault(status, "body")
    if fault is not None:
        raise ReportError(": ".join(fault))
    report = json.dumps(status, default=str)
    if len(report) > MAX_REPORT:
        raise ReportError(f"a device's report is at most {MAX_REPORT} bytes of JSON")
    await seize.store.save_device_report(
        table_id, device, report, keep=MAX_DEVICES, spared=REGISTRY
    )


async def listed(request: web.Request) -> web.Response:
    table_id = (await gm_only(request))[0].id
    reports = await request.app[SEIZE].store.device_reports(table_id)
    devices = {
        device: {**json.loads(report), "reported": reported} for device, report, reported in reports
    }
    return web.json_response({"devices": devices, "rollers": rollers(reports)})


def rollers(
    reports: list[tuple[str, str, float]], mine: Collection[str] | None = None
) -> dict[str, Any]:
    """Who can send a roll without anyone typing it, as the devices last reported: whether a
    dice tray is connected (it rolls for anyone), and the owners of a connected die of their
    own (at a die station, or paired to their player's phone). The pages say so where they ask
    for a roll, and offer "the tray rolls" only where something can. A player (``mine``, their
    characters) hears of their own dice alone: another's, a hidden character's above all, are
    not theirs to know of."""
    status = {device: json.loads(report) for device, report, _ in reports}
    kinds = [one for one in status.values() if isinstance(one, dict)]
    # A report is any JSON object its device chose: only the shapes the adapters send count.
    met = {
        die["id"]
        for station in kinds
        if station.get("kind") == "dice station" and isinstance(station.get("dice"), list)
        for die in station["dice"]
        if isinstance(die, dict) and isinstance(die.get("id"), str) and die.get("connected")
    }
    book = status.get(REGISTRY, {}).get("dice", {})
    owners = {
        entry["owner"]
        for die, entry in book.items()
        if entry.get("owner") and (die in met or (entry.get("phone") or {}).get("connected"))
    }
    tray = any(one.get("kind") == "dice tray" and one.get("connected") is True for one in kinds)
    return {"tray": tray, "dice": sorted(owners if mine is None else owners & set(mine))}


ROLLERS_SCHEMA = {
    "type": "object",
    "description": "Who can send a roll without anyone typing it: a connected dice tray, and "
    "the owners of a connected die of their own (a player: their own characters alone)",
    "properties": {
        "tray": {"type": "boolean"},
        "dice": {"type": "array", "items": {"type": "string"}},
    },
    "required": ["tray", "dice"],
}


ROUTES = [
    Route(
        "PUT",
        "/api/tables/{table_id}/devices/{device}",
        report,
        "A device's report of how it is (GM)",
        "reportDevice",
        {
            200: Content("Kept", {"type": "object", "properties": {"ok": {"const": True}}}),
            **refusals(400, 401, 403, 404, 408, 413, 422, 429),
        },
        body=Content("How the device is: a JSON object", {"type": "object"}),
        roles=GM,
        largest=2 * MAX_REPORT,  # room for a report's JSON laid out with spaces
    ),
    Route(
        "GET",
        "/api/tables/{table_id}/devices",
        listed,
        "Every device's latest report (GM)",
        "readDevices",
        {
            200: Content(
                "Each device's report, and when it came",
                {
                    "type": "object",
                    "properties": {"devices": {"type": "object"}, "rollers": ROLLERS_SCHEMA},
                    "required": ["devices", "rollers"],
                },
            ),
            **refusals(401, 403, 404, 429),
        },
        roles=GM,
    ),
]
