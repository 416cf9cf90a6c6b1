"""The dice of a roll as the game reads them: a d100 from a tens die and a d10 together.

A percentile roll (Call of Cthulhu, WFRP, Delta Green, Mothership: a VTT's ``1d100``) is rolled
at the table with two ten-sided dice, one read as tens (a Pixels d00 or a GoDice wearing its
tens shell: 00, 10 … 90) and one as units (a d10's 0 … 9), or with one hundred-sided die. A
pair is read as the official Pixels module for Foundry reads it (``scripts/handlers.mjs``,
``detectD100Rolls``): the tens die's tens, the d10's number taken modulo 10, and "00" with "0"
make 100. A tens die alone is no d100, nor is a d10
alone; two plain d10s pair only when the table says which one reads tens (the registry's
``tens`` for that die). Any other size of roll is the dice of that size, as rolled.

>>> filled([Rolled("a", 100, 40, tens=True), Rolled("b", 10, 7)], 100, 1)
([47], ['a', 'b'])
>>> filled([Rolled("a", 100, 100, tens=True), Rolled("b", 10, 10)], 100, 1)
([100], ['a', 'b'])
>>> filled([Rolled("a", 100, 40, tens=True)], 100, 1) is None
True
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

PERCENT = 100


@dataclass(frozen=True)
class Rolled:
    """One die of a roll: its id, its size at the table (a tens die counts 100), the number up
    (a d10's "0" is 10, a tens die's "00" 100), and whether it reads the tens of a d100 (a
    d00, a GoDice tens shell, or a d10 the table registered as its tens die)."""

    die: str
    sides: int | None
    number: int
    tens: bool = False


def fits(rolled: Rolled, sides: int) -> bool:
    """Whether the die takes part in a roll of ``sides``-sided dice: one of that size, or for
    a d100 a tens die or a d10 to pair with one."""
    if sides == PERCENT:
        return rolled.tens or rolled.sides in (10, PERCENT)
    return rolled.sides == sides and not rolled.tens


def filled(dice: Sequence[Rolled], sides: int, count: int) -> tuple[list[int], list[str]] | None:
    """The ``count`` numbers of a roll of ``sides``-sided dice the dice make, in the order
    rolled, with the ids of the dice that made them (two for a percentile pair); None while
    they make fewer. Every die must ``fit``."""
    if sides != PERCENT:
        if len(dice) < count:
            return None
        return [one.number for one in dice[:count]], [one.die for one in dice[:count]]
    faces: list[int] = []
    ids: list[str] = []
    tens: list[Rolled] = []
    units: list[Rolled] = []
    for one in dice:
        if len(faces) == count:
            break
        if one.sides == PERCENT and not one.tens:  # a hundred-sided die
            faces.append(one.number)
            ids.append(one.die)
            continue
        (tens if one.tens else units).append(one)
        if tens and units:
            high, low = tens.pop(0), units.pop(0)
            faces.append(pair(high, low))
            ids += [high.die, low.die]
    return (faces, ids) if len(faces) == count else None


def pair(tens: Rolled, units: Rolled) -> int:
    """A tens die and a d10 read together: 00 and 0 make 100. A d10 reading tens counts
    1 … 10 as 10 … 100."""
    high = tens.number * 10 if tens.sides == 10 else tens.number
    return (high % PERCENT + units.number % 10) or PERCENT
