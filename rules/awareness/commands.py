"""What the GM and the players can ask of a tense situation run by the awareness one-pager."""

from __future__ import annotations

from enum import StrEnum
from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field

from rules.hiding import HiddenAtJoin, Hide, Reveal
from rules.participants import Participant, ParticipantId, Rating
from rules.randomness import DieIds, Seed, Source
from rules.table import Undo


class Awareness(StrEnum):
    """The ladder from the narrative into the fight, lowest first."""

    SURPRISED = "surprised"
    STARTLED = "startled"
    ALERT = "alert"
    READY = "ready"
    LYING_IN_WAIT = "lying_in_wait"


class Sheet(Participant):
    """A character's sheet, and where they stand as the situation turns tense."""

    side: Annotated[str, Field(max_length=40)] = ""
    perception: Rating
    stealth: Rating
    coordination: Rating
    awareness: Rating | None = Field(default=None, description="Overrides ½(Perception + Stealth)")
    state: Awareness = Awareness.ALERT
    position: int = Field(default=0, description="The GM's modifier for position, -4 to +4")

    @property
    def base_awareness(self) -> int:
        """Ruling 1: awareness is ½(Perception + Stealth), rounded down, unless the sheet says."""
        if self.awareness is not None:
            return self.awareness
        return (self.perception + self.stealth) // 2


class Mode(StrEnum):
    """How an action is taken; a panicked character has only the two all-out modes."""

    NORMAL = "normal"
    ALL_OUT_OFFENSIVE = "all_out_offensive"
    ALL_OUT_DEFENSIVE = "all_out_defensive"


What = Annotated[str, Field(min_length=1, max_length=200)]


class _Command(BaseModel):
    # Written out as a client sends it: a press's ``from``, not the field's Python name.
    model_config = ConfigDict(frozen=True, extra="forbid", serialize_by_alias=True)


class Join(_Command):
    """A character enters the situation. Mid-round (ruling 13) its Score is computed and its
    d10 rolled at once, from where the round's dice came unless ``source`` says otherwise."""

    type: Literal["join"] = "join"
    sheet: Sheet
    source: Source | None = None
    seed: Seed | None = None
    hidden: HiddenAtJoin = False


class SetAwareness(_Command):
    """The GM moves a character on the ladder or changes their position, between rounds."""

    type: Literal["set_awareness"] = "set_awareness"
    character: ParticipantId
    state: Awareness | None = None
    position: int | None = None


class RollInitiative(_Command):
    """Start a round: the engine rolls everyone's d10 at once, or awaits each character's."""

    type: Literal["roll_initiative"] = "roll_initiative"
    source: Source = Source.ENGINE
    seed: Seed | None = None


class EnterInitiative(_Command):
    """One character's initiative: a d10 (from a tray or typed), or QR and Score typed in for
    another dice system. The last of a round carries the seed for the hidden roll-off."""

    type: Literal["enter_initiative"] = "enter_initiative"
    character: ParticipantId
    die: int | None = None
    qr: int | None = None
    score: int | None = None
    source: Source = Source.DEVICE
    seed: Seed | None = None
    dice_ids: DieIds = ()


class Act(_Command):
    """The declaring character acts; the action resolves now, after any reactions."""

    type: Literal["act"] = "act"
    character: ParticipantId
    what: What
    mode: Mode = Mode.NORMAL


class Wait(_Command):
    """The declaring character waits for a trigger."""

    type: Literal["wait"] = "wait"
    character: ParticipantId
    trigger: What


class React(_Command):
    """A waiting character reacts to someone in the exchange: just after (no roll), or just
    before, a pre-emption rolled on a d10. A die from a tray or typed comes with the command
    (with no ``source`` it counts as the device's), or later with ``enter_preemption`` when a
    ``device`` or ``gm`` pre-emption has none; with neither die nor source the engine rolls."""

    type: Literal["react"] = "react"
    character: ParticipantId
    to: ParticipantId
    timing: Literal["before", "after"]
    what: What
    mode: Mode = Mode.NORMAL
    die: int | None = None
    source: Source | None = Field(
        default=None, description="Of the die: device when a die is sent, else engine"
    )
    seed: Seed | None = None


class EnterPreemption(_Command):
    """The d10 of a pre-emption declared without one: from a tray, typed, or (when the dice
    are away) rolled by the engine."""

    type: Literal["enter_preemption"] = "enter_preemption"
    character: ParticipantId
    die: int | None = None
    source: Source = Source.DEVICE
    seed: Seed | None = None
    dice_ids: DieIds = ()


class Resolve(_Command):
    """The GM records the outcome of the next action in the exchange, or that it could not
    happen (its actor was taken out first).

    ``from`` names whose action the press resolves; one made on an action the table has left
    (resolved already, or put behind a pre-emption) is refused. Without it, the next one is."""

    type: Literal["resolve"] = "resolve"
    outcome: Annotated[str, Field(max_length=500)] = ""
    performed: bool = True
    moved_from: ParticipantId | None = Field(
        default=None, alias="from", description="The character whose action is resolved"
    )


class OverrideInitiative(_Command):
    type: Literal["override_initiative"] = "override_initiative"
    character: ParticipantId
    qr: int
    score: int


Command = (
    Join
    | SetAwareness
    | RollInitiative
    | EnterInitiative
    | Act
    | Wait
    | React
    | EnterPreemption
    | Resolve
    | OverrideInitiative
    | Hide
    | Reveal
)
AnyCommand = Annotated[Command | Undo, Field(discriminator="type")]
