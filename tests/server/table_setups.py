"""Tables in a known state, built through the API, for the tests that need one."""

from __future__ import annotations

from typing import Any

from .conftest import Client, new_table, send


async def rcs_rolled(client: Client, dice: dict[str, list[int]]) -> dict[str, Any]:
    """An RCS table (Dex 0, Movement 0, one side each) with everyone's 2D6 typed in."""
    table = await new_table(client, "megatraveller-rcs")
    for cid in dice:
        character = {"id": cid, "name": cid.title(), "side": cid, "dex": 0, "movement": 0}
        await send(client, table, {"type": "join", "character": character})
    await send(client, table, {"type": "roll_initiative", "source": "gm"})
    for cid, pair in dice.items():
        await send(client, table, {"type": "enter_roll", "character": cid, "dice": pair})
    return table


async def awareness_rolled(client: Client, dice: dict[str, int]) -> dict[str, Any]:
    """An awareness table (alert, awareness 5, Coordination 5) with everyone's d10 typed in."""
    table = await new_table(client, "awareness")
    for cid in dice:
        sheet = {"id": cid, "name": cid.title(), "perception": 5, "stealth": 5, "coordination": 5}
        await send(client, table, {"type": "join", "sheet": sheet})
    await send(client, table, {"type": "roll_initiative", "source": "gm"})
    for cid, die in dice.items():
        await send(client, table, {"type": "enter_initiative", "character": cid, "die": die})
    return table


async def declare_and_seize(
    client: Client, table: dict[str, Any], holder: str, seizer: str
) -> None:
    declaration = {
        "type": "declare",
        "character": holder,
        "action": "long",
        "what": "runs",
        "target": "door",
    }
    await send(client, table, declaration)
    await send(client, table, {"type": "seize", "character": seizer})


async def rcs_table(client: Client, *ids: str) -> dict[str, Any]:
    """An RCS table with two characters (``a`` and ``b``, or those named), so commands can be
    sent without end (set_pool)."""
    table = await new_table(client, "megatraveller-rcs")
    for cid in ids or ("a", "b"):
        character = {"id": cid, "name": cid, "side": cid, "dex": 1, "movement": 1}
        await send(client, table, {"type": "join", "character": character})
    return table
