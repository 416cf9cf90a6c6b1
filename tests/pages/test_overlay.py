"""The OBS overlay in Chromium against a real server."""

from __future__ import annotations

from typing import Any

import pytest
from PIL import Image

from tests.server.process import ServerProcess, call

from .conftest import Table, shoot

KEEPING_SOCKETS = """
  window.seizeSockets = [];
  window.WebSocket = class extends window.WebSocket {
    constructor(...args) { super(...args); window.seizeSockets.push(this); }
  };
"""
"""Keeps every WebSocket the page opens in ``window.seizeSockets``, to count and look at."""


def seq_shown(page: Any, seq: int) -> None:
    """Wait until the overlay has rendered the table at ``seq``."""
    page.wait_for_function(f"Number(document.getElementById('overlay').dataset.seq) >= {seq}")


def four_color(server: ServerProcess, heroes: int = 2, villains: int = 1) -> Table:
    """Heroes, then villains (the first is Doom). One hero means no extra cards to spend."""
    table = Table(server, "four-color")
    for n in range(heroes):
        table.send({"type": "join", "member": {"id": f"h{n}", "name": f"Hero {n}", "kind": "hero"}})
    for n in range(villains):
        member = {"id": f"v{n}", "name": "Doom" if n == 0 else f"Villain {n}", "kind": "villain"}
        table.send({"type": "join", "member": member})
    return table


def test_the_overlay_shows_a_deal_after_the_command(page: Any, server: ServerProcess) -> None:
    table = four_color(server)
    page.goto(table.overlay_url())
    page.wait_for_selector("text=Waiting for the deal")
    seq = table.send({"type": "deal"})["seq"]
    seq_shown(page, seq)
    public = table.view()["view"]
    shown = page.locator(".four-color .card[data-card]").evaluate_all(
        "cards => cards.map(card => card.dataset.card)"
    )
    assert shown == [entry["card"] for entry in public["order"]]
    assert page.locator(".card.face-down").count() == public["hidden_cards"]
    assert page.inner_text("[data-stage]") == "Page 1"  # where the table stands
    shoot(page, "overlay-four-color")


def test_the_overlay_body_is_transparent(page: Any, server: ServerProcess) -> None:
    table = four_color(server)
    table.send({"type": "deal"})
    page.goto(table.overlay_url())
    page.wait_for_selector(".four-color .card")
    assert page.evaluate("getComputedStyle(document.body).backgroundColor") == "rgba(0, 0, 0, 0)"
    with Image.open(shoot(page, "overlay-transparency")) as image:
        rgba = image.convert("RGBA")
        width, height = rgba.size
        assert (width, height) == (1920, 1080)
        corners = [(0, 0), (width - 1, 0), (0, height - 1), (width - 1, height - 1)]
        assert [rgba.getpixel(corner)[3] for corner in corners] == [0, 0, 0, 0]  # type: ignore[index]


def test_after_a_reload_the_overlay_shows_the_same_state(page: Any, server: ServerProcess) -> None:
    table = four_color(server, heroes=1, villains=3)
    table.send({"type": "deal"})
    table.send({"type": "next_panel"})
    seq = table.send({"type": "next_panel"})["seq"]
    page.goto(table.overlay_url())
    seq_shown(page, seq)
    before = page.inner_html("#overlay")
    page.reload()
    seq_shown(page, seq)
    assert page.inner_html("#overlay") == before


def test_a_jokers_interruption_is_made_visible(page: Any, server: ServerProcess) -> None:
    table = four_color(server)
    table.send({"type": "deal", "source": "gm"})
    for card in ("9H", "8H", "RJ", "5C"):  # the villain's card is the red joker
        table.send({"type": "deal_card", "card": card, "source": "gm"})
    page.goto(table.overlay_url())
    seq = table.send({"type": "play_joker", "card": "RJ"})["seq"]
    seq_shown(page, seq)
    assert page.locator(".panel.current .card").get_attribute("data-card") == "RJ"
    assert page.locator(".moment.editorial .title").text_content() == "Editorial Control!"
    assert "Doom" in page.locator(".moment.editorial").text_content()
    assert "Doom" in page.locator(".panel.current .who").inner_text()
    shoot(page, "overlay-joker")


def test_the_rcs_overlay_shows_index_cards_tapped_cards_and_the_token(
    page: Any, server: ServerProcess
) -> None:
    table = Table(server, "megatraveller-rcs")
    for cid, name in (("jena", "Jena"), ("guard", "Guard"), ("sarge", "Sarge")):
        table.send(
            {
                "type": "join",
                "character": {"id": cid, "name": name, "side": cid, "dex": 0, "movement": 0},
            }
        )
    table.send({"type": "roll_initiative", "source": "gm"})
    for cid, dice in (("jena", [1, 2]), ("guard", [3, 3]), ("sarge", [6, 6])):
        table.send({"type": "enter_roll", "character": cid, "dice": dice, "source": "gm"})
    page.goto(table.overlay_url())
    table.send(
        {
            "type": "declare",
            "character": "jena",
            "action": "long",
            "what": "dives out the window",
            "target": "the window",
        }
    )
    seq = table.send({"type": "seize", "character": "sarge"})["seq"]
    seq_shown(page, seq)
    order = page.locator(".index-card").evaluate_all("cards => cards.map(c => c.dataset.id)")
    assert order == ["sarge", "jena", "guard"]
    assert page.locator(".index-card[data-id=sarge] .token").count() == 1
    table.send(
        {
            "type": "declare",
            "character": "sarge",
            "action": "long",
            "what": "fires",
            "target": "jena",
        }
    )
    seq = table.send({"type": "resolve"})["seq"]
    seq_shown(page, seq)
    assert "tapped" in (page.locator(".index-card[data-id=sarge]").get_attribute("class") or "")
    assert page.locator(".index-card[data-id=jena] .token").count() == 1
    assert page.locator(".index-card[data-id=guard] .initiative").inner_text().startswith("6")
    assert page.inner_text("[data-stage]") == "Round 1"
    shoot(page, "overlay-rcs")


def test_the_awareness_overlay_never_shows_hidden_values_or_the_order_to_come(
    page: Any, server: ServerProcess
) -> None:
    table = Table(server, "awareness")
    for cid, name in (("kid", "Kid"), ("marshal", "Marshal"), ("sniper", "Sniper")):
        table.send(
            {
                "type": "join",
                "sheet": {
                    "id": cid,
                    "name": name,
                    "perception": 5,
                    "stealth": 5,
                    "coordination": 5,
                },
            }
        )
    table.send({"type": "roll_initiative", "source": "gm"})
    for cid, die in (("kid", 2), ("marshal", 5), ("sniper", 8)):
        table.send({"type": "enter_initiative", "character": cid, "die": die, "source": "gm"})
    page.goto(table.overlay_url())
    seq = table.send({"type": "wait", "character": "kid", "trigger": "the Marshal draws"})["seq"]
    seq_shown(page, seq)
    text = page.inner_text("body")
    assert "Declaring: Marshal" in text and "Kid waits" in text
    assert "the Marshal draws" not in text  # what Kid waits for is the GM's and Kid's alone
    assert "Sniper" not in text  # still to come: the order is secret
    html = page.content()
    for secret in ("qr", "score", '"die"', "QR", "Score"):
        assert secret not in html
    assert page.inner_text("[data-stage]") == "Round 1"  # the only number on show
    assert not any(ch.isdigit() for ch in text.replace("Round 1", ""))  # no QR, Score or die
    shoot(page, "overlay-awareness")


def test_the_overlay_reconnects_and_resumes_after_the_server_restarts(
    page: Any, server: ServerProcess
) -> None:
    table = four_color(server, heroes=1, villains=3)
    table.send({"type": "deal"})
    page.goto(table.overlay_url())
    seq_shown(page, table.view()["seq"])
    server.stop()
    server.start(same_port=True)
    table.send({"type": "next_panel"})
    seq = table.send({"type": "next_panel"})["seq"]
    seq_shown(page, seq)
    played = table.view()["view"]["current"]["card"]
    assert page.locator(".panel.current .card").get_attribute("data-card") == played


def test_an_overlay_whose_link_was_revoked_stops_following_and_keeps_its_picture(
    page: Any, server: ServerProcess
) -> None:
    """A leaked link, replaced by a new one: the page holding it is shown nothing more, and it
    does not knock again and again; what it showed stays, so nothing but the table is on
    stream."""
    table = four_color(server)
    sockets: list[Any] = []
    page.on("websocket", lambda socket: sockets.append(socket))  # noqa: PLW0108 (a builtin won't do)
    page.add_init_script(KEEPING_SOCKETS)
    page.clock.install()  # the page's timers: run on at will below, rather than waited for
    page.goto(table.overlay_url())
    seq = table.send({"type": "deal"})["seq"]
    seq_shown(page, seq)
    status, _ = call(f"{table.url}/handoff/overlay", "POST", token=table.gm)
    assert status == 201
    # Closed, and the page has handled the close: it runs in the task that marks it closed.
    page.wait_for_function("window.seizeSockets.at(-1).readyState === WebSocket.CLOSED")
    table.send({"type": "join", "member": {"id": "late", "name": "Latecomer", "kind": "mob"}})
    page.clock.run_for(60_000)  # a minute on: reconnecting, it would have knocked (250 ms)
    assert page.evaluate("window.seizeSockets.length") == 1
    assert len(sockets) == 1
    assert page.locator("#overlay").get_attribute("data-seq") == str(seq)
    assert page.locator(".four-color .card").count() > 0


def test_the_overlay_never_puts_an_error_on_stream(browser: Any, server: ServerProcess) -> None:
    table = four_color(server)
    context = browser.new_context(viewport={"width": 800, "height": 600})
    page = context.new_page()
    page.goto(f"{server.url}/overlay/{table.id}?token=not-a-token")
    page.wait_for_load_state("networkidle")
    assert page.inner_text("body").strip() == ""  # a dead link shows nothing, not a message
    context.close()


@pytest.mark.parametrize("size", [(800, 600), (1920, 1080), (1280, 720), (600, 800)])
def test_the_overlay_fits_any_browser_source(
    browser: Any, server: ServerProcess, size: tuple[int, int]
) -> None:
    table = four_color(server, heroes=6, villains=4)
    table.send({"type": "deal"})
    width, height = size
    context = browser.new_context(viewport={"width": width, "height": height})
    page = context.new_page()
    page.goto(table.overlay_url())
    page.wait_for_selector(".four-color .card")
    box = page.locator("#overlay").bounding_box()
    assert box["x"] >= 0 and box["y"] >= 0
    assert box["x"] + box["width"] <= width and box["y"] + box["height"] <= height
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    context.close()
