"""What the referee and the players can ask of a MegaTraveller RCS encounter."""

from __future__ import annotations

from enum import StrEnum
from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field

from rules.hiding import HiddenAtJoin, Hide, Reveal
from rules.participants import Participant, ParticipantId, Rating
from rules.randomness import DieIds, Seed, Source
from rules.table import Undo

Side = Annotated[str, Field(min_length=1, max_length=40, description="A side in the encounter")]


class Character(Participant):
    """A combatant: initiative is 2D6 + Dex + Movement + Tactics skill (0 if none)."""

    side: Side
    dex: Rating
    movement: Rating
    tactics: Annotated[Rating, Field(ge=0)] = 0


class ActionLength(StrEnum):
    """A turn is two Short Actions or one Long Action."""

    SHORT = "short"
    LONG = "long"

    @property
    def shorts(self) -> int:
        """How many of the turn's two Short Actions this action takes up."""
        return 1 if self is ActionLength.SHORT else 2


class _Command(BaseModel):
    # Written out as a client sends it: a press's ``from``, not the field's Python name.
    model_config = ConfigDict(frozen=True, extra="forbid", serialize_by_alias=True)


class Join(_Command):
    """A character enters the encounter. Mid-round (ruling 10) it rolls initiative at once,
    from where the round's rolls came unless ``source`` says otherwise, or waits tapped for
    the next round, as the table's ``join_mid_round`` says."""

    type: Literal["join"] = "join"
    character: Character
    source: Source | None = None
    seed: Seed | None = Field(default=None, description="For the engine's roll, and for ties")
    hidden: HiddenAtJoin = False


class SetPool(_Command):
    """The referee sets or refills a side's tactics pool."""

    type: Literal["set_pool"] = "set_pool"
    side: Side
    points: Annotated[int, Field(ge=0)]


class SpendTactics(_Command):
    """Spend points of a side's pool: on a character's initiative (up or down) or another DM."""

    type: Literal["spend_tactics"] = "spend_tactics"
    side: Side
    character: ParticipantId
    points: int = Field(description="Initiative steps, + to raise, - to lower; or DM points")
    purpose: Literal["initiative", "other"] = "initiative"
    note: Annotated[str, Field(max_length=200)] = ""


class RollInitiative(_Command):
    """Start a round: the engine rolls every character's 2D6 at once, or awaits each roll."""

    type: Literal["roll_initiative"] = "roll_initiative"
    source: Source = Source.ENGINE
    seed: Seed | None = None


class EnterRoll(_Command):
    """One character's 2D6, from a dice tray or typed in (or drawn by the engine alone)."""

    type: Literal["enter_roll"] = "enter_roll"
    character: ParticipantId
    dice: tuple[int, ...] = ()
    source: Source = Source.DEVICE
    seed: Seed | None = Field(default=None, description="For the engine's roll, and for ties")
    dice_ids: DieIds = ()


NO_TARGET = "—"
"""The target of an action aimed at no one (a reload, a dash for cover): what the pages send
for "no one", and what a story leaves unsaid."""


class Declare(_Command):
    """The token holder declares an action, revealing its target (``NO_TARGET`` for none)."""

    type: Literal["declare"] = "declare"
    character: ParticipantId
    action: ActionLength
    what: Annotated[str, Field(min_length=1, max_length=200)]
    target: Annotated[str, Field(min_length=1, max_length=200)]


class Resolve(_Command):
    """No one seized: the declared action is performed (the referee records its outcome).

    ``from`` names whose declaration the press resolves; one made on a declaration the table has
    left (resolved already, or seized from) is refused. Without it, whatever is declared now is.
    """

    type: Literal["resolve"] = "resolve"
    outcome: Annotated[str, Field(max_length=500)] = ""
    moved_from: ParticipantId | None = Field(
        default=None, alias="from", description="The character whose declaration is resolved"
    )


class Seize(_Command):
    """A higher, untapped character seizes the initiative; the referee may rule an interrupt."""

    type: Literal["seize"] = "seize"
    character: ParticipantId
    ruled_interrupt: bool = False
    reason: Annotated[str, Field(max_length=200)] = ""


class EndTurn(_Command):
    type: Literal["end_turn"] = "end_turn"
    character: ParticipantId


class TakeOut(_Command):
    """A character leaves the fight (down, fled): their card leaves the line."""

    type: Literal["take_out"] = "take_out"
    character: ParticipantId


class OverrideInitiative(_Command):
    """The referee corrects a character's initiative this round."""

    type: Literal["override_initiative"] = "override_initiative"
    character: ParticipantId
    initiative: int


Command = (
    Join
    | SetPool
    | SpendTactics
    | RollInitiative
    | EnterRoll
    | Declare
    | Resolve
    | Seize
    | EndTurn
    | TakeOut
    | OverrideInitiative
    | Hide
    | Reveal
)
AnyCommand = Annotated[Command | Undo, Field(discriminator="type")]
