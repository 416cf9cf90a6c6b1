"""Who is looking: the GM, a player, or an overlay.

A player is bound to the participants they play, so "may this player act for X" and "may this
player see X's secrets" are one question: ``viewer.plays(x)``. Overlays are players bound to
no one: they see exactly the public view, which is what a stream may show.
"""

from __future__ import annotations

from enum import StrEnum

from pydantic import BaseModel, ConfigDict

from rules.errors import RoleError


class Role(StrEnum):
    GM = "gm"
    PLAYER = "player"
    OVERLAY = "overlay"


class Viewer(BaseModel):
    """The sender of a command or the receiver of a view."""

    model_config = ConfigDict(frozen=True)

    role: Role
    participants: frozenset[str] = frozenset()

    @property
    def is_gm(self) -> bool:
        return self.role is Role.GM

    def plays(self, participant: str) -> bool:
        """True for the GM (who plays everyone else) and for the player bound to ``participant``."""
        return self.is_gm or participant in self.participants

    def require_gm(self, what: str) -> None:
        if not self.is_gm:
            raise RoleError(f"only the GM may {what}")

    def require_plays(self, participant: str, what: str) -> None:
        if not self.plays(participant):
            raise RoleError(f"only {participant}'s player or the GM may {what}")


GM = Viewer(role=Role.GM)
OVERLAY = Viewer(role=Role.OVERLAY)


def player(*participants: str) -> Viewer:
    """A player's viewer, bound to the participants they play."""
    return Viewer(role=Role.PLAYER, participants=frozenset(participants))
