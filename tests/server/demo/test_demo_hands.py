"""The demo's rolling hands, the tray's and the players' at their smart dice, roll whenever the
RCS table awaits a roll, once a round for each character, but never race a GM who rolls by
hand: once the GM types a roll, or takes back one they rolled, they stand aside until the next
round. The demo devices follow them (test_demo_dice.py: the smart dice over a real server)."""

from __future__ import annotations

from typing import Any

from rules.megatraveller_rcs import RcsTable
from rules.megatraveller_rcs.commands import EnterRoll, RollInitiative
from rules.megatraveller_rcs.view import view
from rules.randomness import Source
from rules.roles import GM
from rules.table import Undo
from server.demo.devices import RollingHands
from tests.rules.megatraveller_rcs.helpers import act, encounter


def seen(table: RcsTable) -> dict[str, Any]:
    """The table as the hands see it: the GM's view, as the API answers it."""
    return view(table.state, GM).model_dump(mode="json")


def awaited(table: RcsTable) -> list[str]:
    return [c for wait in seen(table)["awaiting"] if wait["what"] == "roll" for c in wait["who"]]


def rolls(hands: RollingHands, table: RcsTable) -> str | None:
    """The hands' move at the table: whom they roll for (the roll lands at once), if anyone:
    Jena with her own dice, the others at the tray, all alike to the hands."""
    hands.looks(seen(table))
    who = awaited(table)
    if not who or not hands.throws(who[0]):
        return None
    table.execute(EnterRoll(character=who[0], dice=(3, 4), source=Source.DEVICE), GM)
    return who[0]


def crew() -> RcsTable:
    table = encounter(("jena", "crew", 0), ("sarge", "corp", 1), ("guard", "corp", 2))
    table.execute(RollInitiative(source=Source.DEVICE), GM)
    return table


def next_round(table: RcsTable) -> None:
    while table.state.phase == "round":
        act(table, table.state.line[0])
    table.execute(RollInitiative(source=Source.DEVICE), GM)


def test_the_hands_roll_for_each_character_once_a_round() -> None:
    table = crew()
    hands = RollingHands()
    assert [rolls(hands, table) for _ in range(4)] == ["jena", "sarge", "guard", None]
    assert not awaited(table)
    next_round(table)
    assert rolls(hands, table) == "jena"


def test_a_roll_on_its_way_is_not_thrown_twice() -> None:
    """Jena's dice are thrown; the station has not entered her roll when the hands look again:
    they do not throw them again, nor while it is still on its way."""
    table = crew()
    hands = RollingHands()
    hands.looks(seen(table))
    assert hands.throws("jena")
    hands.looks(seen(table))
    assert not hands.throws("jena")
    table.execute(EnterRoll(character="jena", dice=(5, 5), source=Source.DEVICE), GM)
    assert rolls(hands, table) == "sarge"  # the roll landed: no GM's hand in it


def test_the_hands_stand_aside_once_the_gm_undoes_their_roll_until_the_next_round() -> None:
    """The GM takes back Sergeant Okoro's roll to type it: it is not rolled over at once (nor
    the guard's, where the GM's next press would land), until the next round."""
    table = crew()
    hands = RollingHands()
    assert rolls(hands, table) == "jena"
    assert rolls(hands, table) == "sarge"
    hands.looks(seen(table))  # their next look: the roll is in
    table.execute(Undo(), GM)
    assert awaited(table)[0] == "sarge"
    assert rolls(hands, table) is None
    assert rolls(hands, table) is None
    for cid in ("sarge", "guard"):
        table.execute(EnterRoll(character=cid, dice=(1, 1), source=Source.GM), GM)
        assert rolls(hands, table) is None
    next_round(table)  # the next round: theirs again
    assert rolls(hands, table) == "jena"


def test_jenas_dice_do_not_roll_her_undone_roll_over() -> None:
    """Her dice rolled her 2D6; the GM takes it back: her dice stay still until the next round
    asks for her roll again, and the tray does not roll the others meanwhile."""
    table = crew()
    hands = RollingHands()
    assert rolls(hands, table) == "jena"
    hands.looks(seen(table))
    table.execute(Undo(), GM)
    assert awaited(table) == ["jena", "sarge", "guard"]
    assert [rolls(hands, table) for _ in range(3)] == [None, None, None]
    for cid in ("jena", "sarge", "guard"):
        table.execute(EnterRoll(character=cid, dice=(2, 2), source=Source.GM), GM)
    next_round(table)
    assert rolls(hands, table) == "jena"


def test_the_hands_stand_aside_once_the_gm_types_a_roll() -> None:
    table = crew()
    hands = RollingHands()
    assert rolls(hands, table) == "jena"  # her dice's roll: not the GM's
    hands.looks(seen(table))
    table.execute(EnterRoll(character="sarge", dice=(2, 2), source=Source.GM), GM)
    assert awaited(table) == ["guard"]
    assert rolls(hands, table) is None
