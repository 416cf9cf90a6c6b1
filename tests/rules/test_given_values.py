"""A physical value is never silently replaced, and a player may enter their own character's
initiative dice, in all three systems.

A die, dice or card sent with a command is that value: with no ``source`` it counts as read
from a device, and ``source: engine`` beside it is refused naming the value's field, since the
engine would draw over it.
"""

from __future__ import annotations

import pytest

from rules.awareness import AwarenessTable
from rules.awareness.commands import (
    Act,
    EnterInitiative,
    EnterPreemption,
    React,
    RollInitiative,
    Wait,
)
from rules.awareness.events import InitiativeEntered, Reacted
from rules.awareness.view import view as awareness_view
from rules.cards import parse_card
from rules.four_color.commands import Deal, DealCard
from rules.megatraveller_rcs.commands import EnterRoll
from rules.megatraveller_rcs.commands import RollInitiative as RollRcs
from rules.megatraveller_rcs.events import RollEntered
from rules.randomness import Source
from rules.roles import GM, OVERLAY, player

from .awareness.helpers import roll_round, sheet, situation
from .four_color.helpers import scene
from .megatraveller_rcs.helpers import encounter
from .refusals import refused


def exchange_open() -> AwarenessTable:
    """``a`` waits for ``b`` and ``b`` acts: ``a`` may react."""
    table = situation(sheet("a"), sheet("b"))
    roll_round(table, {"a": 1, "b": 5})
    table.execute(Wait(character="a", trigger="b moves"), GM)
    table.execute(Act(character="b", what="moves"), GM)
    return table


@pytest.mark.parametrize("die", range(1, 11))
def test_a_reaction_sent_with_its_die_and_no_source_keeps_that_die(die: int) -> None:
    table = exchange_open()
    react = React(character="a", to="b", timing="before", what="shoots", die=die, seed=7)
    (event,) = table.execute(react, player("a"))
    assert isinstance(event, Reacted)
    assert (event.die, event.source) == (die, Source.DEVICE)


def test_a_reaction_with_neither_die_nor_source_is_the_engines_roll() -> None:
    table = exchange_open()
    react = React(character="a", to="b", timing="before", what="shoots", seed=7)
    (event,) = table.execute(react, player("a"))
    assert isinstance(event, Reacted) and event.source is Source.ENGINE and event.die is not None


def test_a_die_beside_an_engine_source_or_a_reaction_just_after_is_refused_at_the_die() -> None:
    table = exchange_open()
    before = React(character="a", to="b", timing="before", what="shoots", die=3, seed=7)
    engine = before.model_copy(update={"source": Source.ENGINE})
    assert refused(table, engine, "awareness.10", player("a")).field == "die"
    after = before.model_copy(update={"timing": "after"})
    assert refused(table, after, "awareness.10", player("a")).field == "die"
    table.execute(before.model_copy(update={"die": None, "source": Source.DEVICE}), player("a"))
    enter = EnterPreemption(character="a", die=3, source=Source.ENGINE, seed=7)
    assert refused(table, enter, "awareness.10", player("a")).field == "die"


def test_an_initiative_die_or_qr_beside_an_engine_source_is_refused_at_its_field() -> None:
    table = situation(sheet("a"), sheet("b"))
    table.execute(RollInitiative(source=Source.DEVICE), GM)
    die = EnterInitiative(character="a", die=4, source=Source.ENGINE, seed=7)
    assert refused(table, die, "awareness.4").field == "die"
    typed = EnterInitiative(character="a", qr=2, score=5, source=Source.ENGINE, seed=7)
    assert refused(table, typed, "awareness.4").field == "qr"


def test_rcs_dice_beside_an_engine_source_are_refused_at_the_dice() -> None:
    table = encounter(("jena", "crew", 0), ("guard", "corp", 0))
    table.execute(RollRcs(source=Source.DEVICE), GM)
    dice = EnterRoll(character="jena", dice=(6, 6), source=Source.ENGINE, seed=7)
    assert refused(table, dice, "megatraveller-rcs.1").field == "dice"


def test_a_card_dealt_by_hand_with_an_engine_source_is_refused_at_the_card() -> None:
    table = scene(heroes=2)
    table.execute(Deal(source=Source.DEVICE), GM)
    card = DealCard(card=parse_card("QH"), source=Source.ENGINE)
    assert refused(table, card, "four-color.2").field == "card"


def test_a_player_enters_their_own_characters_initiative_die_and_no_one_elses() -> None:
    table = situation(sheet("a"), sheet("b"))
    table.execute(RollInitiative(source=Source.DEVICE), GM)
    assert [w.who for w in awareness_view(table.state, player("a")).awaiting] == [("a",)]
    assert [w.who for w in awareness_view(table.state, OVERLAY).awaiting] == [()]
    refused(table, EnterInitiative(character="b", die=4), "roles", player("a"))
    typed = EnterInitiative(character="a", qr=2, score=5)
    refused(table, typed, "roles", player("a"))  # QR and Score are the GM's to type
    (event,) = table.execute(EnterInitiative(character="a", die=4), player("a"))
    assert isinstance(event, InitiativeEntered) and event.result.die == 4


def test_a_player_enters_their_own_characters_rcs_roll_and_no_one_elses() -> None:
    table = encounter(("jena", "crew", 0), ("guard", "corp", 0))
    table.execute(RollRcs(source=Source.DEVICE), GM)
    refused(table, EnterRoll(character="guard", dice=(3, 3)), "roles", player("jena"))
    (event,) = table.execute(EnterRoll(character="jena", dice=(3, 4)), player("jena"))
    assert isinstance(event, RollEntered) and event.roll.dice == (3, 4)
