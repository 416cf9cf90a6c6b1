"""A hidden sniper over the real API (the shared rulings): until it fires, no player or overlay
receives any field of it, in views, events, answers or errors, over HTTP, WebSocket or SSE, or
in the Foundry and Roll20 dialects; the GM sees it marked hidden; its shot reveals it to all."""

from __future__ import annotations

import json
from typing import Any

from tests.server.conftest import Client, bearer, new_table, send
from tests.server.following import read_sse

SNIPER = {"id": "sniper", "name": "Lone Rifleman", "perception": 5, "stealth": 5, "coordination": 5}


def mentions_sniper(data: Any) -> bool:
    text = json.dumps(data).lower()
    return "sniper" in text or "rifleman" in text


async def view(client: Client, table: dict[str, Any], token: str) -> dict[str, Any]:
    answer = await client.get(f"/api/tables/{table['id']}", headers=bearer(token))
    assert answer.status == 200
    body: dict[str, Any] = (await answer.json())["view"]
    return body


async def everything_shown(client: Client, table: dict[str, Any], token: str) -> dict[str, Any]:
    """What a token may read of the table by asking: its view, the log, both dialects."""
    base = f"/api/tables/{table['id']}"
    paths = ["", "/events", "/foundry/combat", "/foundry/combat?as=public", "/roll20/turnorder"]
    seq = (await (await client.get(base, headers=bearer(token))).json())["seq"]
    paths += ["/timeline", "/export", "/recap", *(f"/replay?seq={n}" for n in range(seq + 1))]
    shown = {}
    for path in paths:
        answer = await client.get(base + path, headers=bearer(token))
        assert answer.status == 200, (path, await answer.text())
        shown[path] = await answer.text() if path == "/recap" else await answer.json()
    return shown


async def sniper_table(client: Client) -> tuple[dict[str, Any], str]:
    """The shootout with a sniper: the Kid (a player's), the Marshal, and a sniper who joins
    hidden and declares first; the player's token is returned with the table."""
    table = await new_table(client, "awareness")
    for cid in ("kid", "marshal"):
        sheet = {"id": cid, "name": cid.title(), "perception": 5, "stealth": 5, "coordination": 5}
        assert (await send(client, table, {"type": "join", "sheet": sheet}))[0] == 200
    status, _ = await send(client, table, {"type": "join", "sheet": SNIPER, "hidden": True})
    assert status == 200
    answer = await client.post(
        f"/api/tables/{table['id']}/tokens",
        json={"participants": ["kid"], "label": "Kid's phone"},
        headers=bearer(table["gm_token"]),
    )
    assert answer.status == 201
    return table, (await answer.json())["token"]


async def test_a_hidden_sniper_reaches_no_player_or_overlay_until_it_fires(
    client: Client,
) -> None:
    table, kid = await sniper_table(client)
    url = f"/api/tables/{table['id']}"
    async with client.ws_connect(f"{url}/ws", headers=bearer(kid)) as phone:
        frames = [await phone.receive_json()]
        await send(client, table, {"type": "roll_initiative", "source": "gm"})
        for cid, die in {"sniper": 1, "kid": 5, "marshal": 9}.items():
            command = {"type": "enter_initiative", "character": cid, "die": die}
            assert (await send(client, table, command))[0] == 200
        gm = await view(client, table, table["gm_token"])
        assert gm["hidden"] == ["sniper"] and gm["declaring"] == "sniper"
        wait = {"type": "wait", "character": "sniper", "trigger": "the Kid draws"}
        assert (await send(client, table, wait))[0] == 200
        act = {"type": "act", "character": "kid", "what": "draws"}
        status, answer = await send(client, table, act, kid)
        assert status == 200 and not mentions_sniper(answer)
        shot = {
            "type": "react",
            "character": "sniper",
            "to": "kid",
            "timing": "before",
            "what": "fires from the roof",
            "die": 9,
        }
        status, _ = await send(client, table, shot)
        assert status == 200
        last = (await view(client, table, table["gm_token"]))["hidden"]
        assert last == ["sniper"], "declaring a wait and pre-empting reveal no one"

        # Everything a player or an overlay could read so far, every way there is. The phone
        # numbers the steps as a table without the sniper has them: the roll, the two dice,
        # the Kid's act (rules/numbering.py), none of the sniper's seven.
        seq = (await (await client.get(url, headers=bearer(kid))).json())["seq"]
        assert seq == frames[0]["seq"] + 4
        while frames[-1]["seq"] < seq:
            frames.append(await phone.receive_json())
        assert [f["seq"] for f in frames] == list(range(seq - 4, seq + 1))
        for token in (kid, table["overlay_token"]):
            for path, shown in (await everything_shown(client, table, token)).items():
                assert not mentions_sniper(shown), (path, shown)
        sse = f"{url}/sse"
        async with client.get(
            sse, headers={**bearer(table["overlay_token"]), "Last-Event-ID": "0"}
        ) as stream:
            replay = await read_sse(stream, 6 + 1)  # two joins and the four steps above
        assert [m["id"] for m in replay] == [*range(1, 7), 6]
        assert not mentions_sniper(frames) and not mentions_sniper(replay)

        # A player naming it is told exactly what naming no one tells.
        named = {**shot, "timing": "after", "die": None}
        hidden = await send(client, table, named, kid)
        nobody = await send(client, table, {**named, "character": "nobody"}, kid)
        assert hidden[0] == nobody[0] == 422
        assert json.dumps(hidden[1]).replace("sniper", "nobody") == json.dumps(nobody[1])
        reveal = await send(client, table, {"type": "reveal", "participant": "sniper"}, kid)
        assert reveal[0] == 422 and "rifleman" not in json.dumps(reveal[1]).lower()

        # The shot resolves first and reveals the sniper to everyone.
        while (await view(client, table, table["gm_token"]))["exchange"] is not None:
            assert (await send(client, table, {"type": "resolve", "outcome": "hit"}))[0] == 200
        while not any(
            f.get("event", {}) and f["event"]["type"] == "revealed"
            for f in frames
            if f.get("event")
        ):
            frames.append(await phone.receive_json())
    revealed = next(f for f in frames if f.get("event") and f["event"]["type"] == "revealed")
    assert revealed["event"] == {"type": "revealed", "participant": "sniper", "acting": True}
    shown = await view(client, table, kid)
    assert "sniper" in [c["id"] for c in shown["characters"]]
    assert shown["hidden"] == [] and (await view(client, table, table["gm_token"]))["hidden"] == []


async def test_the_gm_hides_and_reveals_from_the_roster_in_every_system(client: Client) -> None:
    joins = {
        "four-color": {"type": "join", "member": {"id": "x", "name": "X", "kind": "villain"}},
        "awareness": {"type": "join", "sheet": {**SNIPER, "id": "x", "name": "X"}},
        "megatraveller-rcs": {
            "type": "join",
            "character": {"id": "x", "name": "X", "side": "foes", "dex": 1, "movement": 1},
        },
    }
    for system, join in joins.items():
        table = await new_table(client, system)
        assert (await send(client, table, join))[0] == 200
        assert (await send(client, table, {"type": "hide", "participant": "x"}))[0] == 200
        again = await send(client, table, {"type": "hide", "participant": "x"})
        assert again[0] == 422 and again[1]["rule"] == "hidden", system
        assert (await view(client, table, table["gm_token"]))["hidden"] == ["x"], system
        shown_now = await everything_shown(client, table, table["overlay_token"])
        # Its join was seen before it hid, and stays as it was shown: in the log, the story,
        # and the table after the join.
        for told in ("/events", "/timeline", "/export", "/recap", "/replay?seq=1"):
            del shown_now[told]
        for path, shown in shown_now.items():
            assert '"x"' not in json.dumps(shown), (system, path, shown)
        assert (await send(client, table, {"type": "reveal", "participant": "x"}))[0] == 200
        shown = json.dumps(await view(client, table, table["overlay_token"]))
        assert '"x"' in shown and '"X"' in shown, system
