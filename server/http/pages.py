"""Pages the server serves itself: plain HTML, CSS and ES modules, no build step."""

from __future__ import annotations

from importlib import resources
from pathlib import Path

from aiohttp import web

STATIC = Path(str(resources.files("server").joinpath("static")))

routes = web.RouteTableDef()


def _page(name: str) -> web.Response:
    return web.Response(
        text=(STATIC / name).read_text(encoding="utf-8"),
        content_type="text/html",
        headers={"Cache-Control": "no-cache"},
    )


@routes.get("/overlay/{table_id}")
async def overlay(request: web.Request) -> web.Response:
    """The stream overlay; it asks for the table with the ``?token=`` it was loaded with."""
    return _page("overlay/overlay.html")


@routes.get("/console")
@routes.get("/console/{table_id}")
async def console(request: web.Request) -> web.Response:
    """The GM console, and its start page that creates a table."""
    return _page("console/console.html")


@routes.get("/play/{table_id}")
async def play(request: web.Request) -> web.Response:
    """A player's page; it asks for the table with the ``?token=`` it was given."""
    return _page("play/play.html")


@routes.get("/api/docs")
async def docs(request: web.Request) -> web.Response:
    return _page("docs/docs.html")


routes.static("/static", STATIC)
