"""The console's dice, in Chromium against a real server: what the die station reports (each
die's battery, connection, drops, its notices) beside the table's die registry, and the GM
assigning a die or opening a claim from the panel, as the registry then keeps it."""

from __future__ import annotations

from typing import Any

from playwright.sync_api import expect

from tests.server.process import ServerProcess, call

from .conftest import Table
from .test_accessibility import axe, serious  # noqa: F401 (axe: a fixture)
from .test_play import rcs_character

STATION = {
    "kind": "dice station",
    "dice": [
        {"id": "pixels-0000002a", "name": "Jena's Pixel", "brand": "pixels", "sides": 6,
         "battery": 71, "charging": False, "connected": True, "owner": None, "drops": 2},
        {"id": "godice-7", "name": "GoDice_7_K_v04", "brand": "godice", "sides": 6,
         "battery": None, "charging": False, "connected": False, "owner": "gm", "drops": 0},
    ],
    "rolls": 0, "unwanted": 1, "blinks": 0, "full": None,
    "notices": ["Jena rolled 2, unasked"], "refused": {}, "last": None,
}  # fmt: skip


def guard_and_jena(server: ServerProcess) -> Table:
    """An RCS table of the Guard (corp) and Jena (crew), who joined in that order."""
    table = Table(server, "megatraveller-rcs")
    table.send(rcs_character("guard", "corp"))
    table.send(rcs_character("jena", "crew"))
    return table


def registry(table: Table) -> dict[str, Any]:
    status, answer = call(f"{table.url}/dice", token=table.gm)
    assert status == 200, answer
    return dict(answer)


def test_the_gm_assigns_a_die_and_opens_a_claim_from_the_devices_panel(
    page: Any,
    server: ServerProcess,
    axe: str,  # noqa: F811 (the accessibility scan's fixture)
) -> None:
    table = guard_and_jena(server)
    gm_die = {"dice": {"godice-7": {"owner": "gm"}}}
    assert call(f"{table.url}/dice", "PUT", gm_die, table.gm)[0] == 200
    assert call(f"{table.url}/devices/dice-station", "PUT", STATION, table.gm)[0] == 200
    table.devices(page)
    pixel = page.locator("[data-die='pixels-0000002a']")
    pixel.wait_for()
    assert "Jena's Pixel (d6) · connected · battery 71% · dropped 2 times" in pixel.inner_text()
    assert "not connected" in page.locator("[data-die='godice-7']").inner_text()
    assert page.locator("[data-owner='godice-7']").input_value() == "gm"
    assert page.locator("[data-dice-notices]").inner_text() == "Jena rolled 2, unasked"
    assert page.locator("[data-device]").count() == 0  # the registry and station are no trays
    assert serious(page, axe) == []

    page.locator("[data-owner='pixels-0000002a']").select_option(label="Jena")
    # The panel is drawn again from the registry once the server keeps the change.
    page.locator("[data-owner='pixels-0000002a'] option[value=jena][selected]").wait_for(
        state="attached"
    )
    assert registry(table)["dice"] == {
        "pixels-0000002a": {"owner": "jena", "name": "Jena's Pixel"},
        "godice-7": {"owner": "gm", "name": "godice-7"},
    }

    page.locator("select[name=claimant]").select_option(label="Guard")
    page.locator("[data-action=claim-die]").click()
    claims = page.locator("[data-claims]")
    claims.get_by_text("Waiting for the die of Guard").wait_for()
    assert registry(table)["claims"] == ["guard"]
    page.locator("[data-action=cancel-claims]").click()
    page.locator("[data-action=cancel-claims]").wait_for(state="detached")
    assert registry(table)["claims"] == []


def test_the_step_says_where_a_roll_comes_from_as_the_devices_report(
    page: Any, server: ServerProcess
) -> None:
    """The console asks for a roll from what the table has: typed, with no tray or die
    reported; from the tray once one reports connected (the panel's poll redraws the step);
    from the character's own dice once a die of theirs is connected at a die station."""
    table = guard_and_jena(server)
    table.send({"type": "roll_initiative", "source": "gm"})
    table.devices(page)
    prompt = page.locator("[data-prompt]")
    expect(prompt).to_have_text("Waiting for Guard's 2D6: type it as rolled")
    table.tray()
    expect(prompt).to_have_text("Waiting for Guard's 2D6 from the tray (or type it)")
    # Jena's die, paired to her phone and connected: hers, not the Guard's, whose roll is asked.
    table.die_on_phone("jena", "godice-9", "Jena's die")
    page.reload()
    expect(prompt).to_have_text("Waiting for Guard's 2D6 from the tray (or type it)")
    table.send({"type": "enter_roll", "character": "guard", "dice": [6, 6], "source": "gm"})
    expect(prompt).to_have_text("Waiting for Jena's 2D6 from their own dice (or type it)")
    # The Guard's die at a die station, connected, for the next round's roll.
    guards = {"dice": {"pixels-0000002a": {"owner": "guard", "name": "Guard's Pixel"}}}
    assert call(f"{table.url}/dice", "PUT", guards, table.gm)[0] == 200
    assert call(f"{table.url}/devices/dice-station", "PUT", STATION, table.gm)[0] == 200
    table.send({"type": "enter_roll", "character": "jena", "dice": [1, 1], "source": "gm"})
    table.send({"type": "take_out", "character": "jena"})  # the round ends with the Guard's
    table.send({"type": "declare", "character": "guard", "action": "long", "what": "fires",
                "target": "—"})  # fmt: skip
    table.send({"type": "resolve"})
    table.send({"type": "roll_initiative", "source": "gm"})
    page.reload()
    expect(prompt).to_have_text("Waiting for Guard's 2D6 from their own dice (or type it)")
