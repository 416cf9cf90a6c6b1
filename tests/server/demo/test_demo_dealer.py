"""The demo's simulated dealer lays a card whenever the Four Color Hack table awaits one, but
never races a GM who deals by hand: once a card it did not lay is on the table, it stands aside
until the next page."""

from __future__ import annotations

from typing import Any

from rules.cards import Card
from rules.errors import RuleError
from rules.four_color import FourColorTable
from rules.four_color.commands import Deal, DealCard, NextPanel
from rules.four_color.scene import Phase
from rules.four_color.view import view
from rules.randomness import Source
from rules.roles import GM
from rules.table import Undo
from server.demo.devices import Dealer
from tests.rules.four_color.helpers import scene


def seen(table: FourColorTable) -> dict[str, Any]:
    """The table as the dealer sees it: the GM's view, as the API answers it."""
    return view(table.state, GM).model_dump(mode="json")


def lay(table: FourColorTable, card: Card) -> bool:
    """Lay ``card`` as the reader does; whether the table took it (a joker for a hero goes
    back, ruling 4)."""
    try:
        table.execute(DealCard(card=card, source=Source.DEVICE), GM)
    except RuleError:
        return False
    return True


def by_hand(table: FourColorTable) -> None:
    """The GM types the next card: one still in the deck, never a joker."""
    card = next(card for card in table.state.deck if not card.is_joker)
    table.execute(DealCard(card=card, source=Source.GM), GM)


def test_the_dealer_lays_what_is_awaited_and_nothing_once_the_table_waits_for_none() -> None:
    table = scene(heroes=2, villains=1)
    dealer = Dealer()
    assert dealer.card_for(seen(table)) is None  # nothing dealt yet: no card awaited
    table.execute(Deal(source=Source.DEVICE), GM)
    while (card := dealer.card_for(seen(table))) is not None:
        lay(table, card)
    assert table.state.phase is Phase.PANELS and not seen(table)["to_deal"]


def test_the_dealer_stands_aside_once_the_gm_deals_by_hand_until_the_next_page() -> None:
    table = scene(heroes=1, villains=4)  # one hero: no extra cards to spend
    dealer = Dealer()
    table.execute(Deal(source=Source.DEVICE), GM)
    first = dealer.card_for(seen(table))
    assert first is not None
    lay(table, first)
    by_hand(table)
    assert seen(table)["to_deal"]  # still awaiting cards, but the GM is dealing them
    assert dealer.card_for(seen(table)) is None
    while seen(table)["to_deal"]:
        assert dealer.card_for(seen(table)) is None
        by_hand(table)
    while table.state.phase is Phase.PANELS:
        table.execute(NextPanel(), GM)
    table.execute(Deal(source=Source.DEVICE), GM)  # the next page: the dealer's again
    assert seen(table)["page"] == 2
    assert dealer.card_for(seen(table)) is not None


def test_the_dealer_stands_aside_once_the_gm_undoes_a_card_it_laid() -> None:
    """The GM takes back a card the reader dealt, to deal it by hand: the reader does not deal
    the next one over it at once, until the next page."""
    table = scene(heroes=1, villains=4)
    dealer = Dealer()
    table.execute(Deal(source=Source.DEVICE), GM)
    # Until a card of its lands: the shuffle may put a joker first, for the hero, which goes
    # back (and an undo then would take back the deal itself, not a card).
    while True:
        card = dealer.card_for(seen(table))
        assert card is not None
        if lay(table, card):
            break
    assert dealer.card_for(seen(table)) is not None  # its card stands: it goes on dealing
    table.execute(Undo(), GM)  # the card it laid last is taken back
    assert seen(table)["to_deal"]
    assert dealer.card_for(seen(table)) is None
    while seen(table)["to_deal"]:
        by_hand(table)
        assert dealer.card_for(seen(table)) is None
