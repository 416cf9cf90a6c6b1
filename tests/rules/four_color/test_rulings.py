"""One test (or a few) per ruling of RULINGS.md ``four-color``, named after it."""

from __future__ import annotations

from collections.abc import Callable

from rules.cards import BLACK_JOKER, RED_JOKER, full_deck, parse_card
from rules.chronicle import chronicle
from rules.four_color import FourColorTable
from rules.four_color.commands import (
    EDITOR,
    AcceptTrade,
    AssignCard,
    Deal,
    DealCard,
    DeclineTrade,
    EndScene,
    Join,
    Kind,
    Member,
    NextPanel,
    OfferTrade,
    OverrideCard,
    PlayJoker,
)
from rules.four_color.events import Dealt, Joined, PanelPlayed
from rules.four_color.scene import Phase
from rules.randomness import Source
from rules.roles import GM, OVERLAY, player
from rules.table import Undo

from ..refusals import refused
from .helpers import deal_by_hand, holder_of, scene


def play_all(table: FourColorTable) -> list[str]:
    """Turn Panels until the page is done; the cards' codes in play order."""
    played = []
    while table.state.phase is Phase.PANELS:
        (event,) = table.execute(NextPanel(), GM)
        assert isinstance(event, PanelPlayed)
        played.append(event.card.code)
    return played


def engine_deal_with(table: FourColorTable, wanted: Callable[[Dealt], bool]) -> Dealt:
    """Deal with successive seeds until the deal has what the test needs, undoing the others."""
    for seed in range(10_000):
        (event,) = table.execute(Deal(seed=seed), GM)
        assert isinstance(event, Dealt)
        if wanted(event):
            return event
        table.execute(Undo(), GM)
    raise AssertionError("no seed gave the deal the test needs")


# Ruling 1: 54 cards; Ace high, two low; suits break ties hearts > diamonds > clubs > spades.
def test_ruling_1_deck_of_54_with_a_total_order_of_ranked_cards() -> None:
    table = scene(heroes=1, villains=2, mobs=1)
    deal_by_hand(table, "KS", "KH", "2H", "AS")
    assert play_all(table) == ["AS", "KH", "KS", "2H"]
    assert len(table.state.deck) == 54 - 4


# Ruling 2: one card each to heroes, villains and mobs, plus floor(heroes / 2) extra cards.
def test_ruling_2_the_deal_gives_the_editor_half_the_heroes_in_extra_cards() -> None:
    for heroes, extras in ((1, 0), (2, 1), (3, 1), (6, 3), (7, 3)):
        table = scene(heroes=heroes, villains=1, mobs=1)
        (event,) = table.execute(Deal(seed=heroes), GM)
        assert isinstance(event, Dealt)
        assert [d.to for d in event.cards].count(EDITOR) == extras
        assert len(event.cards) == heroes + 2 + extras
        assert len({d.card for d in event.cards}) == len(event.cards)


def test_ruling_2_each_deal_uses_a_freshly_shuffled_full_deck() -> None:
    table = scene(heroes=8, villains=8)
    for seed in range(3):
        table.execute(Deal(seed=seed), GM)
        assert len(table.state.deck) == 54 - 20  # whatever earlier pages dealt is back in
        play_all(_spend_extras(table))


def _spend_extras(table: FourColorTable) -> FourColorTable:
    for holding in table.state.holdings:
        if holding.holder == EDITOR or holding.card.is_joker:
            table.execute(AssignCard(card=holding.card, acting="v1"), GM)
    return table


def test_ruling_2_a_table_that_does_not_reshuffle_deals_on_from_what_is_left() -> None:
    table = scene(heroes=4, villains=2, reshuffle_each_deal=False)
    table.execute(Deal(seed=1), GM)
    first = {h.card for h in table.state.holdings}
    play_all(_spend_extras(table))
    table.execute(Deal(seed=2), GM)
    second = {h.card for h in table.state.holdings}
    assert not first & second
    assert len(table.state.deck) == 54 - 8 - 8


def test_ruling_2_a_physical_deal_goes_heroes_then_villains_and_mobs_then_extras() -> None:
    table = scene(heroes=2, villains=1, mobs=1)
    table.execute(Deal(source=Source.DEVICE), GM)
    assert table.state.to_deal == ("h1", "h2", "v1", "m1", EDITOR)
    for card in ("2H", "3H", "4H", "5H", "6H"):
        table.execute(DealCard(card=parse_card(card)), GM)
    assert [holder_of(table, c) for c in ("2H", "3H", "4H", "5H", "6H")] == [
        "h1", "h2", "v1", "m1", EDITOR,
    ]  # fmt: skip
    assert table.state.phase is Phase.PANELS


def test_ruling_2_a_reader_bound_to_a_seat_deals_to_that_seat() -> None:
    table = scene(heroes=2)
    table.execute(Deal(source=Source.DEVICE), GM)
    table.execute(DealCard(card=parse_card("9C"), to="h2"), GM)
    assert holder_of(table, "9C") == "h2"
    assert table.state.to_deal == ("h1", EDITOR)


# Ruling 3: highest to lowest; when all is played, end the scene or deal a new page.
def test_ruling_3_panels_go_from_highest_to_lowest_then_the_page_is_done() -> None:
    table = scene(heroes=3, villains=2)
    deal_by_hand(table, "5D", "JC", "5H", "AC", "2S", "QS")
    _spend_extras(table)
    assert play_all(table) == ["AC", "QS", "JC", "5H", "5D", "2S"]
    assert table.state.phase is Phase.PAGE_DONE
    table.execute(Deal(seed=7), GM)
    assert (table.state.page, table.state.phase) == (2, Phase.PANELS)


def test_ruling_3_no_new_page_while_cards_are_unplayed_and_nothing_after_the_scene_ends() -> None:
    table = scene(heroes=2)
    deal_by_hand(table, "5D", "JC", "5H")
    refused(table, Deal(seed=1), "four-color.3")
    table.execute(EndScene(), GM)
    refused(table, NextPanel(), "four-color.3")


def test_ruling_3_once_the_scene_ends_no_ones_panel_goes_on() -> None:
    """While the Editor turns the page the last Panel is still acted out; once the scene ends,
    no one's is: the view shows none, and the story closes the last turn."""
    table = scene(heroes=3, villains=2)
    deal_by_hand(table, "5D", "JC", "5H", "AC", "2S", "QS")
    _spend_extras(table)
    play_all(table)
    last = table.view(GM).current  # type: ignore[attr-defined]
    assert last is not None and table.system.story.turn(table.state, GM) == last.acting
    table.execute(EndScene(), GM)
    for viewer in (GM, OVERLAY, player("h1")):
        assert table.view(viewer).current is None  # type: ignore[attr-defined]
        assert table.system.story.turn(table.state, viewer) is None
    log = [(n, e, float(n)) for n, e in enumerate(table.log, start=1)]
    turns = chronicle(table.system.table(table.options), GM, log).told().turns
    assert turns and all(t.seconds is not None for t in turns)


# Ruling 4: a joker dealt to a hero goes back into the deck and the hero is dealt again.
def test_ruling_4_an_engine_deal_returns_a_heros_joker_and_deals_a_replacement() -> None:
    table = scene(heroes=8, villains=2)
    event = engine_deal_with(table, lambda e: bool(e.returned))
    heroes = {f"h{n}" for n in range(1, 9)}
    assert all(d.card.is_joker and d.to in heroes for d in event.returned)
    assert not any(d.card.is_joker for d in event.cards if d.to in heroes)
    assert sum(1 for d in event.cards if d.to in heroes) == 8


def test_ruling_4_a_physical_joker_for_a_hero_is_refused_until_a_replacement_comes() -> None:
    table = scene(heroes=2, villains=1)
    table.execute(Deal(source=Source.DEVICE), GM)
    error = refused(table, DealCard(card=RED_JOKER), "four-color.4")
    assert error.message.startswith("heroes never hold jokers")  # never, not "not now"
    assert "replacement" in error.message
    table.execute(DealCard(card=parse_card("7H")), GM)
    assert holder_of(table, "7H") == "h1"


def test_ruling_4_correcting_a_heros_card_to_a_joker_says_the_rule_and_what_to_do() -> None:
    """Never allowed, at any moment: the refusal says the rule and the way it goes at a table."""
    table = scene(heroes=1, villains=1)
    deal_by_hand(table, "9H", "8H")
    error = refused(table, OverrideCard(card=parse_card("9H"), to=RED_JOKER), "four-color.4")
    assert error.field == "to"
    assert error.message == (
        "heroes never hold jokers: a joker dealt to the hero 'h1' goes back into the deck and "
        "'h1' is dealt another card; correct 9H to that card instead"
    )


# Ruling 5: the Editor's jokers: assigned to a villain or mob, played at any moment.
def test_ruling_5_a_joker_dealt_to_a_villain_stays_and_can_be_reassigned() -> None:
    table = scene(heroes=2, villains=2)
    deal_by_hand(table, "9H", "8H", "RJ", "2C", "3C")
    assert table.state.holding(RED_JOKER).acting == "v1"  # type: ignore[union-attr]
    table.execute(AssignCard(card=RED_JOKER, acting="v2"), GM)
    assert table.state.holding(RED_JOKER).acting == "v2"  # type: ignore[union-attr]
    refused(table, AssignCard(card=RED_JOKER, acting="h1"), "four-color.5")
    refused(table, AssignCard(card=RED_JOKER, element="the bridge"), "four-color.5")


def test_ruling_5_a_joker_interrupts_the_sequence_at_any_moment() -> None:
    table = scene(heroes=2, villains=1)
    deal_by_hand(table, "9H", "8H", "2C", "BJ")  # the extra card is the black joker
    table.execute(NextPanel(), GM)
    (event,) = table.execute(PlayJoker(card=BLACK_JOKER, acting="v1"), GM)
    assert isinstance(event, PanelPlayed) and event.acting == "v1"
    assert [p.card.code for p in table.state.panels] == ["9H", "BJ"]
    assert play_all(table) == ["8H", "2C"]


def test_ruling_5_an_unplayed_joker_is_played_last_by_default() -> None:
    table = scene(heroes=2, villains=1)
    deal_by_hand(table, "9H", "8H", "RJ", "5C")
    _spend_extras(table)
    assert play_all(table) == ["9H", "8H", "5C", "RJ"]


def test_ruling_5_an_unplayed_joker_needs_someone_to_act_before_it_is_played_last() -> None:
    table = scene(heroes=2, villains=1)
    deal_by_hand(table, "9H", "8H", "5C", "RJ")
    for _ in range(3):
        table.execute(NextPanel(), GM)
    refused(table, NextPanel(), "four-color.5")
    table.execute(AssignCard(card=RED_JOKER, acting="v1"), GM)
    assert play_all(table) == ["RJ"]


def test_ruling_5_a_table_may_discard_unplayed_jokers_instead() -> None:
    table = scene(heroes=2, villains=1, unplayed_joker="discard")
    deal_by_hand(table, "9H", "8H", "RJ", "5C")
    _spend_extras(table)
    assert play_all(table) == ["9H", "8H", "5C"]
    assert table.state.phase is Phase.PAGE_DONE
    assert table.state.holding(RED_JOKER).discarded  # type: ignore[union-attr]


# Ruling 6: a joker's Panel is Editorial Control, with no Bonus Hero Die.
def test_ruling_6_editorial_control_earns_no_bonus_hero_die() -> None:
    table = scene(heroes=2, villains=1)
    deal_by_hand(table, "9H", "8H", "RJ", "5C")
    (joker,) = table.execute(PlayJoker(card=RED_JOKER), GM)
    (ranked,) = table.execute(NextPanel(), GM)
    assert isinstance(joker, PanelPlayed) and joker.editorial_control
    assert not joker.bonus_hero_die
    assert isinstance(ranked, PanelPlayed) and ranked.bonus_hero_die
    assert not ranked.editorial_control


# Ruling 7: extra cards are spent on a villain's or mob's action or an Element's complication.
def test_ruling_7_an_extra_cards_panel_waits_until_the_editor_spends_it() -> None:
    table = scene(heroes=2, villains=1)
    deal_by_hand(table, "9H", "8H", "5C", "KD")
    refused(table, NextPanel(), "four-color.7")
    assert table.view(GM).awaiting[0].what == "assign"  # type: ignore[attr-defined]
    table.execute(AssignCard(card=parse_card("KD"), element="the collapsing bridge"), GM)
    (event,) = table.execute(NextPanel(), GM)
    assert isinstance(event, PanelPlayed)
    assert event.element == "the collapsing bridge" and event.acting is None


def test_ruling_7_an_extra_card_may_be_assigned_early_to_a_villain() -> None:
    table = scene(heroes=2, villains=1)
    deal_by_hand(table, "9H", "8H", "5C", "2D")
    table.execute(AssignCard(card=parse_card("2D"), acting="v1"), GM)
    play_all(table)
    assert [p.acting for p in table.state.panels] == ["h1", "h2", "v1", "v1"]


# Ruling 8: trades need the other side's acceptance; only unplayed cards; no joker to a hero.
def test_ruling_8_a_trade_between_writers_happens_when_the_other_accepts() -> None:
    table = scene(heroes=2)
    deal_by_hand(table, "3H", "KH", "5C")
    table.execute(OfferTrade(hero="h1", partner="h2"), player("h1"))
    assert holder_of(table, "3H") == "h1"
    refused(table, AcceptTrade(offer=1), "roles", player("h1"))
    table.execute(AcceptTrade(offer=1), player("h2"))
    assert holder_of(table, "3H") == "h2" and holder_of(table, "KH") == "h1"
    assert table.state.offers == ()


def test_ruling_8_a_declined_offer_changes_no_card() -> None:
    table = scene(heroes=2)
    deal_by_hand(table, "3H", "KH", "5C")
    table.execute(OfferTrade(hero="h1", partner="h2"), player("h1"))
    table.execute(DeclineTrade(offer=1), player("h2"))
    assert holder_of(table, "3H") == "h1" and table.state.offers == ()
    refused(table, AcceptTrade(offer=1), "four-color.8", player("h2"))


def test_ruling_8_a_trade_with_the_editor_and_never_a_joker_to_a_hero() -> None:
    table = scene(heroes=2, villains=1)
    deal_by_hand(table, "3H", "KH", "RJ", "5C")
    table.execute(OfferTrade(hero="h1", partner=EDITOR), player("h1"))
    refused(table, AcceptTrade(offer=1, card=RED_JOKER), "four-color.8")
    refused(table, AcceptTrade(offer=1, card=parse_card("KH")), "four-color.8")
    table.execute(AcceptTrade(offer=1, card=parse_card("5C")), GM)
    assert holder_of(table, "5C") == "h1" and holder_of(table, "3H") == EDITOR


def test_ruling_8_only_unplayed_cards_can_be_traded() -> None:
    table = scene(heroes=2)
    deal_by_hand(table, "3H", "KH", "5C")
    table.execute(OfferTrade(hero="h1", partner="h2"), player("h1"))
    table.execute(NextPanel(), GM)  # KH, h2's card, is played
    refused(table, AcceptTrade(offer=1), "four-color.8", player("h2"))
    refused(table, OfferTrade(hero="h2", partner="h1"), "four-color.8", player("h2"))


# Ruling 9: joining mid-scene: one card at once; the extra cards are not recomputed.
def test_ruling_9_a_hero_joining_mid_scene_is_dealt_at_once_without_new_extras() -> None:
    table = scene(heroes=1, villains=1)
    table.execute(Deal(seed=3), GM)
    extras = sum(1 for h in table.state.holdings if h.holder == EDITOR)
    newcomer = Member(id="h2", name="Latecomer", kind=Kind.HERO)
    (event,) = table.execute(Join(member=newcomer, seed=11), GM)
    assert isinstance(event, Joined) and event.dealt is not None and not event.dealt.is_joker
    assert table.state.hand_of("h2") is not None
    assert sum(1 for h in table.state.holdings if h.holder == EDITOR) == extras == 0


def test_ruling_9_a_physical_join_is_owed_a_card_before_the_next_panel() -> None:
    table = scene(heroes=2)
    deal_by_hand(table, "3H", "KH", "5C")
    table.execute(Join(member=Member(id="m1", name="Mob", kind=Kind.MOB), source=Source.DEVICE), GM)
    assert table.state.to_deal == ("m1",)
    refused(table, NextPanel(), "four-color.9")
    table.execute(DealCard(card=parse_card("AD")), GM)
    (event,) = table.execute(NextPanel(), GM)
    assert isinstance(event, PanelPlayed) and (event.card.code, event.acting) == ("AD", "m1")


def test_ruling_9_a_latecomer_is_dealt_from_where_the_page_came() -> None:
    """A page the GM dealt by hand asks for the latecomer's card by hand: the engine never puts
    a card on the table that is not in the GM's hand. The GM may say otherwise."""
    table = scene(heroes=2)
    deal_by_hand(table, "3H", "KH", "5C")
    (event,) = table.execute(Join(member=Member(id="h3", name="Late", kind=Kind.HERO)), GM)
    assert isinstance(event, Joined) and event.dealt is None and event.source is Source.GM
    assert table.state.to_deal == ("h3",)
    (event,) = table.execute(
        Join(member=Member(id="m1", name="Mob", kind=Kind.MOB), source=Source.ENGINE, seed=5), GM
    )
    assert isinstance(event, Joined) and event.dealt is not None  # as the GM said
    engine = scene(heroes=1)
    engine.execute(Deal(seed=3), GM)
    (event,) = engine.execute(Join(member=Member(id="h2", name="Late", kind=Kind.HERO), seed=7), GM)
    assert isinstance(event, Joined) and event.source is Source.ENGINE and event.dealt is not None


# Ruling 10: the Editor's extra cards and unplayed jokers are secret until played.
def test_ruling_10_players_and_overlays_see_the_order_but_not_the_editors_secrets() -> None:
    table = scene(heroes=2, villains=1)
    deal_by_hand(table, "3H", "KH", "RJ", "5C")
    for viewer in (OVERLAY, player("h1")):
        shown = table.view(viewer).model_dump_json()
        assert '"RJ"' not in shown and '"5C"' not in shown
        assert '"KH"' in shown and '"3H"' in shown
        assert table.view(viewer).hidden_cards == 2  # type: ignore[attr-defined]
    gm = table.view(GM).model_dump_json()
    assert '"RJ"' in gm and '"5C"' in gm


def test_ruling_10_events_reach_players_with_the_secret_cards_cut_out() -> None:
    table = scene(heroes=4, villains=1)
    (event,) = table.execute(Deal(seed=5), GM)
    assert isinstance(event, Dealt)
    secret = {d.card.code for d in event.cards if d.to == EDITOR or d.card.is_joker}
    seen = table.censor(event, OVERLAY)
    assert seen is not None
    shown = {d["card"] for d in seen["cards"]}
    assert not secret & shown and None in shown
    assert table.censor(event, GM) == event.model_dump(mode="json")


def test_ruling_10_played_cards_become_public() -> None:
    table = scene(heroes=2, villains=1)
    deal_by_hand(table, "3H", "KH", "5C", "AS")
    table.execute(AssignCard(card=parse_card("AS"), acting="v1"), GM)
    table.execute(NextPanel(), GM)
    assert table.view(OVERLAY).current.card.code == "AS"  # type: ignore[attr-defined]


def test_full_deck_helper_is_what_a_fresh_deal_uses() -> None:
    table = scene(heroes=1)
    assert table.state.deck == full_deck()
