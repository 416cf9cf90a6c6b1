"""The rulings of The Four Color Hack as checks: each command becomes one event or a refusal.

Rule ids are ``four-color.N`` after RULINGS.md's numbering, so a refusal points at the ruling
a table can look up. Messages name cards only to those who may see them: the commands that
touch the Editor's secret cards are the Editor's own.
"""

from __future__ import annotations

from rules import hiding
from rules.cards import Card
from rules.errors import RuleError
from rules.four_color.commands import (
    EDITOR,
    START,
    AcceptTrade,
    AssignCard,
    Command,
    Deal,
    DealCard,
    DeclineTrade,
    EndScene,
    Join,
    Kind,
    NextPanel,
    OfferTrade,
    OverrideCard,
    PlayJoker,
)
from rules.four_color.deal import draw, recipients
from rules.four_color.events import (
    CardAssigned,
    CardDealt,
    CardOverridden,
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
from rules.four_color.scene import Holding, Phase, Scene, deck_for_deal
from rules.randomness import Source, engine_rng, given_source
from rules.roles import Viewer


def decide(scene: Scene, command: Command, actor: Viewer) -> list[Event]:
    if scene.phase is Phase.ENDED:
        raise RuleError("four-color.3", "the scene has ended")
    match command:
        case Join():
            return [_join(scene, command, actor)]
        case Deal():
            return [_deal(scene, command, actor)]
        case DealCard():
            return [_deal_card(scene, command, actor)]
        case NextPanel():
            return [_next_panel(scene, command, actor)]
        case PlayJoker():
            return [_play_joker(scene, command, actor)]
        case AssignCard():
            return [_assign(scene, command, actor)]
        case OfferTrade():
            return [_offer(scene, command, actor)]
        case AcceptTrade():
            return [_accept(scene, command, actor)]
        case DeclineTrade():
            return [_decline(scene, command, actor)]
        case OverrideCard():
            return [_override(scene, command, actor)]
        case EndScene():
            actor.require_gm("end the scene")
            return [SceneEnded()]
        case hiding.Hide() | hiding.Reveal():
            present = frozenset(m.id for m in scene.members)
            return [hiding.decide(scene.hidden, present, command, actor)]


def _join(scene: Scene, command: Join, actor: Viewer) -> Joined:
    """Ruling 9: whoever joins after the deal is dealt one card at once, so the deck must still
    hold a ranked card for them beside those owed to others (ruling 4: a hero cannot take a
    joker); otherwise the page could never go on."""
    actor.require_gm("bring someone into the scene")
    member = command.member
    if member.id == EDITOR or scene.member(member.id) is not None:
        raise RuleError("four-color.9", f"{member.id!r} is already in the scene", field="member.id")
    owed = len(scene.to_deal) + 1
    ranked = sum(1 for card in scene.deck if not card.is_joker)
    if scene.phase in (Phase.DEALING, Phase.PANELS) and ranked < owed:
        raise RuleError(
            "four-color.9",
            f"the deck has {ranked} ranked cards left for {owed} owed one: join at the next page",
            field="member",
        )
    # The page's source, so a page dealt by hand asks for the latecomer's card by hand too.
    source = command.source or scene.source or Source.ENGINE
    if scene.phase is not Phase.PANELS or source is not Source.ENGINE:
        return Joined(member=member, source=source, hidden=command.hidden)
    rng = engine_rng(source, command.seed, "four-color.9")
    heroes = frozenset({member.id} if member.is_hero else ())
    dealt, returned = draw(scene.deck, (member.id,), heroes, rng)
    return Joined(
        member=member,
        dealt=dealt[0].card,
        returned=tuple(r.card for r in returned),
        source=source,
        hidden=command.hidden,
    )


def _deal(scene: Scene, command: Deal, actor: Viewer) -> Dealt | DealStarted:
    """Rulings 2 and 3: a page is dealt at the start of a scene and after every card is played."""
    actor.require_gm("deal")
    if scene.phase not in (Phase.SETUP, Phase.PAGE_DONE):
        raise RuleError("four-color.3", "a new deal comes only when every card has been played")
    to = recipients(scene)
    if not to:
        raise RuleError("four-color.2", "there is no one in the scene to deal to")
    page = scene.page + 1
    if command.source is not Source.ENGINE:
        return DealStarted(page=page, source=command.source, recipients=to)
    rng = engine_rng(command.source, command.seed, "four-color.2")
    heroes = frozenset(m.id for m in scene.heroes)
    cards, returned = draw(deck_for_deal(scene, len(to)), to, heroes, rng)
    return Dealt(page=page, source=command.source, cards=cards, returned=returned)


def _deal_card(scene: Scene, command: DealCard, actor: Viewer) -> CardDealt:
    """A card of a physical deal. Ruling 4: a joker read for a hero is refused, and the table is
    asked to put it back and deal a replacement; nothing moves on until one comes."""
    actor.require_gm("deal cards")
    source = given_source(command.source, True, "four-color.2", "card")
    if not scene.to_deal:
        raise RuleError("four-color.2", "no one is waiting for a card", field="card")
    to = command.to if command.to is not None else scene.to_deal[0]
    if to not in scene.to_deal:
        raise RuleError("four-color.2", f"{to!r} is not waiting for a card", field="to")
    card = command.card
    if card not in scene.deck:
        raise RuleError(
            "four-color.2", f"{card} was dealt already since the last shuffle", field="card"
        )
    recipient = scene.member(to)
    if card.is_joker and recipient is not None and recipient.is_hero:
        raise RuleError(
            "four-color.4",
            f"heroes never hold jokers: a joker dealt to the hero {to!r} goes back into the "
            f"deck: put it back at a random place and deal {to!r} a replacement",
            field="card",
        )
    return CardDealt(to=to, card=card, source=source)


def _require_panels(scene: Scene, what: str) -> None:
    if scene.phase is not Phase.PANELS:
        raise RuleError("four-color.3", f"{what} needs a page in play (now: {scene.phase.value})")


def _next_panel(scene: Scene, command: NextPanel, actor: Viewer) -> PanelPlayed:
    """Ruling 3: cards are played from highest to lowest. Rulings 5 and 7: a joker or an extra
    card must have someone (or an Element) to act before its Panel can be played."""
    actor.require_gm("turn to the next Panel")
    _moving_on_from(scene, command.moved_from)
    _require_panels(scene, "the next Panel")
    if scene.to_deal:
        raise RuleError("four-color.9", f"{scene.to_deal[0]!r} is still owed a card")
    ranked = scene.ranked_in_hand()
    if ranked:
        top = ranked[0]
        if top.acting is None and top.element is None:
            raise RuleError(
                "four-color.7",
                f"the extra card {top.card} is up: spend it on a villain's or mob's action "
                "or an Element's complication first (assign_card)",
                field="card",
            )
        return _played(top)
    joker = scene.jokers_in_hand()[0]
    if joker.acting is None:
        raise RuleError(
            "four-color.5",
            f"{joker.card} is played last: assign it to a villain or mob first",
            field="card",
        )
    return _played(joker)


def _moving_on_from(scene: Scene, pressed: Card | str | None) -> None:
    """Ruling 3, one Panel at a time: a press names the Panel it moves on from, and one made on
    a Panel the table has already left (a second tap) plays nothing."""
    now: Card | str = scene.panels[-1].card if scene.panels else START
    if pressed is None or pressed == now:
        return
    was = "the start of the page" if pressed == START else f"the Panel on {pressed}"
    is_now = "no Panel is played yet" if now == START else f"the Panel on {now} is in play"
    raise RuleError(
        "four-color.3",
        f"that press moved on from {was}, but {is_now}: nothing was played",
        field="from",
    )


def _played(holding: Holding) -> PanelPlayed:
    """Ruling 6: a joker's Panel is Editorial Control and earns no hero a Bonus Hero Die."""
    joker = holding.card.is_joker
    return PanelPlayed(
        card=holding.card,
        holder=holding.holder,
        acting=holding.acting,
        element=holding.element,
        editorial_control=joker,
        bonus_hero_die=not joker,
    )


def _editors_card(scene: Scene, card: Card, rule: str) -> Holding:
    holding = scene.holding(card)
    if holding is None or not holding.in_hand or not holding.is_secret:
        raise RuleError(
            rule, f"{card} is not an unplayed joker or extra card of the Editor's", field="card"
        )
    return holding


def _villain_or_mob(scene: Scene, member_id: str, rule: str) -> None:
    member = scene.member(member_id)
    if member is None:
        raise RuleError(rule, f"{member_id!r} is not in the scene", field="acting")
    if member.kind is Kind.HERO:
        raise RuleError(
            rule,
            f"{member_id!r} is a hero; only villains and mobs act on the Editor's cards",
            field="acting",
        )


def _play_joker(scene: Scene, command: PlayJoker, actor: Viewer) -> PanelPlayed:
    """Ruling 5: the Editor plays a joker at any moment, and its holder acts at once."""
    actor.require_gm("play a joker")
    _require_panels(scene, "a joker")
    if not command.card.is_joker:
        raise RuleError("four-color.5", f"{command.card} is not a joker", field="card")
    holding = _editors_card(scene, command.card, "four-color.5")
    acting = command.acting or holding.acting
    if acting is None:
        raise RuleError(
            "four-color.5", "say which villain or mob the joker acts for", field="acting"
        )
    _villain_or_mob(scene, acting, "four-color.5")
    return _played(holding.model_copy(update={"acting": acting}))


def _assign(scene: Scene, command: AssignCard, actor: Viewer) -> CardAssigned:
    """Rulings 5 and 7: jokers go to a villain or mob; extra cards to one, or to an Element."""
    actor.require_gm("assign the Editor's cards")
    rule = "four-color.5" if command.card.is_joker else "four-color.7"
    _editors_card(scene, command.card, rule)
    if (command.acting is None) == (command.element is None):
        raise RuleError(rule, "name either a villain or mob to act, or an Element", field="acting")
    if command.element is not None and command.card.is_joker:
        raise RuleError(
            "four-color.5",
            "a joker is assigned to a villain or mob, not an Element",
            field="element",
        )
    if command.acting is not None:
        _villain_or_mob(scene, command.acting, rule)
    return CardAssigned(card=command.card, acting=command.acting, element=command.element)


def _traded_card(scene: Scene, holder: str, field: str) -> Holding:
    """Ruling 8: only cards not yet played can be traded."""
    holding = scene.hand_of(holder)
    if holding is None:
        raise RuleError("four-color.8", f"{holder!r} holds no unplayed card to trade", field=field)
    return holding


def _offer(scene: Scene, command: OfferTrade, actor: Viewer) -> TradeOffered:
    """Ruling 8: a Writer offers a trade to another Writer or to the Editor."""
    hero = scene.member(command.hero)
    if hero is None or not hero.is_hero:
        raise RuleError(
            "four-color.8", f"{command.hero!r} is not a hero in the scene", field="hero"
        )
    actor.require_plays(hero.id, "offer that hero's card")
    _require_panels(scene, "a trade")
    _traded_card(scene, hero.id, "hero")
    if command.partner != EDITOR:
        partner = scene.member(command.partner)
        if partner is None or not partner.is_hero or partner.id == hero.id:
            raise RuleError(
                "four-color.8", "trade with another hero or with the editor", field="partner"
            )
        _traded_card(scene, partner.id, "partner")
    return TradeOffered(offer=scene.offers_made + 1, hero=hero.id, partner=command.partner)


def _open_offer(scene: Scene, number: int) -> tuple[str, str]:
    offer = scene.offer(number)
    if offer is None:
        raise RuleError("four-color.8", f"there is no open offer {number}", field="offer")
    return offer.hero, offer.partner


def _accept(scene: Scene, command: AcceptTrade, actor: Viewer) -> Traded:
    """Ruling 8: the trade happens only when the other side accepts; no joker goes to a hero."""
    hero, partner = _open_offer(scene, command.offer)
    actor.require_plays(partner, "accept this trade")
    gave = _traded_card(scene, hero, "offer")
    if partner != EDITOR:
        theirs = _traded_card(scene, partner, "offer")
        return Traded(
            offer=command.offer,
            hero=hero,
            gave=gave.card,
            gave_to=partner,
            got=theirs.card,
            got_from=partner,
        )
    if command.card is None:
        raise RuleError("four-color.8", "the Editor names the card they give", field="card")
    if command.card.is_joker:
        raise RuleError("four-color.8", "a joker never goes to a hero by trade", field="card")
    got = scene.holding(command.card)
    holder = scene.member(got.holder) if got is not None else None
    if got is None or not got.in_hand or (holder is not None and holder.is_hero):
        raise RuleError(
            "four-color.8", f"{command.card} is not an unplayed card of the Editor's", field="card"
        )
    return Traded(
        offer=command.offer,
        hero=hero,
        gave=gave.card,
        gave_to=got.holder,
        got=command.card,
        got_from=got.holder,
    )


def _decline(scene: Scene, command: DeclineTrade, actor: Viewer) -> TradeDeclined:
    """Either side may close an offer: the partner declines it, the offering Writer withdraws it."""
    hero, partner = _open_offer(scene, command.offer)
    if actor.plays(partner):
        return TradeDeclined(offer=command.offer, by=partner)
    actor.require_plays(hero, "withdraw this offer")
    return TradeDeclined(offer=command.offer, by=hero)


def _override(scene: Scene, command: OverrideCard, actor: Viewer) -> CardOverridden:
    """The GM can always correct: a card on the table was really another one."""
    actor.require_gm("correct a card")
    holding = scene.holding(command.card)
    if holding is None:
        raise RuleError("four-color.2", f"{command.card} is not on the table", field="card")
    if scene.holding(command.to) is not None:
        raise RuleError("four-color.2", f"{command.to} is on the table already", field="to")
    member = scene.member(holding.holder)
    if command.to.is_joker and member is not None and member.is_hero:
        raise RuleError(
            "four-color.4",
            f"heroes never hold jokers: a joker dealt to the hero {holding.holder!r} goes back "
            f"into the deck and {holding.holder!r} is dealt another card; correct {command.card} "
            "to that card instead",
            field="to",
        )
    return CardOverridden(card=command.card, to=command.to, holder=holding.holder)
