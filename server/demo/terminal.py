"""A Four Color Hack scene played out in the terminal, to show the engine without a server.

The demo plays the source text's own example: a villain front and centre against two heavy hitters,
four more heroes against a henchman and two mobs. It prints what the table sees, and what only
the Editor sees, side by side as the Panels turn.
"""

from __future__ import annotations

from collections.abc import Callable

from rules.four_color import FOUR_COLOR, FourColorTable
from rules.four_color.commands import (
    AssignCard,
    Deal,
    Join,
    Kind,
    Member,
    NextPanel,
    PlayJoker,
)
from rules.four_color.events import PanelPlayed
from rules.four_color.scene import Phase
from rules.roles import GM, OVERLAY

CAST = (
    ("doom", "Doctor Doom", Kind.VILLAIN), ("sue", "Invisible Woman", Kind.HERO),
    ("ben", "The Thing", Kind.HERO), ("reed", "Mr. Fantastic", Kind.HERO),
    ("johnny", "Human Torch", Kind.HERO), ("peter", "Spider-Man", Kind.HERO),
    ("jen", "She-Hulk", Kind.HERO), ("boris", "Boris", Kind.VILLAIN),
    ("bots", "Doombots", Kind.MOB), ("guards", "Latverian Guard", Kind.MOB),
)  # fmt: skip


def play_demo(seed: int, say: Callable[[str], None]) -> FourColorTable:
    """Deal one page with ``seed`` and play it to the end; returns the finished table."""
    table = FOUR_COLOR.table()
    for member_id, name, kind in CAST:
        table.execute(Join(member=Member(id=member_id, name=name, kind=kind)), GM)
    names = {m.id: m.name for m in table.state.members}
    table.execute(Deal(seed=seed), GM)
    public = table.view(OVERLAY)
    say(f"Page 1 is dealt (seed {seed}). The table sees the Panel order:")
    for card in public.order:  # type: ignore[attr-defined]
        say(f"  {card.card.code:>3}  {names[card.holder]}")
    say(f"  ...and the Editor holds {public.hidden_cards} cards face down.")  # type: ignore[attr-defined]
    villains = [m.id for m in table.state.members if m.kind is not Kind.HERO]
    for number, holding in enumerate(h for h in table.state.holdings if h.is_secret):
        acting = villains[number % len(villains)]
        table.execute(AssignCard(card=holding.card, acting=acting), GM)
        say(f"  (Editor, secretly: {holding.card.code} will act for {names[acting]})")
    say("Panels:")
    while table.state.phase is Phase.PANELS:
        jokers = table.state.jokers_in_hand()
        interrupt = jokers and len(table.state.panels) == 3
        command = PlayJoker(card=jokers[0].card) if interrupt else NextPanel()
        (event,) = table.execute(command, GM)
        assert isinstance(event, PanelPlayed)
        who = names[event.acting] if event.acting else event.element
        note = (
            "  The Editor interrupts: Editorial Control, no Bonus Hero Die."
            if (event.editorial_control)
            else ""
        )
        say(f"  {event.card.code:>3}  {who}{note}")
    say("Every card is played: the Editor ends the scene or deals a new page.")
    return table
