"""The Owlbear Rodeo extension Seize serves itself: its manifest, its pages and its icon.

Owlbear installs an extension from its manifest's URL, fetches the manifest and icon from its own
origin, and runs the extension's pages in sandboxed iframes on its own pages. These routes, and
only these, say that Owlbear may frame them (``frame-ancestors``) and load them cross-origin
(``Cross-Origin-Resource-Policy``); every other page keeps the policy it had, so that no other
site may frame the console or a player's page because Owlbear may frame the popover.

The pages load the Owlbear SDK as published, from ``server/static/vendor`` (``lock.json`` pins
it). The published SDK is a folder of ES modules that import one another without file
extensions and name their dependencies bare, as a bundler expects; a browser resolves such
imports only through an import map, which is written here from the vendored files themselves,
so nothing is built or fetched at install or run time.
"""

from __future__ import annotations

import json
from typing import Any

from aiohttp import web

from server.http.pages import STATIC
from server.http.routes import Content, Route
from server.vtt import base_url, version

OWLBEAR = STATIC / "owlbear"
VENDOR = STATIC / "vendor"
SDK = "owlbear-rodeo-sdk"
"""The SDK's folder under the vendored files (lock.json's ``served``)."""

OWLBEAR_ORIGINS = ("https://www.owlbear.rodeo", "https://owlbear.rodeo")
FRAMED = {
    "Content-Security-Policy": "frame-ancestors 'self' " + " ".join(OWLBEAR_ORIGINS),
    "Cross-Origin-Resource-Policy": "cross-origin",
    "Cache-Control": "no-cache",
}
"""What Owlbear needs of the extension's own routes, on top of the cross-origin answers every
route already gives (``server.run.app.cross_origin``)."""

BARE = {
    "@owlbear-rodeo/sdk": f"/static/vendor/{SDK}/index.js",
    "events": "/static/owlbear/events.js",
    "immer": "/static/vendor/immer.production.mjs",
    "js-base64": "/static/vendor/js-base64.mjs",
    "uuid": "/static/vendor/uuid/index.js",
}
"""The bare names the SDK imports, and the files that answer them. ``events`` is Node's event
emitter, published only as CommonJS, which no browser imports: Seize's own small module stands
in for the part of it the SDK uses (docs/owlbear.md)."""


def import_map() -> dict[str, dict[str, str]]:
    """The bare names, and each SDK module under the extension-less name its siblings import it
    by (a folder's ``index.js`` under the folder's name too, as a bundler resolves it)."""
    root = VENDOR / SDK
    prefix = f"/static/vendor/{SDK}"
    modules: dict[str, str] = {}
    for path in sorted(root.rglob("*.js")):
        served = f"{prefix}/{path.relative_to(root).as_posix()}"
        modules[served.removesuffix(".js")] = served
        if path.name == "index.js" and path.parent != root:
            modules[f"{prefix}/{path.parent.relative_to(root).as_posix()}"] = served
    return {"imports": {**BARE, **modules}}


def manifest(base: str) -> dict[str, Any]:
    return {
        "name": "Seize",
        "version": version(),
        "manifest_version": 1,
        "author": "Seize",
        "icon": f"{base}/owlbear/icon.svg",
        "description": "Initiative from a Seize table: Four Color Panels, hidden awareness and "
        "seizing the initiative, on the map's tokens.",
        "homepage_url": f"{base}/console",
        "background_url": f"{base}/owlbear/background.html",
        "action": {
            "title": "Seize",
            "icon": f"{base}/owlbear/icon.svg",
            "popover": f"{base}/owlbear/popover.html",
            "height": 420,
            "width": 340,
        },
    }


def _framed(response: web.Response) -> web.Response:
    response.headers.update(FRAMED)
    return response


async def owlbear_manifest(request: web.Request) -> web.Response:
    return _framed(web.json_response(manifest(base_url(request))))


def _page(name: str) -> web.Response:
    """One of the extension's pages, the import map written into its head."""
    html = (OWLBEAR / name).read_text(encoding="utf-8")
    mapped = f'<script type="importmap">{json.dumps(import_map())}</script>'
    return _framed(
        web.Response(text=html.replace("<!-- importmap -->", mapped, 1), content_type="text/html")
    )


async def popover(request: web.Request) -> web.Response:
    """What the extension's button opens: the table in the game's words, for the viewer's role."""
    return _page("popover.html")


async def background(request: web.Request) -> web.Response:
    """What runs while the room is open, popover or not: the context menu, and the elected GM's
    client writing the order onto the tokens."""
    return _page("background.html")


async def icon(request: web.Request) -> web.Response:
    return _framed(
        web.Response(body=(OWLBEAR / "icon.svg").read_bytes(), content_type="image/svg+xml")
    )


PAGE = {200: Content("The page", media="text/html")}

ROUTES = [
    Route(
        "GET",
        "/owlbear/manifest.json",
        owlbear_manifest,
        "The Owlbear Rodeo extension's manifest, this server's address written in",
        "owlbearManifest",
        {200: Content("The manifest", {"type": "object"})},
    ),
    Route(
        "GET",
        "/owlbear/popover.html",
        popover,
        "The Owlbear extension's popover",
        "owlbearPopover",
        PAGE,
    ),
    Route(
        "GET",
        "/owlbear/background.html",
        background,
        "The Owlbear extension's background page",
        "owlbearBackground",
        PAGE,
    ),
    Route(
        "GET",
        "/owlbear/icon.svg",
        icon,
        "The Owlbear extension's icon",
        "owlbearIcon",
        {200: Content("The icon", media="image/svg+xml")},
    ),
]
