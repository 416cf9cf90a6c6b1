"""What VTTs install from the server: the Foundry VTT module and the Roll20 userscript.

Both are built from their files at request time, with this server's address written in, so
"Install Module → Manifest URL" and installing the userscript work against a running server.
Both carry the installed project's version, so a server upgrade offers Foundry (and the
userscript manager) an update. The Foundry module's scripts folder also holds the logic both
share (the live link, "next", the write queue), which the userscript inlines.
"""

from __future__ import annotations

import io
import json
import re
import zipfile
from importlib import metadata, resources
from pathlib import Path
from typing import Any

from aiohttp import web

from server.http.context import SEIZE
from server.http.routes import Content, Route

HERE = Path(str(resources.files("server").joinpath("vtt")))
FOUNDRY = HERE / "foundry"


def base_url(request: web.Request) -> str:
    configured = request.app[SEIZE].settings.public_url
    return (configured or f"{request.scheme}://{request.host}").rstrip("/")


def module_files() -> dict[str, bytes]:
    """The module's files, as the zip holds them."""
    return {
        str(p.relative_to(FOUNDRY)): p.read_bytes()
        for p in sorted(FOUNDRY.rglob("*"))
        if p.is_file()
    }


def version() -> str:
    """The installed project's version (pyproject.toml's, once installed)."""
    return metadata.version("seize")


def manifest(base: str) -> dict[str, Any]:
    return {
        "id": "seize",
        "title": "Seize",
        "description": "Runs this world's combat tracker from a Seize table: card-dealt Panels, "
        "hidden awareness, seizing the initiative.",
        "version": version(),
        "authors": [{"name": "Seize"}],
        "compatibility": {"minimum": "12", "verified": "13"},
        "esmodules": ["scripts/seize.mjs"],
        "socket": True,  # a player's dice request goes to the active GM's client
        "styles": ["styles/seize.css"],
        "languages": [{"lang": "en", "name": "English", "path": "lang/en.json"}],
        "url": base,
        "manifest": f"{base}/foundry/module.json",
        "download": f"{base}/foundry/module.zip",
    }


async def foundry_manifest(request: web.Request) -> web.Response:
    return web.json_response(manifest(base_url(request)))


async def foundry_zip(request: web.Request) -> web.Response:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("module.json", json.dumps(manifest(base_url(request)), indent=2))
        for name, content in module_files().items():
            archive.writestr(name, content)
    return web.Response(
        body=buffer.getvalue(),
        content_type="application/zip",
        headers={"Content-Disposition": 'attachment; filename="seize.zip"'},
    )


USERSCRIPT_HEADER = """// ==UserScript==
// @name         Seize bridge for Roll20
// @namespace    seize
// @version      {version}
// @downloadURL  {base}/roll20/seize.user.js
// @description  Follows a Seize table in Roll20's turn order and sends the GM's "next" back.
// @match        https://app.roll20.net/editor/*
// @noframes
// @inject-into  page
// @grant        none
// ==/UserScript==
"""


def _as_script(module: str) -> str:
    """An ES module's code as plain script: its imports dropped (everything is inlined in
    order) and ``export`` removed."""
    code = re.sub(r"^import .*?;\n", "", module, flags=re.MULTILINE)
    return re.sub(r"^export ", "", code, flags=re.MULTILINE)


INLINED = (
    "foundry/scripts/link.mjs",
    "foundry/scripts/engine.mjs",
    "foundry/scripts/sync.mjs",
    "roll20/bridge.mjs",
)
"""The modules the userscript holds, in the order they depend on each other."""


def userscript(base: str) -> str:
    parts = [(HERE / name).read_text(encoding="utf-8") for name in INLINED]
    body = "\n".join(_as_script(part) for part in parts)
    main = (HERE / "roll20/userscript.js").read_text(encoding="utf-8")
    main = main.replace("SEIZE_SERVER", json.dumps(base))
    header = USERSCRIPT_HEADER.format(version=version(), base=base)
    return header + "(() => {\n" + body + "\n" + main + "})();\n"


async def roll20_userscript(request: web.Request) -> web.Response:
    return web.Response(text=userscript(base_url(request)), content_type="text/javascript")


ROUTES = [
    Route(
        "GET",
        "/foundry/module.json",
        foundry_manifest,
        "The Foundry VTT module's manifest, this server's address written in",
        "foundryManifest",
        {200: Content("The manifest", {"type": "object"})},
    ),
    Route(
        "GET",
        "/foundry/module.zip",
        foundry_zip,
        "The Foundry VTT module",
        "foundryModule",
        {200: Content("The module as a zip", media="application/zip")},
    ),
    Route(
        "GET",
        "/roll20/seize.user.js",
        roll20_userscript,
        "The Roll20 userscript, this server's address written in",
        "roll20Userscript",
        {200: Content("The userscript", media="text/javascript")},
    ),
]
