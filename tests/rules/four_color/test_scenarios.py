"""Scenes from the source text, played through the engine."""

from __future__ import annotations

from rules.four_color import FourColorTable
from rules.four_color.commands import EDITOR, Deal, Join, Kind, Member
from rules.four_color.events import Dealt
from rules.roles import GM, OVERLAY

from .helpers import scene


def test_the_seeds_example_fight_gives_the_editor_three_extra_cards() -> None:
    """One villain front and centre against two heavy hitters; four other heroes fight lesser
    villains or mobs in the background: six heroes, so three extra cards for the Editor."""
    table: FourColorTable = scene()
    cast = [
        ("mastermind", Kind.VILLAIN), ("heavy-1", Kind.HERO), ("heavy-2", Kind.HERO),
        ("hero-3", Kind.HERO), ("hero-4", Kind.HERO), ("hero-5", Kind.HERO), ("hero-6", Kind.HERO),
        ("henchman", Kind.VILLAIN), ("thugs", Kind.MOB), ("robots", Kind.MOB),
    ]  # fmt: skip
    for member_id, kind in cast:
        table.execute(Join(member=Member(id=member_id, name=member_id, kind=kind)), GM)
    (event,) = table.execute(Deal(seed=2026), GM)
    assert isinstance(event, Dealt)
    assert [d.to for d in event.cards].count(EDITOR) == 3
    assert len(event.cards) == 6 + 4 + 3
    assert table.view(OVERLAY).hidden_cards >= 3  # type: ignore[attr-defined]
