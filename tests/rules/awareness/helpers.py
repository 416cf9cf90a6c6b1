"""Tense situations for tests: sheets, rounds with given dice, and exchanges resolved in order.

With Perception 5 and Stealth 5 awareness is 5, so an alert character's Score is 5 and their
QR is the die itself; ready is Score 7 (QR = die - 2), lying in wait Score 9 (QR = die - 4).
"""

from __future__ import annotations

from typing import Any

from rules.awareness import AWARENESS, AwarenessOptions, AwarenessTable
from rules.awareness.commands import (
    Awareness,
    EnterInitiative,
    Join,
    Resolve,
    RollInitiative,
    Sheet,
)
from rules.awareness.events import Resolved
from rules.randomness import Source
from rules.roles import GM


def sheet(cid: str, state: Awareness = Awareness.ALERT, **stats: Any) -> Sheet:
    values: dict[str, Any] = {"perception": 5, "stealth": 5, "coordination": 5, **stats}
    return Sheet(id=cid, name=cid.title(), state=state, **values)


def situation(*sheets: Sheet, **options: Any) -> AwarenessTable:
    table = AWARENESS.table(AwarenessOptions(**options))
    for s in sheets:
        table.execute(Join(sheet=s), GM)
    return table


def roll_round(table: AwarenessTable, dice: dict[str, int], seed: int = 0) -> None:
    """A round whose d10s are given, as a dice tray would give them."""
    table.execute(RollInitiative(source=Source.DEVICE), GM)
    for cid, die in dice.items():
        table.execute(EnterInitiative(character=cid, die=die, seed=seed), GM)


def resolve_all(table: AwarenessTable, taken_out: frozenset[str] = frozenset()) -> list[str]:
    """Record every outcome of the open exchange in order; ``taken_out`` could not act."""
    order = []
    while table.state.exchange is not None:
        who = table.state.next_to_resolve()
        assert who is not None
        (event,) = table.execute(Resolve(outcome="done", performed=who not in taken_out), GM)
        assert isinstance(event, Resolved) and event.character == who
        order.append(who)
    return order
