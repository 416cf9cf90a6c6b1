"""The GM's press against a table that has just moved on: a card reader deals, a tray rolls or
a player's phone acts at the moment the GM presses, and the console has not heard yet. What the
GM pressed must do what its button said, or nothing; never the same command applied to whoever
or whatever came next.

The console's WebSocket goes through a relay that can hold what the server sends, so the moment
between the other client's command and the console hearing of it is as long as the test needs."""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterator
from typing import Any

import pytest

from tests.server.process import ServerProcess
from tests.waiting import until

from .conftest import Table
from .console_driver import Console, speaks_the_game

MOVED_ON = "the table moved on before that reached it"


def pumped(page: Any, condition: Callable[[], object], what: str) -> None:
    """Wait until ``condition`` holds, calling into ``page`` before each ask: Playwright runs
    the relay's callbacks only within a call."""

    def asked() -> object:
        page.evaluate("0")
        return condition()

    until(asked, what)


class HeldSocket:
    """The page's WebSocket relayed to the server; while ``holding``, the news the server sends
    waits here instead of reaching the page. The replies to the page's commands pass, as an
    HTTP answer would: ``sent`` has each command message the page sent, ``replies`` each reply.
    While ``dropping``, what the page sends is lost on the way, and the socket stays open; while
    ``cutting``, it reaches the server, and the page's socket is closed before any reply."""

    def __init__(self, page: Any) -> None:
        self.holding = False
        self.dropping = False
        self.cutting = False
        self.held: list[str | bytes] = []
        self.sent: list[dict[str, Any]] = []
        self.replies: list[dict[str, Any]] = []
        self.to_page: Any = None
        self.relayed = 0
        """How many of the server's messages have been handed to the page."""
        page.route_web_socket(re.compile(r"/ws\b"), self._relay)

    def _relay(self, to_page: Any) -> None:
        self.to_page = to_page
        to_server = to_page.connect_to_server()
        to_server.on_message(lambda message: self._from_server(to_page, message))
        to_page.on_message(lambda message: self._from_page(to_page, to_server, message))

    def _from_page(self, to_page: Any, to_server: Any, message: str | bytes) -> None:
        self.sent.append(json.loads(message))
        if not self.dropping:
            to_server.send(message)
        if self.cutting:
            to_page.close()

    def _from_server(self, to_page: Any, message: str | bytes) -> None:
        if to_page is not self.to_page:
            return  # a connection the page has left
        reply = json.loads(message)
        if reply["type"] in ("answer", "refused"):
            self.replies.append(reply)
            self.to_page.send(message)
        elif self.holding:
            self.held.append(message)
        else:
            self.to_page.send(message)
            self.relayed += 1

    def followed(self, page: Any) -> None:
        """Return once the page's socket has been handed news: it is open, so what the page
        sends from now goes on it (a page that drew what it first fetched may send before its
        socket opens, and then sends a POST)."""
        pumped(page, lambda: self.relayed, "the page's socket was never handed news")

    def release(self, page: Any | None = None) -> None:
        """Let what was held reach the page. With ``page``, news is expected: wait until some
        is held, and return once the page has handled all of it. The console writes the
        sequence of each view it is handed on ``<body>`` and never reads it back, so it is
        rubbed out first; the held news writes it again, for a command's last event carries
        the view after it."""
        if page is not None:
            pumped(page, lambda: self.held, "no news was held")
            page.evaluate("delete document.body.dataset.seq")
        self.holding = False
        for message in self.held:
            self.to_page.send(message)
        self.held.clear()
        if page is not None:
            page.wait_for_function("document.body.dataset.seq !== undefined")

    def open(self, page: Any, url: str) -> None:
        """Open the page at ``url`` and return once it follows its table on this socket, so
        that its commands go on it: the socket's first news is held until the page has drawn
        what it fetched, then released, and the page has handled it."""
        self.holding = True
        page.goto(url)
        page.wait_for_function("document.body.dataset.seq !== undefined")
        self.release(page)

    def reply(self, page: Any, after: int) -> dict[str, Any]:
        """The reply after the first ``after``, once it comes, as the POST would have answered:
        its status and body."""
        pumped(page, lambda: len(self.replies) > after, "no reply came")
        reply = self.replies[after]
        if reply["type"] == "answer":
            return {"status": 200, "body": reply}
        return {"status": reply["status"], "body": reply["problem"]}


@pytest.fixture
def console(browser: Any) -> Iterator[Console]:
    context = browser.new_context(viewport={"width": 1024, "height": 768})
    page = context.new_page()
    yield Console(page, "")
    context.close()


def seq(table: Table) -> int:
    return int(table.view(table.gm)["seq"])


def opened(console: Console, table: Table) -> HeldSocket:
    """The console of ``table``, following it through a relay that can hold its news."""
    socket = HeldSocket(console.page)
    socket.open(console.page, f"{table.server.url}/console/{table.id}#token={table.gm}")
    console.drawn(seq(table))
    return socket


def pressed_too_late(console: Console, socket: HeldSocket, target: str) -> dict[str, Any]:
    """The GM presses ``target``; answers what the server said to the command it sent, on the
    socket."""
    before = len(socket.replies)
    console.page.locator(target).click()
    answer = socket.reply(console.page, before)
    if answer["status"] == 409:  # the console looks again before it says so
        console.page.locator("#notice").filter(has_text=MOVED_ON).wait_for()
    return answer


def four_color_dealing(server: ServerProcess) -> Table:
    table = Table(server, "four-color")
    for ident, name in (("nightingale", "Nightingale"), ("spider-man", "Spider-Man")):
        table.send({"type": "join", "member": {"id": ident, "name": name, "kind": "hero"}})
    table.send({"type": "deal", "source": "gm"})
    return table


def awareness_table(server: ServerProcess, characters: dict[str, str]) -> Table:
    """An awareness table with ``characters`` (id → name) at it, alike but for their names."""
    table = Table(server, "awareness")
    for ident, name in characters.items():
        sheet = {"id": ident, "name": name, "perception": 5, "stealth": 5, "coordination": 5}
        table.send({"type": "join", "sheet": {**sheet, "state": "alert"}})
    return table


def holder(table: Table, card: str) -> str | None:
    view = table.view(table.gm)["view"]
    found = [c["holder"] for c in view["order"] if c["card"] == card]
    return found[0] if found else None


def test_a_card_typed_for_one_hero_never_goes_to_the_next(
    console: Console, server: ServerProcess
) -> None:
    """The GM types Nightingale's card as the reader reads another for her: the typed card is
    refused as too late, not dealt to Spider-Man, who is next."""
    table = four_color_dealing(server)
    socket = opened(console, table)
    assert console.primary == "Deal it to Nightingale"
    console.type("#next input[name=card]", "9H")
    socket.holding = True
    table.send({"type": "deal_card", "card": "5C"})  # the reader, at the same moment
    moved = seq(table)
    assert console.primary == "Deal it to Nightingale"  # the console has not heard yet
    answer = pressed_too_late(console, socket, "#next [data-primary]")
    assert holder(table, "5C") == "nightingale"
    assert holder(table, "9H") is None, answer  # not Spider-Man's: not dealt at all
    assert answer["status"] == 409, answer
    assert seq(table) == moved
    # The console says so, and shows the table as it is, before its socket has told it.
    assert console.page.inner_text("#notice") == (
        "Not done: the table moved on before that reached it, so nothing changed. Where it "
        "stands now: Deal Spider-Man a card: type it as it is dealt, or read it."
    )
    assert "5♣" in console.row("Nightingale").inner_text()
    speaks_the_game(console.page, ["nightingale", "spider-man"])
    socket.release(console.page)  # the late news takes nothing back
    assert console.prompt.startswith("Deal Spider-Man a card")
    console.type("#next input[name=card]", "9H")
    console.press()
    assert holder(table, "9H") == "spider-man"


def test_undo_takes_back_only_what_its_button_named(
    console: Console, server: ServerProcess
) -> None:
    table = four_color_dealing(server)
    table.send({"type": "deal_card", "card": "9H", "source": "gm"})
    socket = opened(console, table)
    assert console.page.inner_text("[data-action=undo]") == "↶ Undo 9♥ dealt to Nightingale"
    socket.holding = True
    table.send({"type": "deal_card", "card": "5C"})  # the reader deals Spider-Man's
    moved = seq(table)
    answer = pressed_too_late(console, socket, "[data-action=undo]")
    assert answer["status"] == 409, answer
    assert (holder(table, "9H"), holder(table, "5C")) == ("nightingale", "spider-man")
    assert seq(table) == moved
    assert MOVED_ON in console.page.inner_text("#notice")
    assert console.page.inner_text("[data-action=undo]") == "↶ Undo 5♣ dealt to Spider-Man"
    socket.release()


def test_a_press_whose_socket_closes_before_its_answer_is_applied_once(
    console: Console, server: ServerProcess
) -> None:
    """The console's socket closes after its undo went out on it and before the answer came:
    the console sends the undo again as a POST under the same key, which is answered as the
    first, and one step is taken back, not two."""
    table = four_color_dealing(server)
    for card in ("9H", "5C"):
        table.send({"type": "deal_card", "card": card, "source": "gm"})
    socket = opened(console, table)
    before = seq(table)
    socket.cutting = True
    with console.page.expect_response(re.compile(r"/commands$")) as posted:
        console.page.locator("[data-action=undo]").click()
    assert posted.value.status == 200, posted.value.json()
    console.page.locator("#notice").filter(has_text="Took back").wait_for()
    assert socket.sent[-1]["command"] == {"type": "undo"}
    assert posted.value.request.headers["idempotency-key"] == socket.sent[-1]["idempotency_key"]
    assert seq(table) == before + 1
    assert (holder(table, "9H"), holder(table, "5C")) == ("nightingale", None)


def rcs_declared(server: ServerProcess) -> Table:
    """Jena holds the token and declares; the Guard, higher, may seize."""
    table = Table(server, "megatraveller-rcs")
    for ident, name, side in (("jena", "Jena", "crew"), ("guard", "Guard", "corp")):
        table.send(
            {
                "type": "join",
                "character": {
                    "id": ident,
                    "name": name,
                    "side": side,
                    "dex": 0,
                    "movement": 0,
                    "tactics": 0,
                },
            }
        )
    table.send({"type": "roll_initiative", "source": "gm"})
    for ident, dice in (("jena", [1, 1]), ("guard", [6, 6])):
        table.send({"type": "enter_roll", "character": ident, "dice": dice, "source": "gm"})
    table.send(
        {
            "type": "declare",
            "character": "jena",
            "action": "long",
            "what": "dives",
            "target": "Guard",
        }
    )
    return table


def test_resolve_never_resolves_a_seizers_declaration(
    console: Console, server: ServerProcess
) -> None:
    """MegaTraveller: "Resolve: Jena dives at Guard" pressed as the Guard's player seizes and
    declares from their phone: Jena's was the action named, so the Guard's is not resolved
    instead."""
    table = rcs_declared(server)
    socket = opened(console, table)
    assert console.primary == "Resolve: Jena dives at Guard"
    socket.holding = True
    table.send({"type": "seize", "character": "guard"})
    table.send(
        {
            "type": "declare",
            "character": "guard",
            "action": "long",
            "what": "fires",
            "target": "Jena",
        }
    )
    moved = seq(table)
    answer = pressed_too_late(console, socket, "#next [data-primary]")
    assert answer["status"] == 409, answer
    assert seq(table) == moved
    assert table.view(table.gm)["view"]["declared"]["what"] == "fires"  # still to resolve
    assert console.primary == "Resolve: Guard fires at Jena"
    socket.release()


def test_a_press_in_the_frame_a_new_view_is_drawn_is_on_the_old_view(
    console: Console, server: ServerProcess
) -> None:
    """The click that lands on a control drawn in the same frame as it: the GM aimed at what
    was painted, "Resolve: Jena dives at Guard", not at the Guard's declaration drawn in its
    place."""
    table = rcs_declared(server)
    socket = opened(console, table)
    console.page.evaluate(
        """() => {
             const prompt = document.querySelector("[data-prompt]");
             const before = prompt.textContent;
             new MutationObserver((_, observer) => {
               if (prompt.textContent === before) return;  // the same view drawn again
               observer.disconnect();
               document.querySelector("#next [data-primary]").click();
             }).observe(prompt, { childList: true });
           }"""
    )
    before = len(socket.replies)
    table.send({"type": "seize", "character": "guard"})
    answer = socket.reply(console.page, before)
    moved = seq(table)
    assert answer["status"] == 409, answer
    console.page.locator("#notice").filter(has_text=MOVED_ON).wait_for()
    assert seq(table) == moved  # no declaration made for the Guard
    assert console.prompt == "Guard holds the token: declare an action"


def test_resolve_never_resolves_a_pre_emption_it_did_not_name(
    console: Console, server: ServerProcess
) -> None:
    """Awareness: "Resolve Marshal's action (draws)" pressed as the Kid's pre-emption comes from
    another screen: nothing is resolved, and the console shows who goes first now."""
    table = awareness_table(server, {"kid": "Kid", "marshal": "Marshal"})
    table.send({"type": "roll_initiative", "source": "gm"})
    for ident, die in (("kid", 1), ("marshal", 3)):
        table.send({"type": "enter_initiative", "character": ident, "die": die, "source": "gm"})
    table.send({"type": "wait", "character": "kid", "trigger": "the Marshal draws"})
    table.send({"type": "act", "character": "marshal", "what": "draws"})
    socket = opened(console, table)
    assert console.primary == "Resolve Marshal's action (draws)"
    socket.holding = True
    table.send(
        {
            "type": "react",
            "character": "kid",
            "to": "marshal",
            "timing": "before",
            "what": "pre-emption",
            "die": 1,
            "source": "gm",
        }
    )
    moved = seq(table)
    answer = pressed_too_late(console, socket, "#next [data-primary]")
    assert answer["status"] == 409, answer
    assert seq(table) == moved
    assert console.primary == "Resolve Kid's pre-emption of Marshal"
    socket.release()


def test_a_card_half_typed_when_the_reader_deals_is_said_not_sent_and_not_kept(
    console: Console, server: ServerProcess
) -> None:
    """The GM is typing Nightingale's card when the reader deals her one: what was typed is not
    left in the field for Spider-Man, who is next, and the console says it was not sent."""
    table = four_color_dealing(server)
    opened(console, table)
    console.page.locator("#next input[name=card]").fill("Q")
    console.page.locator("#next input[name=card]").focus()
    dealt = table.send({"type": "deal_card", "card": "5C"})["seq"]  # the reader
    console.page.wait_for_function(f"Number(document.body.dataset.seq) === {dealt}")
    assert console.primary == "Deal it to Spider-Man"
    assert console.page.locator("#next input[name=card]").input_value() == ""
    assert console.page.inner_text("#notice") == (
        "Not sent: Nightingale's card “Q”, still being typed when the table moved on. Type it "
        "again if it is still wanted."
    )
    assert holder(table, "5C") == "nightingale" and seq(table) == dealt
    # It points to a step the table then leaves: it goes with it.
    table.send({"type": "deal_card", "card": "6C"})
    console.page.locator("#notice").filter(has_text="Not sent").wait_for(state="detached")
    assert console.page.inner_text("#notice") == ""


def test_a_card_the_gm_sent_is_not_said_lost_when_its_hero_is_dealt(
    console: Console, server: ServerProcess
) -> None:
    table = four_color_dealing(server)
    opened(console, table)
    console.type("#next input[name=card]", "9H")
    console.press()
    console.page.wait_for_function(f"Number(document.body.dataset.seq) === {seq(table)}")
    assert holder(table, "9H") == "nightingale"
    assert console.page.inner_text("#notice") == ""


def focused(console: Console) -> str | None:
    """The name the console keeps the focused field's words under, if a field has the focus."""
    kept: str | None = console.page.evaluate("document.activeElement?.dataset.keep ?? null")
    return kept


def test_a_score_being_corrected_stays_open_and_typed_when_the_tray_rolls_another(
    console: Console, server: ServerProcess
) -> None:
    """The GM is correcting Jena's Score, in her row's folded "Correct…", when the tray rolls
    Kid's d10: the fold stays open, what was typed stays, and the next key goes on in it."""
    table = awareness_table(server, {"jena": "Jena", "bea": "Bea", "kid": "Kid"})
    table.send({"type": "roll_initiative", "source": "device"})
    table.send({"type": "enter_initiative", "character": "jena", "die": 7})  # the tray
    opened(console, table)
    jena = console.row("Jena")
    jena.get_by_text("Correct…").click()
    jena.get_by_label("Score").fill("1")
    rolled = table.send({"type": "enter_initiative", "character": "kid", "die": 4})["seq"]
    console.drawn(rolled)
    assert console.prompt == "Waiting for Bea's d10: type it as rolled"
    assert jena.locator("details", has_text="Correct…").get_attribute("open") == ""
    assert focused(console) == "Score-jena"
    console.page.keyboard.type("2")
    assert jena.get_by_label("Score").input_value() == "12"
    assert console.page.inner_text("#notice") == ""


def test_a_card_correction_keeps_its_caret_when_the_reader_deals_the_next_hero(
    console: Console, server: ServerProcess
) -> None:
    """The reader read Nightingale's 10♥ as 9♥. The GM has typed "0H" in its correction and
    put the caret back before it for the 1, when the reader deals Spider-Man his card: the
    correction is still open and typed in, and the 1 goes where the caret stood."""
    table = four_color_dealing(server)
    table.send({"type": "deal_card", "card": "9H"})  # the reader
    opened(console, table)
    nightingale = console.row("Nightingale")
    nightingale.get_by_text("Correct…").click()
    really = nightingale.get_by_label("9♥ is really")
    really.fill("0H")
    console.page.keyboard.press("Home")
    dealt = table.send({"type": "deal_card", "card": "5C"})["seq"]  # the reader
    console.drawn(dealt)
    assert "5♣" in console.row("Spider-Man").inner_text()
    assert focused(console) == "really-9H"
    console.page.keyboard.type("1")
    assert really.input_value() == "10H"
    console.tap(nightingale.get_by_role("button", name="Correct 9♥"))
    assert holder(table, "10H") == "nightingale"
