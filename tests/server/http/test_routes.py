"""The route table: what the router serves is what the OpenAPI document describes."""

from __future__ import annotations

from pathlib import Path

import pytest

from server.http.openapi import OPENAPI
from server.run.app import make_app
from server.settings import Settings
from tests.server.conftest import Client

pytestmark = pytest.mark.sqlite_only


def test_every_served_route_is_documented_and_every_documented_one_served(
    tmp_path: Path,
) -> None:
    app = make_app(Settings(db=tmp_path / "routes.db", port=0))
    served = {
        (route.method, route.resource.canonical)
        for route in app.router.routes()
        if route.resource is not None
    }
    document = app[OPENAPI]
    documented = {
        (method.upper(), path) for path, item in document["paths"].items() for method in item
    }
    # HEAD is served beside every GET and described by it; OPTIONS (a browser's preflight) is
    # answered for every route by the cross-origin middleware, never routed.
    gets = {path for method, path in served if method == "GET"}
    assert {path for method, path in served if method == "HEAD"} == gets
    assert {route for route in served if route[0] != "HEAD"} == documented


async def test_the_pages_files_are_served_and_nothing_beside_them(client: Client) -> None:
    script = await client.get("/static/shared/client.js")
    assert script.status == 200 and "javascript" in script.content_type
    for outside in (
        "/static/../pages.py",
        "/static/%2e%2e/pages.py",
        "/static/shared",
        "/static/x",
    ):
        assert (await client.get(outside)).status == 404, outside
