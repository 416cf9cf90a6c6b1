"""Random scenes played by random commands: the invariants of the rulings hold at every step."""

from __future__ import annotations

import random

from hypothesis import given
from hypothesis import strategies as st

from rules.cards import FOUR_COLOR_SUITS, Card, rank_key
from rules.errors import RuleError
from rules.four_color import FOUR_COLOR, FourColorTable
from rules.four_color.commands import (
    EDITOR,
    AcceptTrade,
    AssignCard,
    Command,
    Deal,
    DealCard,
    DeclineTrade,
    Join,
    Kind,
    Member,
    NextPanel,
    OfferTrade,
    PlayJoker,
)
from rules.four_color.events import Dealt, PanelPlayed
from rules.four_color.scene import FULL_DECK, Phase
from rules.randomness import Source
from rules.roles import GM, OVERLAY, Viewer, player
from rules.table import Undo

from .helpers import scene


def candidates(table: FourColorTable, pick: random.Random) -> list[tuple[Command | Undo, Viewer]]:
    """Commands a table might plausibly send now; the rules decide which are legal. Every
    choice is ``pick``'s: a test over a server, whose tables are shuffled by the server's own
    entropy, seeds it from one draw per step, so that what it draws never depends on the
    table (hypothesis calls a strategy whose draws vary with outside state flaky)."""
    state = table.state
    heroes = [m.id for m in state.heroes]
    others = [m.id for m in state.members if not m.is_hero]
    seed = pick.getrandbits(32)
    options: list[tuple[Command | Undo, Viewer]] = [
        (NextPanel(), GM), (NextPanel(), GM), (NextPanel(), GM),
        (Deal(seed=seed), GM), (Undo(), GM),
    ]  # fmt: skip
    if state.to_deal:
        options.append((DealCard(card=pick.choice(state.deck), source=Source.GM), GM))
    for holding in state.holdings:
        if holding.in_hand and holding.is_secret and others:
            target = pick.choice(others)
            options.append((AssignCard(card=holding.card, acting=target), GM))
            if holding.card.is_joker:
                options.append((PlayJoker(card=holding.card, acting=target), GM))
            else:
                options.append((AssignCard(card=holding.card, element="an Element"), GM))
    if heroes:
        hero = pick.choice(heroes)
        partner = pick.choice([*heroes, EDITOR])
        options.append((OfferTrade(hero=hero, partner=partner), player(hero)))
    for offer in state.offers:
        mine = [h.card for h in state.holdings if h.in_hand and h.holder != offer.hero]
        card = pick.choice(mine) if mine else None
        side = GM if offer.partner == EDITOR else player(offer.partner)
        options.append((AcceptTrade(offer=offer.offer, card=card), side))
        options.append((DeclineTrade(offer=offer.offer), player(offer.hero)))
    if pick.randrange(10) == 0:  # now and then a latecomer
        kind = pick.choice(list(Kind))
        member = Member(id=f"late{len(state.members)}", name="late", kind=kind)
        source = pick.choice([Source.ENGINE, Source.GM])
        options.append((Join(member=member, source=source, seed=seed), GM))
    return options


def secret_cards(table: FourColorTable, public: set[Card]) -> set[Card]:
    """The Editor's unplayed extra cards and jokers that were never public this page."""
    return {h.card for h in table.state.holdings if h.in_hand and h.is_secret} - public


def shown_cards(text: str) -> set[str]:
    return {card.code for card in FULL_DECK if f'"{card.code}"' in text}


@given(
    heroes=st.integers(1, 8),
    villains=st.integers(0, 4),
    mobs=st.integers(0, 4),
    physical=st.booleans(),
    discard=st.booleans(),
    data=st.data(),
)
def test_random_play_keeps_every_invariant(
    heroes: int, villains: int, mobs: int, physical: bool, discard: bool, data: st.DataObject
) -> None:
    table = scene(heroes, villains, mobs, unplayed_joker="discard" if discard else "play_last")
    hero_ids = {m.id for m in table.state.heroes}
    if physical:
        table.execute(Deal(source=Source.DEVICE), GM)
    public: set[Card] = set()
    page = table.state.page
    for _ in range(data.draw(st.integers(10, 60), label="steps")):
        options = candidates(table, data.draw(st.randoms(use_true_random=False), label="pick"))
        command, actor = options[data.draw(st.integers(0, len(options) - 1), label="command")]
        before, version = table.state, table.version
        ranked_before = table.state.ranked_in_hand()
        try:
            events = table.execute(command, actor)
        except RuleError:
            assert table.state == before and table.version == version
            continue
        state = table.state
        hero_ids = {m.id for m in state.heroes}
        if state.page != page:
            page, public = state.page, set()
        # No card dealt twice in a deal; no hero ever holds a joker.
        cards = [h.card for h in state.holdings]
        assert len(cards) == len(set(cards))
        assert not any(h.card.is_joker for h in state.holdings if h.holder in hero_ids)
        for event in events:
            # Extra cards = floor(heroes / 2).
            if isinstance(event, Dealt):
                extras = [d for d in event.cards if d.to == EDITOR]
                assert len(extras) == len(before.heroes) // 2
            # Panels from highest to lowest: a ranked Panel is the highest card still in hand.
            if isinstance(event, PanelPlayed) and not event.card.is_joker:
                assert ranked_before and event.card == ranked_before[0].card
        public |= {h.card for h in state.holdings if not h.is_secret or h.played}
        secret = {c.code for c in secret_cards(table, public)}
        for viewer in (OVERLAY, player(*sorted(hero_ids)[:1])):
            assert not secret & shown_cards(table.view(viewer).model_dump_json())
            for event in events:
                assert not secret & shown_cards(str(table.censor(event, viewer)).replace("'", '"'))
    # Replaying the event log gives the same state.
    assert FOUR_COLOR.table(table.options, table.log).state == table.state


@given(heroes=st.integers(1, 8), villains=st.integers(0, 8), seed=st.integers(0, 2**64))
def test_an_engine_page_is_played_in_strict_rank_then_suit_order(
    heroes: int, villains: int, seed: int
) -> None:

    table = scene(heroes, villains, 0)
    table.execute(Deal(seed=seed), GM)
    target = "v1" if villains else None
    for holding in table.state.holdings:
        if holding.holder == EDITOR or holding.card.is_joker:
            assign = AssignCard(card=holding.card, acting=target, element=None if target else "x")
            if holding.card.is_joker and target is None:
                continue
            table.execute(assign, GM)
    keys = []
    while table.state.phase is Phase.PANELS and table.state.ranked_in_hand():
        (event,) = table.execute(NextPanel(), GM)
        assert isinstance(event, PanelPlayed)
        keys.append(rank_key(event.card, FOUR_COLOR_SUITS))
    assert keys == sorted(keys, reverse=True) and len(set(keys)) == len(keys)
