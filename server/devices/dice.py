"""A table's die registry: which smart die (by its own id) belongs to which character, or to
the GM, and how the table takes its dice.

Players bring their own Bluetooth dice, and a roll must land on its owner's pending roll, not
on whoever happens to be next; so each die is registered to an owner, from the console or by
the first roll the page asks for (a claim: "roll the die you will use"). The registry is a
device report like any other (kept in the store, bounded in size, shared by every server on
the database), written only through this route, so that the die station and every console
read the same owners. It also holds the table's dice options: the window within which dice
rolled together are one roll, and whether the acting character's die blinks.
"""

from __future__ import annotations

import json
import re
from typing import Any

from aiohttp import web

from server.devices.reports import ReportError, gm_only, record
from server.errors import problem
from server.http.api import json_body
from server.http.context import SEIZE, Seize
from server.http.routes import GM, Content, Route, refusals

REGISTRY = "dice"
"""The device name the registry is kept under."""
MAX_DICE = 12
"""Dice a table registers: one or two for each player, and the GM's."""
DIE_ID = re.compile(r"[A-Za-z0-9:_-]{1,40}")
GM_OWNER = "gm"
DEFAULTS: dict[str, Any] = {"kind": "dice registry", "dice": {}, "claims": [], "window": 1.0,
                            "blink": True}  # fmt: skip


class RegistryError(ValueError):
    """A change the registry refuses; ``field`` names the part at fault, nothing is kept."""

    def __init__(self, field: str, message: str) -> None:
        super().__init__(message)
        self.field = field


async def registry(seize: Seize, table_id: str) -> dict[str, Any]:
    """The table's registry, with the defaults for what was never set."""
    for device, report, _ in await seize.store.device_reports(table_id):
        if device == REGISTRY:
            kept: dict[str, Any] = json.loads(report)
            return {**DEFAULTS, **kept}
    return dict(DEFAULTS)


def changed(current: dict[str, Any], change: Any, owners: set[str]) -> dict[str, Any]:
    """The registry after ``change``: ``dice`` sets (or, with null, forgets) each die named,
    ``claims`` replaces the owners waiting to claim a die with their next roll, ``window`` and
    ``blink`` set the options. Raises RegistryError naming the field at fault."""
    if not isinstance(change, dict) or not set(change) <= {"dice", "claims", "window", "blink"}:
        raise RegistryError("body", "an object of dice, claims, window and blink")
    after = {**current, "dice": dict(current["dice"])}
    for die, entry in _object(change.get("dice", {}), "dice").items():
        if not DIE_ID.fullmatch(die):
            raise RegistryError(f"dice.{die}", "a die's id is 1 to 40 letters, digits, : _ -")
        if entry is None:
            after["dice"].pop(die, None)
            continue
        fields = _object(entry, f"dice.{die}")
        owner, name = fields.get("owner"), fields.get("name", die)
        if not isinstance(owner, str) or owner not in owners:
            raise RegistryError(f"dice.{die}.owner", f"{owner!r} is no character of this table")
        if not isinstance(name, str) or not 0 < len(name) <= 40:
            raise RegistryError(f"dice.{die}.name", "a name of 1 to 40 characters")
        after["dice"][die] = {"owner": owner, "name": name}
    if len(after["dice"]) > MAX_DICE:
        raise RegistryError("dice", f"a table registers at most {MAX_DICE} dice")
    if "claims" in change:
        claims = change["claims"]
        if not isinstance(claims, list) or not all(
            isinstance(one, str) and one in owners for one in claims
        ):
            raise RegistryError("claims", "a list of the table's characters (or gm)")
        after["claims"] = list(dict.fromkeys(claims))
    if "window" in change:
        window = change["window"]
        if isinstance(window, bool) or not isinstance(window, int | float) or not 0 <= window <= 5:
            raise RegistryError("window", "seconds from 0 to 5")
        after["window"] = float(window)
    if "blink" in change:
        if not isinstance(change["blink"], bool):
            raise RegistryError("blink", "true or false")
        after["blink"] = change["blink"]
    return after


def _object(value: Any, field: str) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise RegistryError(field, "an object")
    return value


def owners(view: dict[str, Any]) -> set[str]:
    """Who may own a die at a table, from the GM's view: its characters (or members), and
    the GM."""
    people = view.get("characters") or view.get("members") or []
    return {one["id"] for one in people} | {GM_OWNER}


async def read(request: web.Request) -> web.Response:
    game, _ = await gm_only(request)
    return web.json_response(await registry(request.app[SEIZE], game.id))


async def change(request: web.Request) -> web.Response:
    game, principal = await gm_only(request)
    seize = request.app[SEIZE]
    view = game.table.view(principal.viewer).model_dump(mode="json")
    try:
        after = changed(await registry(seize, game.id), await json_body(request), owners(view))
        await record(seize, game.id, REGISTRY, after)
    except RegistryError as refused:
        raise problem(
            web.HTTPUnprocessableEntity, "invalid", str(refused), field=refused.field
        ) from None
    except ReportError as refused:
        raise problem(web.HTTPUnprocessableEntity, "invalid", str(refused), field="dice") from None
    return web.json_response(after)


_REGISTRY_SCHEMA = {
    "type": "object",
    "properties": {
        "dice": {"type": "object", "additionalProperties": {
            "type": "object", "properties": {"owner": {"type": "string"},
                                             "name": {"type": "string"}}}},
        "claims": {"type": "array", "items": {"type": "string"}},
        "window": {"type": "number"},
        "blink": {"type": "boolean"},
    },
}  # fmt: skip

ROUTES = [
    Route(
        "GET",
        "/api/tables/{table_id}/dice",
        read,
        "The table's die registry: each die's owner, the open claims, the dice options (GM)",
        "readDice",
        {200: Content("The registry", _REGISTRY_SCHEMA), **refusals(401, 403, 404, 429)},
        roles=GM,
    ),
    Route(
        "PUT",
        "/api/tables/{table_id}/dice",
        change,
        "Register dice to their owners, open claims, set the dice options (GM)",
        "changeDice",
        {
            200: Content("The registry after the change", _REGISTRY_SCHEMA),
            **refusals(400, 401, 403, 404, 408, 413, 422, 429),
        },
        body=Content(
            "What changes: dice (null forgets one), claims, window, blink", _REGISTRY_SCHEMA
        ),
        roles=GM,
        largest=4096,
    ),
]
