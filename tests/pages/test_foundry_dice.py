"""The Foundry module in Chromium, its rolls filled by the table's dice.

Foundry itself cannot run here, so its clients are pages of the stand-in Foundry
(tests/js/foundry-stand-in.mjs, the one the Node tests load) with the module in it, served from
this tree at a hosted Foundry's address: the GM's client, linked to a real Seize server over the
page's own WebSocket and fetch, and a player's, which reaches the GM's over Foundry's module
socket (a BroadcastChannel between the two pages, as Foundry's server relays it). Simulated
Pixels dice roll through the die station, which runs in this process beside the browser.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest

from tests.adapters.foundry_table import COMBAT, JENA, TableDice, open_for
from tests.adapters.stations import StationAside, die_id
from tests.server.process import ServerProcess, call
from tests.waiting import until

from .conftest import Table

ROOT = Path(__file__).parents[2]
FOUNDRY = "https://friday.forge-vtt.com"  # a Foundry on the internet, hosted on The Forge
SERVED = ("tests/js/", "server/vtt/foundry/scripts/")  # the stand-in, and the module it loads
WORLD = "<!doctype html><title>Foundry VTT (stand-in)</title>"

CLIENT = """async ([role, args]) => {
  window.atTable = await import("/tests/js/foundry-at-the-table.mjs");
  await window.atTable[role](...args, new BroadcastChannel("world-a"));
}"""


def serve_foundry(context: Any) -> None:
    """Foundry at its address, for every page of ``context``: the world's page, and the
    stand-in's and the module's scripts from this tree; nothing else. Chromium asks the GM once
    whether Foundry may reach the Seize server on their machine; the GM allows it
    (docs/foundry.md says so), as this does."""

    def answer(route: Any) -> None:
        path = urlsplit(route.request.url).path.removeprefix("/")
        script = ROOT / path
        if path == "game":
            route.fulfill(status=200, content_type="text/html", body=WORLD)
        elif path.startswith(SERVED) and path.endswith(".mjs") and script.is_file():
            route.fulfill(status=200, content_type="text/javascript", path=script)
        else:
            route.fulfill(status=404, body="")

    context.route(f"{FOUNDRY}/**", answer)
    context.grant_permissions(["local-network-access"], origin=FOUNDRY)


@pytest.fixture
def foundry(browser: Any) -> Iterator[Any]:
    """A browser where Foundry is served: each page of it a client of the world."""
    context = browser.new_context()
    serve_foundry(context)
    yield context
    context.close()


def foundry_client(page: Any, role: str, *args: str) -> None:
    """Open the world in ``page``, as the GM (``gm``, with Seize's address, the table, the GM's
    token) or as the player (``player``)."""
    page.goto(f"{FOUNDRY}/game")
    page.evaluate(CLIENT, [role, list(args)])


def roll(page: Any, formula: str) -> None:
    """A roll of ``formula`` made in the page's Foundry, as an attack is: it waits for the
    table's dice, and ``rolled`` reads it."""
    page.evaluate("formula => { window.rolling = window.atTable.attack(formula); }", formula)


def rolled(page: Any) -> Any:
    return page.evaluate("window.rolling")


def requested(table: Table, owner: str) -> None:
    until(
        lambda: open_for(call(f"{table.url}/dice", token=table.gm)[1], owner),
        f"no dice request for {owner} was opened",
    )


def events(table: Table) -> list[dict[str, Any]]:
    """The table's events, oldest first."""
    _, body = call(f"{table.url}/events?after=0", token=table.gm)
    return [entry["event"] for entry in body["events"] if entry["event"] is not None]


def test_foundry_rolls_in_chromium_are_filled_by_each_rollers_own_die(
    foundry: Any, server: ServerProcess
) -> None:
    """The GM's attack and a player's, each filled by the roller's own die, then the next
    round: the attacks enter nothing of the table's initiative, which Seize still runs."""
    table = Table(server, "megatraveller-rcs")
    for command in COMBAT:
        table.send(command)
    dice = TableDice()
    status, registry = call(f"{table.url}/dice", "PUT", dice.registered(), table.gm)
    assert status == 200, registry
    gm, player = foundry.new_page(), foundry.new_page()
    seize_reached: list[str] = []  # from the player's page: never, only the GM's client talks

    def reaching(asked: Any) -> None:
        if asked.url.startswith(server.url):
            seize_reached.append(asked.url)

    player.on("websocket", lambda socket: seize_reached.append(socket.url))
    player.on("request", reaching)
    with StationAside(server.url, table.id, table.gm, dice.air) as station:
        foundry_client(gm, "gm", server.url, table.id, table.gm)
        foundry_client(player, "player")
        gms_attack(gm, table, station, dice)
        players_attack(gm, player, table, station, dice)
        assert seize_reached == []
        next_round_in_foundry(gm, table)
        assert station.status.answered == 2 and station.status.rolls == 0


def gms_attack(gm: Any, table: Table, station: StationAside, dice: TableDice) -> None:
    """The GM's attack with advantage: one request for two dice, two rolls of the GM's d20."""
    roll(gm, "2d20kh + 4")
    requested(table, "gm")
    station.roll(dice.gm, 15)
    station.roll(dice.gm, 8)
    kept = [{"result": 15, "active": True}, {"result": 8, "active": False}]  # the higher
    assert rolled(gm) == {"total": 19, "results": kept}


def players_attack(
    gm: Any, player: Any, table: Table, station: StationAside, dice: TableDice
) -> None:
    """Jena's player's attack, asked of the GM's client: the GM's die and a die nobody's roll
    first, and neither fills it; her own die does."""
    roll(player, "1d20")
    requested(table, JENA)
    station.roll(dice.gm, 20)
    station.roll(dice.stray, 1)
    until(lambda: station.status.unwanted == 2, lambda: str(station.status.notices))
    assert sorted(station.status.notices[-2:]) == [
        "A stray d20 rolled 1: the die is no one's yet",
        "The GM rolled 20, unasked",
    ]
    _, registry = call(f"{table.url}/dice", token=table.gm)
    assert open_for(registry, JENA) and registry["answers"] == {}  # still waiting for hers
    station.roll(dice.jena, 13)
    assert rolled(player) == {"total": 13, "results": [{"result": 13, "active": True}]}
    answered = gm.evaluate("window.atTable.world.emitted.at(-1).message")
    assert answered["rolled"] == {"faces": [13], "dice": [die_id(dice.jena)]}


def next_round_in_foundry(gm: Any, table: Table) -> None:
    """The GM's Next Turn in Foundry is Seize's end of the turn, each in order, and Next Round
    has Seize's engine roll the round's initiative; no attack was ever entered into it."""
    for tapped in (1, 2):
        gm.evaluate("game.combats.contents[0].nextTurn()")
        gm.wait_for_function(
            f"game.combats.contents[0].combatants"
            f".filter((c) => c.flags.seize.tapped).length === {tapped}"
        )
    gm.evaluate("game.combats.contents[0].nextRound()")
    until(lambda: events(table)[-1]["type"] == "initiative_rolled", "no round was rolled")
    round_two = events(table)[-1]
    assert (round_two["round"], round_two["source"]) == (2, "engine")
    assert sorted(one["character"] for one in round_two["rolls"]) == sorted([JENA, "guard"])
    entered = [(e["roll"]["character"], e["source"], e["dice_ids"])
               for e in events(table) if e["type"] == "roll_entered"]  # fmt: skip
    assert entered == [(JENA, "gm", []), ("guard", "gm", [])]  # the first round's cards only
