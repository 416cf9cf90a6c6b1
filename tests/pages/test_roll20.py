"""The Roll20 userscript in Chromium, against a page that stands in for Roll20's editor.

Roll20 itself cannot run here (no network, and its editor needs an account), so the test
serves https://app.roll20.net/editor/ from Playwright's router: a page whose ``Campaign`` object
stands in for Roll20's campaign model with the three calls the bridge uses (get, save, and
on "change:turnorder"). Everything else, the userscript, the server, the browser, is real.
"""

from __future__ import annotations

import json
import time
import urllib.request
from collections.abc import Callable
from typing import Any

from tests.server.process import ServerProcess, call

from .conftest import Table, shoot

STAND_IN = """<!doctype html><html><head><title>Roll20 (stand-in)</title></head><body>
<h1>A stand-in for Roll20's editor</h1><pre id="turnorder"></pre>
<script>
  window.Campaign = {
    attributes: { turnorder: "", playerpageid: "page-1" },
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
    page.route(
        "https://app.roll20.net/editor/",
        lambda route: route.fulfill(status=200, content_type="text/html", body=STAND_IN),
    )
    page.add_init_script(
        f"localStorage.setItem('seize:table', {json.dumps(table.id)});"
        f"localStorage.setItem('seize:token', {json.dumps(table.gm)});"
    )
    page.goto("https://app.roll20.net/editor/")
    _, script = call_text(f"{server.url}/roll20/seize.user.js")
    page.add_script_tag(content=script)
    page.wait_for_function("window.Campaign.get('turnorder') !== ''")
    assert turnorder(page) == served(table)

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


def eventually(condition: Callable[[], bool], timeout: float = 10) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, "the bridge did not catch up"
        time.sleep(0.02)


def call_text(url: str) -> tuple[int, str]:
    with urllib.request.urlopen(url, timeout=5) as answer:
        return answer.status, answer.read().decode()
