"""The Owlbear Rodeo extension in Chromium, with the SDK Seize serves, inside a page that stands in
for Owlbear (owlbear_host.html) on Owlbear's own origin. One room, a GM's client and two players'
clients, each a browser of its own: the map's tokens follow the table, each player sees only their
own, no token (Seize's kind) ever lands where the room's players can read, and of two GMs only one
writes. As in Owlbear, each client's scene is ready only after the extension's pages have loaded,
and any player may rewrite the room's metadata."""

from __future__ import annotations

import json
import re
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import Any, Protocol
from urllib.parse import parse_qs, urlencode, urlsplit

import pytest
from playwright.sync_api import sync_playwright

from server.vtt.dialects import ROLL20_TEXT
from tests.server.process import UNLIMITED, ServerProcess, call
from tests.waiting import PACE, PATIENCE

from .conftest import CHROMIUM, FLAGS, Table
from .test_accessibility import axe, serious  # noqa: F401 (axe: a fixture)

OWLBEAR = "https://www.owlbear.rodeo"
HOST = (Path(__file__).parent / "owlbear_host.html").read_text(encoding="utf-8")
LINK_MENU = "seize.initiative/link"
TURN = "seize.initiative/turn"
MARKER = "seize.initiative/marker"
ADDRESS = "seize.initiative/table"


def token_item(pid: str, name: str) -> dict[str, Any]:
    """A character token as Owlbear's scene holds it."""
    return {
        "id": f"token-{pid}", "type": "IMAGE", "name": name, "layer": "CHARACTER",
        "visible": True, "locked": False, "metadata": {}, "position": {"x": 0, "y": 0},
        "rotation": 0, "scale": {"x": 1, "y": 1}, "text": {"plainText": name},
        "attachedTo": None, "createdUserId": "gm", "zIndex": 1,
    }  # fmt: skip


def changed(items: list[dict[str, Any]], change: dict[str, Any]) -> list[dict[str, Any]]:
    """The room's items with a client's ``change`` applied to them as they are now: the keys of
    each item an ``update`` names, the items an ``add`` brings, the ids a ``remove`` takes."""
    updates = {update["id"]: update for update in change.get("update", [])}
    gone = set(change.get("remove", []))
    added: list[dict[str, Any]] = change.get("add", [])
    return [
        {**item, **updates.get(item["id"], {})} for item in items if item["id"] not in gone
    ] + added


class Room:
    """One Owlbear room the test keeps: every client writes through it, and it hands every
    client the room as it now is."""

    def __init__(self, browser: Any, manifest: str, tokens: list[dict[str, Any]]) -> None:
        """A room that installed the extension from ``manifest`` (its URL)."""
        self.browser = browser
        status, self.manifest = call(manifest)
        assert status == 200, self.manifest
        self.seize = manifest.removesuffix("/owlbear/manifest.json")
        self.state: dict[str, Any] = {"items": tokens, "room": {}, "scene": {}, "party": []}
        self.clients: list[Any] = []
        self.writes: list[tuple[str, str]] = []
        self.secrets: list[str] = []
        self.ready = True
        """Whether a scene is open: each client's becomes ready once its pages have loaded."""
        self.rogues: set[str] = set()
        """The connections of players who write to the room's metadata themselves, as any player
        may in Owlbear (with the SDK from the browser's console, or an extension of their own)."""

    def join(
        self, name: str, role: str, connection: str, watch: Callable[[Any], None] | None = None
    ) -> Any:
        """A client joins the room; ``watch`` sees its page before anything loads there."""
        context = self.browser.new_context(viewport={"width": 800, "height": 700})
        # Owlbear's public page framing a server on this machine or network: Chromium asks the
        # user, once, to allow local network access (docs/owlbear.md); these users said yes.
        context.grant_permissions(["local-network-access"], origin=OWLBEAR)
        page = context.new_page()
        if watch:
            watch(page)
        page.route(
            f"{OWLBEAR}/**", lambda route: route.fulfill(body=HOST, content_type="text/html")
        )
        page.expose_binding(
            "roomWrite", lambda source, kind, payload: self.write(connection, kind, payload)
        )
        page.expose_binding("roomBroadcast", lambda source, message: self.broadcast(message))
        self.state["party"].append(
            {
                "id": f"player-{connection}",
                "connectionId": connection,
                "role": role,
                "name": name,
                "color": "#fff",
                "syncView": False,
                "metadata": {},
                "selection": None,
            }
        )
        query = urlencode(
            {
                "player": f"player-{connection}",
                "connection": connection,
                "role": role,
                "name": name,
                "popover": self.manifest["action"]["popover"],
                "background": self.manifest["background_url"],
            }
        )
        page.goto(f"{OWLBEAR}/room/room-1?{query}")
        self.clients.append(page)
        self.spread()
        page.evaluate("ready => window.host.setReady(ready)", self.ready)
        return page

    def scene(self, ready: bool) -> None:
        """The room's scene is open and ready in every client, or closed (the GM switched)."""
        self.ready = ready
        for page in self.clients:
            page.evaluate("ready => window.host.setReady(ready)", ready)

    def write(self, connection: str, kind: str, payload: Any) -> dict[str, Any]:
        if kind == "player":  # a player's own metadata, theirs to write: no write to the room
            for player in self.state["party"]:
                if player["connectionId"] == connection:
                    player["metadata"] = {**player["metadata"], **payload}
            self.check_no_secret()
            return self.state
        if kind == "items":
            self.state["items"] = changed(self.state["items"], payload)
        else:
            self.state[kind] = {**self.state[kind], **payload}
        self.writes.append((connection, kind))
        self.check_no_secret()
        return self.state

    def broadcast(self, message: dict[str, Any]) -> None:
        for page in self.clients:
            page.evaluate(
                "([c, d]) => window.host.deliver(c, d)", [message["channel"], message["data"]]
            )

    def spread(self) -> None:
        for page in self.clients:
            page.evaluate("state => window.host.receive(state)", self.state)

    def until(self, check: Callable[[], bool], what: str, seconds: float = PATIENCE) -> None:
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            self.spread()
            if check():
                return
            self.clients[0].wait_for_timeout(PACE * 1000)
        pytest.fail(f"the room never came to {what}: {json.dumps(self.state)[:2000]}")

    def check_no_secret(self) -> None:
        """No Seize token, the GM's or a player's, in anything the room's players can read."""
        shared = json.dumps(self.state)
        for secret in self.secrets:
            assert secret not in shared

    def tokens(self) -> dict[str, dict[str, Any]]:
        """Each linked token's Seize metadata, by participant."""
        return {
            item["metadata"][TURN]["participant"]: item["metadata"][TURN]
            for item in self.state["items"]
            if TURN in item["metadata"]
        }

    def ring_on(self) -> str | None:
        rings = [item for item in self.state["items"] if MARKER in item["metadata"]]
        assert len(rings) <= 1
        return rings[0]["attachedTo"] if rings else None

    def done(self) -> None:
        gms = {p["connectionId"] for p in self.state["party"] if p["role"] == "GM"}
        assert {who for who, _ in self.writes} <= gms | self.rogues, "a player's client wrote"
        for page in self.clients:
            assert page.evaluate("window.host.unknown") == []
            # No call the extension made was refused: none touched a scene that was not ready.
            assert page.evaluate("window.host.rejected") == []
            # Nothing the extension said to Owlbear, in any message, held a token.
            said = json.dumps(page.evaluate("window.host.calls"))
            assert not [secret for secret in self.secrets if secret in said]
        self.check_no_secret()
        for page in self.clients:
            page.context.close()


def popover(page: Any) -> Any:
    return page.frame_locator("iframe#popover")


def paste(page: Any, link: str) -> None:
    popover(page).locator("input[name=link]").fill(link)
    popover(page).locator("button[type=submit]").click()
    popover(page).locator("[data-stage]").wait_for()


def player_links(table: Table, *participants: str) -> dict[str, str]:
    """The links the console's Phone buttons would show."""
    links = {}
    for pid in participants:
        status, answer = call(f"{table.url}/handoff/players/{pid}", "POST", {}, table.gm)
        assert status == 201, answer
        links[pid] = str(answer["url"])
    return links


class Followed(Protocol):
    """A table the test follows with its GM's token."""

    id: str
    gm: str

    @property
    def url(self) -> str: ...


@dataclass
class DemoTable:
    id: str
    gm: str
    url: str


def public_order(table: Followed) -> tuple[dict[str, int | None], str | None]:
    """Where each participant first plays in the public order, and who acts now."""
    _, combat = call(f"{table.url}/foundry/combat?as=public", token=table.gm)
    places: dict[str, int | None] = {}
    acting = None
    place = 0
    for combatant in combat["combatants"]:
        seize = combatant["flags"]["seize"]
        placed = combatant["initiative"] is not None
        if placed:
            place += 1
        if seize["participant"]:
            places.setdefault(seize["participant"], place if placed else None)
            if seize["current"]:
                acting = seize["participant"]
    return places, acting


def roll20_agrees(table: Followed) -> bool:
    """Roll20's turn order, as its bridge writes it, starts with the turn Foundry's Combat has
    current: the VTTs following the table agree on who acts."""
    _, combat = call(f"{table.url}/foundry/combat?as=public", token=table.gm)
    _, turnorder = call(f"{table.url}/roll20/turnorder?as=public", token=table.gm)
    current = [
        c["flags"]["seize"]["label"]
        for c in combat["combatants"]
        if c["flags"]["seize"]["current"] and c["initiative"] is not None
    ]
    shown = turnorder[0]["pr"].removesuffix(ROLL20_TEXT) if turnorder else None
    return not current or shown == current[0]


def follows(room: Room, table: Followed) -> None:
    """The tokens say the public order, the ring is on whoever acts, and Foundry's and Roll20's
    renderings of the same table agree."""

    def agrees() -> bool:
        places, acting = public_order(table)
        said = room.tokens()
        return roll20_agrees(table) and (
            all(said[p]["place"] == places.get(p) for p in said)
            and room.ring_on() == (f"token-{acting}" if acting in said else None)
            and all(said[p]["acting"] == (p == acting) for p in said)
        )

    room.until(agrees, "the table's order")


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    """Chromium as a user's own profile has it: a private window (which a new context is) denies
    storage to a framed page of another site, and a GM's browser keeps the link in the popover's
    own storage, which an ordinary profile gives it."""
    if not CHROMIUM.exists():
        pytest.skip("no /usr/bin/chromium on this machine (apt-get install chromium)")
    with sync_playwright() as playwright:
        flags = [*FLAGS, "--disable-features=BlockThirdPartyCookies,TrackingProtection3pcd"]
        launched = playwright.chromium.launch(executable_path=str(CHROMIUM), args=flags)
        yield launched
        launched.close()


@pytest.fixture
def room_of(browser: Any, server: ServerProcess) -> Iterator[Callable[..., Room]]:
    made: list[Room] = []

    def make(table: Table, people: dict[str, str]) -> Room:
        tokens = [token_item(pid, name) for pid, name in people.items()]
        room = Room(browser, f"{server.url}/owlbear/manifest.json", tokens)
        room.secrets.append(table.gm)
        made.append(room)
        return room

    yield make
    for room in made:
        room.done()


def linked(room: Room, pid: str) -> bool:
    return pid in room.tokens()


def seated(
    room: Room,
    table: Followed,
    links: dict[str, str],
    watch: Callable[[Any], None] | None = None,
) -> tuple[Any, dict[str, Any]]:
    """The GM links the room and every token; each player links with their own link (``links``,
    by participant). ``watch`` sees the GM's page before anything loads there."""
    gm = room.join("Editor", "GM", "c1", watch)
    gm_link = f"{room.seize}/console/{table.id}#token={table.gm}"
    paste(gm, gm_link)
    # The popover draws the table as it writes the room's metadata: the write reaches the
    # room (here, the test) in its own time, as Owlbear's does.
    room.until(lambda: "seize.initiative/table" in room.state["room"], "the room linked")
    assert room.state["room"]["seize.initiative/table"] == {"server": room.seize, "table": table.id}
    for item in room.state["items"]:
        pid = item["id"].removeprefix("token-")
        gm.evaluate("([menu, id]) => window.host.click(menu, [id])", [LINK_MENU, item["id"]])
        popover(gm).locator(f"[data-link={pid}]").click()
        room.until(partial(linked, room, pid), f"{pid}'s token linked")
    pages = {}
    for n, (pid, link) in enumerate(links.items(), start=2):
        room.secrets.append(link.split("token=")[1])
        pages[pid] = room.join(pid, "PLAYER", f"c{n}")
        # A player's popover takes a player link only: not the GM's, had it come their way.
        popover(pages[pid]).locator("input[name=link]").fill(gm_link)
        popover(pages[pid]).locator("button[type=submit]").click()
        popover(pages[pid]).locator("#notice:has-text('not a player link')").wait_for()
        paste(pages[pid], link)
    return gm, pages


def own_only(pages: dict[str, Any]) -> None:
    for pid, page in pages.items():
        popover(page).locator(f"#yours [data-id={pid}]").wait_for()
        assert popover(page).locator("#yours [data-id]").evaluate_all(
            "rows => rows.map((row) => row.dataset.id)"
        ) == [pid]


def test_the_tokens_follow_a_four_color_page(
    room_of: Callable[..., Room], server: ServerProcess
) -> None:
    table = Table(server, "four-color")
    heroes = {"peter": "Spider-Man", "jessica": "Jessica Jones"}
    for pid, name in heroes.items():
        table.send({"type": "join", "member": {"id": pid, "name": name, "kind": "hero"}})
    room = room_of(table, heroes)
    gm, pages = seated(room, table, player_links(table, *heroes))
    table.send({"type": "deal", "source": "gm"})
    for card in ("QH", "KS", "2C"):  # Spider-Man, Jessica Jones, then the Editor's extra card
        table.send({"type": "deal_card", "card": card})
    follows(room, table)
    own_only(pages)
    # Spider-Man offers Jessica Jones a trade from his popover, and she takes it from hers: the
    # King is his, and the map says so.
    popover(pages["peter"]).locator("[data-action=offer-jessica]").click()
    popover(pages["jessica"]).locator("[data-action^=accept-]").click()
    room.until(lambda: room.tokens()["peter"]["place"] == 1, "the trade on the map")
    follows(room, table)
    # The popover follows the room's theme.
    assert popover(gm).locator("html[data-mode=dark]").count() == 1
    gm.evaluate("window.host.setTheme('LIGHT')")
    popover(gm).locator("html[data-mode=light]").wait_for(state="attached")
    # The GM's one next action, pressed in the popover, is the console's: the next Panel.
    before = table.view(table.gm)["seq"]
    popover(gm).locator("#next button.primary").first.click()
    room.until(lambda: table.view(table.gm)["seq"] > before, "the GM's next step taken")
    follows(room, table)
    assert room.tokens()["peter"]["acting"]
    assert popover(pages["peter"]).locator("text=Your Panel: act now!").count() == 1
    table.send({"type": "next_panel"})
    follows(room, table)
    assert room.tokens()["jessica"]["acting"]
    # A player who is handed a new link uses it: the popover forgets the old one.
    popover(pages["peter"]).locator("[data-action=unlink]").click()
    fresh = player_links(table, "peter")["peter"]
    room.secrets.append(fresh.split("token=")[1])
    paste(pages["peter"], fresh)
    own_only({"peter": pages["peter"]})


CREW = {"jena": "Jena", "guard": "Guard"}


def crew_table(server: ServerProcess) -> Table:
    """An RCS table: Jena of the crew, and a corporate Guard."""
    table = Table(server, "megatraveller-rcs")
    for pid, side in (("jena", "crew"), ("guard", "corp")):
        character = {"id": pid, "name": CREW[pid], "side": side, "dex": 0, "movement": 0}
        table.send({"type": "join", "character": character})
    return table


def test_the_tokens_follow_an_rcs_round_with_a_seize(
    room_of: Callable[..., Room], server: ServerProcess
) -> None:
    table = crew_table(server)
    room = room_of(table, CREW)
    _, pages = seated(room, table, player_links(table, *CREW))
    table.send({"type": "roll_initiative", "source": "gm"})
    own_only(pages)
    # Each player types their own dice in their popover.
    for pid, die in (("jena", "1"), ("guard", "6")):
        own = popover(pages[pid])
        own.locator("input[name=die1]").fill(die)
        own.locator("input[name=die2]").fill(die)
        own.locator("[data-action=enter-roll]").click()
        own.locator("[data-action=enter-roll]").wait_for(state="detached")
    follows(room, table)
    assert popover(pages["jena"]).locator("[data-action^=seize]").count() == 0
    popover(pages["guard"]).locator("[data-action=seize-guard]").click()
    room.until(lambda: room.tokens()["guard"]["acting"], "the Guard's seize on the map")
    follows(room, table)


def open_requests(table: Table) -> dict[str, Any]:
    status, registry = call(f"{table.url}/dice", token=table.gm)
    assert status == 200, registry
    requests: dict[str, Any] = registry["requests"]
    return requests


def test_a_players_roll_comes_from_her_own_dice_and_is_shared_in_the_room(
    room_of: Callable[..., Room], server: ServerProcess
) -> None:
    """Jena rolls a d100 from her popover: Seize asks her own dice (a station or her phone would
    answer; here the GM's token answers as a station does, with a tens die and a d10), and the
    roll is shared in her player metadata as Owlbear's Dice extension shares one, which the
    GM's popover lists."""
    table = crew_table(server)
    room = room_of(table, CREW)
    gm, pages = seated(room, table, player_links(table, *CREW))
    jena = popover(pages["jena"])
    jena.locator("select[name=sides]").select_option("100")
    jena.locator("[data-action=roll]").click()
    jena.locator("[data-rolled]:has-text('Roll 1d100 now')").wait_for()
    room.until(lambda: len(open_requests(table)) == 1, "a dice request")
    ((rid, request),) = open_requests(table).items()
    assert (request["owner"], request["sides"], request["count"]) == ("jena", 100, 1)
    answer = {"answers": {rid: {"faces": [47], "dice": ["pixels-00000d00", "pixels-00000d10"]}}}
    status, body = call(f"{table.url}/dice", "PUT", answer, table.gm)
    assert status == 200, body
    jena.locator("[data-rolled]:has-text('You rolled 1d100: 47.')").wait_for()
    room.until(lambda: "seize.initiative/roll" in room.state["party"][1]["metadata"], "shared")
    shared = room.state["party"][1]["metadata"]
    assert shared["seize.initiative/roll"]["dice"][0]["dice"][0]["type"] == "D100"
    assert sorted(shared["seize.initiative/rollValues"].values()) == [7, 40]
    popover(gm).locator("[data-room-rolls] li:has-text('jena rolled 1d100 with their dice: 47')"
                        ).wait_for()  # fmt: skip
    assert "null" not in popover(gm).locator("#seize").inner_text()  # nothing drawn as "null"
    # The guard's popover asks the guard's dice, never Jena's: his select has none of hers.
    assert popover(pages["guard"]).locator("select[name=owner]").count() == 0


def test_the_tokens_follow_an_awareness_round(
    room_of: Callable[..., Room],
    server: ServerProcess,
    axe: str,  # noqa: F811 (the accessibility scan's fixture)
) -> None:
    table = Table(server, "awareness")
    people = {"kid": "Kid", "marshal": "Marshal"}
    for pid, name in people.items():
        table.send(
            {
                "type": "join",
                "sheet": {
                    "id": pid,
                    "name": name,
                    "perception": 5,
                    "stealth": 5,
                    "coordination": 5,
                },
            }
        )
    room = room_of(table, people)
    gm, pages = seated(room, table, player_links(table, *people))
    table.send({"type": "roll_initiative", "source": "gm"})
    table.send({"type": "enter_initiative", "character": "kid", "die": 3, "source": "gm"})
    table.send({"type": "enter_initiative", "character": "marshal", "die": 7, "source": "gm"})
    follows(room, table)
    own_only(pages)
    for page in (gm, *pages.values()):
        assert serious(page.query_selector("iframe#popover").content_frame(), axe) == []
    # Each player's secret (their QR and Score) is on their own popover only.
    kid = table.view(table.gm)["view"]["characters"]
    marshal_qr = next(c for c in kid if c["id"] == "marshal")["initiative"]["qr"]
    assert f"QR {marshal_qr}" not in popover(pages["kid"]).locator("body").inner_text()
    # The Kid declares from the popover: they wait, and the Marshal's declaration comes up.
    kid_popover = popover(pages["kid"])
    kid_popover.locator("input[name=what]").fill("the Marshal draws")
    kid_popover.locator("[data-action=wait]").click()
    follows(room, table)
    room.until(lambda: room.tokens()["marshal"]["acting"], "the Marshal declaring")
    table.send(
        {"type": "act", "character": "marshal", "what": "draws", "mode": "all_out_offensive"}
    )
    follows(room, table)


def test_a_players_popover_waits_for_no_one_hidden(
    room_of: Callable[..., Room], server: ServerProcess
) -> None:
    """The shared rulings, "No tells": while the hidden sniper has yet to declare, the Kid's
    popover asks for the Kid's declaration at once, as the phone and the stream do, never
    saying the table waits on the GM; the sniper's wait changes nothing of it."""
    table = Table(server, "awareness")
    people = {"kid": "Kid", "marshal": "Marshal"}
    sheet = {"perception": 5, "stealth": 5, "coordination": 5}
    for pid, name in {**people, "sniper": "Sniper"}.items():
        joining = {"type": "join", "sheet": {"id": pid, "name": name, **sheet}}
        table.send({**joining, "hidden": True} if pid == "sniper" else joining)
    room = room_of(table, people)
    _, pages = seated(room, table, player_links(table, "kid"))
    table.send({"type": "roll_initiative", "source": "gm"})
    for pid, die in (("sniper", 1), ("kid", 3), ("marshal", 7)):
        table.send({"type": "enter_initiative", "character": pid, "die": die, "source": "gm"})
    follows(room, table)
    kid = popover(pages["kid"])
    kid.locator("#yours", has_text="Your declaration").wait_for()
    assert kid.locator("[data-gm-busy]").count() == 0
    assert "Sniper" not in kid.locator("body").inner_text()
    table.send({"type": "wait", "character": "sniper", "trigger": "the Kid draws"})
    follows(room, table)
    assert "Your declaration" in kid.locator("#yours").inner_text()
    assert kid.locator("[data-gm-busy]").count() == 0


def test_of_two_gms_only_one_writes(room_of: Callable[..., Room], server: ServerProcess) -> None:
    table = Table(server, "four-color")
    table.send({"type": "join", "member": {"id": "peter", "name": "Spider-Man", "kind": "hero"}})
    table.send({"type": "join", "member": {"id": "doc", "name": "Doc Ock", "kind": "villain"}})
    room = room_of(table, {"peter": "Spider-Man", "doc": "Doc Ock"})
    seated(room, table, {})
    other = room.join("Co-Editor", "GM", "c9")
    paste(other, f"{server.url}/console/{table.id}#token={table.gm}")
    room.writes.clear()
    table.send({"type": "deal"})
    follows(room, table)
    table.send({"type": "next_panel"})
    follows(room, table)
    assert {who for who, kind in room.writes if kind == "items"} == {"c1"}
    # The elected GM leaves: the other takes over.
    room.state["party"] = [p for p in room.state["party"] if p["connectionId"] != "c1"]
    room.clients[0].context.close()
    room.clients.pop(0)
    room.writes.clear()
    table.send({"type": "next_panel"})
    follows(room, table)
    assert {who for who, kind in room.writes if kind == "items"} == {"c9"}


def shown(room: Room, pid: str, visible: bool) -> None:
    """The GM shows or hides ``pid``'s token on the map."""
    room.state["items"] = [
        {**item, "visible": visible} if item["id"] == f"token-{pid}" else item
        for item in room.state["items"]
    ]


def guard_hidden(table: Table) -> bool:
    """Whether the GM's view marks the Guard hidden."""
    return "guard" in table.view(table.gm)["view"]["hidden"]


def test_a_token_hidden_in_owlbear_is_a_hidden_participant(
    room_of: Callable[..., Room], server: ServerProcess
) -> None:
    """Hiding the Guard's token hides the Guard in Seize, and no player's client hears of the
    Guard; showing the token reveals them; Seize hiding them hides the token, never the other
    way round."""
    table = crew_table(server)
    status, _ = call(
        f"{table.url}/commands", "POST", {"type": "hide", "participant": "guard"}, table.gm
    )
    if status != 200:
        pytest.skip("this server has no hidden participants yet")
    table.send({"type": "reveal", "participant": "guard"})
    room = room_of(table, CREW)
    _, pages = seated(room, table, player_links(table, "jena"))
    jena = pages["jena"]
    heard: list[str] = []
    jena.on("websocket", lambda socket: socket.on("framereceived", heard.append))

    shown(room, "guard", False)
    room.until(partial(guard_hidden, table), "the Guard hidden in Seize")
    heard.clear()  # from here on, nothing of the Guard reaches Jena's client
    table.send({"type": "roll_initiative", "source": "gm"})
    table.send({"type": "enter_roll", "character": "jena", "dice": [3, 3], "source": "gm"})
    follows(room, table)
    assert room.tokens()["guard"]["place"] is None
    assert "Guard" not in popover(jena).locator("body").inner_text()
    assert not any("guard" in str(frame).lower() for frame in heard)
    shown(room, "guard", True)
    room.until(lambda: not guard_hidden(table), "the Guard revealed")
    table.send({"type": "hide", "participant": "guard"})

    def token() -> dict[str, Any]:
        return next(i for i in room.state["items"] if i["id"] == "token-guard")

    room.until(lambda: not token()["visible"], "the Guard's token hidden by Seize")
    table.send({"type": "reveal", "participant": "guard"})
    follows(room, table)
    assert not token()["visible"]  # the GM hid it on the map: only they show it again
    # The Guard, revealed, rolls and takes the token after Jena: their token stays hidden, and so
    # does the ring on it, which would show players where they stand.
    table.send({"type": "enter_roll", "character": "guard", "dice": [6, 6], "source": "gm"})
    table.send({"type": "end_turn", "character": "jena"})
    follows(room, table)
    assert room.ring_on() == "token-guard"
    assert not [i for i in room.state["items"] if MARKER in i["metadata"] and i["visible"]]


class Relay:
    """Every WebSocket a client's pages open to Seize (its background page's and its popover's),
    relayed to the server, each to its own page (test_console_races' ``HeldSocket`` serves only
    a page's latest socket, as a console has one). ``sent`` has each command message they send.
    While ``holding``, the news the server sends waits here, and replies to commands pass, as an
    HTTP answer would; while ``cutting``, a command message reaches the server and the socket it
    went on is closed before any reply. ``posted`` has, for each command the page POSTed, its
    Idempotency-Key and the status it was answered with."""

    def __init__(self, page: Any) -> None:
        self.sent: list[dict[str, Any]] = []
        self.posted: list[tuple[str, int]] = []
        self.holding = False
        self.cutting = False
        self.held: list[tuple[Any, str | bytes]] = []
        self.relayed = 0
        """How many of the server's messages have been handed to a page."""
        self.told: dict[int, int] = {}
        """For each socket open, the sequence of the last news handed to its page."""
        page.route_web_socket(re.compile(r"/ws\b"), self._relay)
        page.on("response", self._response)

    def _response(self, response: Any) -> None:
        request = response.request
        if request.method == "POST" and request.url.endswith("/commands"):
            self.posted.append((request.headers["idempotency-key"], response.status))

    def _relay(self, to_page: Any) -> None:
        to_server = to_page.connect_to_server()
        to_server.on_message(lambda message: self._from_server(to_page, message))
        to_page.on_message(lambda message: self._from_page(to_page, to_server, message))
        self.told[id(to_page)] = 0
        to_page.on_close(lambda *_: self.told.pop(id(to_page), None))

    def heard(self, seq: int) -> bool:
        """Whether every page's open socket has been handed the table's news up to ``seq``."""
        return bool(self.told) and min(self.told.values()) >= seq

    def _from_page(self, to_page: Any, to_server: Any, message: str | bytes) -> None:
        self.sent.append(json.loads(message))
        to_server.send(message)
        if self.cutting:
            to_page.close()

    def _from_server(self, to_page: Any, message: str | bytes) -> None:
        if self.holding and json.loads(message)["type"] not in ("answer", "refused"):
            self.held.append((to_page, message))
        else:
            self._hand(to_page, message)

    def _hand(self, to_page: Any, message: str | bytes) -> None:
        news = json.loads(message)
        to_page.send(message)
        self.relayed += 1
        if news["type"] not in ("answer", "refused") and id(to_page) in self.told:
            self.told[id(to_page)] = max(self.told[id(to_page)], news.get("seq") or 0)

    def release(self) -> None:
        self.holding = False
        for to_page, message in self.held:
            self._hand(to_page, message)
        self.held.clear()


def notices(page: Any) -> list[str]:
    """What the extension asked Owlbear to show the user."""
    calls = page.evaluate("window.host.calls")
    return [c["data"]["message"] for c in calls if c["id"] == "OBR_NOTIFICATION_SHOW"]


def test_the_gms_hiding_travels_on_the_socket_lands_once_and_a_refusal_is_shown(
    room_of: Callable[..., Room], server: ServerProcess
) -> None:
    """The background page sends the GM's hiding of a token on the socket it follows the table
    on, not as a POST, the GM's showing of it again as a reveal even before the page has heard of
    the hiding; when that socket drops before the answer, the command goes again as a POST under
    the same key and is applied once (a second reveal would be refused: the Guard would no longer
    be hidden); and a refusal on the socket is shown in Owlbear, as before."""
    table = crew_table(server)
    room = room_of(table, CREW)
    relays: list[Relay] = []
    gm, _ = seated(room, table, {}, lambda page: relays.append(Relay(page)))
    relay = relays[0]
    # Its socket is open once it has been handed news: the GM's commands go on it from then.
    room.until(lambda: relay.relayed > 0, "the background page's socket open")
    # The GM hides the token and shows it again before the page has heard of the hiding: the
    # showing is a reveal all the same, and the news, when it comes, hides no token.
    relay.holding = True
    shown(room, "guard", False)
    room.until(partial(guard_hidden, table), "the Guard hidden in Seize")
    shown(room, "guard", True)
    room.until(lambda: not guard_hidden(table), "the Guard revealed")
    relay.release()
    assert [sent["command"] for sent in relay.sent] == [
        {"type": "hide", "participant": "guard"},
        {"type": "reveal", "participant": "guard"},
    ]
    assert relay.posted == []
    # The pages have heard of the reveal: else, still seeing the Guard hidden, the background
    # page would find the GM's hiding already done in Seize and rightly send nothing.
    revealed = int(table.view(table.gm)["seq"])
    room.until(lambda: relay.heard(revealed), "the pages never heard of the reveal")

    relay.holding = True  # the background page has not heard that the table hid the Guard
    table.send({"type": "hide", "participant": "guard"})
    shown(room, "guard", False)
    room.until(lambda: bool(notices(gm)), "the refusal shown")
    assert notices(gm) == ["Seize: 'guard' is already hidden"]
    assert relay.sent[-1]["command"] == {"type": "hide", "participant": "guard"}
    assert relay.posted == []
    relay.release()

    relay.cutting = True
    shown(room, "guard", True)
    room.until(lambda: bool(relay.posted), "the reveal sent again as a POST, and answered")
    relay.cutting = False
    assert relay.sent[-1]["command"] == {"type": "reveal", "participant": "guard"}
    # Answered as a retry of what the socket carried: a second reveal would be refused (422).
    assert relay.posted == [(relay.sent[-1]["idempotency_key"], 200)]
    assert not guard_hidden(table)
    _, events = call(f"{table.url}/events?after=0", token=table.gm)
    assert [e["event"]["type"] for e in events["events"]].count("revealed") == 2


def test_the_tokens_follow_once_the_scene_is_ready(
    room_of: Callable[..., Room], server: ServerProcess
) -> None:
    """Owlbear loads the extension before the room's scene, and refuses a call on the scene's
    items until it is ready: the background page touches no item until then, and the map follows
    the table once it is. When the scene closes and opens again (the GM switched scenes) while the
    table moved on, the map catches up as it opens."""
    table = Table(server, "four-color")
    heroes = {"peter": "Spider-Man", "jessica": "Jessica Jones"}
    for pid, name in heroes.items():
        table.send({"type": "join", "member": {"id": pid, "name": name, "kind": "hero"}})
    room = room_of(table, heroes)
    room.ready = False
    relays: list[Relay] = []
    gm = room.join("Editor", "GM", "c1", lambda page: relays.append(Relay(page)))
    paste(gm, f"{room.seize}/console/{table.id}#token={table.gm}")
    # The room's metadata is the room's, not the scene's: the table's address is written at once.
    room.until(lambda: ADDRESS in room.state["room"], "the room linked")
    # The background page is up without a scene (its menu is there), and has the GM's view.
    room.until(lambda: LINK_MENU in gm.evaluate("window.host.menus"), "the link menu offered")
    room.until(lambda: relays[0].relayed > 0, "the table's news reaching the GM's pages")
    table.send({"type": "deal", "source": "gm"})
    for card in ("QH", "KS", "2C"):
        table.send({"type": "deal_card", "card": card})
    assert gm.evaluate("window.host.rejected") == []  # no call on the items before the scene
    room.scene(True)
    for pid in heroes:
        gm.evaluate("([menu, id]) => window.host.click(menu, [id])", [LINK_MENU, f"token-{pid}"])
        popover(gm).locator(f"[data-link={pid}]").click()
        room.until(partial(linked, room, pid), f"{pid}'s token linked")
    follows(room, table)
    assert room.ring_on() is None  # no one acts yet

    room.scene(False)
    heard = relays[0].relayed
    table.send({"type": "next_panel"})
    # Both pages have been handed the news while no scene is ready.
    room.until(lambda: relays[0].relayed >= heard + 2, "the next Panel heard")
    room.scene(True)
    follows(room, table)  # the ring, too, on whoever acts now
    assert room.ring_on() is not None
    # A read in flight as the scene closed is refused, as Owlbear refuses it; nothing else was.
    refused = gm.evaluate("window.host.rejected.splice(0)")
    assert {call["id"] for call in refused} <= {"OBR_SCENE_ITEMS_GET_ALL_ITEMS"}, refused


def rewrite(page: Any, value: Any) -> None:
    """A player writes ``value`` under Seize's key in the room's metadata, from the browser's
    console in the extension's own frame: the SDK lets any player do so."""
    popover(page).locator("main#seize h1").wait_for()
    page.query_selector("iframe#popover").content_frame().evaluate(
        """async ([key, value]) => {
            const { default: OBR } = await import("@owlbear-rodeo/sdk");
            await OBR.room.setMetadata({ [key]: value });
        }""",
        [ADDRESS, value],
    )


def room_line(page: Any) -> str:
    """What the popover says of the room's table address."""
    return str(popover(page).locator("#room").text_content())


def saying(page: Any, words: str) -> bool:
    return words in room_line(page)


def test_a_players_rewrite_of_the_rooms_table_address_is_ignored_and_said(
    room_of: Callable[..., Room], server: ServerProcess
) -> None:
    """Any player may rewrite the room's metadata: the popover shows the table's address only
    where it is one, of this server's, holding nothing else; anything else (a link to another
    server, a token, markup, another table than the viewer's own link opens) is ignored, said so
    with the rule it breaks, and never shown. The elected GM's client puts the address back."""
    table = crew_table(server)
    room = room_of(table, CREW)
    jena = room.join("jena", "PLAYER", "c2")
    mallory = room.join("Mallory", "PLAYER", "c3")
    room.rogues.add("c3")
    good = {"server": room.seize, "table": table.id}
    rewrite(mallory, good)  # what the GM's client would write: shown
    room.until(lambda: room_line(jena) == f"This room plays a table at {room.seize}.", "shown")
    planted = "pLaNtEdToKeN-0123456789abcdefghijklmnopq"
    script = "<img src=x onerror=\"document.title='taken'\">"
    for bad, rule in (
        ({"server": "https://seize.evil.example", "table": table.id}, "another server"),
        ({**good, "token": planted}, "more than a table's address"),
        (script, "not a table's address"),
        ({"server": room.seize, "table": "../../api/tables"}, "not a table's address"),
        ({"server": room.seize, "table": {"toString": script}}, "not a table's address"),
    ):
        rewrite(mallory, bad)
        room.until(partial(saying, jena, rule), f"the popover saying {rule}")
        said = popover(jena).locator("body").inner_text()
        assert "Seize ignores the table address in this room" in said
        for word in ("evil", planted, "img", "onerror", "../"):
            assert word not in said
        assert popover(jena).locator("img").count() == 0
    assert popover(jena).locator("html").evaluate("() => document.title") == "Seize"
    # Linked, Jena follows her own table, whatever the room names.
    link = player_links(table, "jena")["jena"]
    room.secrets.append(link.split("token=")[1])
    paste(jena, link)
    rewrite(mallory, {"server": room.seize, "table": "0123456789ab"})
    room.until(partial(saying, jena, "another table"), "the popover saying another table")
    own_only({"jena": jena})

    # The GM links the room: their client, elected, puts the address back whenever it is
    # rewritten, and tells them.
    gm = room.join("Editor", "GM", "c1")
    paste(gm, f"{room.seize}/console/{table.id}#token={table.gm}")
    room.until(lambda: room.state["room"][ADDRESS] == good, "the room linked")
    room.until(lambda: room_line(jena) == "", "the room naming Jena's own table")
    rewrite(mallory, {"server": "https://seize.evil.example", "table": table.id})
    room.until(lambda: room.state["room"][ADDRESS] == good, "the address put back")
    room.until(lambda: bool(notices(gm)), "the GM told")
    assert notices(gm) == [
        "Seize: the room's table address was rewritten (it names another server than the one "
        "this extension comes from); it is put back."
    ]


def test_the_demo_installs_in_owlbear_and_drives_its_tokens(browser: Any, tmp_path: Path) -> None:
    """From ``seize serve --demo``: the printed manifest URL installs, the printed GM link links
    the room, and the demo's Four Color table drives the map while a player follows their own."""
    printed = tmp_path / "printed.txt"
    with ServerProcess(tmp_path / "seize.db", printed, extra_args=["--demo"], **UNLIMITED):
        said = printed.read_text()
        installed = re.search(r"Owlbear Rodeo extension: (\S+)", said)
        console = re.search(r"GM console: +(\S+)", said)
        player = re.search(r"Spider-Man's player page: (\S+)", said)
        assert installed and console and player, said
        address = urlsplit(console.group(1))
        table_id = address.path.rsplit("/", 1)[1]
        base = f"{address.scheme}://{address.netloc}"
        table = DemoTable(
            table_id, parse_qs(address.fragment)["token"][0], f"{base}/api/tables/{table_id}"
        )
        _, seen = call(table.url, token=table.gm)
        heroes = [m for m in seen["view"]["members"] if m["kind"] == "hero"]
        tokens = [token_item(m["id"], m["name"]) for m in heroes]
        room = Room(browser, installed.group(1), tokens)
        room.secrets.append(table.gm)
        _, pages = seated(room, table, {"peter": player.group(1)})
        follows(room, table)
        own_only(pages)
        room.done()


def test_the_stand_in_speaks_only_the_sdks_messages() -> None:
    """Every message the stand-in host answers, hears or sends is one the vendored SDK's own
    source names, so the host cannot pass the extension by speaking a protocol of its own."""
    sdk = Path(__file__).parents[2] / "server/static/vendor/owlbear-rodeo-sdk"
    source = "".join(path.read_text(encoding="utf-8") for path in sdk.rglob("*.js"))
    spoken = set(re.findall(r"OBR_[A-Z_]+", HOST))
    assert len(spoken) > 30
    assert sorted(name for name in spoken if name not in source) == []
