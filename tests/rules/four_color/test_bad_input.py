"""Bad input is refused with the rule or field at fault, and leaves the scene as it was."""

from __future__ import annotations

import pytest
from pydantic import ValidationError

from rules.cards import RED_JOKER, parse_card
from rules.four_color import FOUR_COLOR
from rules.four_color.commands import (
    AssignCard,
    Command,
    Deal,
    DealCard,
    EndScene,
    NextPanel,
    OfferTrade,
    PlayJoker,
)
from rules.randomness import Source
from rules.roles import GM, player

from ..refusals import refused
from .helpers import deal_by_hand, scene


def test_an_unknown_card_is_refused_at_the_card_field() -> None:
    with pytest.raises(ValidationError) as error:
        FOUR_COLOR.commands.validate_python({"type": "deal_card", "card": "ZZ"})
    (problem,) = error.value.errors()
    assert problem["loc"] == ("deal_card", "card") and "'ZZ'" in problem["msg"]


def test_an_unknown_command_type_is_refused_at_the_type_field() -> None:
    with pytest.raises(ValidationError) as error:
        FOUR_COLOR.commands.validate_python({"type": "shuffle_everything"})
    assert "type" in str(error.value)


def test_a_card_dealt_twice_in_one_deal_is_refused() -> None:
    table = scene(heroes=2)
    table.execute(Deal(source=Source.DEVICE), GM)
    table.execute(DealCard(card=parse_card("QH")), GM)
    error = refused(table, DealCard(card=parse_card("queen of hearts")), "four-color.2")
    assert error.field == "card"


def test_a_command_naming_someone_not_in_the_scene_is_refused() -> None:
    table = scene(heroes=2, villains=1)
    deal_by_hand(table, "9H", "8H", "RJ", "5C")
    assert refused(table, AssignCard(card=RED_JOKER, acting="nobody"), "four-color.5").field == (
        "acting"
    )
    assert refused(table, OfferTrade(hero="ghost", partner="h1"), "four-color.8").field == "hero"
    assert refused(table, DealCard(card=parse_card("2C"), to="h1"), "four-color.2").field == "card"


def test_trading_a_played_card_is_refused() -> None:
    table = scene(heroes=2)
    deal_by_hand(table, "9H", "8H", "5C")
    table.execute(AssignCard(card=parse_card("5C"), element="fire"), GM)
    table.execute(NextPanel(), GM)
    refused(table, OfferTrade(hero="h1", partner="h2"), "four-color.8", player("h1"))


def test_a_joker_physically_dealt_to_a_hero_is_refused() -> None:
    table = scene(heroes=1)
    table.execute(Deal(source=Source.DEVICE), GM)
    assert refused(table, DealCard(card=RED_JOKER), "four-color.4").field == "card"


@pytest.mark.parametrize(
    "command",
    [Deal(seed=1), NextPanel(), PlayJoker(card=RED_JOKER), EndScene(),
     AssignCard(card=RED_JOKER, acting="v1")],
)  # fmt: skip
def test_a_writer_trying_an_editors_command_is_refused(command: Command) -> None:
    table = scene(heroes=2, villains=1)
    if not isinstance(command, Deal):
        deal_by_hand(table, "9H", "8H", "RJ", "5C")
    error = refused(table, command, "roles", player("h1"))
    assert "GM" in error.message


def test_a_writer_cannot_offer_another_writers_card() -> None:
    table = scene(heroes=2)
    deal_by_hand(table, "9H", "8H", "5C")
    refused(table, OfferTrade(hero="h2", partner="h1"), "roles", player("h1"))


def test_a_refusal_to_a_writer_never_names_the_editors_secret_cards() -> None:
    table = scene(heroes=2, villains=1)
    deal_by_hand(table, "9H", "8H", "RJ", "5C")
    for command in (AssignCard(card=RED_JOKER, acting="v1"), PlayJoker(card=RED_JOKER)):
        error = refused(table, command, "roles", player("h1"))
        assert "RJ" not in str(error) and "5C" not in str(error)
