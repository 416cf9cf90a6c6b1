"""What happened in a MegaTraveller RCS encounter."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field

from rules.hiding import Hidden, HiddenAtJoin, Revealed, Seen
from rules.megatraveller_rcs.commands import ActionLength, Character
from rules.randomness import Source
from rules.table import Undone


class _Event(Seen):
    pass


class Roll(BaseModel):
    model_config = ConfigDict(frozen=True)

    character: str
    dice: tuple[int, ...]
    initiative: int


class Declaration(BaseModel):
    model_config = ConfigDict(frozen=True)

    character: str
    action: ActionLength
    what: str
    target: str


class Joined(_Event):
    """A character joins. Mid-round (ruling 10) ``roll`` is its initiative rolled at once, with
    ``tallies`` placing it among equal initiatives; or ``source`` says where the roll it now
    awaits comes from. Neither: it joins between rounds, or waits for the next one."""

    type: Literal["joined"] = "joined"
    character: Character
    roll: Roll | None = None
    tallies: dict[str, int] | None = None
    source: Source | None = None
    hidden: HiddenAtJoin = False


class PoolSet(_Event):
    type: Literal["pool_set"] = "pool_set"
    side: str
    points: int
    hidden_side: tuple[str, ...] = Field(
        default=(),
        description="The side's characters, when every one was hidden: the pool is theirs alone",
        exclude_if=lambda side: not side,
    )


class TacticsSpent(_Event):
    type: Literal["tactics_spent"] = "tactics_spent"
    side: str
    character: str
    points: int
    purpose: Literal["initiative", "other"]
    note: str = ""


class InitiativeRolled(_Event):
    """A round's initiative, all at once; ``tallies`` order the equal initiatives (0: no tie)."""

    type: Literal["initiative_rolled"] = "initiative_rolled"
    round: int
    source: Source
    rolls: tuple[Roll, ...]
    tallies: dict[str, int]


class RollsAwaited(_Event):
    type: Literal["rolls_awaited"] = "rolls_awaited"
    round: int
    source: Source


def _none(value: object) -> bool:
    return value is None


class RollEntered(_Event):
    """One character's roll; the last of the round players wait for carries the tallies and
    starts the round. A hidden character's roll the round started without, landing before the
    token, takes the token in its place (the shared rulings, "No tells"): the holder's
    declaration, made meanwhile, lapses (``lapsed``), as a seized one does."""

    type: Literal["roll_entered"] = "roll_entered"
    roll: Roll
    source: Source
    tallies: dict[str, int] | None = None
    dice_ids: tuple[str, ...] = ()  # the smart dice that rolled it
    lapsed: Annotated[Declaration | None, Field(exclude_if=_none)] = None


class Declared(_Event):
    type: Literal["declared"] = "declared"
    declaration: Declaration


class Resolved(_Event):
    """The declared action happened; ``turn_over`` when it used up the turn."""

    type: Literal["resolved"] = "resolved"
    declaration: Declaration
    outcome: str = ""
    turn_over: bool


class Seized(_Event):
    """``character`` seized the initiative from ``seized_from``.

    ``lapsed`` is the interrupted declaration, which did not happen; under a referee's ruled
    interrupt the declaration is only suspended and comes back with the token.
    """

    type: Literal["seized"] = "seized"
    character: str
    seized_from: str
    lapsed: Declaration | None = None
    ruled_interrupt: bool = False
    reason: str = ""


class TurnEnded(_Event):
    type: Literal["turn_ended"] = "turn_ended"
    character: str


class TakenOut(_Event):
    type: Literal["taken_out"] = "taken_out"
    character: str


class InitiativeOverridden(_Event):
    type: Literal["initiative_overridden"] = "initiative_overridden"
    character: str
    initiative: int


Event = (
    Joined
    | PoolSet
    | TacticsSpent
    | InitiativeRolled
    | RollsAwaited
    | RollEntered
    | Declared
    | Resolved
    | Seized
    | TurnEnded
    | TakenOut
    | InitiativeOverridden
    | Hidden
    | Revealed
)
AnyEvent = Annotated[Event | Undone, Field(discriminator="type")]
