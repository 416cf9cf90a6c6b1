"""Bad input is refused with the rule or field at fault, and leaves the encounter as it was."""

from __future__ import annotations

import pytest
from pydantic import ValidationError

from rules.megatraveller_rcs import MEGATRAVELLER_RCS
from rules.megatraveller_rcs.commands import (
    ActionLength,
    Declare,
    EnterRoll,
    RollInitiative,
    Seize,
    SpendTactics,
)
from rules.randomness import Source
from rules.roles import GM, player

from ..refusals import refused
from .helpers import act, encounter, roll_round

SHORT, LONG = ActionLength.SHORT, ActionLength.LONG


def test_a_seize_by_a_lower_character_is_refused() -> None:
    table = encounter(("low", "x", 0), ("mid", "y", 0), ("high", "y", 0))
    roll_round(table, {"low": (1, 1), "mid": (3, 3), "high": (6, 6)})
    table.execute(Seize(character="high"), GM)
    assert refused(table, Seize(character="mid"), "megatraveller-rcs.5").field == "character"
    assert refused(table, Seize(character="low"), "megatraveller-rcs.5").field == "character"


def test_a_seize_by_a_tapped_character_or_outside_a_window_is_refused() -> None:
    table = encounter(("low", "x", 0), ("high", "y", 0), ("top", "y", 0))
    roll_round(table, {"low": (1, 1), "high": (5, 5), "top": (6, 6)})
    table.execute(Seize(character="top"), GM)
    act(table, "top")
    refused(table, Seize(character="top"), "megatraveller-rcs.7")
    act(table, "low", SHORT)
    refused(table, Seize(character="high"), "megatraveller-rcs.5")


def test_a_third_short_action_is_refused() -> None:
    table = encounter(("a", "x", 0), ("b", "y", 0))
    roll_round(table, {"a": (1, 1), "b": (6, 6)})
    act(table, "a", SHORT)
    act(table, "a", SHORT)  # the second Short Action ends the turn and taps the card
    error = refused(
        table, Declare(character="a", action=SHORT, what="x", target="y"), "megatraveller-rcs.4"
    )
    assert "Taking Turn Token" in error.message


def test_more_pool_points_than_the_side_has_are_refused() -> None:
    table = encounter(("a", "x", 1), ("b", "y", 0))
    roll_round(table, {"a": (1, 1), "b": (6, 6)})
    error = refused(table, SpendTactics(side="x", character="a", points=2), "megatraveller-rcs.2")
    assert error.field == "points"


def test_adjusting_a_character_of_another_side_is_refused() -> None:
    table = encounter(("a", "x", 1), ("b", "y", 0))
    roll_round(table, {"a": (1, 1), "b": (6, 6)})
    error = refused(table, SpendTactics(side="x", character="b", points=1), "megatraveller-rcs.2")
    assert error.field == "character"


def test_acting_without_the_token_is_refused() -> None:
    table = encounter(("a", "x", 0), ("b", "y", 0))
    roll_round(table, {"a": (1, 1), "b": (6, 6)})
    refused(table, Declare(character="b", action=LONG, what="x", target="y"), "megatraveller-rcs.4")
    refused(table, Declare(character="a", action=LONG, what="x", target="y"), "roles", player("b"))


def test_a_die_off_the_dice_is_refused() -> None:
    table = encounter(("a", "x", 0))
    table.execute(RollInitiative(source=Source.DEVICE), GM)
    refused(table, EnterRoll(character="a", dice=(7, 1)), "megatraveller-rcs.1")
    refused(table, EnterRoll(character="a", dice=(3,)), "megatraveller-rcs.1")
    refused(table, EnterRoll(character="ghost", dice=(3, 3)), "megatraveller-rcs.1")


def test_a_declaration_without_a_target_is_refused_at_the_target_field() -> None:
    with pytest.raises(ValidationError) as error:
        MEGATRAVELLER_RCS.commands.validate_python(
            {"type": "declare", "character": "a", "action": "long", "what": "shoots"}
        )
    assert error.value.errors()[0]["loc"] == ("declare", "target")
