"""What the Editor and the Writers can ask of a Four Color Hack scene."""

from __future__ import annotations

from enum import StrEnum
from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, PlainSerializer, PlainValidator

from rules.cards import Card, parse_card
from rules.hiding import HiddenAtJoin, Hide, Reveal
from rules.participants import Participant, ParticipantId
from rules.randomness import Seed, Source
from rules.table import Undo

EDITOR = "editor"
"""The holder of the Editor's extra cards, and the trading partner that means the Editor."""

Element = Annotated[
    str, Field(min_length=1, max_length=80, description="A named thing in the scene")
]


class Kind(StrEnum):
    HERO = "hero"
    VILLAIN = "villain"
    MOB = "mob"


class Member(Participant):
    """A hero (played by a Writer), or a villain or mob (played by the Editor)."""

    kind: Kind

    @property
    def is_hero(self) -> bool:
        return self.kind is Kind.HERO


class _Command(BaseModel):
    # Written out as a client sends it: a press's ``from``, not the field's Python name.
    model_config = ConfigDict(frozen=True, extra="forbid", serialize_by_alias=True)


class Join(_Command):
    """A hero, villain or mob enters the scene; mid-scene they are dealt one card at once, from
    where the page's cards came (the engine, the reader, the GM's hand) unless ``source`` says
    otherwise."""

    type: Literal["join"] = "join"
    member: Member
    source: Source | None = None
    seed: Seed | None = None
    hidden: HiddenAtJoin = False


class Deal(_Command):
    """Start a page: the engine deals it at once, or a physical deal begins card by card."""

    type: Literal["deal"] = "deal"
    source: Source = Source.ENGINE
    seed: Seed | None = None


class DealCard(_Command):
    """One card of a physical deal, read by a device or typed by the Editor.

    ``to`` names the recipient when a reader is bound to a seat; otherwise the card goes to
    whoever is next in the deal.
    """

    type: Literal["deal_card"] = "deal_card"
    card: Card
    to: str | None = None
    source: Source = Source.DEVICE


START = "start"
"""A ``next_panel``'s ``from`` before the page's first Panel: there is no Panel to move on from."""


def _panel_in_play(value: object) -> Card | str:
    """``"start"``, or a card in any notation a card field takes; a refusal names ``from``
    itself, not which of the two it failed to be."""
    if value == START or isinstance(value, Card):
        return value
    if not isinstance(value, str):
        raise ValueError("the Panel in play is a card such as 'QH', or 'start'")
    return parse_card(value)


PanelInPlay = Annotated[
    Card | Literal["start"],
    PlainValidator(_panel_in_play, json_schema_input_type=Card | Literal["start"]),
    PlainSerializer(str, return_type=str),  # a card as its code
]


class NextPanel(_Command):
    """Play the highest card not yet played.

    ``from`` is what the press moved on from: the card of the Panel in play when it was made, or
    ``"start"`` before the page's first. A press made on a Panel the table has left (a second
    tap on a button redrawn under the finger) is refused rather than playing the next one too.
    Without it the command plays whatever is next, as it always has.
    """

    type: Literal["next_panel"] = "next_panel"
    moved_from: PanelInPlay | None = Field(
        default=None, alias="from", description='The card of the Panel in play, or "start"'
    )


class PlayJoker(_Command):
    """The Editor interrupts the sequence: a joker's holder acts at once (Editorial Control)."""

    type: Literal["play_joker"] = "play_joker"
    card: Card
    acting: ParticipantId | None = None


class AssignCard(_Command):
    """The Editor gives a joker to a villain or mob, or an extra card to one or to an Element."""

    type: Literal["assign_card"] = "assign_card"
    card: Card
    acting: ParticipantId | None = None
    element: Element | None = None


class OfferTrade(_Command):
    """A Writer offers their hero's card to another hero or to the Editor."""

    type: Literal["offer_trade"] = "offer_trade"
    hero: ParticipantId
    partner: ParticipantId


class AcceptTrade(_Command):
    """The other side accepts; the Editor names which of their cards goes to the hero."""

    type: Literal["accept_trade"] = "accept_trade"
    offer: int
    card: Card | None = None


class DeclineTrade(_Command):
    """Either side closes an offer without trading."""

    type: Literal["decline_trade"] = "decline_trade"
    offer: int


class OverrideCard(_Command):
    """The Editor corrects a card on the table (a misread or a mistyped card)."""

    type: Literal["override_card"] = "override_card"
    card: Card
    to: Card


class EndScene(_Command):
    type: Literal["end_scene"] = "end_scene"


Command = (
    Join
    | Deal
    | DealCard
    | NextPanel
    | PlayJoker
    | AssignCard
    | OfferTrade
    | AcceptTrade
    | DeclineTrade
    | OverrideCard
    | EndScene
    | Hide
    | Reveal
)
AnyCommand = Annotated[Command | Undo, Field(discriminator="type")]
