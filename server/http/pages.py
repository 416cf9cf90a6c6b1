"""Pages the server serves itself: plain HTML, CSS and ES modules, no build step."""

from __future__ import annotations

from importlib import resources
from pathlib import Path

from aiohttp import web

from server.http.routes import Content, Route

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
