"""The Roll20 userscript in Chromium, against a page that stands in for Roll20's editor.

Roll20 itself cannot run here (no network, and its editor needs an account), so the test
serves https://app.roll20.net/editor/ from Playwright's router: a page whose ``Campaign`` object
stands in for Roll20's campaign model with the three calls the bridge uses (get, save, and
on "change:turnorder"), beside the two page globals it reads (``campaign_id``, ``is_gm``).
Everything else, the userscript, the server, the browser, is real.
"""

from __future__ import annotations

import json
import urllib.request
from collections.abc import Callable
from typing import Any

from tests.server.process import ServerProcess, call
from tests.waiting import until

from .conftest import Table, shoot

STAND_IN = """<!doctype html><html><head><title>Roll20 (stand-in)</title></head><body>
<h1>A stand-in for Roll20's editor</h1><pre id="turnorder"></pre>
<script>
  window.campaign_id = CAMPAIGN;
  window.is_gm = IS_GM;
  window.Campaign = {
    attributes: { turnorder: "", playerpageid: "page-1", initiativepage: false },
    listeners: [],
    saves: 0,
    get(key) { return this.attributes[key]; },
    save(changes) {
      this.saves += 1;
      Object.assign(this.attributes, changes);
      document.getElementById("turnorder").textContent = this.attributes.turnorder;
      if ("turnorder" in changes) for (const listener of this.listeners) listener();
    },
    on(event, listener) { if (event === "change:turnorder") this.listeners.push(listener); },
  };
</script></body></html>"""


COUNTING_CONNECTIONS = """
  window.seizeConnections = 0;
  const fetched = window.fetch;
  window.fetch = (...args) => { window.seizeConnections += 1; return fetched(...args); };
  window.WebSocket = class extends window.WebSocket {
    constructor(...args) { super(...args); window.seizeConnections += 1; }
  };
"""
"""Counts the page's requests and sockets: the stand-in makes none, so any is the bridge's."""

LINKED = 4151  # the Roll20 game linked to the table


def open_roll20(
    page: Any, server: ServerProcess, storage: dict[str, str], campaign: int, *, gm: bool
) -> None:
    """Open the stand-in for one Roll20 game, with this browser's storage, as a GM or a
    player, and run the userscript in it."""
    body = STAND_IN.replace("CAMPAIGN", str(campaign)).replace("IS_GM", json.dumps(gm))
    page.route(
        "https://app.roll20.net/editor/",
        lambda route: route.fulfill(status=200, content_type="text/html", body=body),
    )
    page.add_init_script(
        "".join(
            f"localStorage.setItem({json.dumps(k)}, {json.dumps(v)});" for k, v in storage.items()
        )
    )
    page.goto("https://app.roll20.net/editor/")
    _, script = call_text(f"{server.url}/roll20/seize.user.js")
    page.add_script_tag(content=script)


def linked(table: Table) -> dict[str, str]:
    return {f"seize:campaign:{LINKED}": json.dumps({"table": table.id, "token": table.gm})}


def turnorder(page: Any) -> list[dict[str, Any]]:
    raw = page.evaluate("window.Campaign.get('turnorder')")
    return list(json.loads(raw)) if raw else []


def served(table: Table) -> list[dict[str, Any]]:
    _, entries = call(f"{table.url}/roll20/turnorder?as=public&page=page-1", token=table.gm)
    return list(entries)


def test_the_userscript_follows_the_table_and_sends_the_gms_next(
    page: Any, server: ServerProcess
) -> None:
    table = Table(server, "four-color")
    table.send({"type": "join", "member": {"id": "h1", "name": "Valeros", "kind": "hero"}})
    for n in range(3):
        table.send(
            {"type": "join", "member": {"id": f"v{n}", "name": f"Goblin {n}", "kind": "villain"}}
        )
    table.send({"type": "deal", "source": "gm"})
    for card in ("9H", "KS", "5C", "2D"):  # the Panels go K♠, 9♥, 5♣, 2♦
        table.send({"type": "deal_card", "card": card, "source": "gm"})
    # Chromium asks the GM once whether Roll20 may reach the Seize server on their machine;
    # the GM allows it (docs/roll20.md says so), as this does.
    page.context.grant_permissions(["local-network-access"], origin="https://app.roll20.net")
    open_roll20(page, server, linked(table), LINKED, gm=True)
    page.wait_for_function("window.Campaign.get('turnorder') !== ''")
    assert turnorder(page) == served(table)
    assert page.evaluate("window.Campaign.get('initiativepage')") is True  # players see it

    seq = table.send({"type": "next_panel"})["seq"]  # the GM moves on in Seize's console
    page.wait_for_function(
        f"JSON.parse(window.Campaign.get('turnorder'))[0].pr === "
        f"{json.dumps(served(table)[0]['pr'])}"
    )
    assert turnorder(page) == served(table)
    assert table.view(table.gm)["seq"] == seq  # its own writes sent nothing back

    entries = turnorder(page)  # the GM clicks "next" in Roll20's turn order
    page.evaluate(
        "entries => window.Campaign.save({turnorder: JSON.stringify(entries)})",
        entries[1:] + entries[:1],
    )
    eventually(lambda: len(table.view(table.gm)["view"]["panels"]) == 2)
    eventually(lambda: turnorder(page) == served(table))
    assert table.view(table.gm)["seq"] == seq + 1
    assert [e["pr"] for e in turnorder(page)] == ["9♥", "5♣", "2♦", "K♠"]  # current first

    entries = turnorder(page)  # any other change in Roll20 is put back
    page.evaluate(
        "entries => window.Campaign.save({turnorder: JSON.stringify(entries)})",
        list(reversed(entries)),
    )
    eventually(lambda: turnorder(page) == entries)
    assert table.view(table.gm)["seq"] == seq + 1
    shoot(page, "roll20-stand-in")


def test_the_userscript_writes_only_in_the_linked_game_and_only_for_a_gm(
    browser: Any, server: ServerProcess
) -> None:
    table = Table(server, "four-color")
    table.send({"type": "join", "member": {"id": "h1", "name": "Valeros", "kind": "hero"}})
    # What the bridge kept before links were per game: one table for every game.
    storage = {"seize:table": table.id, "seize:token": table.gm, **linked(table)}
    for campaign, gm in ((LINKED + 1, True), (LINKED, False), (LINKED, True)):
        context = browser.new_context()
        context.grant_permissions(["local-network-access"], origin="https://app.roll20.net")
        page = context.new_page()
        asked = declining(page)
        writes = campaign == LINKED and gm
        if not writes:
            page.add_init_script(COUNTING_CONNECTIONS)
        open_roll20(page, server, storage, campaign, gm=gm)
        if writes:
            page.wait_for_function("window.Campaign.get('turnorder') !== ''")
            assert turnorder(page) == served(table) and asked == []
        else:
            # The userscript runs to its end at once (Roll20's Campaign is already there):
            # having opened no connection to Seize, it has nothing to write, now or later.
            assert page.evaluate("window.seizeConnections") == 0, (campaign, gm)
            assert page.evaluate("window.Campaign.saves") == 0, (campaign, gm)
            # Another game of the GM's is asked about once (declined here); a player never is.
            assert len(asked) == (1 if gm else 0), asked
        context.close()


def declining(page: Any) -> list[str]:
    """Dismiss every dialog the page opens (a GM declining), and list what each asked."""
    asked: list[str] = []

    def dismiss(dialog: Any) -> None:
        asked.append(dialog.message)
        dialog.dismiss()

    page.on("dialog", dismiss)
    return asked


def eventually(condition: Callable[[], bool]) -> None:
    until(condition, "the bridge did not catch up")


def call_text(url: str) -> tuple[int, str]:
    with urllib.request.urlopen(url, timeout=5) as answer:
        return answer.status, answer.read().decode()
