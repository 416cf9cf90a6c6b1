"""Devices at a table (card readers, dice trays) report how they are, for the GM's console.

The reports live in memory only: a device's state is now, not history, and a device reports
again whenever it changes or reconnects.
"""

from __future__ import annotations

import time
from typing import Any

from aiohttp import web

from server.api import caller, game_of, json_body
from server.context import SEIZE, Seize
from server.errors import problem

routes = web.RouteTableDef()


def _gm_only(request: web.Request) -> str:
    game = game_of(request)
    if not caller(request, game).viewer.is_gm:
        raise problem(
            web.HTTPForbidden, "forbidden", "devices report with the GM's token", rule="roles"
        )
    return game.id


@routes.put("/api/tables/{table_id}/devices/{device}")
async def report(request: web.Request) -> web.Response:
    table_id = _gm_only(request)
    body = await json_body(request)
    if not isinstance(body, dict) or len(request.match_info["device"]) > 40:
        raise problem(
            web.HTTPUnprocessableEntity, "invalid", "a device reports a JSON object", field="body"
        )
    record(request.app[SEIZE], table_id, request.match_info["device"], body)
    return web.json_response({"ok": True})


def record(seize: Seize, table_id: str, device: str, status: dict[str, Any]) -> None:
    """Keep a device's latest report, from the network or from a device inside the server."""
    seize.devices.setdefault(table_id, {})[device] = {**status, "reported": time.time()}


@routes.get("/api/tables/{table_id}/devices")
async def listed(request: web.Request) -> web.Response:
    table_id = _gm_only(request)
    return web.json_response({"devices": request.app[SEIZE].devices.get(table_id, {})})
