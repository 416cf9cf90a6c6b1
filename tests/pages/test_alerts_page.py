"""Turn alerts in the player page (static/play/alerts.js), in Chromium against a real server: on
the player's turn the tab's title and icon are flagged and the phone vibrates; on others' turns
nothing of it; a setting turned off stays off when the page is opened again.

Chromium on a desktop has no vibration motor, and its ``navigator.vibrate`` does nothing a test
can see: the pages here are given a recording ``navigator.vibrate`` before any script runs (the
one stand-in, for a part no test machine has)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from tests.server.process import ServerProcess, call

from .conftest import Table, shoot
from .console_driver import PHONE
from .test_play import at_seq, first_panel, hand_to, rcs_character

RECORDING = """
window.vibrations = [];
Object.defineProperty(navigator, "vibrate", {
  configurable: true,
  value: (pattern) => { window.vibrations.push(pattern); return true; },
});
"""


@pytest.fixture
def phones(browser: Any) -> Iterator[Any]:
    """A phone per player, each its own browser storage, vibrations recorded."""
    contexts: list[Any] = []

    def opened() -> Any:
        context = browser.new_context(viewport=PHONE, has_touch=True)
        context.add_init_script(RECORDING)
        contexts.append(context)
        return context.new_page()

    yield opened
    for context in contexts:
        context.close()


def touched(phone: Any) -> None:
    """The player taps the page (on its heading, which does nothing): from then on the browser
    lets it vibrate."""
    phone.locator("h1").first.tap()


def flagged(phone: Any) -> tuple[str, str, Any]:
    return (
        phone.title(),
        phone.get_attribute("link[rel=icon]", "href") or "",
        phone.evaluate("window.vibrations"),
    )


def test_the_turn_flags_the_tab_and_vibrates_only_the_one_whose_turn_it_is(
    phones: Any, server: ServerProcess
) -> None:
    """Peter's Panel is up, Sue's comes next, then the Editor's face-down card, then Ben's.
    Peter's phone is flagged and buzzed; Sue's says on deck; Ben's nothing. Sue turned
    vibration off on her phone: her turn flags her tab, without a buzz, and Ben is on deck (the
    Editor's card between tells him nothing)."""
    table = Table(server, "four-color")
    for hero in ("peter", "sue", "ben"):
        table.send({"type": "join", "member": {"id": hero, "name": hero.title(), "kind": "hero"}})
    table.send({"type": "deal", "source": "gm"})
    for card in ("KH", "QC", "2C", "3D"):  # Peter, Sue, Ben, then the Editor's extra card
        seq = table.send({"type": "deal_card", "card": card})["seq"]
    peter, sue, ben = phones(), phones(), phones()
    links = {who: hand_to(table, who) for who in ("peter", "sue", "ben")}
    for phone, who in ((peter, "peter"), (sue, "sue"), (ben, "ben")):
        phone.goto(links[who])
        at_seq(phone, seq)
        touched(phone)
    seq = table.send({"type": "next_panel"})["seq"]
    for phone in (peter, sue, ben):
        at_seq(phone, seq)

    title, icon, buzzed = flagged(peter)
    assert title == "● Your turn: Peter · Friday game"
    assert icon.startswith("data:image/svg+xml") and buzzed == [[200, 100, 200]]
    title, icon, buzzed = flagged(sue)
    assert title == "● On deck: Sue · Friday game"
    assert icon.startswith("data:image/svg+xml") and buzzed == [[80]]
    assert flagged(ben) == ("Friday game", "data:,", [])

    sue.get_by_text("Alerts on this device…").click()
    sue.get_by_label("Vibrate").uncheck()
    sue.reload()
    at_seq(sue, seq)
    sue.get_by_text("Alerts on this device…").click()
    assert not sue.get_by_label("Vibrate").is_checked(), "the setting is kept in the browser"
    assert sue.get_by_label("Flag the tab's title and icon").is_checked()

    seq = table.send({"type": "next_panel"})["seq"]
    for phone in (peter, sue, ben):
        at_seq(phone, seq)
    assert flagged(peter) == ("Friday game", "data:,", [[200, 100, 200]]), "no second buzz"
    title, icon, buzzed = flagged(sue)
    assert title == "● Your turn: Sue · Friday game" and buzzed == []
    # Ben's card is the next he can see: the Editor's face-down 3♦ before it is no warning.
    title, icon, buzzed = flagged(ben)
    assert title == "● On deck: Ben · Friday game" and buzzed == [[80]]
    assert ben.evaluate("document.body.dataset.alert") == "on_deck"


def test_a_phone_opened_on_its_turn_buzzes_only_once_touched(
    phones: Any, server: ServerProcess
) -> None:
    """A browser lets a page vibrate only after a tap on it: a page opened on the player's
    turn flags it without a buzz (the browser would refuse it, and say so in its log), and
    buzzes for the next alert once the player has touched it."""
    table, seq = first_panel(server, ("KH", "QC", "2C"))  # Peter's Panel played, Sue's next
    sue = phones()
    sue.goto(hand_to(table, "sue"))
    at_seq(sue, seq)
    title, _, buzzed = flagged(sue)
    assert title == "● On deck: Sue · Friday game" and buzzed == [], buzzed
    touched(sue)
    seq = table.send({"type": "next_panel"})["seq"]
    at_seq(sue, seq)
    assert flagged(sue)[2] == [[200, 100, 200]]


def test_the_player_page_is_an_installable_app_with_a_worker(
    phones: Any, server: ServerProcess
) -> None:
    """The page names its manifest; the manifest's icons are served; the service worker that
    shows a pushed turn registers for every player page (``/play/``). On a loopback address
    (a secure context) the page offers notifications; a GM who serves plain http on a LAN gets
    the reason instead (docs/pages.md)."""
    table = Table(server, "four-color")
    table.send({"type": "join", "member": {"id": "peter", "name": "Peter", "kind": "hero"}})
    phone = phones()
    phone.goto(hand_to(table, "peter"))
    phone.wait_for_selector("#alerts")
    manifest = phone.evaluate(
        """async () => {
          const link = document.querySelector("link[rel=manifest]").href;
          const manifest = await (await fetch(link)).json();
          const icons = await Promise.all(manifest.icons.map(async (icon) =>
            [icon.sizes, (await fetch(icon.src)).status]));
          return { scope: manifest.scope, display: manifest.display, icons,
                   start: manifest.start_url, id: manifest.id,
                   here: location.pathname + location.search };
        }"""
    )
    assert manifest["scope"] == "/play/" and manifest["display"] == "standalone"
    # Installed, the app opens this player's own link: the table, and the token it was handed.
    assert manifest["start"] == manifest["id"] == manifest["here"]
    cdp = phone.context.new_cdp_session(phone)
    read = cdp.send("Page.getAppManifest")
    assert not read["errors"], read["errors"]
    assert read["url"].endswith(
        f"/play/{table.id}/manifest.webmanifest?{manifest['here'].split('?')[1]}"
    ), read["url"]
    assert read["manifest"]["startUrl"] == server.url + manifest["here"], "as Chromium reads it"
    assert ["192x192", 200] in manifest["icons"] and ["512x512", 200] in manifest["icons"]
    scope = phone.evaluate(
        """async () => (await navigator.serviceWorker.register("/play/sw.js",
                                                                { scope: "/play/" })).scope"""
    )
    assert scope == f"{server.url}/play/"
    phone.get_by_text("Alerts on this device…").click()
    assert phone.get_by_label("Notify me when the page is closed or the phone locked").is_enabled()
    # On a phone the last setting's label wraps: its box is drawn as large as the others.
    boxes = phone.evaluate(
        """() => [...document.querySelectorAll('label.setting > input')].map((box) => {
                   const { width, height } = box.getBoundingClientRect();
                   return [width, height]; })"""
    )
    assert len({(width, height) for width, height in boxes}) == 1, boxes
    shoot(phone, "alert-settings-phone")


def test_the_console_sets_the_discord_channel_and_shows_who_hears_their_turn(
    page: Any, server: ServerProcess
) -> None:
    """The GM pastes a URL that is no Discord webhook and is told where to copy one; links
    Jena's Discord id with a mention and reads it back in her row; sets a webhook and stops
    it again (no command is sent meanwhile, so nothing goes out)."""
    table = Table(server, "megatraveller-rcs")
    table.send(rcs_character("jena", "crew"))
    page.goto(f"{server.url}/console/{table.id}#token={table.gm}")
    page.get_by_text("Turn alerts: Discord and players' devices").click()
    jena = page.locator("[data-person=jena]")
    assert "Jena · not on Discord · no device notified" in jena.inner_text()
    page.get_by_label("Discord webhook URL").fill("https://example.com/hook")
    page.locator("[data-action=save-webhook]").click()
    said = page.locator("[data-said=reach]")
    page.wait_for_function(
        "document.querySelector('[data-said=reach]').textContent.startsWith('Not saved')"
    )
    assert "Copy Webhook URL" in said.inner_text()
    # A refused id is said on its row, in the page's words: the box left empty, not "null".
    page.get_by_label("Jena's Discord user id").fill("jena#1234")
    jena.locator("[data-action=reach-jena]").click()
    refused = jena.locator("[data-said=reach-jena]")
    refused.filter(has_text="Not saved").wait_for()
    assert "or leave it empty to unlink" in refused.inner_text()
    assert "null" not in refused.inner_text()
    page.get_by_label("Jena's Discord user id").fill("111111111111111111")
    jena.get_by_label("Mention on their turn").check()
    jena.locator("[data-action=reach-jena]").click()
    page.wait_for_selector("text=Jena: mentioned on Discord · no device notified.")
    # Her row says so too, from the server's answer, without a reload or a poll.
    jena.filter(has_text="Jena · mentioned on Discord · no device notified").wait_for()
    _, kept = call(f"{table.url}/discord", token=table.gm)
    assert kept["players"] == {"jena": {"discord_id": "111111111111111111", "mention": True}}
    hook = "https://discord.com/api/webhooks/123456789012345678/" + "x" * 68
    page.get_by_label("Discord webhook URL").fill(hook)
    page.locator("[data-action=save-webhook]").click()
    page.wait_for_selector("text=The table posts its turns to that channel.")
    page.locator("[data-action=stop-webhook]").click()
    page.wait_for_selector("text=The table no longer posts to Discord.")
    assert call(f"{table.url}/discord", token=table.gm)[1]["webhook"] is None


def test_a_discord_id_typed_and_left_unsaved_outlives_the_poll(
    page: Any, server: ServerProcess
) -> None:
    """The GM types Jena's Discord id, then looks elsewhere before saving it; meanwhile Okoro
    links his own id through the API. The next poll draws Okoro's row anew and leaves Jena's box
    as the GM typed it (it was wiped before), and a save still sends it."""
    table = Table(server, "megatraveller-rcs")
    table.send(rcs_character("jena", "crew"))
    table.send(rcs_character("okoro", "crew"))
    page.goto(f"{server.url}/console/{table.id}#token={table.gm}")
    page.get_by_text("Turn alerts: Discord and players' devices").click()
    typed = page.get_by_label("Jena's Discord user id")
    typed.fill("222222222222222222")
    page.locator("h1").first.click()  # the focus leaves the section: a poll may draw it
    status, _ = call(
        f"{table.url}/discord/players/okoro",
        "PUT",
        {"discord_id": "333333333333333333", "mention": True},
        table.gm,
    )
    assert status == 200
    page.locator("[data-person=okoro]").filter(has_text="mentioned on Discord").wait_for()
    assert typed.input_value() == "222222222222222222"
    page.locator("[data-action=reach-jena]").click()  # mentioned: ticked for one not linked
    page.wait_for_selector("text=Jena: mentioned on Discord · no device notified.")
    _, kept = call(f"{table.url}/discord", token=table.gm)
    assert kept["players"]["jena"] == {"discord_id": "222222222222222222", "mention": True}
