"""The player page's own Pixels dice, in Chromium against a real server: "Connect my Pixels die"
where Web Bluetooth exists, and plainly why not elsewhere; a roll from the die enters the
player's own pending roll with the die's id, and a roll nobody asked for is not entered. The
die is registered to the player's character with the player's token, and the GM's console
shows it, its battery and connection as the phone reports them; the die blinks at the
player's turn unless the table turned that off. A VTT's dice request for the player's own
character, asked on the table's socket as the Foundry module asks it, is answered by the die's
next roll, before her own pending roll, and another character's never is.

The die is a peripheral of Chromium's Bluetooth emulation (the DevTools ``BluetoothEmulation``
domain, on the browser's session; ``DeviceAccess`` answers the chooser), reached by the
vendored library's own Web Bluetooth code. An emulated peripheral cannot notify, and the
library waits for the die's ``IAmADie`` notification; but a ``readValue()`` answered with bytes
fires the same ``characteristicvaluechanged`` on the characteristic the library listens to
(Chromium hands every caller the same characteristic object), so the die speaks by reads the
test makes on the page. What it says is the bytes of Seize's codec
(adapters/pixels_protocol.py), from the documented layouts. The library (1.3.1) opens a die's
legacy service, whichever service found it: the emulated die serves that one."""

from __future__ import annotations

import base64
import time
from collections.abc import Iterator
from typing import Any

import aiohttp
import pytest

from adapters import pixels_protocol as px
from adapters.simulators.dice import LEDS
from server.devices.dice_requests import LONGEST_WAIT
from tests.adapters.foundry_table import COMBAT, JENA
from tests.adapters.stations import Aside
from tests.adapters.test_dice_requests import ask, next_of
from tests.server.process import ServerProcess, call
from tests.waiting import PACE, PAGE_PATIENCE, PATIENCE, until

from .conftest import CHROMIUM, FLAGS, Patient, Table
from .test_accessibility import axe, serious  # noqa: F401 (axe: a fixture)
from .test_dice_console import guard_and_jena, registry
from .test_foundry_dice import foundry_client, rolled, serve_foundry
from .test_foundry_dice import roll as roll_in_foundry
from .test_play import hand_to

PIXEL_ID = 0xBEEF
DIE_ID = f"pixels-{PIXEL_ID:08x}"
DIE = px.Identity(PIXEL_ID, px.DieType.D6, 6, 1_720_000_000, "Jena's red d6",
                  px.RollState.ON_FACE, 0, 77, False)  # fmt: skip
ADDRESS = "09:09:09:09:09:01"
CCCD = "00002902-0000-1000-8000-00805f9b34fb"
BLUETOOTH = "--enable-features=WebBluetooth,WebBluetoothNewPermissionsBackend"
ELSEWHERE = "seize.test"

# The die speaks: a read of its notify characteristic, on the page, that the emulation answers.
SPEAK = """async (name) => {
  const device = (await navigator.bluetooth.getDevices()).find((one) => one.name === name);
  const service = await device.gatt.getPrimaryService(SERVICE);
  (await service.getCharacteristic(NOTIFY)).readValue();
}""".replace("SERVICE", repr(px.LEGACY_SERVICE)).replace("NOTIFY", repr(px.LEGACY_NOTIFY))


@pytest.fixture
def browser(browser: Any) -> Iterator[Any]:
    """Chromium on Linux, as Chrome there, has Web Bluetooth behind a flag (Android, Windows and
    macOS have it on): this module's pages are opened in a Chromium launched with it, by the
    conftest's browser's Playwright (and after its checks that Chromium is here). The new
    permissions backend gives the test ``getDevices()``, to reach the die the page chose; and
    ``ELSEWHERE`` names this machine, for a page that is not on localhost. One for each test:
    a browser's Bluetooth emulation is enabled once, for one test's die."""
    elsewhere = f"--host-resolver-rules=MAP {ELSEWHERE} 127.0.0.1"
    launched = browser.browser_type.launch(
        executable_path=str(CHROMIUM), args=[*FLAGS, BLUETOOTH, elsewhere], timeout=PAGE_PATIENCE
    )
    yield Patient(launched)
    launched.close()


class Die:
    """A Pixels die in Chromium's Bluetooth emulation: it answers the chooser, the connection,
    the discovery and every operation, and speaks when the host asks who it is or when it is
    rolled. The emulation's events are taken in turn by ``until``, on the test's thread. A second
    die ``beside`` the first shares its radio: each event goes to the die it is about (its
    address, its characteristics, or the chooser while the die is being chosen)."""

    def __init__(
        self, browser: Any, page: Any, identity: px.Identity = DIE, address: str = ADDRESS,
        beside: Die | None = None,
    ) -> None:  # fmt: skip
        self.page, self.identity, self.address = page, identity, address
        self.written: list[bytes] = []  # what the host wrote, oldest first
        self.owned: set[str] = set()  # its characteristics and descriptor
        self.choosing = False  # the chooser is open for this die
        if beside is None:
            self.radio = browser.new_browser_cdp_session()
            self.radio.send("BluetoothEmulation.enable",
                            {"state": "powered-on", "leSupported": True})  # fmt: skip
            self.events: list[tuple[str, dict[str, Any]]] = []
            for event in ("gattOperationReceived", "characteristicOperationReceived",
                          "descriptorOperationReceived"):  # fmt: skip
                self.radio.on(f"BluetoothEmulation.{event}", self._heard(event))
            self.chooser = page.context.new_cdp_session(page)
            self.chooser.send("DeviceAccess.enable")
            self.chooser.on("DeviceAccess.deviceRequestPrompted",
                            lambda found: self.events.append(("prompted", found)))  # fmt: skip
            self.dice: list[Die] = []
            self.prompts: set[str] = set()
        else:
            self.radio, self.chooser, self.events = beside.radio, beside.chooser, beside.events
            self.dice, self.prompts = beside.dice, beside.prompts
        self.dice.append(self)
        self.radio.send("BluetoothEmulation.simulatePreconnectedPeripheral", {
            "address": address, "name": identity.name, "manufacturerData": [],
            "knownServiceUuids": [px.LEGACY_SERVICE]})  # fmt: skip
        self.serve()
        self.saying: list[bytes] = []  # what the die says at the next reads, in turn

    def serve(self) -> None:
        """The die's GATT service, which the emulation forgets when the die drops."""
        service = self.radio.send("BluetoothEmulation.addService", {
            "address": self.address, "serviceUuid": px.LEGACY_SERVICE})["serviceId"]  # fmt: skip
        notify = self.radio.send("BluetoothEmulation.addCharacteristic", {
            "serviceId": service, "characteristicUuid": px.LEGACY_NOTIFY,
            "properties": {"read": True, "notify": True}})["characteristicId"]  # fmt: skip
        cccd = self.radio.send("BluetoothEmulation.addDescriptor",
                               {"characteristicId": notify, "descriptorUuid": CCCD})  # fmt: skip
        write = self.radio.send("BluetoothEmulation.addCharacteristic", {
            "serviceId": service, "characteristicUuid": px.LEGACY_WRITE,
            "properties": {"write": True, "writeWithoutResponse": True}})  # fmt: skip
        self.owned |= {notify, cccd["descriptorId"], write["characteristicId"]}

    def drop(self) -> None:
        """The die drops its connection; it is back in range at once."""
        self.radio.send("BluetoothEmulation.simulateGATTDisconnection", {"address": self.address})
        self.serve()

    def _heard(self, event: str) -> Any:
        return lambda found: self.events.append((event, found))

    def say(self, data: bytes) -> None:
        self.saying.append(data)
        self.page.evaluate(SPEAK, self.identity.name)

    def until(self, condition: Any) -> None:
        """Answer the emulation's events, each by the die it is about, until ``condition()``."""
        deadline = time.monotonic() + PATIENCE
        while not condition():
            assert time.monotonic() < deadline, self.page.locator("#dice").inner_text()
            self.page.wait_for_timeout(PACE * 1000)  # the pace of polling, not a wait for anything
            while self.events:
                event, found = self.events.pop(0)
                self._about(event, found).answer(event, found)

    def _about(self, event: str, found: dict[str, Any]) -> Die:
        if event == "prompted":
            return next((die for die in self.dice if die.choosing), self)
        if event == "gattOperationReceived":
            return next(die for die in self.dice if die.address == found["address"])
        kind = "characteristic" if event.startswith("char") else "descriptor"
        return next(die for die in self.dice if found[f"{kind}Id"] in die.owned)

    def answer(self, event: str, found: dict[str, Any]) -> None:
        if event == "prompted":
            if found["id"] not in self.prompts:  # told once per listener
                self.prompts.add(found["id"])
                self.chooser.send("DeviceAccess.selectPrompt",
                                  {"id": found["id"], "deviceId": self.address})  # fmt: skip
            return
        if event == "gattOperationReceived":
            response = {"address": self.address, "type": found["type"], "code": 0}
            self.radio.send("BluetoothEmulation.simulateGATTOperationResponse", response)
            return
        kind = "characteristic" if event.startswith("char") else "descriptor"
        answer = {f"{kind}Id": found[f"{kind}Id"], "type": found["type"], "code": 0}
        if found["type"] == "read":
            said = self.saying.pop(0) if kind == "characteristic" else bytes(2)
            answer["data"] = base64.b64encode(said).decode()
        self.radio.send(f"BluetoothEmulation.simulate{kind.title()}OperationResponse", answer)
        if kind == "characteristic" and "data" in found:
            self.written.append(base64.b64decode(found["data"]))
            if self.written[-1][:1] == bytes([px.MessageType.WHO_ARE_YOU]):
                self.say(px.i_am_a_die(self.identity))

    def told(self, message: px.MessageType) -> int:
        return sum(data[:1] == bytes([message]) for data in self.written)


def connected(
    browser: Any, phone: Any, link: str | None, identity: px.Identity = DIE,
    address: str = ADDRESS, beside: Die | None = None,
) -> Die:  # fmt: skip
    """The player's page opened at ``link`` (or as it is, for a die ``beside`` another), the
    die connected and ready."""
    if link is not None:
        phone.goto(link)
    die = Die(browser, phone, identity, address, beside)
    die.choosing = True
    phone.locator("[data-action=connect-die]").click()
    die.until(phone.locator(f"[data-die={die_id(identity)}]").get_by_text("ready").is_visible)
    die.choosing = False
    return die


def die_id(identity: px.Identity) -> str:
    return f"pixels-{identity.pixel_id:08x}"


def roll(die: Die, number: int) -> None:
    """The die lands with ``number`` up (a d6's face index is its number less one)."""
    landed = next(i for i in range(20) if die.identity.face(i) == number)
    for state, index in ((px.RollState.ROLLING, 0), (px.RollState.ROLLED, landed)):
        die.say(px.roll_state(state, index))
        die.until(lambda: not die.saying)


def blinks(die: Die) -> list[int]:
    """The flashes of each blink the die was told, oldest first (``Blink``'s second byte)."""
    return [data[1] for data in die.written if data[:1] == bytes([px.MessageType.BLINK])]


def rolls_entered(table: Table) -> list[dict[str, Any]]:
    status, answer = call(f"{table.url}/events?after=0", token=table.gm)
    assert status == 200, answer
    events = [entry["event"] for entry in answer["events"]]
    return [event for event in events if event["type"] == "roll_entered"]


def test_a_pixels_die_enters_the_players_own_roll_not_one_unasked_and_blinks_at_her_turn(
    browser: Any,
    phone: Any,
    page: Any,
    server: ServerProcess,
    axe: str,  # noqa: F811 (the accessibility scan's fixture)
) -> None:
    console = page  # the GM's
    table = guard_and_jena(server)
    link = hand_to(table, "jena")
    table.send({"type": "roll_initiative", "source": "gm"})  # both rolls awaited, the guard's first
    die = connected(browser, phone, link)
    ready = phone.locator(f"[data-die={DIE_ID}]").get_by_text("ready")
    said = phone.locator("[data-dice-said]")
    reported = {"connected": True, "battery": 77, "charging": False}
    until(lambda: registry(table)["dice"].get(DIE_ID) == {
        "owner": "jena", "name": DIE.name, "phone": reported})  # fmt: skip

    # The GM's console lists the phone's die, and follows what the phone reports.
    table.devices(console)
    shown = console.locator(f"[data-die={DIE_ID}]")
    shown.get_by_text("Jena's red d6").wait_for()
    assert "on Jena's phone · connected · battery 77%" in shown.inner_text()
    assert console.locator(f"[data-owner={DIE_ID}]").input_value() == "jena"
    die.say(px.battery_level(41))
    die.until(lambda: not die.saying)
    console.locator(f"[data-die={DIE_ID}]", has_text="battery 41%").wait_for()

    die.drop()
    asked = px.MessageType.WHO_ARE_YOU
    die.until(lambda: die.told(asked) == 2 and ready.is_visible())  # dropped, reached again

    roll(die, 3)  # one d6, rolled twice for the 2D6
    said.get_by_text("roll again for the other 1").wait_for()
    roll(die, 5)
    said.get_by_text("Entered: 3 and 5.").wait_for()
    [entered] = rolls_entered(table)
    assert entered["roll"]["character"] == "jena"  # hers, though the guard's was asked first
    assert entered["roll"]["dice"] == [3, 5]
    assert (entered["source"], entered["dice_ids"]) == ("device", [f"pixels-{PIXEL_ID:08x}"])

    roll(die, 6)  # nothing is asked of Jena now: the guard's roll is not hers to enter
    said.get_by_text("rolled 6: no roll is asked of you").wait_for()
    assert len(rolls_entered(table)) == 1

    assert die.told(px.MessageType.BLINK) == 0  # the turn is no one's yet
    table.send({"type": "enter_roll", "character": "guard", "dice": [6, 6], "source": "gm"})
    assert table.view()["view"]["token"] == "jena"
    die.until(lambda: die.told(px.MessageType.BLINK) == 1)  # "your turn"
    assert serious(phone, axe) == []


def test_a_table_that_turned_blinks_off_keeps_the_phones_die_dark_at_her_turn(
    browser: Any, phone: Any, server: ServerProcess
) -> None:
    table = guard_and_jena(server)
    link = hand_to(table, "jena")
    table.send({"type": "roll_initiative", "source": "gm"})
    die = connected(browser, phone, link)
    assert call(f"{table.url}/dice", "PUT", {"blink": False}, table.gm)[0] == 200
    for character, dice in (("jena", [3, 5]), ("guard", [6, 6])):
        table.send({"type": "enter_roll", "character": character, "dice": dice, "source": "gm"})
    assert table.view()["view"]["token"] == "jena"
    die.until(lambda: phone.locator("[data-turn-told=jena]").count() == 1)
    # A blink sent would have reached the die before this roll's answer does.
    roll(die, 4)
    phone.locator("[data-dice-said]").get_by_text("rolled 4: no roll is asked of you").wait_for()
    assert die.told(px.MessageType.BLINK) == 0


def test_the_phones_die_blinks_on_deck_otherwise_than_at_her_turn(
    browser: Any, phone: Any, server: ServerProcess
) -> None:
    """The Guard rolled lower and holds the token, Jena's card is next: her die blinks once,
    slowly, in orange ("on deck"); her turn is three blue flashes. The blink's count tells
    them apart (``adapters/pixels_protocol.py``'s ``Blink``: its second byte)."""
    table = guard_and_jena(server)
    link = hand_to(table, "jena")
    table.send({"type": "roll_initiative", "source": "gm"})
    die = connected(browser, phone, link)
    for character, dice in (("jena", [6, 6]), ("guard", [1, 1])):
        table.send({"type": "enter_roll", "character": character, "dice": dice, "source": "gm"})
    assert table.view()["view"]["token"] == "guard"

    die.until(lambda: blinks(die) == [1])  # on deck: one flash
    assert phone.locator("[data-deck-told=jena]").count() == 1
    table.send({"type": "declare", "character": "guard", "action": "long", "what": "runs",
                "target": "door"})  # fmt: skip
    table.send({"type": "resolve"})
    assert table.view()["view"]["token"] == "jena"
    die.until(lambda: blinks(die) == [1, 3])  # her turn: three


@pytest.mark.parametrize(
    ("where", "why"),
    [
        ("no bluetooth", "This browser has no Web Bluetooth"),  # Safari, Firefox
        ("plain http", "Connecting a die needs this page over HTTPS"),  # not localhost
    ],
)
def test_where_no_die_can_connect_the_page_says_why(
    phone: Any, server: ServerProcess, where: str, why: str
) -> None:
    table = guard_and_jena(server)
    link = hand_to(table, "jena")
    if where == "no bluetooth":
        phone.add_init_script(
            "Object.defineProperty(Navigator.prototype, 'bluetooth', {value: undefined})"
        )
    else:  # the same server by a name that is not this machine's: no secure context
        link = link.replace("127.0.0.1", ELSEWHERE)
    phone.goto(link)
    said = phone.locator("[data-dice-said]")
    said.get_by_text(why).wait_for()
    assert phone.locator("[data-action=connect-die]").count() == 0
    # What it offers instead is there: the box opens once the table asks for her roll.
    assert "type what the die shows in the box this page opens" in said.inner_text()
    assert phone.locator("[data-action=enter-roll]").count() == 0
    table.send({"type": "roll_initiative", "source": "gm"})
    phone.locator(".mine [data-action=enter-roll]").wait_for()
    # And what she types there reaches the table, from a page that is no secure context too
    # (no crypto.randomUUID there: every command once failed as "cannot be reached").
    phone.fill(".mine input[name=die1]", "3")
    phone.fill(".mine input[name=die2]", "4")
    phone.click("[data-action=enter-roll]")
    phone.wait_for_selector("[data-action=enter-roll]", state="detached")
    awaiting = table.view()["view"]["awaiting"]
    assert [(a["what"], a["who"]) for a in awaiting] == [("roll", ["guard"])]


class VttSocket(Aside):
    """The table's socket with the GM's token, as the Foundry module holds it: dice asked for
    and the replies read (``ask``, ``next_of``) on a loop beside the browser."""

    def __init__(self, table: Table) -> None:
        super().__init__()
        self.url = f"{table.url}/ws?token={table.gm}"

    async def _open(self) -> tuple[aiohttp.ClientSession, aiohttp.ClientWebSocketResponse]:
        session = aiohttp.ClientSession()
        ws = await session.ws_connect(self.url)
        assert (await ws.receive_json())["type"] == "view"
        return session, ws

    def __enter__(self) -> VttSocket:
        super().__enter__()
        self.session, self.ws = self.run(self._open())
        return self

    def ask(self, ident: str, **request: Any) -> dict[str, Any]:
        return self.run(ask(self.ws, ident, **request))

    def next_of(self, ident: str) -> dict[str, Any]:
        return self.run(next_of(self.ws, ident))

    def __exit__(self, *raised: Any) -> None:
        self.run(self.session.close())
        super().__exit__(*raised)


def test_the_phones_die_answers_her_own_dice_request_before_her_roll_never_the_guards(
    browser: Any, phone: Any, server: ServerProcess
) -> None:
    """A VTT asks the table for the Guard's d6, then for two of Jena's (advantage) while her
    2D6 is awaited too: the die on her phone blinks twice for hers, and her next two rolls
    answer it, with the die's id, instead of entering her 2D6; the Guard's request, older,
    is never hers to answer, and her roll after goes to her 2D6 as before."""
    table = guard_and_jena(server)
    link = hand_to(table, "jena")
    table.send({"type": "roll_initiative", "source": "gm"})
    die = connected(browser, phone, link)
    until(lambda: DIE_ID in registry(table)["dice"])  # hers: her request opens no claim
    said = phone.locator("[data-dice-said]")
    with VttSocket(table) as vtt:
        assert vtt.ask("g1", owner="guard", sides=6, wait=LONGEST_WAIT)["claim"] is True
        asked = vtt.ask("j1", owner="jena", sides=6, count=2, wait=LONGEST_WAIT)
        assert asked == {"type": "dice-asked", "id": "j1", "dice": [DIE.name], "claim": False}
        die.until(said.get_by_text("A roll is asked of Jena: 2d6. Roll them.").is_visible)
        die.until(lambda: blinks(die) == [2])  # twice: a request, not her turn (three)
        roll(die, 4)
        die.until(said.get_by_text("4: roll again for the other 1.").is_visible)
        roll(die, 2)
        die.until(said.get_by_text("Your d6 rolled 4 and 2, for the roll asked of you.").is_visible)
        rolled = vtt.next_of("j1")
        assert rolled == {"type": "dice-rolled", "id": "j1", "faces": [4, 2],
                          "dice": [DIE_ID, DIE_ID]}  # fmt: skip
        assert rolls_entered(table) == []  # not her 2D6
        roll(die, 5)
        die.until(said.get_by_text("5: roll again for the other 1.").is_visible)  # her 2D6
        kept = registry(table)
        assert [one["owner"] for one in kept["requests"].values()] == ["guard"]
        assert (kept["answers"], rolls_entered(table)) == ({}, [])


@pytest.mark.parametrize(
    ("kind", "sides", "shown"),
    [(px.DieType.D4, 4, 3), (px.DieType.D6_PIPPED, 6, 5), (px.DieType.D8, 8, 8),
     (px.DieType.D10, 10, 10), (px.DieType.D12, 12, 7), (px.DieType.D20, 20, 20),
     (px.DieType.D6_FUDGE, px.FATE, 3)],
)  # fmt: skip
def test_every_pixels_die_on_her_phone_answers_a_roll_of_its_size(
    browser: Any, phone: Any, server: ServerProcess, kind: px.DieType, sides: int, shown: int
) -> None:
    """Each Pixels die type (the d6 is the tests' above), connected on Jena's phone, fills a VTT's
    roll of its size as the library reads it (a d10's "0" is 10, a pipped d6 is a d6, a Fudge
    die a Fate die: Foundry's ``dF`` asks for three faces, and its face index 0 is a plus)."""
    table = guard_and_jena(server)
    identity = px.Identity(PIXEL_ID, kind, LEDS[kind], 1_720_000_000, f"Jena's {kind.name}",
                           px.RollState.ON_FACE, 0, 77, False)  # fmt: skip
    die = connected(browser, phone, hand_to(table, "jena"), identity)
    until(lambda: die_id(identity) in registry(table)["dice"])
    said = phone.locator("[data-dice-said]")
    with VttSocket(table) as vtt:
        assert vtt.ask("j1", owner="jena", sides=sides, wait=LONGEST_WAIT)["claim"] is False
        named = "dF" if sides == px.FATE else f"d{sides}"
        die.until(said.get_by_text(f"A roll is asked of Jena: a {named}.").is_visible)
        roll(die, shown)
        rolled = vtt.next_of("j1")
        assert rolled == {"type": "dice-rolled", "id": "j1", "faces": [shown],
                          "dice": [die_id(identity)]}  # fmt: skip


def test_a_d00_and_a_d10_on_her_phone_roll_a_d100_together(
    browser: Any, phone: Any, server: ServerProcess
) -> None:
    """Jena's d00 and d10, both on her phone, answer a VTT's d100 as the station reads such a
    pair: 40 and 7 is 47, the d00 named first; the d00 alone answers nothing."""
    table = guard_and_jena(server)
    d00 = px.Identity(0xD00, px.DieType.D00, 10, 1_720_000_000, "Jena's d00",
                      px.RollState.ON_FACE, 0, 80, False)  # fmt: skip
    d10 = px.Identity(0xD10, px.DieType.D10, 10, 1_720_000_000, "Jena's d10",
                      px.RollState.ON_FACE, 0, 80, False)  # fmt: skip
    tens = connected(browser, phone, hand_to(table, "jena"), d00, "09:09:09:09:09:02")
    units = connected(browser, phone, None, d10, "09:09:09:09:09:03", beside=tens)
    until(lambda: {die_id(d00), die_id(d10)} <= set(registry(table)["dice"]))
    said = phone.locator("[data-dice-said]")
    with VttSocket(table) as vtt:
        vtt.ask("p1", owner="jena", sides=100, wait=LONGEST_WAIT)
        tens.until(said.get_by_text("A roll is asked of Jena: a d100.").is_visible)
        roll(tens, 40)
        tens.until(said.get_by_text("40: now the other die of the d100.").is_visible)
        roll(units, 7)
        rolled = vtt.next_of("p1")
        assert rolled == {"type": "dice-rolled", "id": "p1", "faces": [47],
                          "dice": [die_id(d00), die_id(d10)]}  # fmt: skip


def test_a_players_4df_in_foundry_is_rolled_with_the_fudge_die_on_her_phone(
    browser: Any, phone: Any, server: ServerProcess
) -> None:
    """Jena's player rolls ``4dF + 1`` in Foundry (the stand-in's clients, as in
    test_foundry_dice.py): her client asks the GM's, which asks the table for four three-faced
    dice; her one Pixels Fudge die, on her phone, rolled four times, answers, and Foundry's Fate
    term holds -1, 0 and +1, a minus a failure and a plus a success."""
    table = Table(server, "megatraveller-rcs")
    for command in COMBAT:
        table.send(command)
    fudge = px.Identity(PIXEL_ID, px.DieType.D6_FUDGE, LEDS[px.DieType.D6_FUDGE], 1_720_000_000,
                        "Jena's dF", px.RollState.ON_FACE, 0, 77, False)  # fmt: skip
    die = connected(browser, phone, hand_to(table, JENA), fudge)
    until(lambda: registry(table)["dice"].get(DIE_ID, {}).get("owner") == JENA)
    foundry = browser.new_context()
    serve_foundry(foundry)
    try:
        gm, player = foundry.new_page(), foundry.new_page()
        foundry_client(gm, "gm", server.url, table.id, table.gm)
        foundry_client(player, "player")
        roll_in_foundry(player, "4dF + 1")
        said = phone.locator("[data-dice-said]")
        asked = f"A roll is asked of {JENA}: 4dF. Roll them."  # her character's name, its id
        die.until(said.get_by_text(asked).is_visible)
        for shown in (3, 1, 2, 3):  # plus, minus, blank, plus
            roll(die, shown)
        die.until(said.get_by_text("Your dF rolled + and \u2212 and blank and +").is_visible)
        assert rolled(player) == {"total": 2, "results": [
            {"result": 1, "active": True, "success": True},
            {"result": -1, "active": True, "failure": True},
            {"result": 0, "active": True},
            {"result": 1, "active": True, "success": True},
        ]}  # fmt: skip
        entered = [(one["roll"]["character"], one["source"]) for one in rolls_entered(table)]
        assert entered == [(JENA, "gm"), ("guard", "gm")]  # the GM's cards; nothing of the dF
    finally:
        foundry.close()
