"""A second round rolled at the table: last round's cards must not outlive their rolls."""

from __future__ import annotations

from rules.megatraveller_rcs import EncounterView, RcsTable
from rules.megatraveller_rcs.commands import EnterRoll, RollInitiative
from rules.randomness import Source
from rules.roles import GM, OVERLAY, Viewer

from .helpers import act, encounter, line, roll_round


def seen(table: RcsTable, viewer: Viewer) -> EncounterView:
    view = table.view(viewer)
    assert isinstance(view, EncounterView)
    return view


def test_a_round_after_the_first_can_be_rolled_at_the_table() -> None:
    table = encounter(("jena", "crew", 0), ("guard", "corp", 0))
    roll_round(table, {"jena": (1, 1), "guard": (6, 6)})
    act(table, "jena")
    act(table, "guard")
    table.execute(RollInitiative(source=Source.GM), GM)
    for viewer in (GM, OVERLAY):
        awaiting = seen(table, viewer)
        assert awaiting.line == () and awaiting.awaiting[0].who == ("jena", "guard")
    table.execute(EnterRoll(character="jena", dice=(6, 6), source=Source.GM), GM)
    table.execute(EnterRoll(character="guard", dice=(1, 2), source=Source.GM), GM)
    assert line(table) == ["guard", "jena"]
    assert not any(card.tapped for card in seen(table, GM).line)
