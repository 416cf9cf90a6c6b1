"""A notice appears only when something a person typed was truly not sent. Each step here works,
and the fields it used or the page filled in leave with the table's next view: an awareness
roll (the awareness settings' defaults go), the Editor's extra card assigned, a declaration
from a phone, a pre-emption. None of them may be called "not sent"."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from tests.server.process import ServerProcess, call

from .conftest import Table
from .console_driver import TABLET, Console

WATCH = """() => {
  window.notices = [];
  new MutationObserver(() => {
    const text = document.getElementById("notice")?.textContent;
    if (text) window.notices.push(text);
  }).observe(document.body, { subtree: true, childList: true, characterData: true });
}"""


def watched(page: Any) -> None:
    """Record every notice the page shows from now on, however briefly."""
    page.evaluate(WATCH)


def notices(page: Any) -> list[str]:
    return list(page.evaluate("window.notices"))


@pytest.fixture
def console(browser: Any) -> Iterator[Console]:
    context = browser.new_context(viewport=TABLET, has_touch=True)
    yield Console(context.new_page(), "")
    context.close()


def opened(console: Console, table: Table) -> None:
    console.page.goto(f"{table.server.url}/console/{table.id}#token={table.gm}")
    seq = table.view(table.gm)["seq"]
    console.page.wait_for_function(f"Number(document.body.dataset.seq) === {seq}")
    watched(console.page)


def awareness_table(server: ServerProcess, *names: str) -> Table:
    table = Table(server, "awareness")
    for name in names:
        sheet = {"id": name.lower(), "name": name, "perception": 5, "stealth": 5,
                 "coordination": 5}  # fmt: skip
        table.send({"type": "join", "sheet": sheet})
    return table


def test_an_awareness_roll_and_a_pre_emption_say_nothing_was_lost(
    console: Console, server: ServerProcess
) -> None:
    table = awareness_table(server, "Kid", "Marshal")
    opened(console, table)
    console.page.locator(".row[data-id=kid] summary", has_text="Awareness").click()
    console.tap("[data-action=await-rolls]")  # the settings' fields leave with the round
    for die in ("1", "3"):
        console.type("#next input[name=die]", die)
        console.press()
    console.type("#next input[name=what]", "the Marshal draws")
    console.tap("[data-action=wait]")
    console.type("#next input[name=what]", "draws")
    console.press()
    console.tap("[data-action=preempt-kid]")  # the engine rolls Kid's d10, which may miss
    assert console.doing("Kid").startswith(("Pre-empts Marshal", "Tried to pre-empt Marshal"))
    assert notices(console.page) == []


def test_the_editors_extra_card_assigned_says_nothing_was_lost(
    console: Console, server: ServerProcess
) -> None:
    table = Table(server, "four-color")
    for ident, kind in (("nightingale", "hero"), ("spider-man", "hero"), ("doom", "villain")):
        table.send({"type": "join", "member": {"id": ident, "name": ident.title(), "kind": kind}})
    table.send({"type": "deal", "source": "engine"})
    opened(console, table)
    while not console.prompt.startswith("Assign the Editor's"):
        console.press()
    console.press()  # to Doom, as the select offers
    assert not console.prompt.startswith("Assign the Editor's")
    assert notices(console.page) == []


def test_a_declaration_from_a_phone_says_nothing_was_lost(
    phone: Any, server: ServerProcess
) -> None:
    table = awareness_table(server, "Kid", "Marshal")
    _, link = call(f"{table.url}/handoff/players/kid", "POST", {}, table.gm)
    table.send({"type": "roll_initiative", "source": "gm"})
    for who, die in (("kid", 1), ("marshal", 3)):
        table.send({"type": "enter_initiative", "character": who, "die": die, "source": "gm"})
    phone.goto(link["url"])
    phone.locator("input[name=what]").wait_for()
    watched(phone)
    phone.locator("input[name=what]").fill("the Marshal draws")
    phone.locator("[data-action=wait]").click()
    phone.get_by_text("the Marshal draws").first.wait_for()
    assert notices(phone) == []


def test_a_card_typed_and_lost_is_still_said_not_sent_with_whose_it_was(
    console: Console, server: ServerProcess
) -> None:
    """The notice the others must not give, given where it is true: named in the game's words."""
    table = Table(server, "four-color")
    for ident in ("nightingale", "spider-man"):
        table.send({"type": "join", "member": {"id": ident, "name": ident.title(), "kind": "hero"}})
    table.send({"type": "deal", "source": "gm"})
    opened(console, table)
    console.page.locator("#next input[name=card]").fill("Q")
    table.send({"type": "deal_card", "card": "5C"})  # the reader deals it first
    console.page.locator("#notice", has_text="Not sent").wait_for()
    assert notices(console.page)[-1].startswith("Not sent: Nightingale's card “Q”")
