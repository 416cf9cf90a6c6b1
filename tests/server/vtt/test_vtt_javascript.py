"""The Foundry module's and the Roll20 bridge's logic, run with Node's own test runner against
what a real server serves for each system (written out as fixtures first), and type-checked
against Foundry VTT 13's types.

Without Node these are skipped, unless SEIZE_REQUIRE_NODE is set, as .ci/run sets it. The type
check needs types/node_modules (``npm ci`` in types/, which .ci/run does before the tests):
without it, it is skipped, unless SEIZE_REQUIRE_NODE is set."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest

from tests.server.conftest import Client, bearer, new_table, send
from tests.server.table_setups import awareness_rolled, declare_and_seize, rcs_rolled
from tests.server.vtt.roll20_orders import rcs_orders
from tests.waiting import JOB_PATIENCE

pytestmark = pytest.mark.sqlite_only

ROOT = Path(__file__).parents[3]
JS_TESTS = ROOT / "tests/js"
TYPES = ROOT / "types"


async def snapshot(client: Client, table: dict[str, Any]) -> dict[str, Any]:
    base = f"/api/tables/{table['id']}"
    gm, overlay = bearer(table["gm_token"]), bearer(table["overlay_token"])
    return {
        "combat": await (await client.get(f"{base}/foundry/combat?as=public", headers=gm)).json(),
        "turnorder": await (await client.get(f"{base}/roll20/turnorder", headers=overlay)).json(),
        "view": (await (await client.get(base, headers=gm)).json())["view"],
    }


async def four_color(
    client: Client, members: tuple[str, str, str] = ("h1", "h2", "v1")
) -> dict[str, Any]:
    table = await new_table(client, "four-color")
    for member, kind in zip(members, ("hero", "hero", "villain"), strict=True):
        await send(
            client,
            table,
            {"type": "join", "member": {"id": member, "name": member.upper(), "kind": kind}},
        )
    await send(client, table, {"type": "deal", "source": "gm"})
    for card in ("QH", "3C", "KS", "9D"):
        await send(client, table, {"type": "deal_card", "card": card, "source": "gm"})
    await send(client, table, {"type": "assign_card", "card": "9D", "acting": members[2]})
    before = await snapshot(client, table)
    await send(client, table, {"type": "next_panel"})
    return {"before": before, "after": await snapshot(client, table)}


async def rcs(client: Client) -> dict[str, Any]:
    table = await rcs_rolled(client, {"jena": [1, 2], "guard": [3, 3], "sarge": [6, 6]})
    before = await snapshot(client, table)
    await declare_and_seize(client, table, "jena", "sarge")
    return {"before": before, "after": await snapshot(client, table)}


async def awareness(client: Client) -> dict[str, Any]:
    table = await awareness_rolled(client, {"kid": 2, "marshal": 5, "sniper": 8})
    await send(client, table, {"type": "wait", "character": "kid", "trigger": "the draw"})
    before = await snapshot(client, table)
    await send(client, table, {"type": "act", "character": "marshal", "what": "draws"})
    return {"before": before, "after": await snapshot(client, table)}


async def test_the_javascript_suite(client: Client, tmp_path: Path) -> None:
    node = shutil.which("node")
    if node is None:
        if os.environ.get("SEIZE_REQUIRE_NODE"):
            pytest.fail("Node.js is required here")
        pytest.skip("no node on this machine: the JavaScript tests need Node.js 18 or newer")
    fixtures = {
        "four-color": await four_color(client),
        "megatraveller-rcs": await rcs(client),
        "awareness": await awareness(client),
        # Everyone joined from a Foundry token, as "Add selected tokens" joins them.
        "from-tokens": await four_color(
            client, ("fvttValerosToken0001", "fvttSeoniToken000002", "fvttZombieToken00003")
        ),
    }
    (tmp_path / "fixtures.json").write_text(json.dumps(fixtures))
    (tmp_path / "roll20-orders.json").write_text(json.dumps(rcs_orders()))
    files = sorted(str(p) for p in JS_TESTS.glob("*.test.mjs"))
    run = subprocess.run(
        [node, "--test", *files],
        capture_output=True,
        text=True,
        timeout=JOB_PATIENCE,
        env={**os.environ, "SEIZE_FIXTURES": str(tmp_path / "fixtures.json")},
        check=False,
    )
    assert run.returncode == 0, run.stdout[-4000:] + run.stderr[-2000:]
    assert "# fail 0" in run.stdout and "# pass 0" not in run.stdout, run.stdout


def test_the_vtt_scripts_type_check_against_foundry_13() -> None:
    tsc = TYPES / "node_modules/.bin/tsc"
    if shutil.which("node") is None or not tsc.exists():
        if os.environ.get("SEIZE_REQUIRE_NODE"):
            pytest.fail("the type check is required here: (cd types && npm ci)")
        pytest.skip("no types/node_modules here: (cd types && npm ci) to type-check")
    run = subprocess.run(
        [str(tsc), "-p", str(TYPES), "--listFiles"],
        capture_output=True,
        text=True,
        timeout=JOB_PATIENCE,
        check=False,
    )
    assert run.returncode == 0, run.stdout[-6000:] + run.stderr[-2000:]
    checked = {Path(line) for line in run.stdout.splitlines()}
    scripts = [
        *(ROOT / "server/vtt/foundry/scripts").glob("*.mjs"),
        ROOT / "server/vtt/roll20/bridge.mjs",
    ]
    assert {script.resolve() for script in scripts} <= checked
