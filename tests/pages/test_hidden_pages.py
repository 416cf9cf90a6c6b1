"""The shootout with a sniper, the sniper hidden from the console (the shared rulings), in
Chromium against a real server: the Kid's phone and the stream see nothing of the sniper while
it lies in wait and declares its shot, and see it when the shot resolves."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import expect

from tests.server.process import ServerProcess

from .conftest import SIZES, Table, shoot, token_of
from .console_driver import Console
from .test_play import rcs_character


@pytest.fixture
def watchers(browser: Any) -> Iterator[tuple[Any, Any]]:
    """A player's phone and an OBS browser source at its default size."""
    phone = browser.new_context(viewport=SIZES["phone"], has_touch=True)
    stream = browser.new_context(viewport={"width": 800, "height": 600})
    yield phone.new_page(), stream.new_page()
    phone.close()
    stream.close()


def link(console: Console, path: str) -> str:
    """A hand-off link the console would show (``handoff/…``), asked with its own token."""
    table_id = console.page.url.split("/console/", 1)[1].split("#", 1)[0]
    url: str = console.page.evaluate(
        """async ([id, path]) => {
             const token = JSON.parse(localStorage.getItem(`seize:${id}`)).gm_token;
             const answer = await fetch(`/api/tables/${id}/${path}`,
               { method: "POST", headers: { Authorization: `Bearer ${token}` } });
             return (await answer.json()).url;
           }""",
        [table_id, path],
    )
    return url


def caught_up(page: Any, console: Console, token: str, where: str = "body") -> str:
    """The page's text once it has drawn the table as far as its role numbers it (the role's
    own count of the steps, which leaves out those of someone hidden from it)."""
    table_id = console.page.url.split("/console/", 1)[1].split("#", 1)[0]
    seq: int = console.page.evaluate(
        """async ([id, token]) => (await (await fetch(`/api/tables/${id}`,
             { headers: { Authorization: `Bearer ${token}` } })).json()).seq""",
        [table_id, token],
    )
    page.wait_for_function(f"Number(document.querySelector({where!r}).dataset.seq) >= {seq}")
    return str(page.inner_text("body"))


def test_a_hidden_sniper_reaches_no_phone_or_stream_until_it_fires(
    console: Console, watchers: tuple[Any, Any], server: ServerProcess
) -> None:
    phone, stream = watchers
    console.create("awareness", "High noon")
    console.add("Kid")
    console.add("Black Bart")
    console.page.locator("[data-form=join] input[name=hidden]").check()
    console.add("Sniper")
    assert console.row("Sniper").locator("[data-hidden]").inner_text() == "hidden from players"
    phone_link, stream_link = link(console, "handoff/players/kid"), link(console, "handoff/overlay")
    phone.goto(phone_link)
    stream.goto(stream_link)
    tokens = {phone: token_of(phone_link), stream: token_of(stream_link)}

    console.roll_at_the_table({"Kid": 4, "Black Bart": 9, "Sniper": 1})
    # While the sniper has yet to declare, no one waits for it: the Kid is declaring.
    for page, where in ((phone, "body"), (stream, "#overlay")):
        text = caught_up(page, console, tokens[page], where)
        assert "Waiting on the GM…" not in text and "Sniper" not in text, text
    console.declare("Sniper", "the Kid draws", wait=True)
    console.declare("Kid", "draws")
    console.preempt("Sniper", "Kid", 10)
    for page, where in ((phone, "body"), (stream, "#overlay")):
        text = caught_up(page, console, tokens[page], where)
        assert "Sniper" not in text, text
        assert "Kid" in text
    shoot(phone, "hidden-sniper-phone")
    shoot(console.page, f"hidden-sniper-console-{console.size}")

    # Hiding is a roster button too: Black Bart steps out of sight, then back.
    console.tap(console.row("Black Bart").locator("[data-action=hide-black-bart]"))
    assert console.gm_get()["view"]["hidden"] == ["black-bart", "sniper"]
    console.tap(console.row("Black Bart").locator("[data-action=reveal-black-bart]"))
    assert console.gm_get()["view"]["hidden"] == ["sniper"]

    console.resolve_exchange()
    for page, where in ((phone, "body"), (stream, "#overlay")):
        assert "Sniper" in caught_up(page, console, tokens[page], where)
    assert not console.row("Sniper").locator("[data-hidden]").count()

    # One undo takes back the shot that revealed the sniper and the reveal with it.
    undo = console.page.locator("[data-action=undo]")
    label = undo.inner_text()
    assert label.startswith("↶ Undo resolving ") and label.endswith(", hiding Sniper again")
    console.tap(undo)
    assert console.gm_get()["view"]["hidden"] == ["sniper"]
    assert console.row("Sniper").locator("[data-hidden]").count() == 1
    assert "Sniper" not in caught_up(phone, console, tokens[phone])


def test_a_seen_holder_is_offered_no_target_hidden_from_the_players(
    page: Any, server: ServerProcess
) -> None:
    """Jena holds the token, the Sniper hidden: the console's declaration offers her the Guard,
    not the Sniper, whose name in her declaration would tell the players of it, and says why;
    once the GM reveals the Sniper, it is offered. The Sniper's own declaration, which the
    players are not shown, may aim at anyone."""
    table = Table(server, "megatraveller-rcs")
    for cid, side in (("jena", "crew"), ("guard", "corp"), ("sniper", "corp")):
        table.send({**rcs_character(cid, side), "hidden": cid == "sniper"})
    table.send({"type": "roll_initiative", "source": "gm"})
    for cid, dice in (("jena", [1, 1]), ("guard", [3, 3]), ("sniper", [6, 6])):
        table.send({"type": "enter_roll", "character": cid, "dice": dice, "source": "gm"})
    page.goto(f"{server.url}/console/{table.id}#token={table.gm}")
    targets = page.locator("[data-form=declare] select[aria-label=At] option")
    expect(targets).to_have_text(["no one", "Guard"])
    said = page.locator("[data-form=declare] [data-unaimed]")
    expect(said).to_have_text(
        "Not offered while hidden from players: Sniper (reveal first to aim at them)"
    )
    table.send({"type": "reveal", "participant": "sniper"})
    expect(targets).to_have_text(["no one", "Guard", "Sniper"])
    assert said.count() == 0
    table.send({"type": "hide", "participant": "sniper"})
    table.send({"type": "declare", "character": "jena", "action": "long", "what": "dives",
                "target": "—"})  # fmt: skip
    table.send({"type": "resolve"})  # the token to the Guard, then the hidden Sniper's turn
    table.send({"type": "declare", "character": "guard", "action": "long", "what": "waits",
                "target": "—"})  # fmt: skip
    table.send({"type": "resolve"})
    expect(page.locator("[data-form=declare] button[data-action=declare]")).to_have_text(
        "Declare for Sniper"
    )
    expect(targets).to_have_text(["no one", "Jena", "Guard"])
