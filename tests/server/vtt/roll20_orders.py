"""Random MegaTraveller RCS turn orders in Roll20's dialect, as the server writes them, for the
Roll20 bridge's property test in Node (tests/js/roll20-mods.test.mjs): bare initiatives, which
GroupInitiative's number sort reads, same names, and participants imported from Roll20 tokens."""

from __future__ import annotations

import random
from typing import Any

from server.tables.turns import Turn, TurnOrder
from server.vtt.dialects import roll20_turnorder

NAMES = ("Goblin", "Goblin", "Jena", "Sarge", "Guard")


def rcs_orders(count: int = 150, seed: int = 20) -> list[list[dict[str, Any]]]:
    """``count`` turn orders of two to five characters, the same for the same seed."""
    rng = random.Random(seed)
    orders = []
    for _ in range(count):
        size = rng.randint(2, 5)
        current = rng.randrange(size)
        turns = [
            Turn(
                key=f"c{n}",
                participant=f"r20-tok{n}" if rng.random() < 0.3 else f"c{n}",
                name=rng.choice(NAMES),
                current=n == current,
                label=str(rng.randint(2, 12)),
            )
            for n in range(size)
        ]
        orders.append(roll20_turnorder(TurnOrder(round=1, turns=turns), "page-1"))
    return orders
