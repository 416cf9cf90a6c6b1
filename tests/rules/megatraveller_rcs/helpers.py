"""MegaTraveller RCS encounters for tests: characters, rolled rounds, and the line of cards."""

from __future__ import annotations

from rules.megatraveller_rcs import MEGATRAVELLER_RCS, RcsTable
from rules.megatraveller_rcs.commands import (
    ActionLength,
    Character,
    Declare,
    EnterRoll,
    Join,
    Resolve,
    RollInitiative,
)
from rules.randomness import Source
from rules.roles import GM


def encounter(*characters: tuple[str, str, int]) -> RcsTable:
    """Characters as (id, side, tactics), with Dex 0 and Movement 0, so initiative = 2D6 +
    tactics; the tests choose the dice."""
    table = MEGATRAVELLER_RCS.table()
    for cid, side, tactics in characters:
        character = Character(
            id=cid, name=cid.title(), side=side, dex=0, movement=0, tactics=tactics
        )
        table.execute(Join(character=character), GM)
    return table


def roll_round(table: RcsTable, dice: dict[str, tuple[int, int]], seed: int = 0) -> None:
    """A round rolled at the table: each character's 2D6 typed in."""
    table.execute(RollInitiative(source=Source.GM), GM)
    for cid, pair in dice.items():
        table.execute(EnterRoll(character=cid, dice=pair, source=Source.GM, seed=seed), GM)


def line(table: RcsTable) -> list[str]:
    """The untapped cards in order; the first holds the Taking Turn Token."""
    return list(table.state.line)


def act(table: RcsTable, cid: str, action: ActionLength = ActionLength.LONG) -> None:
    """Declare an action and resolve it with no one seizing."""
    table.execute(Declare(character=cid, action=action, what="acts", target="someone"), GM)
    table.execute(Resolve(), GM)
