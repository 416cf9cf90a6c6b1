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

from server.vtt.dialects import ROLL20_TEXT
from tests.server.process import ServerProcess, call
from tests.waiting import PATIENCE, until

from .conftest import Table, shoot
from .test_console_races import HeldSocket

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


def dealt(server: ServerProcess) -> Table:
    """A four-color table whose four Panels are dealt: they go K♠, 9♥, 5♣, 2♦."""
    table = Table(server, "four-color")
    table.send({"type": "join", "member": {"id": "h1", "name": "Valeros", "kind": "hero"}})
    for n in range(3):
        table.send(
            {"type": "join", "member": {"id": f"v{n}", "name": f"Goblin {n}", "kind": "villain"}}
        )
    table.send({"type": "deal", "source": "gm"})
    for card in ("9H", "KS", "5C", "2D"):
        table.send({"type": "deal_card", "card": card, "source": "gm"})
    return table


def bridged(page: Any, server: ServerProcess, table: Table) -> None:
    """The GM's Roll20 tab, linked to ``table``, once the bridge has written its order."""
    # Chromium asks the GM once whether Roll20 may reach the Seize server on their machine;
    # the GM allows it (docs/roll20.md says so), as this does.
    page.context.grant_permissions(["local-network-access"], origin="https://app.roll20.net")
    open_roll20(page, server, linked(table), LINKED, gm=True)
    page.wait_for_function("window.Campaign.get('turnorder') !== ''")
    assert turnorder(page) == served(table)


def press_next(page: Any) -> None:
    """The GM clicks "next" in Roll20's turn order: its first entry goes to the end."""
    entries = turnorder(page)
    page.evaluate(
        "entries => window.Campaign.save({turnorder: JSON.stringify(entries)})",
        entries[1:] + entries[:1],
    )


def test_the_userscript_follows_the_table_and_sends_the_gms_next(
    page: Any, server: ServerProcess
) -> None:
    table = dealt(server)
    bridged(page, server, table)
    assert page.evaluate("window.Campaign.get('initiativepage')") is True  # players see it

    seq = table.send({"type": "next_panel"})["seq"]  # the GM moves on in Seize's console
    page.wait_for_function(
        f"JSON.parse(window.Campaign.get('turnorder'))[0].pr === "
        f"{json.dumps(served(table)[0]['pr'])}"
    )
    assert turnorder(page) == served(table)
    assert table.view(table.gm)["seq"] == seq  # its own writes sent nothing back

    press_next(page)
    eventually(lambda: len(table.view(table.gm)["view"]["panels"]) == 2)
    eventually(lambda: turnorder(page) == served(table))
    assert table.view(table.gm)["seq"] == seq + 1
    shown = [e["pr"].removesuffix(ROLL20_TEXT) for e in turnorder(page)]
    assert shown == ["9♥", "5♣", "2♦", "K♠"]  # current first

    entries = turnorder(page)  # any other change in Roll20 is put back
    page.evaluate(
        "entries => window.Campaign.save({turnorder: JSON.stringify(entries)})",
        list(reversed(entries)),
    )
    eventually(lambda: turnorder(page) == entries)
    assert table.view(table.gm)["seq"] == seq + 1
    notice = page.locator("#seize-notice")  # and the GM is told
    eventually(lambda: "put back" in (notice.text_content() or ""))
    shoot(page, "roll20-stand-in")


def commands_posted(page: Any, when: str = "request") -> list[str]:
    """The Idempotency-Key of every command the page POSTs, as it is sent (or, with ``when``
    "requestfinished", once its answer has come)."""
    keys: list[str] = []

    def seen(request: Any) -> None:
        if request.method == "POST" and request.url.endswith("/commands"):
            keys.append(request.headers["idempotency-key"])

    page.on(when, seen)
    return keys


def test_the_gms_next_travels_on_the_tables_socket_and_lands_once_if_it_drops(
    page: Any, server: ServerProcess
) -> None:
    """The bridge sends the GM's "next" on the WebSocket it follows the table on, not as a
    POST; when that socket drops before the answer, the same command goes again as a POST
    under the same key, and the table moves on once."""
    table = dealt(server)
    socket = HeldSocket(page)
    posted = commands_posted(page)
    answered = commands_posted(page, "requestfinished")
    bridged(page, server, table)
    socket.followed(page)
    seq = table.view(table.gm)["seq"]

    press_next(page)
    # The relay hands the message on only while the test calls into the page: heard, not a
    # wait on the server, or the bridge would find its socket silent and POST after 5 s.
    heard(page, lambda: len(socket.sent) == 1)
    eventually(lambda: table.view(table.gm)["seq"] == seq + 1)
    assert [sent["command"] for sent in socket.sent] == [{"type": "next_panel"}]
    assert socket.reply(page, 0)["status"] == 200
    assert posted == []
    eventually(lambda: turnorder(page) == served(table))

    socket.cutting = True  # the next reaches Seize, and the socket closes before the answer
    press_next(page)
    heard(page, lambda: len(posted) == 1)
    socket.cutting = False
    assert [sent["command"] for sent in socket.sent][1:] == [{"type": "next_panel"}]
    assert posted == [socket.sent[1]["idempotency_key"]]
    # The POST answered, the command has been applied by one way or the other; until then the
    # bridge's order and Seize's may agree only because neither has moved yet.
    heard(page, lambda: answered == posted)
    eventually(lambda: turnorder(page) == served(table))
    assert table.view(table.gm)["seq"] == seq + 2, "applied once, not once per way in"
    assert len(table.view(table.gm)["view"]["panels"]) == 2


def test_a_next_refused_on_the_socket_is_said_as_before(page: Any, server: ServerProcess) -> None:
    """The GM ends the scene in Seize and clicks "next" in Roll20 before the bridge hears of it:
    Seize refuses it on the socket, and the bridge says why in the console, as it did when it
    POSTed; the table stays where it was."""
    table = dealt(server)
    socket = HeldSocket(page)
    posted = commands_posted(page)
    warned: list[str] = []
    page.on("console", lambda message: warned.append(message.text) if message.type == "warning"
            else None)  # fmt: skip
    bridged(page, server, table)
    socket.followed(page)
    socket.holding = True  # the bridge has not heard yet that the GM ended the scene
    ended = table.send({"type": "end_scene"})["seq"]
    press_next(page)
    refusal = socket.reply(page, 0)
    assert refusal["status"] == 422, refusal
    assert [sent["command"] for sent in socket.sent] == [{"type": "next_panel"}]
    heard(page, lambda: f"Seize | 422 {refusal['body']['message']}" in warned)
    assert table.view(table.gm)["seq"] == ended
    assert posted == []


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


def heard(page: Any, condition: Callable[[], bool]) -> None:
    """``eventually``, for what the page tells the test (its requests, its console): the sync
    API hands those over only while the test calls into the page, as each check here does."""
    eventually(lambda: page.evaluate("0") == 0 and condition())


def call_text(url: str) -> tuple[int, str]:
    with urllib.request.urlopen(url, timeout=PATIENCE) as answer:
        return answer.status, answer.read().decode()
