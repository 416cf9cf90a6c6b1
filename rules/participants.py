"""What every participant shares across systems: an id the commands name, a name, an owner."""

from __future__ import annotations

from typing import Annotated

from pydantic import BaseModel, ConfigDict, Field

ParticipantId = Annotated[
    str,
    Field(
        pattern=r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$",
        description="A short id that commands use to name a participant: letters, digits, _ . -",
    ),
]


Rating = Annotated[
    int,
    Field(
        ge=-99,
        le=99,
        description="A number on a character's sheet, -99 to 99: larger is a slip of the finger, "
        "and past 2^53 a browser would show another number than the table holds",
    ),
]


class Participant(BaseModel):
    """Someone (or some mob) at the table. ``owner`` names the player who plays them, if any."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    id: ParticipantId
    name: Annotated[str, Field(min_length=1, max_length=80)]
    owner: Annotated[str, Field(max_length=80)] | None = None
