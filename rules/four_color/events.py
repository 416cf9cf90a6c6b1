"""What happened in a Four Color Hack scene. Each event records outcomes, never how to draw them."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field

from rules.cards import Card
from rules.four_color.commands import Member
from rules.hiding import Hidden, HiddenAtJoin, Revealed, Seen
from rules.randomness import Source
from rules.table import Undone


class _Event(Seen):
    pass


class Dealing(BaseModel):
    """One card to one recipient (a member id, or ``editor`` for an extra card)."""

    model_config = ConfigDict(frozen=True)
    to: str
    card: Card


class Joined(_Event):
    type: Literal["joined"] = "joined"
    member: Member
    dealt: Card | None = None
    returned: tuple[Card, ...] = ()
    source: Source | None = None
    hidden: HiddenAtJoin = False


class Dealt(_Event):
    """A whole page dealt by the engine; ``returned`` are jokers a hero drew and put back."""

    type: Literal["dealt"] = "dealt"
    page: int
    source: Source
    cards: tuple[Dealing, ...]
    returned: tuple[Dealing, ...] = ()


class DealStarted(_Event):
    """A physical deal began; ``recipients`` are owed a card each, in this order."""

    type: Literal["deal_started"] = "deal_started"
    page: int
    source: Source
    recipients: tuple[str, ...]


class CardDealt(_Event):
    type: Literal["card_dealt"] = "card_dealt"
    to: str
    card: Card
    source: Source


class PanelPlayed(_Event):
    """A card was played: its Panel belongs to ``acting`` or complicates ``element``.

    A joker's Panel is Editorial Control, and no hero earns a Bonus Hero Die for it.
    """

    type: Literal["panel_played"] = "panel_played"
    card: Card
    holder: str
    acting: str | None = None
    element: str | None = None
    editorial_control: bool = False
    bonus_hero_die: bool = True


class CardAssigned(_Event):
    type: Literal["card_assigned"] = "card_assigned"
    card: Card
    acting: str | None = None
    element: str | None = None


class TradeOffered(_Event):
    type: Literal["trade_offered"] = "trade_offered"
    offer: int
    hero: str
    partner: str


class Traded(_Event):
    """The hero's card went to ``gave_to``, and ``got`` came from ``got_from`` to the hero."""

    type: Literal["traded"] = "traded"
    offer: int
    hero: str
    gave: Card
    gave_to: str
    got: Card
    got_from: str


class TradeDeclined(_Event):
    type: Literal["trade_declined"] = "trade_declined"
    offer: int
    by: str


class CardOverridden(_Event):
    type: Literal["card_overridden"] = "card_overridden"
    card: Card
    to: Card
    holder: str


class SceneEnded(_Event):
    type: Literal["scene_ended"] = "scene_ended"


Event = (
    Joined
    | Dealt
    | DealStarted
    | CardDealt
    | PanelPlayed
    | CardAssigned
    | TradeOffered
    | Traded
    | TradeDeclined
    | CardOverridden
    | SceneEnded
    | Hidden
    | Revealed
)
AnyEvent = Annotated[Event | Undone, Field(discriminator="type")]
