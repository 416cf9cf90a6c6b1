"""Pages the server serves itself: plain HTML, CSS and ES modules, no build step."""

from __future__ import annotations

import json
from importlib import resources
from pathlib import Path
from urllib.parse import quote

from aiohttp import web

from server.errors import problem
from server.http.routes import Content, Parameter, Route, refusals

STATIC = Path(str(resources.files("server").joinpath("static")))


def _page(name: str) -> web.Response:
    return web.Response(
        text=(STATIC / name).read_text(encoding="utf-8"),
        content_type="text/html",
        headers={"Cache-Control": "no-cache"},
    )


async def overlay(request: web.Request) -> web.Response:
    """The stream overlay; it asks for the table with the ``?token=`` it was loaded with."""
    return _page("overlay/overlay.html")


async def console(request: web.Request) -> web.Response:
    """The GM console, and its start page that creates a table."""
    return _page("console/console.html")


async def play(request: web.Request) -> web.Response:
    """A player's page; it asks for the table with the ``?token=`` it was given."""
    return _page("play/play.html")


async def manifest(request: web.Request) -> web.Response:
    """The player page's web app manifest, for one player's link: installed, the app opens the
    page it was installed from, that table with that token. Its ``start_url`` and ``id`` are
    that link, which the manifest every player page shares (``/static/play/``) cannot name:
    there, a ``start_url`` would open one page for every table and player, and none leaves
    Chrome, which asks for one, nothing to install."""
    token = request.query.get("token", "")
    if not token:
        raise problem(
            web.HTTPBadRequest,
            "malformed",
            "token: the player link's token, as the page was opened with",
            field="token",
        )
    shared = json.loads((STATIC / "play/manifest.webmanifest").read_text(encoding="utf-8"))
    start = f"/play/{quote(request.match_info['table_id'])}?token={quote(token)}"
    return web.json_response(
        {**shared, "id": start, "start_url": start},
        content_type="application/manifest+json",
        headers={"Cache-Control": "no-cache"},
    )


async def worker(request: web.Request) -> web.Response:
    """The player page's service worker, served beside the pages it serves (``/play/``): a
    worker's scope is the folder it is served from."""
    return web.Response(
        text=(STATIC / "play/sw.js").read_text(encoding="utf-8"),
        content_type="text/javascript",
        headers={"Cache-Control": "no-cache"},
    )


async def timeline(request: web.Request) -> web.Response:
    """A table's story, as the token it was opened with (``?token=`` or ``#token=``) saw it."""
    return _page("timeline/timeline.html")


async def docs(request: web.Request) -> web.Response:
    return _page("docs/docs.html")


async def static(request: web.Request) -> web.FileResponse:
    """A file of the pages' folder; any name that leads out of it is no file here."""
    root = STATIC.resolve()
    try:
        wanted = (root / request.match_info["path"]).resolve()
        found = wanted.is_relative_to(root) and wanted.is_file()
    except (OSError, ValueError):  # a name too long, or holding a NUL
        found = False
    if not found:
        raise web.HTTPNotFound()
    return web.FileResponse(wanted)


PAGE = {200: Content("The page", media="text/html")}

ROUTES = [
    Route("GET", "/overlay/{table_id}", overlay, "The stream overlay", "overlayPage", PAGE),
    Route("GET", "/console", console, "The GM console's start page", "consoleStart", PAGE),
    Route("GET", "/console/{table_id}", console, "The GM console", "consolePage", PAGE),
    Route(
        "GET",
        "/play/sw.js",
        worker,
        "The player page's service worker: a pushed turn shown as a notification",
        "playWorker",
        {200: Content("The script", media="text/javascript")},
    ),
    Route("GET", "/play/{table_id}", play, "A player's page", "playPage", PAGE),
    Route(
        "GET",
        "/play/{table_id}/manifest.webmanifest",
        manifest,
        "A player link's web app manifest: installed, it opens that link",
        "playManifest",
        {
            200: Content("The manifest", media="application/manifest+json"),
            **refusals(400),
        },
        parameters=(Parameter("token", "query", {"type": "string"}, "The player link's token"),),
    ),
    Route(
        "GET",
        "/tables/{table_id}/timeline",
        timeline,
        "A table's story: its timeline, replay and recap",
        "timelinePage",
        PAGE,
    ),
    Route("GET", "/api/docs", docs, "This API's documentation, to read", "docsPage", PAGE),
    Route(
        "GET",
        "/static/{path:.+}",
        static,
        "The pages' scripts and styles",
        "staticFile",
        {200: Content("The file", media=None), 404: Content("No such file", media=None)},
    ),
]
