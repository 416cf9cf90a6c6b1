"""Tables that real play broke once, each kept as the shortest sequence that broke it."""

from __future__ import annotations

import json
import random

from rules.cards import Card, parse_card
from rules.four_color.commands import (
    AssignCard,
    Deal,
    DealCard,
    Join,
    Kind,
    Member,
    NextPanel,
    OverrideCard,
)
from rules.four_color.deal import draw
from rules.four_color.events import Dealt, Joined, PanelPlayed
from rules.four_color.scene import Phase
from rules.four_color.view import view
from rules.randomness import Source
from rules.roles import GM, OVERLAY, player

from ..refusals import refused
from .helpers import deal_by_hand, scene
from .test_rulings import engine_deal_with, play_all


def test_a_hero_joining_mid_page_who_draws_a_joker_is_dealt_a_replacement() -> None:
    """Engine deal, then an engine join of a hero whose first card is a joker: the join was
    refused by its own event's validation (the returned jokers were built from the deal's
    records, not from the cards)."""
    table = scene(heroes=2, villains=1)
    table.execute(Deal(seed=1), GM)
    newcomer = Member(id="h3", name="Latecomer", kind=Kind.HERO)
    seed = next(
        s
        for s in range(10_000)
        if draw(table.state.deck, ("h3",), frozenset({"h3"}), random.Random(s))[1]
    )
    (event,) = table.execute(Join(member=newcomer, seed=seed), GM)
    assert isinstance(event, Joined) and event.returned and all(c.is_joker for c in event.returned)
    assert event.dealt is not None and not event.dealt.is_joker
    assert table.state.hand_of("h3") is not None
    for viewer in (OVERLAY, player("h3")):
        shown = table.censor(event, viewer)
        assert shown is not None and shown["returned"] == [None] * len(event.returned)
        assert "J" not in json.dumps(shown["returned"])


def test_a_joker_left_to_a_scene_of_heroes_only_is_discarded_so_the_page_ends() -> None:
    """Two heroes and no villain or mob; the engine deals the Editor's extra card as a joker.
    After the last ranked Panel the joker was to be played last, but it may only be assigned
    to a villain or mob: the view awaited an assignment no command could make, and no new page
    could be dealt."""
    table = scene(heroes=2)
    engine_deal_with(table, lambda dealt: any(d.card.is_joker for d in dealt.cards))
    play_all(table)
    assert table.state.phase is Phase.PAGE_DONE
    assert [h.card.is_joker for h in table.state.holdings if h.discarded] == [True]
    (dealt,) = table.execute(Deal(seed=1), GM)
    assert isinstance(dealt, Dealt) and table.state.page == 2


def test_an_extra_card_spent_on_an_element_corrected_to_a_joker_is_to_be_assigned_again() -> None:
    """A physical deal; the Editor spends the extra card 5C on an Element, then corrects it to
    the red joker. The joker kept the Element: after the last ranked Panel the Editor's view
    awaited the next Panel, which the rules refused until the joker was given to a villain."""
    table = scene(heroes=2, villains=1)
    deal_by_hand(table, "3H", "KH", "4D", "5C")
    table.execute(AssignCard(card=parse_card("5C"), element="the storm"), GM)
    table.execute(OverrideCard(card=parse_card("5C"), to=parse_card("RJ")), GM)
    for _ in range(3):  # KH, 4D, 3H: the ranked cards
        table.execute(NextPanel(), GM)
    (awaited,) = view(table.state, GM).awaiting
    assert (awaited.what, awaited.card) == ("assign", parse_card("RJ"))
    table.execute(AssignCard(card=parse_card("RJ"), acting="v1"), GM)
    (played,) = table.execute(NextPanel(), GM)
    assert isinstance(played, PanelPlayed) and played.editorial_control


def test_a_latecomer_the_deck_cannot_cover_is_refused_rather_than_owed_forever() -> None:
    """A table that does not reshuffle, deep into its deck; mobs join mid-page until one
    ranked card is left, then heroes join by hand. The second hero was owed a card no deal
    could give (a hero never takes a joker), and no Panel could be turned."""
    table = scene(heroes=1, reshuffle_each_deal=False)
    deal_by_hand(table, "AH")

    def ranked_left() -> list[Card]:
        return [c for c in table.state.deck if not c.is_joker]

    n = 0
    while len(ranked_left()) > 1:
        n += 1
        mob = Member(id=f"m{n}", name="Mob", kind=Kind.MOB)
        table.execute(Join(member=mob, source=Source.ENGINE, seed=n), GM)  # the engine deals
    first = Member(id="h2", name="Late", kind=Kind.HERO)
    table.execute(Join(member=first, source=Source.GM), GM)
    table.execute(DealCard(card=ranked_left()[0], source=Source.GM), GM)
    second = Join(member=Member(id="h3", name="Later", kind=Kind.HERO), source=Source.GM)
    refused(table, second, "four-color.9")
    assert view(table.state, GM).awaiting[0].what in ("next_panel", "assign")


def test_the_last_card_of_a_scene_of_heroes_only_corrected_to_a_joker_ends_the_page() -> None:
    """Two heroes and no villain or mob, dealt by hand (KH, QH, and the Editor's extra 3C);
    both heroes' Panels played; the extra card, up and unspent, corrected to the red joker. The
    page then awaited an assignment no command could make: a correction never let the page
    settle as a Panel does."""
    table = scene(heroes=2)
    deal_by_hand(table, "KH", "QH", "3C")
    for _ in range(2):
        table.execute(NextPanel(), GM)
    assert [h.card for h in table.state.holdings if h.in_hand] == [parse_card("3C")]
    table.execute(OverrideCard(card=parse_card("3C"), to=parse_card("RJ")), GM)
    assert table.state.phase is Phase.PAGE_DONE
    assert [h.card for h in table.state.holdings if h.discarded] == [parse_card("RJ")]
    assert not [a for a in view(table.state, GM).awaiting if a.what == "assign"]
