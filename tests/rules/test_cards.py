import doctest

import pytest
from hypothesis import given
from hypothesis import strategies as st
from pydantic import BaseModel

import rules.cards
from rules.cards import (
    BLACK_JOKER,
    FOUR_COLOR_SUITS,
    RED_JOKER,
    Card,
    CardError,
    Suit,
    full_deck,
    parse_card,
    rank_key,
)

DECK = full_deck()


RANKED = [c for c in DECK if not c.is_joker]
SYMBOLS = {Suit.HEARTS: "♥", Suit.DIAMONDS: "♦", Suit.CLUBS: "♣", Suit.SPADES: "♠"}
NAMES = {
    Suit.HEARTS: "hearts",
    Suit.DIAMONDS: "diamonds",
    Suit.CLUBS: "clubs",
    Suit.SPADES: "spades",
}
RANK_NAMES = {"J": "jack", "Q": "queen", "K": "king", "A": "ace", "10": "ten"}


def test_deck_has_54_distinct_cards_13_per_suit_and_two_jokers() -> None:
    assert len(DECK) == 54 and len(set(DECK)) == 54
    for suit in Suit:
        assert sum(1 for c in DECK if c.suit is suit) == 13
    assert {c for c in DECK if c.is_joker} == {RED_JOKER, BLACK_JOKER}


def test_rank_order_is_total_ace_high_two_low_then_hearts_diamonds_clubs_spades() -> None:
    ordered = sorted(RANKED, key=lambda c: rank_key(c, FOUR_COLOR_SUITS), reverse=True)
    assert [c.code for c in ordered[:5]] == ["AH", "AD", "AC", "AS", "KH"]
    assert [c.code for c in ordered[-2:]] == ["2C", "2S"]
    assert len({rank_key(c, FOUR_COLOR_SUITS) for c in RANKED}) == 52


def test_another_games_suit_order_changes_only_the_tie_break() -> None:
    bridge = (Suit.SPADES, Suit.HEARTS, Suit.DIAMONDS, Suit.CLUBS)
    assert rank_key(parse_card("AS"), bridge) > rank_key(parse_card("AH"), bridge)
    assert rank_key(parse_card("2S"), bridge) < rank_key(parse_card("3C"), bridge)


def test_jokers_have_no_rank() -> None:
    with pytest.raises(CardError, match="joker"):
        rank_key(RED_JOKER, FOUR_COLOR_SUITS)


@pytest.mark.parametrize(
    ("text", "code"),
    [
        ("QH", "QH"), ("qh", "QH"), ("10S", "10S"), ("TS", "10S"), ("t s", "10S"),
        ("Q♥", "QH"), ("♥Q", "QH"), ("10♠", "10S"), ("queen of hearts", "QH"),
        ("Ten of Spades", "10S"), ("10 of clubs", "10C"), ("ace  of  diamonds", "AD"),
        ("RJ", "RJ"), ("red joker", "RJ"), ("BJ", "BJ"), ("Black Joker", "BJ"),
    ],
)  # fmt: skip
def test_common_notations(text: str, code: str) -> None:
    assert parse_card(text).code == code


@pytest.mark.parametrize("text", ["ZZ", "1H", "11S", "QX", "", "queen of cups", "joker", "QHH"])
def test_unknown_cards_are_refused_naming_the_text(text: str) -> None:
    with pytest.raises(CardError) as refused:
        parse_card(text)
    assert repr(text) in str(refused.value)


@given(st.sampled_from(DECK))
def test_every_notation_of_a_card_reads_back_as_that_card(card: Card) -> None:
    assert parse_card(card.code) == card
    assert parse_card(card.code.lower()) == card
    if card.suit is not None:
        assert parse_card(f"{card.rank}{SYMBOLS[card.suit]}") == card
        rank = RANK_NAMES.get(card.rank, card.rank)
        assert parse_card(f"{rank} of {NAMES[card.suit]}") == card


@given(st.text(max_size=20))
def test_any_text_is_a_card_or_a_card_error(text: str) -> None:
    try:
        card = parse_card(text)
    except CardError:
        return
    assert card in DECK


class Holder(BaseModel):
    card: Card


def test_cards_travel_in_models_as_their_code() -> None:
    assert Holder.model_validate({"card": "queen of hearts"}).model_dump(mode="json") == {
        "card": "QH"
    }
    assert Holder.model_validate_json('{"card": "T♦"}').card == parse_card("10D")


def test_the_examples_in_the_modules_docstrings_hold() -> None:
    """The examples in ``rules/cards.py`` are what a reader learns the notations from."""
    failed, attempted = doctest.testmod(rules.cards)
    assert failed == 0
    assert attempted >= 8  # the module's, parse_card's and rank_key's examples all ran
