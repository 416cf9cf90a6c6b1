"""What happened in a tense situation. Initiative and pre-emption dice are secrets: see view."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field

from rules.awareness.commands import Awareness, Mode, Sheet
from rules.hiding import Hidden, HiddenAtJoin, Lapsed, Revealed, Seen
from rules.randomness import Source
from rules.table import Undone


class _Event(Seen):
    pass


class Initiative(BaseModel):
    """A character's initiative this round: the die (if a d10 was rolled), Score and QR."""

    model_config = ConfigDict(frozen=True)

    character: str
    die: int | None
    score: int
    qr: int


class Joined(_Event):
    """A character joins. Mid-round (ruling 13) ``result`` is its initiative rolled at once,
    with ``rolloff`` placing it among ties; or ``source`` says where the d10 it now awaits
    comes from. Neither: it joins between rounds."""

    type: Literal["joined"] = "joined"
    sheet: Sheet
    result: Initiative | None = None
    rolloff: dict[str, int] | None = None
    source: Source | None = None
    hidden: HiddenAtJoin = False


class AwarenessSet(_Event):
    type: Literal["awareness_set"] = "awareness_set"
    character: str
    state: Awareness
    position: int


class InitiativeRolled(_Event):
    """A whole round's initiative; ``rolloff`` ranks who tied on QR and Score (hidden)."""

    type: Literal["initiative_rolled"] = "initiative_rolled"
    round: int
    source: Source
    results: tuple[Initiative, ...]
    rolloff: dict[str, int]


class RollsAwaited(_Event):
    type: Literal["rolls_awaited"] = "rolls_awaited"
    round: int
    source: Source


class InitiativeEntered(_Event):
    """One character's initiative; the round's last carries the roll-off and starts it."""

    type: Literal["initiative_entered"] = "initiative_entered"
    result: Initiative
    source: Source
    rolloff: dict[str, int] | None = None
    dice_ids: tuple[str, ...] = ()  # the smart dice that rolled it


class Declared(_Event):
    """An act (which opens an exchange) or a wait (with its trigger). A hidden character's act,
    in its place, makes the declarations made after that place meanwhile lapse (``lapsed``)."""

    type: Literal["declared"] = "declared"
    character: str
    kind: Literal["act", "wait"]
    what: str
    mode: Mode = Mode.NORMAL
    lapsed: Lapsed = ()


class PreemptionAwaited(_Event):
    """A pre-emption declared with its die still to come; it is placed when the die is in."""

    type: Literal["preemption_awaited"] = "preemption_awaited"
    character: str
    to: str
    what: str
    mode: Mode = Mode.NORMAL
    source: Source


class Reacted(_Event):
    """A waiting character reacted to ``to``: placed just before or just after them.

    A pre-emption carries its die and target (secret), and whether it succeeded.
    """

    type: Literal["reacted"] = "reacted"
    character: str
    to: str
    what: str
    mode: Mode = Mode.NORMAL
    preempt: bool
    die: int | None = None
    target: int | None = None
    source: Source | None = None
    dice_ids: tuple[str, ...] = ()  # the smart dice that rolled a pre-emption's die
    placed: Literal["before", "after"]


class Resolved(_Event):
    """An outcome recorded. A deferred exchange's, in its place, makes the declarations made
    since it was deferred lapse (``lapsed``)."""

    type: Literal["resolved"] = "resolved"
    character: str
    outcome: str = ""
    performed: bool = True
    lapsed: Lapsed = ()


class InitiativeOverridden(_Event):
    type: Literal["initiative_overridden"] = "initiative_overridden"
    result: Initiative


Event = (
    Joined
    | AwarenessSet
    | InitiativeRolled
    | RollsAwaited
    | InitiativeEntered
    | Declared
    | PreemptionAwaited
    | Reacted
    | Resolved
    | InitiativeOverridden
    | Hidden
    | Revealed
)
AnyEvent = Annotated[Event | Undone, Field(discriminator="type")]
