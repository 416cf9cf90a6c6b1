"""The player page's own Pixels dice, in Chromium against a real server: "Connect my Pixels die"
where Web Bluetooth exists, and plainly why not elsewhere; a roll from the die enters the
player's own pending roll with the die's id, and a roll nobody asked for is not entered.

The die is reached through the vendored library's own connection layer: a ``PixelSession`` of
the library's, handed to the library's ``Pixel``, which answers ``WhoAreYou`` with the bytes of
Seize's codec (adapters/pixels_protocol.py) and notifies roll states. Chromium's Bluetooth
emulation cannot be used for this: its peripheral cannot notify, and the library's connect
waits for the die's ``IAmADie`` notification (see docs/hardware.md)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest

from adapters import pixels_protocol as px
from tests.server.process import ServerProcess, call

from .conftest import CHROMIUM, FLAGS, Table
from .test_play import hand_to, rcs_character

LIBRARY = "**/static/vendor/pixels-web-connect/index.js"
PIXEL_ID = 0xBEEF
DIE = px.Identity(PIXEL_ID, px.DieType.D6, 6, 1_720_000_000, "Jena's red d6",
                  px.RollState.ON_FACE, 0, 77, False)  # fmt: skip

# Appended to the vendored bundle as it is served to the page: the die chooser answers with a
# Pixel of the library's own, over a session of the library's own class that stands for the
# radio. What the die says is the bytes Seize's codec makes from the documented layouts.
CHOSEN = """
;(() => {
  const library = window.pixelsWebConnect;
  class Radio extends library.PixelSession {
    dispose() {}
    async connect() {
      this._notifyConnectionEvent("connecting");
      this._notifyConnectionEvent("connected");
    }
    async disconnect() { this._notifyConnectionEvent("disconnected"); }
    async subscribe(listener) {
      this.listener = listener;
      return () => {};
    }
    async writeValue(data) {
      if (new Uint8Array(data)[0] === 1) setTimeout(() => this.say(IDENTITY));  // WhoAreYou
    }
    say(bytes) { this.listener(new DataView(new Uint8Array(bytes).buffer)); }
  }
  const radio = new Radio("die-1", "Jena's red d6");
  const pixel = new library.Pixel(radio);
  window.dieRadio = radio;
  window.pixelsWebConnect = { ...library, requestPixel: async () => pixel };
})();
"""


@pytest.fixture(scope="module")
def browser(browser: Any) -> Iterator[Any]:
    """Chromium on Linux, as Chrome there, has Web Bluetooth behind a flag (Android, Windows and
    macOS have it on): this module's pages are opened in a Chromium launched with it, by the
    conftest's browser's Playwright (and after its checks that Chromium is here)."""
    launched = browser.browser_type.launch(
        executable_path=str(CHROMIUM), args=[*FLAGS, "--enable-features=WebBluetooth"]
    )
    yield launched
    launched.close()


def chosen(route: Any) -> None:
    served = route.fetch()
    identity = json.dumps(list(px.i_am_a_die(DIE)))
    body = served.text() + CHOSEN.replace("IDENTITY", identity)
    route.fulfill(response=served, body=body)


def roll(page: Any, number: int) -> None:
    """The die lands with ``number`` up: a d6's face index is its number less one."""
    for state, index in ((px.RollState.ROLLING, 0), (px.RollState.ROLLED, number - 1)):
        page.evaluate("bytes => window.dieRadio.say(bytes)", list(px.roll_state(state, index)))


def rolls_entered(table: Table) -> list[dict[str, Any]]:
    status, answer = call(f"{table.url}/events?after=0", token=table.gm)
    assert status == 200, answer
    events = [entry["event"] for entry in answer["events"]]
    return [event for event in events if event["type"] == "roll_entered"]


def test_a_pixels_die_enters_the_players_own_roll_and_no_roll_unasked(
    phone: Any, server: ServerProcess
) -> None:
    table = Table(server, "megatraveller-rcs")
    table.send(rcs_character("guard", "corp"))
    table.send(rcs_character("jena", "crew"))
    link = hand_to(table, "jena")
    table.send({"type": "roll_initiative", "source": "gm"})  # both rolls awaited, the guard's first
    phone.route(LIBRARY, chosen)
    phone.goto(link)
    phone.locator("[data-action=connect-die]").click()
    phone.locator(f"[data-die=pixels-{PIXEL_ID:08x}]").get_by_text("ready").wait_for()
    said = phone.locator("[data-dice-said]")

    roll(phone, 3)  # one d6, rolled twice for the 2D6
    said.get_by_text("roll again for the other 1").wait_for()
    roll(phone, 5)
    said.get_by_text("Entered: 3 and 5.").wait_for()
    [entered] = rolls_entered(table)
    assert entered["roll"]["character"] == "jena"  # hers, though the guard's was asked first
    assert entered["roll"]["dice"] == [3, 5]
    assert (entered["source"], entered["dice_ids"]) == ("device", [f"pixels-{PIXEL_ID:08x}"])

    roll(phone, 6)  # nothing is asked of Jena now: the guard's roll is not hers to enter
    said.get_by_text("rolled 6: no roll is asked of you").wait_for()
    assert len(rolls_entered(table)) == 1


def test_without_web_bluetooth_the_page_says_why_no_die_connects(
    phone: Any, server: ServerProcess
) -> None:
    """As in Safari or Firefox, which have no Web Bluetooth."""
    table = Table(server, "megatraveller-rcs")
    table.send(rcs_character("jena", "crew"))
    phone.add_init_script("Object.defineProperty(Navigator.prototype, 'bluetooth', {value: undefined})")
    phone.goto(hand_to(table, "jena"))
    said = phone.locator("[data-dice-said]")
    said.get_by_text("This browser has no Web Bluetooth").wait_for()
    assert phone.locator("[data-action=connect-die]").count() == 0
