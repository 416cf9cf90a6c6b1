"""A Foundry game at a Seize table whose attacks are rolled with the table's dice, through the
die station: the table's combat, its dice and their owners, for the tests that roll in the
Foundry module, in Node (test_dice_requests.py) and in Chromium (tests/pages/test_foundry_dice.py).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from adapters import pixels_protocol as px
from adapters.simulators.dice import Air, SimulatedPixel

from .stations import die_id

JENA = "fvttJenaToken"
"""Jena, joined from her token in Foundry: the character of the player who rolls."""

COMBAT: tuple[dict[str, Any], ...] = (
    *({"type": "join", "character": {"id": cid, "name": cid, "side": cid, "dex": 0,
                                     "movement": 0}} for cid in (JENA, "guard")),
    {"type": "roll_initiative", "source": "device"},
    *({"type": "enter_roll", "character": cid, "dice": dice, "source": "gm"}
      for cid, dice in ((JENA, [3, 4]), ("guard", [5, 5]))),
)  # fmt: skip
"""Seize's combat, as the attacks are rolled: the round's initiative entered by the GM (from
the cards), every character in Foundry's tracker (an RCS line is laid out once all have rolled).
"""


@dataclass
class TableDice:
    """The dice on the table: the GM's d20, Jena's, and a stray d20 that is nobody's."""

    air: Air = field(default_factory=Air)

    def __post_init__(self) -> None:
        self.gm = self.air.add(SimulatedPixel.make(0x20D1, "GM's d20", px.DieType.D20))
        self.jena = self.air.add(SimulatedPixel.make(0x20D2, "Jena's d20", px.DieType.D20))
        self.stray = self.air.add(SimulatedPixel.make(0x20D3, "A stray d20", px.DieType.D20))

    def registered(self) -> dict[str, Any]:
        """The table's die registry, as the GM sets it: whose each die is (the stray left out),
        and rolls a fifth of a second apart taken as one."""
        owners = {die_id(self.gm): "gm", die_id(self.jena): JENA}
        return {"window": 0.2, "dice": {die: {"owner": who} for die, who in owners.items()}}


def open_for(registry: dict[str, Any], owner: str) -> bool:
    """Whether the registry holds a dice request for ``owner``'s dice."""
    return any(one["owner"] == owner for one in registry["requests"].values())
