"""The demo's simulated dice tray rolls whenever the RCS table awaits a roll of a character
with no dice, but never races a GM who rolls by hand: once the GM types a roll, or takes back
one the tray rolled, it stands aside until the next round."""

from __future__ import annotations

from typing import Any

from rules.megatraveller_rcs import RcsTable
from rules.megatraveller_rcs.commands import EnterRoll, RollInitiative
from rules.megatraveller_rcs.view import view
from rules.randomness import Source
from rules.roles import GM
from rules.table import Undo
from server.demo.devices import TrayHand
from tests.rules.megatraveller_rcs.helpers import act, encounter

DICE = ("jena",)
"""Jena rolls her own smart dice: her rolls come in without the tray."""


def seen(table: RcsTable) -> dict[str, Any]:
    """The table as the hand sees it: the GM's view, as the API answers it."""
    return view(table.state, GM).model_dump(mode="json")


def awaited(table: RcsTable) -> list[str]:
    return [c for wait in seen(table)["awaiting"] if wait["what"] == "roll" for c in wait["who"]]


def rolls(hand: TrayHand, table: RcsTable) -> str | None:
    """The hand's move at the table: whom it rolls for (its roll lands at once), if anyone."""
    hand.looks(seen(table), DICE)
    who = awaited(table)
    if not who or who[0] in DICE or not hand.throws(who[0]):
        return None
    table.execute(EnterRoll(character=who[0], dice=(3, 4), source=Source.DEVICE), GM)
    return who[0]


def crew() -> RcsTable:
    table = encounter(("jena", "crew", 0), ("sarge", "corp", 1), ("guard", "corp", 2))
    table.execute(RollInitiative(source=Source.DEVICE), GM)
    return table


def test_the_tray_rolls_for_each_character_without_dice_and_not_for_those_with() -> None:
    table = crew()
    hand = TrayHand()
    table.execute(EnterRoll(character="jena", dice=(1, 2), source=Source.DEVICE), GM)
    assert rolls(hand, table) == "sarge"
    assert rolls(hand, table) == "guard"
    assert not awaited(table)


def test_the_tray_stands_aside_once_the_gm_undoes_its_roll_until_the_next_round() -> None:
    """The GM takes back Sergeant Okoro's roll to type it: the tray does not roll it over at
    once (nor the guard's, where the GM's next press would land), until the next round."""
    table = crew()
    hand = TrayHand()
    table.execute(EnterRoll(character="jena", dice=(6, 6), source=Source.DEVICE), GM)
    assert rolls(hand, table) == "sarge"
    hand.looks(seen(table), DICE)  # its next look: the roll is in
    table.execute(Undo(), GM)
    assert awaited(table)[0] == "sarge"
    assert rolls(hand, table) is None
    assert rolls(hand, table) is None
    for cid in ("sarge", "guard"):
        table.execute(EnterRoll(character=cid, dice=(1, 1), source=Source.GM), GM)
        assert rolls(hand, table) is None
    while table.state.phase == "round":
        act(table, table.state.line[0])
    table.execute(RollInitiative(source=Source.DEVICE), GM)  # the next round: the tray's again
    table.execute(EnterRoll(character="jena", dice=(6, 6), source=Source.DEVICE), GM)
    assert rolls(hand, table) == "sarge"


def test_the_tray_stands_aside_once_the_gm_types_a_roll() -> None:
    table = crew()
    hand = TrayHand()
    assert rolls(hand, table) is None  # Jena's dice are first
    table.execute(EnterRoll(character="jena", dice=(6, 6), source=Source.DEVICE), GM)
    hand.looks(seen(table), DICE)  # her dice's roll: not the GM's
    table.execute(EnterRoll(character="sarge", dice=(2, 2), source=Source.GM), GM)
    assert awaited(table) == ["guard"]
    assert rolls(hand, table) is None
