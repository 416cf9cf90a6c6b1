"""The routes of Web Push (``live/push.py``): the table's public VAPID key, and a player's
subscriptions, which belong to the grant (the token) the player's page came in with."""

from __future__ import annotations

import json
from typing import Any

from aiohttp import web

from rules.roles import Role
from server.errors import problem
from server.http.api import caller, game_of, json_body
from server.http.context import SEIZE
from server.http.routes import Content, Route, refusals
from server.live.push import (
    SUBSCRIBED,
    SubscriptionError,
    checked_subscription,
    reached,
    subscribed,
)
from server.tables.access import Principal
from server.tables.games import Game

SWAPS = 8


NOT_A_PLAYER = "a player's page subscribes to pushes, with its own token"


async def _player(request: web.Request) -> tuple[Game, Principal]:
    game = await game_of(request)
    principal = await caller(request, game)
    if principal.viewer.role is not Role.PLAYER:
        raise problem(web.HTTPForbidden, "forbidden", NOT_A_PLAYER, rule="roles")
    return game, principal


async def key(request: web.Request) -> web.Response:
    """A player's page: the key to subscribe with. The GM's console: how many devices each
    character's players have subscribed and are still pushed to, which is who a push
    reaches."""
    game = await game_of(request)
    principal = await caller(request, game)
    seize = request.app[SEIZE]
    if principal.viewer.is_gm:
        counts: dict[str, int] = {}
        for grant in (await seize.pushes.subscriptions(game.id)).values():
            for participant in grant["participants"]:
                counts[participant] = counts.get(participant, 0) + len(reached(grant))
        return web.json_response({"subscribed": counts})
    if principal.viewer.role is not Role.PLAYER:
        raise problem(web.HTTPForbidden, "forbidden", NOT_A_PLAYER, rule="roles")
    return web.json_response({"public_key": (await seize.pushes.keys(game.id))["public"]})


async def _change(
    request: web.Request, game: Game, principal: Principal, sub: dict[str, Any] | None
) -> int:
    """Add ``sub`` to the caller's grant, or (None) forget the grant's subscriptions; how
    many the grant keeps after, retired ones with them: the count is what the player did,
    never how an endpoint answered."""
    seize = request.app[SEIZE]
    grant = principal.token_hash
    for _ in range(SWAPS):
        before = await seize.store.setting(game.id, SUBSCRIBED)
        kept: dict[str, Any] = json.loads(before) if before else {}
        if sub is None:
            kept.pop(grant.hex(), None)
        else:
            kept = subscribed(kept, grant, principal.viewer, sub)
        if await seize.store.swap_setting(game.id, SUBSCRIBED, before, json.dumps(kept)):
            seize.pushes.changed(game.id)
            return len(kept.get(grant.hex(), {}).get("subscriptions", []))
    raise problem(web.HTTPConflict, "stale", "the subscriptions are changing: try again")


async def subscribe(request: web.Request) -> web.Response:
    """The caller and the table first, as on every route: a body is read only from a player
    who may subscribe."""
    game, principal = await _player(request)
    try:
        sub = checked_subscription(await json_body(request), request.app[SEIZE].outbound)
    except SubscriptionError as refused:
        raise problem(
            web.HTTPUnprocessableEntity, "invalid", str(refused), field=refused.field
        ) from None
    return web.json_response({"subscriptions": await _change(request, game, principal, sub)})


async def unsubscribe(request: web.Request) -> web.Response:
    game, principal = await _player(request)
    return web.json_response({"subscriptions": await _change(request, game, principal, None)})


_KEY = {
    "type": "object",
    "properties": {
        "public_key": {"type": "string", "description": "A player's: the applicationServerKey"},
        "subscribed": {
            "type": "object",
            "additionalProperties": {"type": "integer"},
            "description": "The GM's: each character's subscribed devices",
        },
    },
}
_SUBSCRIPTION = {
    "type": "object",
    "properties": {
        "endpoint": {"type": "string"},
        "keys": {
            "type": "object",
            "properties": {"p256dh": {"type": "string"}, "auth": {"type": "string"}},
            "required": ["p256dh", "auth"],
        },
    },
    "required": ["endpoint", "keys"],
}
_KEPT = {"type": "object", "properties": {"subscriptions": {"type": "integer"}}}
PLAYER = frozenset({Role.PLAYER})
_CHANGES = refusals(400, 401, 403, 404, 408, 409, 413, 422, 429)
_GONE = refusals(401, 403, 404, 409, 429)

ROUTES = [
    Route(
        "GET",
        "/api/tables/{table_id}/push",
        key,
        "The table's VAPID public key, the applicationServerKey a player's page subscribes "
        "with (a player); each character's subscribed devices (GM)",
        "readPushKey",
        {200: Content("The key, or who is subscribed", _KEY), **refusals(401, 403, 404, 429)},
        roles=frozenset({Role.GM, Role.PLAYER}),
    ),
    Route(
        "PUT",
        "/api/tables/{table_id}/push",
        subscribe,
        "Keep a browser's push subscription for the player's grant: pushed on their alerts "
        "until the grant is revoked (a player)",
        "subscribePush",
        {200: Content("How many the grant keeps", _KEPT), **_CHANGES},
        body=Content("A PushSubscription, as its toJSON() gives it", _SUBSCRIPTION),
        roles=PLAYER,
        largest=2048,
    ),
    Route(
        "DELETE",
        "/api/tables/{table_id}/push",
        unsubscribe,
        "Forget the grant's push subscriptions (a player)",
        "unsubscribePush",
        {200: Content("How many the grant keeps: none", _KEPT), **_GONE},
        roles=PLAYER,
    ),
]
