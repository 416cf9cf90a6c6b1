"""The Owlbear Rodeo extension's routes: what Owlbear needs of them, and nothing more of the
others."""

from __future__ import annotations

import json
import re
import tomllib
from pathlib import Path

import pytest

from server.http.pages import STATIC
from server.vtt import owlbear
from tests.server.conftest import Client

OWLBEAR_ROUTES = [
    "/owlbear/manifest.json",
    "/owlbear/popover.html",
    "/owlbear/background.html",
    "/owlbear/icon.svg",
]
OTHER_ROUTES = [
    "/console",
    "/api/docs",
    "/static/shared/client.js",
    "/static/owlbear/popover.js",
    "/foundry/module.json",
    "/roll20/seize.user.js",
]
OWLBEAR_ONLY = ("Content-Security-Policy", "Cross-Origin-Resource-Policy")


async def test_the_manifest_is_what_owlbear_installs(client: Client) -> None:
    answer = await client.get("/owlbear/manifest.json")
    manifest = await answer.json()
    project = tomllib.loads((Path(__file__).parents[3] / "pyproject.toml").read_text())
    base = str(client.make_url("")).rstrip("/")
    assert manifest["version"] == project["project"]["version"]
    assert manifest["manifest_version"] == 1
    for field in ("name", "author", "icon", "description", "homepage_url"):
        assert manifest[field], field
    action = manifest["action"]
    assert action["popover"] == f"{base}/owlbear/popover.html"
    assert {"title", "icon", "height", "width"} <= action.keys()
    assert manifest["background_url"] == f"{base}/owlbear/background.html"
    for url in (manifest["icon"], action["icon"], action["popover"], manifest["background_url"]):
        assert (await client.get(url.removeprefix(base))).status == 200


@pytest.mark.parametrize("path", OWLBEAR_ROUTES)
async def test_owlbear_may_frame_and_fetch_the_extension(client: Client, path: str) -> None:
    answer = await client.get(path)
    assert answer.status == 200
    policy = answer.headers["Content-Security-Policy"]
    assert re.fullmatch(
        r"frame-ancestors 'self' https://www\.owlbear\.rodeo https://owlbear\.rodeo", policy
    )
    assert answer.headers["Cross-Origin-Resource-Policy"] == "cross-origin"
    assert answer.headers["Access-Control-Allow-Origin"] == "*"


@pytest.mark.parametrize("path", OWLBEAR_ROUTES)
async def test_a_preflight_from_owlbear_is_answered(client: Client, path: str) -> None:
    answer = await client.options(
        path,
        headers={
            "Origin": "https://www.owlbear.rodeo",
            "Access-Control-Request-Method": "GET",
            "Access-Control-Request-Private-Network": "true",
        },
    )
    assert answer.status == 204
    assert answer.headers["Access-Control-Allow-Origin"] == "*"
    assert "GET" in answer.headers["Access-Control-Allow-Methods"]
    assert answer.headers["Access-Control-Allow-Private-Network"] == "true"


@pytest.mark.parametrize("path", OTHER_ROUTES)
async def test_every_other_route_keeps_its_policy(client: Client, path: str) -> None:
    """No other page may be framed by Owlbear because the popover may; their cross-origin
    answers are the ones every route gave before."""
    answer = await client.get(path)
    assert answer.status == 200
    for header in OWLBEAR_ONLY:
        assert header not in answer.headers, (path, header)
    assert answer.headers["Access-Control-Allow-Origin"] == "*"
    preflight = await client.options(path, headers={"Access-Control-Request-Method": "GET"})
    assert preflight.status == 204
    assert not set(OWLBEAR_ONLY) & set(preflight.headers)


async def test_the_import_map_answers_every_import_of_the_sdk(client: Client) -> None:
    """Every module the popover may load resolves: the SDK's extension-less imports of one
    another and its bare imports of its dependencies, each to a file the server serves."""
    html = await (await client.get("/owlbear/background.html")).text()
    found = re.search(r'<script type="importmap">(.*?)</script>', html)
    assert found
    imports = json.loads(found.group(1))["imports"]
    sdk = owlbear.VENDOR / owlbear.SDK
    for module in sdk.rglob("*.js"):
        code = module.read_text(encoding="utf-8")
        for imported in re.findall(
            r'^(?:import|export)\b[^;]*?from "([^"]+)";', code, re.MULTILINE
        ):
            spec = imported
            if imported.startswith("."):
                url = (module.parent / imported).resolve().relative_to(STATIC.resolve())
                spec = f"/static/{url.as_posix()}"
            assert spec in imports, (module.name, spec)
    for target in imports.values():
        assert (await client.get(target)).status == 200, target
