"""An accessibility scan with axe-core of the console, the player page, the timeline page (the GM's
and a player's) and the overlay, mid-play: no serious or critical violation. axe-core comes from
npm (``npm ci --prefix tests/pages``)."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest

from tests.server.process import ServerProcess, call

from .conftest import Table
from .console_driver import DRAWN, PHONE, TABLET

AXE = Path(__file__).parent / "node_modules" / "axe-core" / "axe.min.js"


@pytest.fixture(scope="module")
def axe() -> str:
    if not AXE.exists():
        if os.environ.get("SEIZE_REQUIRE_BROWSER"):
            pytest.fail("axe-core is required here: npm ci --prefix tests/pages")
        pytest.skip("axe-core is not installed (npm ci --prefix tests/pages)")
    return AXE.read_text(encoding="utf-8")


def serious(page: Any, axe: str) -> list[str]:
    """The serious and critical violations on the page as it stands."""
    page.add_script_tag(content=axe)
    found: list[dict[str, Any]] = page.evaluate("axe.run(document).then(r => r.violations)")
    return [
        f"{v['id']}: {[n['target'] for n in v['nodes']][:3]}"
        for v in found
        if v["impact"] in ("serious", "critical")
    ]


def in_play(server: ServerProcess, system: str) -> Table:
    """A table in the middle of a round or page, with actions on rows."""
    table = Table(server, system)
    if system == "four-color":
        for cid, kind in (("peter", "hero"), ("sue", "hero"), ("doom", "villain")):
            table.send({"type": "join", "member": {"id": cid, "name": cid.title(), "kind": kind}})
        table.send({"type": "deal"})
        table.send({"type": "offer_trade", "hero": "peter", "partner": "sue"})
    elif system == "megatraveller-rcs":
        for cid, side in (("jena", "crew"), ("guard", "corp"), ("boss", "corp")):
            character = {"id": cid, "name": cid.title(), "side": side, "dex": 0, "movement": 0}
            table.send({"type": "join", "character": character})
        table.send({"type": "roll_initiative", "source": "gm"})
        for cid, dice in (("jena", [1, 1]), ("guard", [3, 3]), ("boss", [5, 5])):
            table.send({"type": "enter_roll", "character": cid, "dice": dice, "source": "gm"})
        jena = {"type": "declare", "character": "jena", "action": "long"}
        table.send({**jena, "what": "dives", "target": "the window"})
    else:
        for cid in ("kid", "marshal"):
            sheet = {"id": cid, "name": cid.title(), "perception": 5, "stealth": 5,
                     "coordination": 5}  # fmt: skip
            table.send({"type": "join", "sheet": sheet})
        table.send({"type": "roll_initiative", "source": "gm"})
        for cid, die in (("kid", 1), ("marshal", 3)):
            table.send({"type": "enter_initiative", "character": cid, "die": die, "source": "gm"})
        table.send({"type": "wait", "character": "kid", "trigger": "the Marshal draws"})
        table.send({"type": "act", "character": "marshal", "what": "draws"})
    return table


PLAYER = {"four-color": "sue", "megatraveller-rcs": "guard", "awareness": "kid"}


@pytest.mark.parametrize("system", list(PLAYER))
def test_the_pages_have_no_serious_accessibility_violations(
    browser: Any, server: ServerProcess, axe: str, system: str
) -> None:
    table = in_play(server, system)
    seq = table.view(table.gm)["seq"]
    _, link = call(f"{table.url}/handoff/players/{PLAYER[system]}", "POST", {}, table.gm)
    player_token = link["url"].split("token=", 1)[1]
    # Each page once it has drawn the table at ``seq``: the console learns the sequence before
    # its sections are on the page, so it is scanned once its prompt is drawn too.
    shown = f"Number(document.body.dataset.seq) >= {seq}"
    console = f"{server.url}/console/{table.id}#token={table.gm}"
    pages = {
        "console": (console, TABLET, f"{shown} && {DRAWN}"),
        "console on a phone": (console, PHONE, f"{shown} && {DRAWN}"),
        "player page": (link["url"], PHONE, shown),
        "the GM's story": (
            f"{server.url}/tables/{table.id}/timeline#token={table.gm}",
            {"width": 1920, "height": 1080},
            "document.body.dataset.ready !== undefined",
        ),
        "a player's story on a phone": (
            f"{server.url}/tables/{table.id}/timeline?token={player_token}",
            PHONE,
            "document.body.dataset.ready !== undefined",
        ),
        "overlay": (
            table.overlay_url(),
            {"width": 800, "height": 600},
            f"Number(document.getElementById('overlay')?.dataset.seq) >= {seq}",
        ),
    }
    for name, (url, viewport, drawn) in pages.items():
        context = browser.new_context(viewport=viewport)
        page = context.new_page()
        page.goto(url)
        page.wait_for_function(drawn)
        assert serious(page, axe) == [], name
        context.close()
