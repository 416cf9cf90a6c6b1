"""A table's story over the API: the timeline and numbers each role reads, the table as it
stood after any step, the recap and the export; read from the store a page at a time, with
undos reaching behind what the story's table holds."""

from __future__ import annotations

from typing import Any

import pytest

from rules.standing import Window
from server.tables import story
from tests.server.conftest import Client, bearer, new_table, send

JENA = {"id": "jena", "name": "Jena Vance", "side": "crew", "dex": 0, "movement": 0}
GUARD = {"id": "guard", "name": "Guard", "side": "corp", "dex": 0, "movement": 0}


async def read(client: Client, table: dict[str, Any], path: str, token: str) -> Any:
    answer = await client.get(f"/api/tables/{table['id']}{path}", headers=bearer(token))
    assert answer.status == 200, await answer.text()
    return await answer.text() if path == "/recap" else await answer.json()


async def firefight(client: Client) -> tuple[dict[str, Any], str, list[dict[str, Any]]]:
    """Jena and a guard, a round rolled, Jena's declaration seized by the guard and the seize
    taken back; Jena's player token, and the table as Jena's player saw it after each step."""
    table = await new_table(client, "megatraveller-rcs")
    minted = None
    seen: list[dict[str, Any]] = []
    declare = {"type": "declare", "character": "jena", "action": "long", "what": "runs"}
    commands: list[dict[str, Any]] = [
        {"type": "join", "character": JENA},
        {"type": "join", "character": GUARD},
        {"type": "roll_initiative", "source": "gm"},
        {"type": "enter_roll", "character": "jena", "dice": [1, 1], "source": "gm"},
        {"type": "enter_roll", "character": "guard", "dice": [6, 6], "source": "gm"},
        {**declare, "target": "door"},
        {"type": "seize", "character": "guard"},
        {"type": "undo"},
    ]
    for command in commands:
        status, _ = await send(client, table, command)
        assert status == 200, command
        if minted is None:
            answer = await client.post(
                f"/api/tables/{table['id']}/tokens",
                json={"participants": ["jena"]},
                headers=bearer(table["gm_token"]),
            )
            minted = (await answer.json())["token"]
        seen.append(await read(client, table, "", minted))
    assert minted is not None
    return table, minted, seen


async def test_each_step_replays_the_table_exactly_as_that_role_saw_it(client: Client) -> None:
    table, jena, seen = await firefight(client)
    for then in seen:
        replayed = await read(client, table, f"/replay?seq={then['seq']}", jena)
        assert replayed["view"] == then["view"], then["seq"]
        assert isinstance(replayed["at"], float)
    before = await read(client, table, "/replay?seq=0", jena)
    assert before["at"] is None and before["view"]["characters"] == []


async def test_the_timeline_tells_the_seize_taken_back_and_counts_it(client: Client) -> None:
    table, jena, _ = await firefight(client)
    told = await read(client, table, "/timeline", jena)
    assert told["you"] == {"role": "player", "participants": ["jena"]} and told["seq"] == 8
    seize, undo = told["steps"][-2:]
    assert (seize["kind"], seize["struck"], seize["who"]) == ("seize", True, ["guard", "jena"])
    assert seize["said"] == (
        "Guard seizes the initiative from Jena Vance: Jena Vance's action (runs) lapses"
    )
    assert (undo["kind"], undo["undoes"]) == ("undo", seize["seq"])
    assert told["numbers"]["seizes"] == {"tried": 1, "won": 0} and told["numbers"]["undos"] == 1
    assert told["cast"] == {"jena": "Jena Vance", "guard": "Guard"}
    stamps = [s["at"] for s in told["steps"]]
    assert stamps == sorted(stamps)
    assert [t["who"] for t in told["turns"]] == ["jena", "guard", "jena"]
    recap = await read(client, table, "/recap", table["overlay_token"])
    assert recap.startswith("# t\n") and "As the stream saw it" in recap
    struck = "~~Guard seizes the initiative from Jena Vance: Jena Vance's action (runs) lapses~~"
    assert struck in recap
    exported = await read(client, table, "/export", table["gm_token"])
    assert [e["seq"] for e in exported["events"]] == list(range(1, 9))
    assert exported["events"][-1]["event"] == {"type": "undone", "undoes": 7}


async def test_a_replay_asked_for_a_step_the_table_has_not_reached_is_refused(
    client: Client,
) -> None:
    table = await new_table(client, "awareness")
    url = f"/api/tables/{table['id']}/replay"
    for query, status, field in (("", 400, "seq"), ("?seq=x", 400, "seq"), ("?seq=1", 422, "seq")):
        answer = await client.get(url + query, headers=bearer(table["gm_token"]))
        assert answer.status == status, query
        assert (await answer.json())["field"] == field
    assert (await client.get(url + "?seq=0")).status == 401


async def test_a_long_story_read_in_pages_and_undone_far_back_tells_what_one_read_tells(
    client: Client, monkeypatch: pytest.MonkeyPatch
) -> None:
    table = await new_table(client, "megatraveller-rcs")
    await send(client, table, {"type": "join", "character": JENA})
    for points in range(1, 9):
        await send(client, table, {"type": "set_pool", "side": "crew", "points": points})
    for _ in range(6):  # undos in a row, reaching behind a narrow window
        assert (await send(client, table, {"type": "undo"}))[0] == 200
    whole = await read(client, table, "/timeline", table["gm_token"])
    monkeypatch.setattr(story, "PAGE", 2)
    monkeypatch.setattr(story, "UNDO_WINDOW", Window(every=1, kept=2))
    read_back: list[int] = []
    reading_back = story._read_back

    async def counted(store: Any, table_id: str, log: Any, position: int) -> None:
        read_back.append(position)
        await reading_back(store, table_id, log, position)

    monkeypatch.setattr(story, "_read_back", counted)
    paged = await read(client, table, "/timeline", table["gm_token"])
    assert paged == whole
    assert read_back, "the undos reached behind what the story's table held"
    struck = [s["said"] for s in whole["steps"] if s["struck"]]
    assert struck == [f"The crew tactics pool is set to {n}" for n in range(3, 9)]


async def test_the_turn_clock_is_an_option_off_unless_set_and_refused_out_of_range(
    client: Client,
) -> None:
    plain = await new_table(client, "four-color")
    seen = await read(client, plain, "", plain["overlay_token"])
    assert "turn_clock" not in seen["view"]["options"]
    clocked = await new_table(client, "awareness", turn_clock=90)
    seen = await read(client, clocked, "", clocked["overlay_token"])
    assert seen["view"]["options"]["turn_clock"] == 90
    for wrong in (0, 3601, "soon"):
        answer = await client.post(
            "/api/tables",
            json={"system": "megatraveller-rcs", "name": "t", "options": {"turn_clock": wrong}},
        )
        assert answer.status == 422
        assert (await answer.json())["field"] == "options.turn_clock"
