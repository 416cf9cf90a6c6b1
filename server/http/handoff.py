"""Handing a table to other screens: a player's phone, a stream's browser source, the GM's
second device.

Tokens are stored only as hashes, so a link cannot be shown twice: each hand-off mints a fresh
token and answers with its link and a QR code of it, drawn here as SVG (no network, no service
sees the token). A new overlay link revokes every older one, so a link that leaked off stream
stops working the moment the GM shows a new one.
"""

from __future__ import annotations

import io
from urllib.parse import quote

import segno
from aiohttp import web

from rules.roles import GM as GM_VIEWER
from rules.roles import OVERLAY
from server.errors import problem
from server.http.api import caller, game_of
from server.http.context import SEIZE
from server.http.routes import GM, Content, Route, refusals
from server.tables.access import GM_LINK_LABEL, OVERLAY_LABEL, Principal, mint, token_row
from server.tables.games import Game


def qr_svg(url: str) -> str:
    """The link as an SVG QR code, dark on light, with the quiet zone phones need to read it."""
    out = io.BytesIO()
    segno.make(url, error="m").save(
        out,
        kind="svg",
        scale=4,
        border=4,
        xmldecl=False,
        svgns=True,
        dark="#000",
        light="#fff",
        title="QR code of the link",
    )
    return out.getvalue().decode()


def _base(request: web.Request) -> str:
    """Where other devices reach this server: the configured public address, else the one the
    GM's own browser used (a tablet on the table's network shares it with the phones)."""
    public = request.app[SEIZE].settings.public_url
    return (public or f"{request.scheme}://{request.host}").rstrip("/")


async def _gm_game(request: web.Request) -> tuple[Game, Principal]:
    game = await game_of(request)
    principal = await caller(request, game)
    if not principal.viewer.is_gm:
        raise problem(web.HTTPForbidden, "forbidden", "only the GM hands out links", rule="roles")
    return game, principal


def _answer(url: str) -> web.Response:
    return web.json_response({"url": url, "svg": qr_svg(url)}, status=201)


async def player_link(request: web.Request) -> web.Response:
    """A fresh player link for one participant's phone, and its QR code."""
    game, _ = await _gm_game(request)
    participant = request.match_info["participant"]
    if participant not in game.system.participants(game.table.state):
        raise problem(
            web.HTTPNotFound, "not_found", "no one of that name is at this table: add them first"
        )
    token = await request.app[SEIZE].tables.mint_player(
        game, frozenset({participant}), f"phone of {participant}"
    )
    return _answer(f"{_base(request)}/play/{quote(game.id)}?token={quote(token)}")


def console_url(base: str, table_id: str, token: str) -> str:
    """The GM console's link: the token in the fragment, which a browser never sends."""
    return f"{base}/console/{quote(table_id)}#token={quote(token)}"


async def gm_link(request: web.Request) -> web.Response:
    """A fresh GM link, to run the table from another device, and its QR code; every older GM
    link stops working, but the one asking: the screen that makes a link goes on, so a console
    opened from a GM link can hand the table back (nor does the token the table was created
    with)."""
    game, principal = await _gm_game(request)
    seize = request.app[SEIZE]
    await seize.revoke(game.id, GM_LINK_LABEL, keep=principal.token_hash)
    token = mint()
    await seize.store.add_tokens([token_row(token, game.id, GM_VIEWER, GM_LINK_LABEL)])
    return _answer(console_url(_base(request), game.id, token))


async def overlay_link(request: web.Request) -> web.Response:
    """A fresh overlay link and its QR code; every older overlay link stops working."""
    game, _ = await _gm_game(request)
    seize = request.app[SEIZE]
    await seize.revoke(game.id, OVERLAY_LABEL)
    token = mint()
    await seize.store.add_tokens([token_row(token, game.id, OVERLAY, OVERLAY_LABEL)])
    return _answer(f"{_base(request)}/overlay/{quote(game.id)}?token={quote(token)}")


LINK = {
    201: Content(
        "Minted",
        {
            "type": "object",
            "properties": {"url": {"type": "string"}, "svg": {"type": "string"}},
            "required": ["url", "svg"],
        },
    ),
    **refusals(401, 403, 404, 429),
}

ROUTES = [
    Route(
        "POST",
        "/api/tables/{table_id}/handoff/players/{participant}",
        player_link,
        "A fresh player link and its QR code (GM)",
        "handPlayer",
        LINK,
        roles=GM,
    ),
    Route(
        "POST",
        "/api/tables/{table_id}/handoff/gm",
        gm_link,
        "A fresh GM link, to run the table from another device, and its QR code; older GM "
        "links are revoked (GM)",
        "handGm",
        LINK,
        roles=GM,
    ),
    Route(
        "POST",
        "/api/tables/{table_id}/handoff/overlay",
        overlay_link,
        "A fresh overlay link and its QR code; older ones are revoked (GM)",
        "handOverlay",
        LINK,
        roles=GM,
    ),
]
