"""Who is dealt what: the recipients of a page, and the engine's draw from a shuffled deck."""

from __future__ import annotations

import random

from rules.cards import Card
from rules.errors import RuleError
from rules.four_color.commands import EDITOR
from rules.four_color.events import Dealing
from rules.four_color.scene import Scene


def recipients(scene: Scene) -> tuple[str, ...]:
    """Ruling 2: one card to each hero, one to each villain and mob, then ``floor(heroes / 2)``
    extra cards to the Editor, in that order (the order a physical deal goes round the table)."""
    heroes = tuple(m.id for m in scene.members if m.is_hero)
    others = tuple(m.id for m in scene.members if not m.is_hero)
    return heroes + others + (EDITOR,) * (len(heroes) // 2)


def draw(
    deck: tuple[Card, ...], to: tuple[str, ...], heroes: frozenset[str], rng: random.Random
) -> tuple[tuple[Dealing, ...], tuple[Dealing, ...]]:
    """Shuffle ``deck`` and deal one card to each of ``to``.

    Ruling 4: a joker that falls to a hero goes back into the deck at a random place and the
    hero is dealt again, as often as it takes. Returns the cards dealt and the jokers returned.
    """
    ranked = sum(1 for c in deck if not c.is_joker)
    if len(to) > ranked:
        raise RuleError(
            "four-color.2", f"a deck with {ranked} ranked cards cannot deal {len(to)} cards"
        )
    pile = list(deck)
    rng.shuffle(pile)
    dealt: list[Dealing] = []
    returned: list[Dealing] = []
    for recipient in to:
        card = pile.pop()
        while card.is_joker and recipient in heroes:
            returned.append(Dealing(to=recipient, card=card))
            pile.insert(rng.randrange(len(pile) + 1), card)
            card = pile.pop()
        dealt.append(Dealing(to=recipient, card=card))
    return tuple(dealt), tuple(returned)
