"""The state of a Four Color Hack scene, and how each event changes it.

A scene is dealt in pages: each page deals every member one card and the Editor their extra
cards, and the cards are then played as Panels from highest to lowest. ``evolve`` only ever
applies outcomes; every check lives in ``decide``, so replaying a log cannot fail.
"""

from __future__ import annotations

from enum import StrEnum
from typing import Literal

from pydantic import BaseModel, ConfigDict

from rules import hiding
from rules.cards import FOUR_COLOR_SUITS, Card, full_deck, rank_key
from rules.four_color.commands import EDITOR, Member
from rules.four_color.events import (
    CardAssigned,
    CardDealt,
    CardOverridden,
    Dealing,
    DealStarted,
    Dealt,
    Event,
    Joined,
    PanelPlayed,
    SceneEnded,
    Traded,
    TradeDeclined,
    TradeOffered,
)
from rules.hiding import Hidden, Revealed
from rules.randomness import Source
from rules.telling import TurnClock

FULL_DECK = full_deck()


class FourColorOptions(BaseModel):
    """Table options; the defaults are the project's rulings."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    reshuffle_each_deal: bool = True
    unplayed_joker: Literal["play_last", "discard"] = "play_last"
    turn_clock: TurnClock = None


class Phase(StrEnum):
    SETUP = "setup"  # members join; no page dealt yet
    DEALING = "dealing"  # a physical deal is under way
    PANELS = "panels"  # cards are being played
    PAGE_DONE = "page_done"  # every card played: end the scene or deal a new page
    ENDED = "ended"


class Holding(BaseModel):
    """A card of the current page and whose Panel it will be."""

    model_config = ConfigDict(frozen=True)

    card: Card
    holder: str  # a member id, or EDITOR for an extra card
    acting: str | None  # who acts on its Panel; for an extra card or joker, the Editor's choice
    element: str | None = None
    played: bool = False
    discarded: bool = False

    @property
    def is_secret(self) -> bool:
        """The Editor's extra cards and jokers stay secret until played (ruling 10)."""
        return self.holder == EDITOR or self.card.is_joker

    @property
    def in_hand(self) -> bool:
        return not self.played and not self.discarded


class Offer(BaseModel):
    model_config = ConfigDict(frozen=True)

    offer: int
    hero: str
    partner: str


class Panel(BaseModel):
    """A Panel played this page, in play order."""

    model_config = ConfigDict(frozen=True)

    card: Card
    acting: str | None
    element: str | None
    editorial_control: bool


class Scene(BaseModel):
    model_config = ConfigDict(frozen=True)

    options: FourColorOptions
    phase: Phase = Phase.SETUP
    page: int = 0
    members: tuple[Member, ...] = ()
    deck: tuple[Card, ...] = FULL_DECK  # cards not dealt since the last shuffle
    holdings: tuple[Holding, ...] = ()
    to_deal: tuple[str, ...] = ()  # recipients still owed a card, in deal order
    source: Source | None = None  # where this page's cards come from: a latecomer's too
    panels: tuple[Panel, ...] = ()
    offers: tuple[Offer, ...] = ()
    offers_made: int = 0
    hidden: frozenset[str] = frozenset()  # members hidden from players and overlays

    def member(self, member_id: str) -> Member | None:
        return next((m for m in self.members if m.id == member_id), None)

    @property
    def heroes(self) -> tuple[Member, ...]:
        return tuple(m for m in self.members if m.is_hero)

    def holding(self, card: Card) -> Holding | None:
        return next((h for h in self.holdings if h.card == card), None)

    def hand_of(self, holder: str) -> Holding | None:
        """The unplayed card a hero or villain holds this page, if any."""
        return next((h for h in self.holdings if h.holder == holder and h.in_hand), None)

    def ranked_in_hand(self) -> list[Holding]:
        """Unplayed ranked cards, highest first: the Panel order still to come."""
        ranked = [h for h in self.holdings if h.in_hand and not h.card.is_joker]
        return sorted(ranked, key=lambda h: rank_key(h.card, FOUR_COLOR_SUITS), reverse=True)

    def jokers_in_hand(self) -> list[Holding]:
        return [h for h in self.holdings if h.in_hand and h.card.is_joker]

    def offer(self, number: int) -> Offer | None:
        return next((o for o in self.offers if o.offer == number), None)


def initial_scene(options: FourColorOptions) -> Scene:
    return Scene(options=options)


def evolve(scene: Scene, event: Event) -> Scene:
    match event:
        case Joined():
            return _joined(scene, event)
        case Dealt():
            deck = deck_for_deal(scene, len(event.cards))
            page = _new_page(scene, event.page, (), deck, event.source)
            return settled(_receive(page, event.cards))
        case DealStarted():
            deck = deck_for_deal(scene, len(event.recipients))
            return settled(_new_page(scene, event.page, event.recipients, deck, event.source))
        case CardDealt():
            return settled(_receive(scene, (Dealing(to=event.to, card=event.card),)))
        case PanelPlayed():
            return settled(_panel_played(scene, event))
        case CardAssigned():
            return _update(scene, event.card, acting=event.acting, element=event.element)
        case TradeOffered():
            offer = Offer(offer=event.offer, hero=event.hero, partner=event.partner)
            return scene.model_copy(
                update={"offers": (*scene.offers, offer), "offers_made": event.offer}
            )
        case Traded():
            return _traded(scene, event)
        case TradeDeclined():
            return _close_offer(scene, event.offer)
        case CardOverridden():
            return settled(_overridden(scene, event))
        case SceneEnded():
            return scene.model_copy(update={"phase": Phase.ENDED, "offers": ()})
        case Hidden() | Revealed():
            return scene.model_copy(update={"hidden": hiding.evolve(scene.hidden, event)})


def _ranked_count(deck: tuple[Card, ...]) -> int:
    return sum(1 for c in deck if not c.is_joker)


def deck_for_deal(scene: Scene, needed: int) -> tuple[Card, ...]:
    """The deck a new page is dealt from: a fresh one, or, when the table does not reshuffle
    each deal, what is left of the last one as long as it still covers the deal."""
    if not scene.options.reshuffle_each_deal and _ranked_count(scene.deck) >= needed:
        return scene.deck
    return FULL_DECK


def _new_page(
    scene: Scene, page: int, recipients: tuple[str, ...], deck: tuple[Card, ...], source: Source
) -> Scene:
    return scene.model_copy(
        update={
            "page": page,
            "source": source,
            "phase": Phase.DEALING,
            "deck": deck,
            "holdings": (),
            "to_deal": recipients,
            "panels": (),
            "offers": (),
        }
    )


def _receive(scene: Scene, dealings: tuple[Dealing, ...]) -> Scene:
    """Cards reach their recipients: out of the deck, into hand, off the list of those owed."""
    to_deal = list(scene.to_deal)
    for dealing in dealings:
        if dealing.to in to_deal:
            to_deal.remove(dealing.to)
    gone = {d.card for d in dealings}
    held = tuple(
        Holding(card=d.card, holder=d.to, acting=None if d.to == EDITOR else d.to) for d in dealings
    )
    return scene.model_copy(
        update={
            "deck": tuple(c for c in scene.deck if c not in gone),
            "holdings": scene.holdings + held,
            "to_deal": tuple(to_deal),
        }
    )


def settled(scene: Scene) -> Scene:
    """Move the page on once nothing is owed: to Panels, and to its end once all is played.
    (The views settle a scene seen without its hidden members the same way: ``view.py``.)

    When the last ranked card is done, a table that discards unplayed jokers discards them; so
    does every table when no villain or mob is in the scene for a joker to act for (ruling 5
    gives a joker only to them), or the page could never end.
    """
    if scene.phase not in (Phase.DEALING, Phase.PANELS) or scene.to_deal:
        return scene
    holdings = scene.holdings
    no_one_to_act = all(m.is_hero for m in scene.members)
    discard = scene.options.unplayed_joker == "discard" or no_one_to_act
    if discard and not scene.ranked_in_hand():
        holdings = tuple(
            h.model_copy(update={"discarded": True}) if h.in_hand else h for h in holdings
        )
    phase = Phase.PANELS if any(h.in_hand for h in holdings) else Phase.PAGE_DONE
    if phase is scene.phase and holdings is scene.holdings:
        return scene
    return scene.model_copy(update={"holdings": holdings, "phase": phase})


def _joined(scene: Scene, event: Joined) -> Scene:
    hidden = scene.hidden | {event.member.id} if event.hidden else scene.hidden
    scene = scene.model_copy(update={"members": (*scene.members, event.member), "hidden": hidden})
    if event.dealt is not None:
        return _receive(scene, (Dealing(to=event.member.id, card=event.dealt),))
    if scene.phase in (Phase.DEALING, Phase.PANELS):
        return scene.model_copy(update={"to_deal": (*scene.to_deal, event.member.id)})
    return scene


def _update(scene: Scene, target: Card, **changes: object) -> Scene:
    return scene.model_copy(update={"holdings": _updated(scene.holdings, target, changes)})


def _updated(
    holdings: tuple[Holding, ...], target: Card, changes: dict[str, object]
) -> tuple[Holding, ...]:
    return tuple(h.model_copy(update=changes) if h.card == target else h for h in holdings)


def _panel_played(scene: Scene, event: PanelPlayed) -> Scene:
    panel = Panel(
        card=event.card,
        acting=event.acting,
        element=event.element,
        editorial_control=event.editorial_control,
    )
    changes: dict[str, object] = {"played": True, "acting": event.acting, "element": event.element}
    holdings = _updated(scene.holdings, event.card, changes)
    return scene.model_copy(update={"holdings": holdings, "panels": (*scene.panels, panel)})


def _close_offer(scene: Scene, number: int) -> Scene:
    return scene.model_copy(update={"offers": tuple(o for o in scene.offers if o.offer != number)})


def _traded(scene: Scene, event: Traded) -> Scene:
    gave_to = None if event.gave_to == EDITOR else event.gave_to
    scene = _update(scene, event.gave, holder=event.gave_to, acting=gave_to, element=None)
    scene = _update(scene, event.got, holder=event.hero, acting=event.hero, element=None)
    return _close_offer(scene, event.offer)


def _overridden(scene: Scene, event: CardOverridden) -> Scene:
    """The card on the table was really ``to``: ``card`` goes back to the deck. A card that
    turns out to be a joker loses any Element it was spent on: ruling 5 gives a joker to a
    villain or mob only, so the Editor assigns it again."""
    deck = set(scene.deck) | {event.card}
    deck.discard(event.to)
    panels = tuple(
        p.model_copy(update={"card": event.to}) if p.card == event.card else p for p in scene.panels
    )
    changes: dict[str, object] = {"card": event.to}
    if event.to.is_joker:
        changes["element"] = None
    scene = _update(scene, event.card, **changes)
    return scene.model_copy(
        update={"deck": tuple(c for c in FULL_DECK if c in deck), "panels": panels}
    )
