"""What VTTs install from the server: the Foundry manifest and zip, the Roll20 userscript."""

from __future__ import annotations

import io
import json
import posixpath
import re
import shutil
import subprocess
import tomllib
import zipfile
from importlib import metadata
from pathlib import Path

import pytest

from server import vtt
from tests.server.conftest import Client


async def test_the_foundry_manifest_has_what_foundry_requires(client: Client) -> None:
    manifest = await (await client.get("/foundry/module.json")).json()
    for field in (
        "id",
        "title",
        "version",
        "compatibility",
        "esmodules",
        "styles",
        "languages",
        "url",
        "manifest",
        "download",
    ):
        assert field in manifest, field
    assert manifest["id"] == "seize"
    assert manifest["compatibility"] == {"minimum": "12", "verified": "13"}
    base = str(client.make_url("")).rstrip("/")
    assert manifest["manifest"] == f"{base}/foundry/module.json"
    assert manifest["download"] == f"{base}/foundry/module.zip"


async def test_the_manifest_and_the_userscript_carry_the_installed_version(
    client: Client, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Foundry offers a module update only when the manifest's version changes: it is the
    project's own, whatever it is (an upgraded server stands in here as a patched version)."""
    project = tomllib.loads((Path(__file__).parents[3] / "pyproject.toml").read_text())
    manifest = await (await client.get("/foundry/module.json")).json()
    assert manifest["version"] == project["project"]["version"]
    real = metadata.version
    monkeypatch.setattr(
        metadata, "version", lambda name: "9.8.7" if name == "seize" else real(name)
    )
    assert (await (await client.get("/foundry/module.json")).json())["version"] == "9.8.7"
    archive = zipfile.ZipFile(io.BytesIO(await (await client.get("/foundry/module.zip")).read()))
    assert json.loads(archive.read("module.json"))["version"] == "9.8.7"
    script = await (await client.get("/roll20/seize.user.js")).text()
    assert re.search(r"^// @version +9\.8\.7$", script, flags=re.MULTILINE)
    base = str(client.make_url("")).rstrip("/")
    assert f"// @downloadURL  {base}/roll20/seize.user.js\n" in script  # where updates come from


async def test_the_zip_holds_every_file_the_manifest_names_and_every_import(
    client: Client,
) -> None:
    answer = await client.get("/foundry/module.zip")
    assert answer.status == 200 and answer.content_type == "application/zip"
    archive = zipfile.ZipFile(io.BytesIO(await answer.read()))
    names = set(archive.namelist())
    manifest = json.loads(archive.read("module.json"))
    named = (
        manifest["esmodules"]
        + manifest["styles"]
        + [lang["path"] for lang in manifest["languages"]]
    )
    assert set(named) <= names
    json.loads(archive.read("lang/en.json"))
    for script in (n for n in names if n.endswith(".mjs")):
        for target in re.findall(r'from "(\.[^"]+)"', archive.read(script).decode()):
            resolved = posixpath.normpath(posixpath.join(posixpath.dirname(script), target))
            assert resolved in names, f"{script} imports {target}, which is not in the zip"


async def test_the_userscript_is_one_plain_script_with_the_servers_address(
    client: Client, tmp_path: Path
) -> None:
    answer = await client.get("/roll20/seize.user.js")
    script = await answer.text()
    assert script.startswith("// ==UserScript==")
    header = script[: script.index("// ==/UserScript==")]
    # Only Roll20's editor, never its frames, in the page itself: Roll20's Campaign model and
    # is_gm are page globals a sandboxed (content-script) injection cannot see.
    assert re.findall(r"^// @match +(.+)$", header, flags=re.MULTILINE) == [
        "https://app.roll20.net/editor/*"
    ]
    assert re.search(r"^// @noframes$", header, flags=re.MULTILINE)
    assert re.search(r"^// @inject-into +page$", header, flags=re.MULTILINE)
    assert not re.search(r"^(import|export) ", script, flags=re.MULTILINE)
    assert json.dumps(str(client.make_url("")).rstrip("/")) in script
    node = shutil.which("node")
    if node is None:
        pytest.skip("no node here to check the script's syntax")
    (tmp_path / "seize.user.js").write_text(script)
    checked = subprocess.run(
        [node, "--check", str(tmp_path / "seize.user.js")],
        capture_output=True,
        text=True,
        check=False,
    )
    assert checked.returncode == 0, checked.stderr


def test_the_scripts_the_userscript_inlines_declare_each_name_once() -> None:
    """The userscript puts several modules' code in one scope, where a second declaration of a
    name would silently replace the first."""
    parts = [
        (vtt.HERE / name).read_text(encoding="utf-8")
        for name in (*vtt.INLINED, "roll20/userscript.js")
    ]
    names = re.findall(
        r"^(?:export )?(?:async )?(?:function|class|const|let) +(\w+)",
        "\n".join(parts),
        flags=re.MULTILINE,
    )
    assert sorted(n for n in set(names) if names.count(n) > 1) == []


async def test_other_origins_may_call_the_api_with_a_token(client: Client) -> None:
    preflight = await client.options(
        "/api/tables/x/commands",
        headers={
            "Origin": "https://app.roll20.net",
            "Access-Control-Request-Method": "POST",
            "Access-Control-Request-Headers": "authorization, content-type, idempotency-key",
        },
    )
    assert preflight.status == 204
    assert "Idempotency-Key" in preflight.headers["Access-Control-Allow-Headers"]
    refused = await client.get("/api/tables/nope", headers={"Origin": "http://localhost:30000"})
    assert refused.status == 404 and refused.headers["Access-Control-Allow-Origin"] == "*"
