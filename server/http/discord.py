"""The routes of a table's Discord channel (``live/discord.py``): the GM sets the channel's
webhook, and each player links their own Discord id and chooses whether to be mentioned.

The webhook's URL holds the secret that posts to the channel: only the GM reads it back. A
player reads and changes only their own characters' links, and a change that reaches another's
is refused the same way whether that character is at the table or not (a hidden one included).
Both are kept as one table setting, changed from what was read, so a GM's console and a
player's phone changing it at once lose neither change."""

from __future__ import annotations

import json
from typing import Any

from aiohttp import web

from rules.roles import Role, Viewer
from server.errors import problem
from server.http.api import caller, game_of, json_body
from server.http.context import SEIZE, Seize
from server.http.routes import GM, Content, Route, refusals
from server.live.discord import SETTING, SettingError, checked_player, checked_webhook
from server.tables.games import Game

SWAPS = 8
"""Tries to change the setting while others change it."""


async def _asker(request: web.Request) -> tuple[Game, Viewer]:
    game = await game_of(request)
    viewer = (await caller(request, game)).viewer
    if viewer.role is Role.OVERLAY:
        message = "a table's Discord is set with the GM's token or a player's"
        raise problem(web.HTTPForbidden, "forbidden", message, rule="roles")
    return game, viewer


def _shown(seize: Seize, game: Game, kept: dict[str, Any], viewer: Viewer) -> dict[str, Any]:
    if viewer.is_gm:
        return {**kept, **seize.channels.status(game.id)}
    mine = {p: link for p, link in kept["players"].items() if p in viewer.participants}
    return {"webhook": None, "players": mine, "posting": kept["webhook"] is not None}


async def _changing(seize: Seize, table_id: str, change: Any) -> dict[str, Any]:
    """Apply ``change`` (the setting as read → as it is to be) from what is kept, again on
    what another change left if one came in between."""
    for _ in range(SWAPS):
        before = await seize.store.setting(table_id, SETTING)
        current = await seize.channels.settings(table_id)
        after = change(current)
        if await seize.store.swap_setting(table_id, SETTING, before, json.dumps(after)):
            seize.channels.changed(table_id)
            return dict(after)
    raise problem(web.HTTPConflict, "stale", "the table's Discord is changing: try again")


def _refused(error: SettingError) -> web.HTTPException:
    return problem(web.HTTPUnprocessableEntity, "invalid", str(error), field=error.field)


async def read(request: web.Request) -> web.Response:
    game, viewer = await _asker(request)
    seize = request.app[SEIZE]
    return web.json_response(_shown(seize, game, await seize.channels.settings(game.id), viewer))


async def set_webhook(request: web.Request) -> web.Response:
    game, viewer = await _asker(request)
    if not viewer.is_gm:
        raise problem(
            web.HTTPForbidden, "forbidden", "only the GM sets the Discord webhook", rule="roles"
        )
    seize = request.app[SEIZE]
    body = await json_body(request)
    if not isinstance(body, dict) or set(body) != {"webhook"}:
        raise _refused(SettingError("body", "an object with webhook: a URL, or null"))
    try:
        webhook = checked_webhook(body["webhook"], seize.settings.discord_api)
    except SettingError as error:
        raise _refused(error) from None
    after = await _changing(seize, game.id, lambda kept: {**kept, "webhook": webhook})
    return web.json_response(_shown(seize, game, after, viewer))


async def link_player(request: web.Request) -> web.Response:
    game, viewer = await _asker(request)
    seize = request.app[SEIZE]
    participant = request.match_info["participant"]
    if not viewer.is_gm and participant not in viewer.participants:
        message = "a player links their own characters only"
        raise problem(web.HTTPForbidden, "forbidden", message, rule="roles", field="participant")
    if participant not in game.system.participants(game.table.state):
        raise problem(web.HTTPNotFound, "not_found", "no one of that name is at this table")
    try:
        link = checked_player(await json_body(request))
    except SettingError as error:
        raise _refused(error) from None

    def linked(kept: dict[str, Any]) -> dict[str, Any]:
        players = {p: v for p, v in kept["players"].items() if p != participant}
        if link["discord_id"] is not None:
            players[participant] = link
        return {**kept, "players": players}

    after = await _changing(seize, game.id, linked)
    return web.json_response(_shown(seize, game, after, viewer))


_LINK = {
    "type": "object",
    "properties": {
        "discord_id": {"type": ["string", "null"], "pattern": "^[0-9]{17,20}$"},
        "mention": {"type": "boolean"},
    },
    "additionalProperties": False,
}
_DISCORD = {
    "type": "object",
    "properties": {
        "webhook": {"type": ["string", "null"], "description": "The GM's only"},
        "players": {"type": "object", "additionalProperties": _LINK},
        "posting": {"type": "boolean", "description": "A player's: whether the table posts"},
        "queued": {"type": "integer"},
        "posted": {"type": "integer"},
        "dropped": {"type": "integer"},
        "notice": {"type": ["string", "null"], "description": "What the GM should know"},
    },
}
_WEBHOOK = {
    "type": "object",
    "properties": {"webhook": {"type": ["string", "null"]}},
    "required": ["webhook"],
    "additionalProperties": False,
}
PLAYERS = frozenset({Role.GM, Role.PLAYER})
_CHANGES = refusals(400, 401, 403, 404, 408, 409, 413, 422, 429)

ROUTES = [
    Route(
        "GET",
        "/api/tables/{table_id}/discord",
        read,
        "The table's Discord: its webhook, every player's link and how posting goes (GM); the "
        "player's own links and whether the table posts (a player)",
        "readDiscord",
        {200: Content("The table's Discord", _DISCORD), **refusals(401, 403, 404, 429)},
        roles=PLAYERS,
    ),
    Route(
        "PUT",
        "/api/tables/{table_id}/discord",
        set_webhook,
        "Set the channel webhook the table posts its turns and rounds to, or null to stop (GM)",
        "setDiscordWebhook",
        {200: Content("The table's Discord", _DISCORD), **_CHANGES},
        body=Content("The webhook's URL, or null", _WEBHOOK),
        roles=GM,
        largest=1024,
    ),
    Route(
        "PUT",
        "/api/tables/{table_id}/discord/players/{participant}",
        link_player,
        "Link a character's player to their Discord id, mentioned on its turn if they choose "
        "(GM, or the character's player)",
        "linkDiscordPlayer",
        {200: Content("The table's Discord, as the caller reads it", _DISCORD), **_CHANGES},
        body=Content("The Discord user id (null unlinks) and whether to mention", _LINK),
        roles=PLAYERS,
        largest=1024,
    ),
]
