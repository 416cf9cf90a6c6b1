"""What each role may see of a scene (ruling 10).

Played cards and the Panel order of the cards dealt to heroes, villains and mobs are public.
The Editor's extra cards and unplayed jokers are the Editor's secret until played: players and
overlays see only how many such cards the Editor holds, and events that carry one reach them
with the card cut out. A hidden member (the shared rulings) is not there at all for them: not
in the roster, the order, the deal or a trade, until its Panel reveals it.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict

from rules import alerts, hiding
from rules.alerts import Alert
from rules.cards import Card
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
    Traded,
    TradeDeclined,
    TradeOffered,
)
from rules.four_color.scene import (
    FourColorOptions,
    Holding,
    Offer,
    Panel,
    Phase,
    Scene,
    settled,
)
from rules.roles import Viewer


class CardInHand(BaseModel):
    model_config = ConfigDict(frozen=True)

    card: Card
    holder: str
    acting: str | None
    element: str | None


class Awaiting(BaseModel):
    """Something the engine waits for before it can go on."""

    model_config = ConfigDict(frozen=True)

    what: Literal["deal", "card", "next_panel", "assign", "trade_answer", "new_page_or_end"]
    who: str | None = None
    card: Card | None = None


class SceneView(BaseModel):
    model_config = ConfigDict(frozen=True)

    system: Literal["four-color"] = "four-color"
    options: FourColorOptions
    phase: Phase
    page: int
    members: tuple[Member, ...]
    order: tuple[CardInHand, ...]  # ranked cards still to play, highest first
    panels: tuple[Panel, ...]
    current: Panel | None
    hidden_cards: int  # the Editor's unplayed cards this viewer may not see
    jokers: tuple[CardInHand, ...]  # unplayed jokers, for the GM only
    to_deal: tuple[str, ...]
    offers: tuple[Offer, ...]
    awaiting: tuple[Awaiting, ...]
    hidden: tuple[str, ...]  # the hidden members this viewer sees: all for the GM
    alerts: tuple[Alert, ...] = ()  # the player's: their Panel now, or next (rules/alerts.py)


def _current(scene: Scene, panels: tuple[Panel, ...]) -> Panel | None:
    """The Panel being acted out: the page's last, shown, while the Editor turns the page; none
    once the scene has ended, when no one's turn goes on."""
    if scene.phase is Phase.ENDED or not panels or panels[-1] != scene.panels[-1]:
        return None
    return panels[-1]


def _in_hand(holding: Holding) -> CardInHand:
    return CardInHand(
        card=holding.card, holder=holding.holder, acting=holding.acting, element=holding.element
    )


def view(scene: Scene, viewer: Viewer) -> SceneView:
    seen = hiding.seen_by(viewer, scene.hidden)
    plain = without_the_unseen(scene, seen)
    order = plain.ranked_in_hand()
    jokers = plain.jokers_in_hand()
    secret = 0
    if not viewer.is_gm:
        secret = sum(1 for h in order if h.is_secret) + len(jokers)
        order = [h for h in order if not h.is_secret and seen(h.acting)]
        jokers = []
    panels = plain.panels
    shown = SceneView(
        options=scene.options,
        phase=plain.phase,
        page=scene.page,
        members=plain.members,
        order=tuple(_in_hand(h) for h in order),
        panels=panels,
        current=_current(scene, panels),
        hidden_cards=secret,
        jokers=tuple(_in_hand(h) for h in jokers),
        to_deal=plain.to_deal,
        offers=plain.offers,
        awaiting=awaiting(plain, viewer),
        hidden=hiding.shown_hidden(viewer, scene.hidden),
    )
    return alerts.alerted(shown, viewer, spotted)


def without_the_unseen(scene: Scene, seen: Callable[[str | None], bool]) -> Scene:
    """The scene as it would stand had no member hidden from the viewer joined (the shared
    rulings, "No tells"): their cards, their place in the deal and their offers gone, and the
    page moved on as it then would have, its deal done or every Panel played. So a table that
    waits for a hidden villain's card, or for its Panel after the last one players know of,
    looks to them as it does whenever the Editor is busy, and its jokers count for nothing. An
    extra card the Editor gave a hidden villain stays in the Editor's secret count."""
    if all(seen(m.id) for m in scene.members):
        return scene
    return settled(
        scene.model_copy(
            update={
                "members": tuple(m for m in scene.members if seen(m.id)),
                "to_deal": tuple(m for m in scene.to_deal if seen(m)),
                "holdings": tuple(h for h in scene.holdings if seen(h.holder)),
                "panels": tuple(p for p in scene.panels if seen(p.acting)),
                "offers": tuple(o for o in scene.offers if seen(o.hero) and seen(o.partner)),
            }
        )
    )


def spotted(shown: SceneView) -> list[tuple[alerts.Kind, str | None]]:
    """A hero's Panel in play is their turn; the next card of the order the viewer sees is
    theirs "on deck" (the Panel before it is being played). A card the viewer may not see
    (the Editor's, a hidden villain's) may come first: it tells them nothing, as it should."""
    found: list[tuple[alerts.Kind, str | None]] = []
    if shown.current is not None:  # the page's last Panel too, while the Editor turns the page
        found.append(("turn", shown.current.acting))
    if shown.phase is Phase.PANELS and shown.order and not shown.to_deal:
        found.append(("on_deck", shown.order[0].acting or shown.order[0].holder))
    return found


def awaiting(scene: Scene, viewer: Viewer) -> tuple[Awaiting, ...]:
    """What the table waits for, as this viewer may know it (``scene`` as the viewer sees it:
    ``without_the_unseen``)."""
    if scene.phase in (Phase.SETUP, Phase.PAGE_DONE):
        return (Awaiting(what="deal" if scene.phase is Phase.SETUP else "new_page_or_end"),)
    waits = [Awaiting(what="card", who=who) for who in scene.to_deal[:1]]
    waits += [
        Awaiting(what="trade_answer", who=o.partner)
        for o in scene.offers
        if viewer.plays(o.partner) or viewer.plays(o.hero)
    ]
    if scene.phase is Phase.PANELS and not scene.to_deal:
        waits.append(_next_up(scene, viewer))
    return tuple(waits)


def _next_up(scene: Scene, viewer: Viewer) -> Awaiting:
    """The next Panel, or, for the GM, an Editor's card that must be assigned before it."""
    ranked = scene.ranked_in_hand()
    top = ranked[0] if ranked else scene.jokers_in_hand()[0]
    unassigned = top.acting is None and top.element is None
    if viewer.is_gm and unassigned:
        return Awaiting(what="assign", who=EDITOR, card=top.card)
    return Awaiting(what="next_panel")


def _public(dealing: Dealing) -> bool:
    return dealing.to != EDITOR and not dealing.card.is_joker


def _shown(dealing: Dealing) -> dict[str, Any]:
    return dealing.model_dump(mode="json") if _public(dealing) else {"to": dealing.to, "card": None}


def censor(event: Event, viewer: Viewer, options: FourColorOptions) -> dict[str, Any] | None:
    """The event as ``viewer`` may see it, or None when all of it is the Editor's secret or
    about a member hidden from them (the options change nothing of that)."""
    return hiding.censored(event, viewer, about, _censored)


def about(event: Event) -> tuple[str | None, ...]:
    """The members an event is wholly about: hidden from a viewer, it is none of theirs."""
    match event:
        case Joined():
            return (event.member.id,)
        case CardDealt():
            return (event.to,)
        case PanelPlayed():
            return (event.holder, event.acting)
        case TradeOffered():
            return (event.hero, event.partner)
        case Traded():
            return (event.hero, event.gave_to, event.got_from)
        case TradeDeclined():
            return (event.by,)
        case CardOverridden():
            return (event.holder,)
        case hiding.Hidden() | hiding.Revealed():
            return (event.participant,)
    return ()


def _censored(event: Event, data: dict[str, Any], hid: frozenset[str]) -> dict[str, Any] | None:
    match event:
        case Dealt():
            # A returned joker's colour is cut too: it may be among the extra cards now.
            data["cards"] = [_shown(d) for d in event.cards if d.to not in hid]
            data["returned"] = [_shown(d) for d in event.returned if d.to not in hid]
        case DealStarted():
            data["recipients"] = [r for r in event.recipients if r not in hid]
        case CardDealt() if not _public(Dealing(to=event.to, card=event.card)):
            data["card"] = None
        case Joined():
            if event.dealt is not None and event.dealt.is_joker:
                data["dealt"] = None
            # As in a deal: a returned joker's colour may be an extra card's by the next deal.
            data["returned"] = [None for _ in event.returned]
        case CardAssigned():
            return None
        case CardOverridden() if event.holder == EDITOR or event.card.is_joker or event.to.is_joker:
            return None
    return data
