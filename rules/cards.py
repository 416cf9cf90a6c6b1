"""Playing cards: the 54-card deck, the notations players write cards in, and suit orders.

A card is a value, not a position in a deck: the same ``Card("Q", "H")`` is what an NFC tag,
a GM's keyboard and the engine's shuffle all produce, so they can be compared and logged alike.
Which suit beats which is not a property of the card but of the game, so it lives in a
``SuitOrder`` that each game hands to ``rank_key``.

>>> parse_card("queen of hearts")
Card('QH')
>>> parse_card("10♠") == parse_card("TS")
True
>>> rank_key(parse_card("AS"), FOUR_COLOR_SUITS) > rank_key(parse_card("KH"), FOUR_COLOR_SUITS)
True
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from enum import StrEnum
from functools import cache
from typing import Any

from pydantic import GetCoreSchemaHandler, GetJsonSchemaHandler
from pydantic.json_schema import JsonSchemaValue
from pydantic_core import core_schema


class Suit(StrEnum):
    """The four French suits, by their one-letter codes."""

    HEARTS = "H"
    DIAMONDS = "D"
    CLUBS = "C"
    SPADES = "S"


class JokerColour(StrEnum):
    """The two jokers of a 54-card deck; physical decks print them in red and black."""

    RED = "R"
    BLACK = "B"


RANKS: tuple[str, ...] = ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")
"""Ranks from lowest to highest: two is low, Ace is high."""

SuitOrder = tuple[Suit, ...]
"""Suits from strongest to weakest, for breaking ties between equal ranks."""

FOUR_COLOR_SUITS: SuitOrder = (Suit.HEARTS, Suit.DIAMONDS, Suit.CLUBS, Suit.SPADES)
"""The Four Color Hack: hearts, diamonds, clubs, spades, in descending order."""


class CardError(ValueError):
    """A text that names no card; the message quotes the text."""


@dataclass(frozen=True, slots=True)
class Card:
    """One card: a rank and a suit, or a joker (rank ``"JOKER"``, suit ``None``)."""

    rank: str
    suit: Suit | None = None
    joker: JokerColour | None = None

    @property
    def is_joker(self) -> bool:
        return self.joker is not None

    @property
    def code(self) -> str:
        """The canonical short notation: ``QH``, ``10S``, ``RJ`` (red joker), ``BJ``."""
        if self.joker is not None:
            return f"{self.joker.value}J"
        assert self.suit is not None
        return f"{self.rank}{self.suit.value}"

    def __str__(self) -> str:
        return self.code

    def __repr__(self) -> str:
        return f"Card({self.code!r})"

    @classmethod
    def __get_pydantic_core_schema__(
        cls, source: type[Any], handler: GetCoreSchemaHandler
    ) -> core_schema.CoreSchema:
        # In models a card travels as its code and accepts every notation parse_card knows.
        return core_schema.no_info_plain_validator_function(
            _validate_card,
            serialization=core_schema.plain_serializer_function_ser_schema(
                lambda card: card.code, when_used="always"
            ),
        )

    @classmethod
    def __get_pydantic_json_schema__(
        cls, schema: core_schema.CoreSchema, handler: GetJsonSchemaHandler
    ) -> JsonSchemaValue:
        return {
            "type": "string",
            "description": "A card: QH, 10S, TS, Q♥, 'queen of hearts', RJ/BJ for the jokers.",
            "examples": ["QH", "10S", "RJ"],
        }


def _validate_card(value: object) -> Card:
    if isinstance(value, Card):
        return value
    if isinstance(value, str):
        return parse_card(value)
    raise CardError(f"a card is written as text such as 'QH', not {type(value).__name__}")


RED_JOKER = Card("JOKER", joker=JokerColour.RED)
BLACK_JOKER = Card("JOKER", joker=JokerColour.BLACK)
JOKERS: tuple[Card, ...] = (RED_JOKER, BLACK_JOKER)


def full_deck() -> tuple[Card, ...]:
    """The 54 cards: 13 ranks in each of the four suits, then the two jokers."""
    ranked = tuple(Card(rank, suit) for suit in Suit for rank in RANKS)
    return ranked + JOKERS


@cache
def rank_key(card: Card, order: SuitOrder) -> tuple[int, int]:
    """A key that sorts ranked cards from lowest to highest; jokers have none.

    Rank decides first; the suit's place in ``order`` breaks ties, so with a full suit order
    no two ranked cards compare equal. Cached: Panels are sorted by it on every command.

    >>> hand = [parse_card(code) for code in ("9S", "KD", "9H", "2C")]
    >>> [card.code for card in sorted(hand, key=lambda card: rank_key(card, FOUR_COLOR_SUITS))]
    ['2C', '9S', '9H', 'KD']
    >>> rank_key(RED_JOKER, FOUR_COLOR_SUITS)
    Traceback (most recent call last):
      ...
    rules.cards.CardError: RJ is a joker and has no place in the rank order
    """
    if card.suit is None:
        raise CardError(f"{card.code} is a joker and has no place in the rank order")
    return RANKS.index(card.rank), len(order) - order.index(card.suit)


_SUIT_WORDS = {
    "h": Suit.HEARTS, "heart": Suit.HEARTS, "hearts": Suit.HEARTS, "♥": Suit.HEARTS,
    "♡": Suit.HEARTS,
    "d": Suit.DIAMONDS, "diamond": Suit.DIAMONDS, "diamonds": Suit.DIAMONDS, "♦": Suit.DIAMONDS,
    "♢": Suit.DIAMONDS,
    "c": Suit.CLUBS, "club": Suit.CLUBS, "clubs": Suit.CLUBS, "♣": Suit.CLUBS, "♧": Suit.CLUBS,
    "s": Suit.SPADES, "spade": Suit.SPADES, "spades": Suit.SPADES, "♠": Suit.SPADES,
    "♤": Suit.SPADES,
}  # fmt: skip

_RANK_WORDS = {
    "2": "2", "two": "2", "deuce": "2", "3": "3", "three": "3", "trey": "3",
    "4": "4", "four": "4", "5": "5", "five": "5", "6": "6", "six": "6",
    "7": "7", "seven": "7", "8": "8", "eight": "8", "9": "9", "nine": "9",
    "10": "10", "t": "10", "ten": "10", "j": "J", "jack": "J", "knave": "J",
    "q": "Q", "queen": "Q", "k": "K", "king": "K", "a": "A", "ace": "A",
}  # fmt: skip

_JOKER_WORDS = {
    "rj": RED_JOKER, "jr": RED_JOKER, "red joker": RED_JOKER, "joker red": RED_JOKER,
    "big joker": RED_JOKER, "bj": BLACK_JOKER, "jb": BLACK_JOKER, "black joker": BLACK_JOKER,
    "joker black": BLACK_JOKER, "little joker": BLACK_JOKER,
}  # fmt: skip

_SHORT = re.compile(r"^(10|[2-9tjqka])\s*([hdcs♥♡♦♢♣♧♠♤])$")
_SUIT_FIRST = re.compile(r"^([♥♡♦♢♣♧♠♤])\s*(10|[2-9tjqka])$")
_WORDS = re.compile(r"^(\w+)\s+of\s+(\w+)$")


def parse_card(text: str) -> Card:
    """Read a card from the notations tables use.

    Accepts ``QH``/``qh``, ``10S``/``TS``, ``Q♥``/``♥Q``, ``queen of hearts``/``10 of spades``,
    and for the jokers ``RJ``/``BJ``, ``red joker``/``black joker``. A bare "joker" is refused
    because a deck has two and a deal must know which one it saw.

    >>> [parse_card(text).code for text in ("qh", "T♠", "♦10", "ace of clubs", "big joker")]
    ['QH', '10S', '10D', 'AC', 'RJ']
    >>> parse_card("joker")
    Traceback (most recent call last):
      ...
    rules.cards.CardError: 'joker': a deck has two jokers; say which (RJ or BJ)
    """
    words = " ".join(text.strip().lower().split())
    if words in _JOKER_WORDS:
        return _JOKER_WORDS[words]
    if words in {"joker", "jk", "🃏"}:
        raise CardError(f"{text!r}: a deck has two jokers; say which (RJ or BJ)")
    for pattern, rank_at, suit_at in ((_SHORT, 1, 2), (_SUIT_FIRST, 2, 1)):
        match = pattern.match(words)
        if match:
            return Card(_RANK_WORDS[match.group(rank_at)], _SUIT_WORDS[match.group(suit_at)])
    match = _WORDS.match(words)
    if match and match.group(1) in _RANK_WORDS and match.group(2) in _SUIT_WORDS:
        return Card(_RANK_WORDS[match.group(1)], _SUIT_WORDS[match.group(2)])
    raise CardError(f"{text!r} is not a card (try QH, 10♠ or 'queen of hearts')")
