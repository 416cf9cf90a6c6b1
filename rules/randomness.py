"""Where a random outcome came from, and the seeded draws the engine makes.

The rules never touch a global random generator or a clock. An engine draw arrives in the
command as a ``seed`` the server took from a cryptographic source, and ``decide`` turns it into
outcomes with a private ``random.Random``; the event then records the outcome itself and its
source, so replaying the log never draws again and a device's or GM's value is kept as given.
"""

from __future__ import annotations

import random
from collections.abc import Hashable, Mapping
from enum import StrEnum
from typing import Annotated

from pydantic import Field

from rules.errors import RuleError


class Source(StrEnum):
    """Who produced a random value."""

    ENGINE = "engine"
    DEVICE = "device"
    GM = "gm"


Seed = Annotated[int, Field(ge=0, lt=2**128, description="Entropy for an engine draw.")]
DieIds = Annotated[
    tuple[Annotated[str, Field(pattern=r"^[A-Za-z0-9:_-]{1,40}$")], ...],
    Field(max_length=12, description="The smart dice that rolled it, by their own ids"),
]
"""Which dice made a roll from a device, kept in its event (none for a tray or a typed roll)."""


def engine_rng(source: Source, seed: int | None, rule: str) -> random.Random:
    """A private generator for one engine draw; refuses a draw that brought no seed."""
    if source is not Source.ENGINE:
        raise RuleError(rule, f"a {source.value} value is read, not drawn", field="source")
    if seed is None:
        raise RuleError(rule, "an engine draw needs the server's seed", field="seed")
    return random.Random(seed)


def own_rng(seed: int, who: str) -> random.Random:
    """One participant's own generator within an engine draw for many (a round's initiative):
    what each rolls depends on the seed and on them alone, never on who else is at the table,
    so a participant hidden from players changes no one's roll (the shared rulings, "No
    tells")."""
    return random.Random(f"{seed}/{who}")


def given_source(source: Source | None, given: bool, rule: str, field: str) -> Source:
    """Where a value a command may carry comes from.

    A value sent is that value, never silently replaced by a draw: with no ``source`` it was
    read from a device, and with ``source: engine`` it is refused, naming the value's field.
    With neither a value nor a source, the engine draws.
    """
    if source is None:
        return Source.DEVICE if given else Source.ENGINE
    if given and source is Source.ENGINE:
        raise RuleError(
            rule,
            f"the engine draws its own {field}: send the {field} with source device or gm, "
            f"or leave the {field} out",
            field=field,
        )
    return source


def roll(rng: random.Random, dice: int, sides: int) -> tuple[int, ...]:
    """Roll ``dice`` dice of ``sides`` faces."""
    return tuple(rng.randint(1, sides) for _ in range(dice))


def break_ties(
    keys: Mapping[str, Hashable], rng: random.Random | None, rule: str
) -> dict[str, int]:
    """Put each group of equal keys in a random order once: ranks 1, 2, … within the group.

    Who has no equal gets no rank. Both RCS's tally marks and the awareness roll-off are this
    draw; ``rng`` may be None only when no two keys are equal.
    """
    groups: dict[Hashable, list[str]] = {}
    for who, key in keys.items():
        groups.setdefault(key, []).append(who)
    ranks: dict[str, int] = {}
    for members in groups.values():
        if len(members) > 1:
            if rng is None:
                raise RuleError(
                    rule,
                    "equal values need the server's seed to be put in a random order",
                    field="seed",
                )
            rng.shuffle(members)
            ranks.update({who: n for n, who in enumerate(members, start=1)})
    return ranks
