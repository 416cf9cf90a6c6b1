"""Four Color Hack scenes for tests: members and hand deals."""

from __future__ import annotations

from typing import Any

from rules.cards import parse_card
from rules.four_color import FOUR_COLOR, FourColorOptions, FourColorTable
from rules.four_color.commands import Deal, DealCard, Join, Kind, Member
from rules.randomness import Source
from rules.roles import GM


def scene(heroes: int = 0, villains: int = 0, mobs: int = 0, **options: Any) -> FourColorTable:
    """A table with heroes h1…, villains v1… and mobs m1… joined, nothing dealt."""
    table = FOUR_COLOR.table(FourColorOptions(**options))
    for kind, count, prefix in (
        (Kind.HERO, heroes, "h"),
        (Kind.VILLAIN, villains, "v"),
        (Kind.MOB, mobs, "m"),
    ):
        for n in range(1, count + 1):
            member = Member(id=f"{prefix}{n}", name=f"{kind.value} {n}", kind=kind)
            table.execute(Join(member=member), GM)
    return table


def deal_by_hand(table: FourColorTable, *cards: str) -> None:
    """A physical deal: each card goes to whoever is next."""
    table.execute(Deal(source=Source.GM), GM)
    for card in cards:
        table.execute(DealCard(card=parse_card(card), source=Source.GM), GM)


def holder_of(table: FourColorTable, card: str) -> str:
    holding = table.state.holding(parse_card(card))
    assert holding is not None
    return holding.holder
