"""Handing a table to other screens: a player's phone, a stream's browser source, the GM's
second device.

Tokens are stored only as hashes, so a link cannot be shown twice: each hand-off mints a fresh
token and answers with its link and a QR code of it, drawn here as SVG (no network, no service
sees the token). A new overlay link revokes every older one, so a link that leaked off stream
stops working the moment the GM shows a new one.

A GM link is handed to a device the GM names ("Streaming PC", "Co-GM tablet"). Several GMs'
screens run one table together, so adding a device revokes nothing: the console lists the
devices, when each last followed the table, and revokes any one of them.
"""

from __future__ import annotations

import io
from typing import Annotated
from urllib.parse import quote, urlsplit

import segno
from aiohttp import web
from pydantic import BaseModel, ConfigDict, Field, StringConstraints, ValidationError

from rules.roles import GM as GM_VIEWER
from rules.roles import OVERLAY
from server.errors import problem
from server.http import reached
from server.http.api import caller, game_of, invalid, json_answer, json_body
from server.http.context import SEIZE
from server.http.routes import GM, Content, Route, refusals
from server.store import GmDevice
from server.tables.access import GM_DEVICE_LABEL, OVERLAY_LABEL, Principal, mint, token_row
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


async def _gm_game(request: web.Request) -> tuple[Game, Principal]:
    game = await game_of(request)
    principal = await caller(request, game)
    if not principal.viewer.is_gm:
        raise problem(web.HTTPForbidden, "forbidden", "only the GM hands out links", rule="roles")
    return game, principal


DEFAULT_DEVICE = "Another device"
FIRST_NAMES = {"gm": "Where the table was made", "demo-gm": "The demo's GM link"}
"""The names of the GM tokens that were not handed to a named device: the table's own, and the
demo's (the GM links of before named devices were named "GM link" when the store migrated)."""


def _answer(url: str, trust: str | None = None, **more: str) -> web.Response:
    """The link and its QR code, and ``more``; with ``trust``, the page where a phone trusts
    the table's own certificate first (``seize serve --share lan-ca``), and its QR code."""
    answer: dict[str, object] = {"url": url, "svg": qr_svg(url), **more}
    if trust is not None:
        answer["trust"] = {"url": trust, "svg": qr_svg(trust)}
    return web.json_response(answer, status=201)


def _trust(request: web.Request) -> str | None:
    """Under ``--share lan-ca``, the plain-http page beside the server (on the next port)
    where a phone trusts the table's certificate before it opens an https link."""
    settings = request.app[SEIZE].settings
    if settings.share != "lan-ca" or not settings.port:
        return None
    host = urlsplit(reached.base(request)).hostname
    return f"http://{host}:{settings.port + 1}/" if host else None


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
    return _answer(
        f"{reached.base(request)}/play/{quote(game.id)}?token={quote(token)}", _trust(request)
    )


def console_url(base: str, table_id: str, token: str) -> str:
    """The GM console's link: the token in the fragment, which a browser never sends."""
    return f"{base}/console/{quote(table_id)}#token={quote(token)}"


DeviceName = Annotated[str, StringConstraints(strip_whitespace=True, min_length=1, max_length=80)]


class NewGmDevice(BaseModel):
    """``POST /api/tables/{id}/handoff/gm``: the device the link is for."""

    model_config = ConfigDict(extra="forbid")

    name: DeviceName = DEFAULT_DEVICE


class GmDeviceShown(BaseModel):
    id: str = Field(description="What revokes it: DELETE …/handoff/gm/{id}")
    name: str
    made: float = Field(description="When the link was made, in seconds since the epoch")
    seen: float | None = Field(
        description="When the device last began to follow the table (null: never yet)"
    )
    connected: bool = Field(description="Following the table now, through this server")
    this: bool = Field(description="The device asking")


class GmDevices(BaseModel):
    devices: list[GmDeviceShown]


def device_id(token_hash: bytes) -> str:
    """A device's name in the API: the start of its token's hash, which tells nothing of the
    token (the hash of 256 random bits) and is unique within a table."""
    return token_hash[:8].hex()


def _name(device: GmDevice) -> str:
    return device.name or FIRST_NAMES.get(device.label, device.label)


async def gm_link(request: web.Request) -> web.Response:
    """A fresh GM link for a named device, and its QR code. It revokes nothing: the devices
    already running the table go on."""
    game, _ = await _gm_game(request)
    try:
        spec = NewGmDevice.model_validate(await json_body(request) or {})
    except ValidationError as error:
        raise invalid(error) from None
    token = mint()
    row = token_row(token, game.id, GM_VIEWER, GM_DEVICE_LABEL, spec.name)
    await request.app[SEIZE].store.add_tokens([row])
    # The device's id, as the list names it: a console shows the link only while it stands.
    return _answer(
        console_url(reached.base(request), game.id, token),
        _trust(request),
        device=device_id(row.hash),
    )


async def gm_devices(request: web.Request) -> web.Response:
    """The devices that hold a GM link of the table, the oldest first."""
    game, principal = await _gm_game(request)
    seize = request.app[SEIZE]
    connected = seize.hub.token_hashes()
    shown = [
        GmDeviceShown(
            id=device_id(device.hash),
            name=_name(device),
            made=device.made,
            seen=device.seen,
            connected=device.hash in connected,
            this=device.hash == principal.token_hash,
        )
        for device in await seize.store.gm_devices(game.id)
    ]
    return json_answer(GmDevices(devices=shown).model_dump())


async def revoke_gm_device(request: web.Request) -> web.Response:
    """Revoke one device's GM link: it stops opening the table, and the consoles that follow
    with it are told so and closed, on every server (``server/live/revocation.py``)."""
    game, _ = await _gm_game(request)
    seize = request.app[SEIZE]
    wanted = request.match_info["device"]
    found = [d for d in await seize.store.gm_devices(game.id) if device_id(d.hash) == wanted]
    if not found or not await seize.revoke_one(game.id, found[0].hash):
        raise problem(
            web.HTTPNotFound, "not_found", "no GM device of this table has that id", field="device"
        )
    return web.Response(status=204)


async def overlay_link(request: web.Request) -> web.Response:
    """A fresh overlay link and its QR code; every older overlay link stops working."""
    game, _ = await _gm_game(request)
    seize = request.app[SEIZE]
    await seize.revoke(game.id, OVERLAY_LABEL)
    token = mint()
    await seize.store.add_tokens([token_row(token, game.id, OVERLAY, OVERLAY_LABEL)])
    return _answer(f"{reached.base(request)}/overlay/{quote(game.id)}?token={quote(token)}")


def _link(**more: dict[str, str]) -> dict[int, Content]:
    """A minted link's answer: its URL, its QR code, ``more``, and under ``--share lan-ca``
    the page where a phone trusts the table's certificate first."""
    trust = {
        "type": "object",
        "description": "Under --share lan-ca: the page where a phone trusts the table's "
        "certificate first, and its QR code",
        "properties": {"url": {"type": "string"}, "svg": {"type": "string"}},
        "required": ["url", "svg"],
    }
    return {
        201: Content(
            "Minted",
            {
                "type": "object",
                "properties": {
                    "url": {"type": "string"},
                    "svg": {"type": "string"},
                    "trust": trust,
                    **more,
                },
                "required": ["url", "svg", *more],
            },
        ),
        **refusals(401, 403, 404, 429),
    }


LINK = _link()

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
        "A fresh GM link for a named device, and its QR code; it revokes nothing (GM)",
        "handGm",
        {
            **_link(device={"type": "string", "description": "The device's id, as listed"}),
            **refusals(400, 408, 413, 422),
        },
        body=Content("The device's name (optional)", NewGmDevice),
        roles=GM,
    ),
    Route(
        "GET",
        "/api/tables/{table_id}/handoff/gm",
        gm_devices,
        "The devices holding a GM link of the table (GM)",
        "listGmDevices",
        {200: Content("The GM devices", GmDevices), **refusals(401, 403, 404, 429)},
        roles=GM,
    ),
    Route(
        "DELETE",
        "/api/tables/{table_id}/handoff/gm/{device}",
        revoke_gm_device,
        "Revoke one device's GM link (GM)",
        "revokeGmDevice",
        {204: Content("Revoked", media=None), **refusals(401, 403, 404, 429)},
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
