"""Foundry's Combat and Roll20's turn order, for all three systems, against a real server."""

from __future__ import annotations

import re
from typing import Any

from server.vtt.dialects import ROLL20_TEXT
from tests.server.conftest import Client, bearer, new_table, send
from tests.server.table_setups import awareness_rolled, declare_and_seize, rcs_rolled


async def get(client: Client, table: dict[str, Any], path: str, token: str) -> Any:
    answer = await client.get(f"/api/tables/{table['id']}/{path}", headers=bearer(token))
    assert answer.status == 200, await answer.text()
    return await answer.json()


def check_combat_shape(combat: dict[str, Any]) -> None:
    """The fields and types of Foundry's CombatData and CombatantData that the dialect fills."""
    assert isinstance(combat["round"], int)
    assert combat["turn"] is None or isinstance(combat["turn"], int)
    for combatant in combat["combatants"]:
        assert re.fullmatch(r"[A-Za-z0-9]{16}", combatant["_id"])
        assert isinstance(combatant["name"], str)
        assert combatant["initiative"] is None or isinstance(combatant["initiative"], int | float)
        # Never false: what the GM hid or marked defeated in Foundry is never undone.
        assert combatant.get("hidden", True) is True and "defeated" not in combatant
        assert isinstance(combatant["flags"]["seize"], dict)


def foundry_order(combat: dict[str, Any]) -> list[str]:
    """Foundry's own sort: initiative high to low, the undecided last."""
    placed = [c for c in combat["combatants"] if c["initiative"] is not None]
    ranked = sorted(placed, key=lambda c: -c["initiative"])
    return [c["flags"]["seize"]["key"] for c in ranked]


def check_turnorder_shape(entries: list[dict[str, Any]]) -> None:
    for entry in entries:
        assert set(entry) == {"id", "pr", "custom", "_pageid", "seize"}
        assert isinstance(entry["id"], str) and isinstance(entry["custom"], str)
        assert isinstance(entry["pr"], str) and isinstance(entry["_pageid"], str)
        assert entry["pr"].endswith(ROLL20_TEXT), "never a number to GroupInitiative's sort"
    keys = [entry["seize"] for entry in entries]
    assert len(set(keys)) == len(keys) and all(keys), "each entry its own identity"


def prs(entries: list[dict[str, Any]]) -> list[str]:
    """What Roll20 shows in the value column."""
    return [entry["pr"].removesuffix(ROLL20_TEXT) for entry in entries]


async def test_four_color_in_foundry_and_roll20(client: Client) -> None:
    table = await new_table(client, "four-color")
    for member, kind in (("h1", "hero"), ("h2", "hero"), ("v1", "villain"), ("m1", "mob")):
        await send(
            client,
            table,
            {"type": "join", "member": {"id": member, "name": member.upper(), "kind": kind}},
        )
    await send(client, table, {"type": "deal", "source": "gm"})
    for card in ("QH", "3C", "KS", "7D", "AH"):  # AH is the Editor's extra card
        await send(client, table, {"type": "deal_card", "card": card, "source": "gm"})
    await send(client, table, {"type": "assign_card", "card": "AH", "acting": "v1"})
    await send(client, table, {"type": "next_panel"})  # AH: the extra card, played
    await send(client, table, {"type": "next_panel"})  # KS, the villain's card
    combat = await get(client, table, "foundry/combat", table["gm_token"])
    check_combat_shape(combat)
    assert foundry_order(combat) == ["AH", "KS", "QH", "7D", "3C"]
    assert combat["combatants"][combat["turn"]]["flags"]["seize"]["key"] == "KS"
    turnorder = await get(client, table, "roll20/turnorder?page=p1", table["overlay_token"])
    check_turnorder_shape(turnorder)
    assert prs(turnorder) == ["K♠", "Q♥", "7♦", "3♣", "A♥"]
    assert [e["seize"] for e in turnorder] == ["KS", "QH", "7D", "3C", "AH"]
    assert all(e["_pageid"] == "p1" for e in turnorder)


async def test_a_players_dialect_never_holds_the_editors_secret_cards(client: Client) -> None:
    table = await new_table(client, "four-color")
    for member, kind in (("h1", "hero"), ("h2", "hero"), ("v1", "villain")):
        await send(
            client, table, {"type": "join", "member": {"id": member, "name": member, "kind": kind}}
        )
    await send(client, table, {"type": "deal", "source": "gm"})
    for card in ("QH", "3C", "RJ", "9D"):  # the villain's joker and an extra card: secret
        await send(client, table, {"type": "deal_card", "card": card, "source": "gm"})
    minted = await client.post(
        f"/api/tables/{table['id']}/tokens",
        json={"participants": ["h1"]},
        headers=bearer(table["gm_token"]),
    )
    player = (await minted.json())["token"]
    for path in ("foundry/combat", "roll20/turnorder", "foundry/combat?as=public"):
        for token in (player, table["overlay_token"]):
            text = str(await get(client, table, path, token))
            assert "9D" not in text and "9♦" not in text and "RJ" not in text
    gm = await get(client, table, "foundry/combat", table["gm_token"])
    hidden = [c["flags"]["seize"]["key"] for c in gm["combatants"] if c.get("hidden")]
    assert hidden == ["9D"]  # the GM's own order marks the extra card hidden
    public = await get(client, table, "foundry/combat?as=public", table["gm_token"])
    assert len(public["combatants"]) == 2


async def test_rcs_in_foundry_and_roll20(client: Client) -> None:
    table = await rcs_rolled(client, {"jena": [1, 2], "guard": [3, 3], "sarge": [6, 6]})
    await declare_and_seize(client, table, "jena", "sarge")
    combat = await get(client, table, "foundry/combat", table["overlay_token"])
    check_combat_shape(combat)
    assert foundry_order(combat) == ["sarge", "jena", "guard"]  # lowest first, the seizer ahead
    assert combat["turn"] == 0
    turnorder = await get(client, table, "roll20/turnorder", table["overlay_token"])
    check_turnorder_shape(turnorder)
    assert [e["custom"] for e in turnorder] == ["Sarge", "Jena", "Guard"]
    assert prs(turnorder) == ["12", "3", "6"]
    assert [e["seize"] for e in turnorder] == ["sarge", "jena", "guard"]


async def test_awareness_in_foundry_shows_only_what_was_declared(client: Client) -> None:
    table = await awareness_rolled(client, {"kid": 2, "marshal": 5, "sniper": 8})
    await send(client, table, {"type": "wait", "character": "kid", "trigger": "draw"})
    gm = await get(client, table, "foundry/combat", table["gm_token"])
    check_combat_shape(gm)
    assert foundry_order(gm) == ["kid", "marshal", "sniper"]  # the GM knows the order to come
    public = await get(client, table, "foundry/combat?as=public", table["gm_token"])
    assert foundry_order(public) == ["kid", "marshal"]  # declared, then declaring
    sniper = next(c for c in public["combatants"] if c["flags"]["seize"]["key"] == "sniper")
    assert sniper["initiative"] is None
    assert public["combatants"][public["turn"]]["flags"]["seize"]["key"] == "marshal"
    text = str(public) + str(await get(client, table, "roll20/turnorder", table["overlay_token"]))
    assert "'qr'" not in text and "'score'" not in text


async def test_a_roll20_turn_order_imports_participants_once(client: Client) -> None:
    table = await new_table(client, "megatraveller-rcs")
    entries = [
        {"id": "-MxA1b2C3", "pr": "12", "custom": "Jena", "_pageid": "p1"},
        {"id": "-1", "pr": "", "custom": "Corp Guard #2", "_pageid": "p1"},
    ]
    url = f"/api/tables/{table['id']}/roll20/turnorder?side=corp"
    first = await (await client.put(url, json=entries, headers=bearer(table["gm_token"]))).json()
    assert first == {"joined": ["r20-MxA1b2C3", "corp-guard-2"], "skipped": [], "refused": []}
    again = await (await client.put(url, json=entries, headers=bearer(table["gm_token"]))).json()
    assert again["joined"] == [] and again["skipped"] == ["r20-MxA1b2C3", "corp-guard-2"]
    view = (
        await (
            await client.get(f"/api/tables/{table['id']}", headers=bearer(table["gm_token"]))
        ).json()
    )["view"]
    assert {c["side"] for c in view["characters"]} == {"corp"}
    refused = await client.put(url, json=entries, headers=bearer(table["overlay_token"]))
    assert refused.status == 403
    await send(client, table, {"type": "roll_initiative", "source": "gm"})
    await send(client, table, {"type": "enter_roll", "character": "r20-MxA1b2C3", "dice": [1, 1]})
    await send(client, table, {"type": "enter_roll", "character": "corp-guard-2", "dice": [6, 6]})
    turnorder = await get(client, table, "roll20/turnorder", table["gm_token"])
    assert turnorder[0]["id"] == "-MxA1b2C3" and turnorder[1]["id"] == "-1"
