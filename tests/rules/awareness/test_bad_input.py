"""Bad input is refused with the rule at fault, changes nothing, and reveals nothing hidden."""

from __future__ import annotations

import re

from rules.awareness.commands import (
    Act,
    Awareness,
    EnterInitiative,
    Mode,
    React,
    RollInitiative,
    Wait,
)
from rules.randomness import Source
from rules.roles import GM, player

from ..refusals import refused
from .helpers import roll_round, sheet, situation


def no_numbers(message: str) -> bool:
    return re.search(r"\d", message) is None


def test_declaring_out_of_turn_is_refused_without_saying_whose_turn_comes() -> None:
    table = situation(sheet("a"), sheet("b"), sheet("c"))
    roll_round(table, {"a": 2, "b": 4, "c": 6})
    error = refused(table, Act(character="c", what="x"), "awareness.7", player("c"))
    assert no_numbers(error.message) and "'b'" not in error.message


def test_a_panicked_character_waiting_is_refused() -> None:
    table = situation(sheet("a"), sheet("b"))
    roll_round(table, {"a": 8, "b": 9})
    refused(table, Wait(character="a", trigger="x"), "awareness.6", player("a"))


def test_a_frozen_or_surprised_in_round_one_character_declaring_is_refused() -> None:
    table = situation(sheet("frozen"), sheet("unaware", state=Awareness.SURPRISED), sheet("c"))
    roll_round(table, {"frozen": 10, "unaware": 1, "c": 3})
    refused(
        table,
        Act(character="frozen", what="x", mode=Mode.ALL_OUT_OFFENSIVE),
        "awareness.6",
        player("frozen"),
    )
    refused(table, Act(character="unaware", what="x"), "awareness.9", player("unaware"))


def test_preempting_while_not_waiting_is_refused() -> None:
    table = situation(sheet("a"), sheet("b"), sheet("c"))
    roll_round(table, {"a": 1, "b": 2, "c": 3})
    table.execute(Act(character="a", what="shoots"), GM)
    error = refused(
        table,
        React(character="b", to="a", timing="before", what="x", seed=1),
        "awareness.10",
        player("b"),
    )
    assert no_numbers(error.message)


def test_a_qr_outside_one_to_ten_is_refused() -> None:
    table = situation(sheet("a"))
    table.execute(RollInitiative(source=Source.GM), GM)
    for qr in (0, 11):
        error = refused(
            table, EnterInitiative(character="a", qr=qr, score=5, source=Source.GM), "awareness.4"
        )
        assert error.field == "qr"
    refused(table, EnterInitiative(character="a", die=11, source=Source.GM), "awareness.4")


def test_reacting_to_someone_outside_the_exchange_is_refused() -> None:
    table = situation(sheet("a"), sheet("b"), sheet("c"))
    roll_round(table, {"a": 1, "b": 2, "c": 3})
    table.execute(Wait(character="a", trigger="x"), GM)
    table.execute(Act(character="b", what="shoots"), GM)
    error = refused(
        table, React(character="a", to="c", timing="after", what="x"), "awareness.11", player("a")
    )
    assert error.field == "to"
