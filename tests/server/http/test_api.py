"""The HTTP API against a real server on loopback with a real SQLite file."""

from __future__ import annotations

import asyncio
import re
from typing import Any

import pytest

from server.http.context import SEIZE
from server.run.app import make_app
from server.store import Snapshot
from tests.server.conftest import Client, MakeClient, bearer, new_table, send
from tests.server.databases import query, refuse_rows
from tests.waiting import within

HERO = {"type": "join", "member": {"id": "h1", "name": "Hero", "kind": "hero"}}
VILLAIN = {"type": "join", "member": {"id": "v1", "name": "Villain", "kind": "villain"}}


async def test_a_four_color_table_is_created_dealt_and_played(client: Client) -> None:
    table = await new_table(client, "four-color")
    assert set(table) >= {"id", "gm_token", "overlay_token"}
    for command in (HERO, VILLAIN, {"type": "deal"}, {"type": "next_panel"}):
        status, answer = await send(client, table, command)
        assert status == 200, answer
    assert answer["seq"] == 4 and answer["events"][0]["type"] == "panel_played"
    read = await client.get(f"/api/tables/{table['id']}", headers=bearer(table["gm_token"]))
    body = await read.json()
    assert body["seq"] == 4 and body["view"]["phase"] in ("panels", "page_done")
    assert len(body["view"]["panels"]) == 1


async def test_a_megatraveller_table_runs_a_seize(client: Client) -> None:
    table = await new_table(client, "megatraveller-rcs")
    for cid, side in (("jena", "crew"), ("guard", "corp")):
        character = {"id": cid, "name": cid, "side": side, "dex": 0, "movement": 0}
        assert (await send(client, table, {"type": "join", "character": character}))[0] == 200
    await send(client, table, {"type": "roll_initiative", "source": "gm"})
    await send(client, table, {"type": "enter_roll", "character": "jena", "dice": [1, 2]})
    await send(client, table, {"type": "enter_roll", "character": "guard", "dice": [6, 6]})
    await send(
        client,
        table,
        {
            "type": "declare",
            "character": "jena",
            "action": "long",
            "what": "dives out the window",
            "target": "the window",
        },
    )
    status, answer = await send(client, table, {"type": "seize", "character": "guard"})
    assert status == 200 and answer["events"][0]["lapsed"]["what"] == "dives out the window"


async def test_an_awareness_table_hides_initiative_from_players(client: Client) -> None:
    table = await new_table(client, "awareness")
    for cid in ("a", "b"):
        sheet = {"id": cid, "name": cid, "perception": 5, "stealth": 5, "coordination": 5}
        await send(client, table, {"type": "join", "sheet": sheet})
    minted = await client.post(
        f"/api/tables/{table['id']}/tokens",
        json={"participants": ["a"]},
        headers=bearer(table["gm_token"]),
    )
    token = (await minted.json())["token"]
    status, answer = await send(client, table, {"type": "roll_initiative"})
    assert status == 200 and len(answer["events"][0]["results"]) == 2
    read = await client.get(f"/api/tables/{table['id']}", headers=bearer(token))
    seen = {c["id"]: c for c in (await read.json())["view"]["characters"]}
    assert seen["a"]["initiative"] is not None and seen["b"]["initiative"] is None
    events = await client.get(f"/api/tables/{table['id']}/events?after=2", headers=bearer(token))
    (rolled,) = (await events.json())["events"]
    assert [r["character"] for r in rolled["event"]["results"]] == ["a"]


async def test_engine_draws_use_the_servers_seed_not_the_clients(client: Client) -> None:
    table = await new_table(client, "four-color")
    await send(client, table, HERO)
    deals = set()
    for _ in range(4):
        _, answer = await send(client, table, {"type": "deal", "seed": 1})
        deals.add(answer["events"][0]["cards"][0]["card"])
        await send(client, table, {"type": "undo"})
    assert len(deals) > 1


async def test_a_broken_rule_is_422_naming_the_rule_and_changes_nothing(client: Client) -> None:
    table = await new_table(client, "four-color")
    await send(client, table, HERO)
    status, answer = await send(client, table, {"type": "next_panel"})
    assert status == 422 and answer["rule"] == "four-color.3"
    read = await client.get(f"/api/tables/{table['id']}", headers=bearer(table["gm_token"]))
    assert (await read.json())["seq"] == 1


async def test_a_bad_field_is_422_naming_the_field(client: Client) -> None:
    table = await new_table(client, "four-color")
    status, answer = await send(client, table, {"type": "deal_card", "card": "ZZ"})
    assert status == 422 and answer["error"] == "invalid"
    assert answer["field"] == "deal_card.card" and "'ZZ'" in answer["message"]
    status, answer = await send(client, table, {"type": "no_such_command"})
    assert status == 422


async def test_malformed_json_is_400(client: Client) -> None:
    table = await new_table(client, "four-color")
    answer = await client.post(
        f"/api/tables/{table['id']}/commands", data=b"{not json", headers=bearer(table["gm_token"])
    )
    assert answer.status == 400 and (await answer.json())["error"] == "malformed"


async def test_bad_options_are_422_naming_the_option(client: Client) -> None:
    answer = await client.post(
        "/api/tables",
        json={"system": "four-color", "name": "t", "options": {"unplayed_joker": "eat_it"}},
    )
    body = await answer.json()
    assert answer.status == 422 and body["field"].startswith("options.unplayed_joker")


async def test_a_player_token_cannot_send_gm_commands(client: Client) -> None:
    table = await new_table(client, "four-color")
    await send(client, table, HERO)
    minted = await client.post(
        f"/api/tables/{table['id']}/tokens",
        json={"participants": ["h1"]},
        headers=bearer(table["gm_token"]),
    )
    assert minted.status == 201
    token = (await minted.json())["token"]
    status, answer = await send(client, table, {"type": "deal"}, token)
    assert status == 403 and answer["rule"] == "roles"
    answer_mint = await client.post(
        f"/api/tables/{table['id']}/tokens", json={"participants": ["h1"]}, headers=bearer(token)
    )
    assert answer_mint.status == 403


async def test_a_token_of_one_table_is_refused_on_another(client: Client) -> None:
    first, second = await new_table(client, "four-color"), await new_table(client, "awareness")
    status, answer = await send(client, second, {"type": "undo"}, first["gm_token"])
    assert status == 403 and answer["error"] == "forbidden"
    read = await client.get(f"/api/tables/{second['id']}", headers=bearer(first["overlay_token"]))
    assert read.status == 403


async def test_no_token_or_an_unknown_one_is_401(client: Client) -> None:
    table = await new_table(client, "four-color")
    assert (await client.get(f"/api/tables/{table['id']}")).status == 401
    read = await client.get(f"/api/tables/{table['id']}", headers=bearer("guess"))
    assert read.status == 401


async def test_overlay_pages_may_pass_the_token_in_the_query(client: Client) -> None:
    table = await new_table(client, "four-color")
    read = await client.get(f"/api/tables/{table['id']}?token={table['overlay_token']}")
    assert read.status == 200


async def test_an_unknown_table_is_404(client: Client) -> None:
    table = await new_table(client, "four-color")
    status, answer = await send(client, {**table, "id": "nope"}, HERO)
    assert status == 404 and answer["error"] == "not_found"


async def test_a_stale_if_match_is_409_and_a_current_one_applies(client: Client) -> None:
    table = await new_table(client, "four-color")
    await send(client, table, HERO)
    status, answer = await send(client, table, VILLAIN, **{"If-Match": "0"})
    assert status == 409 and answer["seq"] == 1
    status, _ = await send(client, table, VILLAIN, **{"If-Match": '"1"'})
    assert status == 200


async def test_an_idempotent_retry_returns_the_first_answer_and_applies_once(
    client: Client, settings: Any
) -> None:
    table = await new_table(client, "four-color")
    await send(client, table, HERO)
    first = await send(client, table, {"type": "deal"}, **{"Idempotency-Key": "deal-1"})
    again = await send(client, table, {"type": "deal"}, **{"Idempotency-Key": "deal-1"})
    assert first == again and first[0] == 200
    [(deals,)] = await query(settings.db, "select count(*) from events where type = 'dealt'")
    assert deals == 1


async def test_a_retry_the_rules_would_allow_again_is_still_answered_as_before_once(
    client: Client, settings: Any
) -> None:
    """A command legal again on the table it left (a pool set) is not looked up before it is
    decided: its append finds the key taken, and the first answer is given, with nothing
    applied twice; a retry whose ``If-Match`` is now behind gets the first answer too."""
    table = await new_table(client, "megatraveller-rcs")
    crew = {"id": "a", "name": "A", "side": "crew", "dex": 1, "movement": 1}
    await send(client, table, {"type": "join", "character": crew})
    pool = {"type": "set_pool", "side": "crew", "points": 3}
    first = await send(client, table, pool, **{"Idempotency-Key": "pool-1"})
    again = await send(client, table, pool, **{"Idempotency-Key": "pool-1"})
    guarded = {"Idempotency-Key": "pool-2", "If-Match": str(first[1]["seq"])}
    once = await send(client, table, pool, **guarded)
    twice = await send(client, table, pool, **guarded)
    assert first == again and first[0] == 200 and once == twice and once[0] == 200
    [(events,)] = await query(settings.db, "select count(*) from events")
    assert events == 3  # the join and two pools


async def test_a_key_sent_again_with_another_command_is_refused_and_changes_nothing(
    client: Client, settings: Any
) -> None:
    """A client that sends an undo under the key of its last Panel would otherwise be given the
    Panel's answer, and believe its undo done."""
    table = await new_table(client, "four-color")
    for command in (HERO, VILLAIN, {"type": "deal"}):
        await send(client, table, command)
    first = await send(client, table, {"type": "next_panel"}, **{"Idempotency-Key": "k-1"})
    assert first[0] == 200
    status, refused = await send(client, table, {"type": "undo"}, **{"Idempotency-Key": "k-1"})
    assert status == 422 and refused["error"] == "key_reused"
    assert refused["field"] == "Idempotency-Key"
    assert await send(client, table, {"type": "next_panel"}, **{"Idempotency-Key": "k-1"}) == first
    [(undone,)] = await query(settings.db, "select count(*) from events where type = 'undone'")
    assert undone == 0


async def test_an_oversized_body_is_413(make_client: MakeClient) -> None:
    client = await make_client(max_body=1024)
    table = await new_table(client, "four-color")
    big = {"type": "join", "member": {"id": "h1", "name": "x" * 5000, "kind": "hero"}}
    answer = await client.post(
        f"/api/tables/{table['id']}/commands", json=big, headers=bearer(table["gm_token"])
    )
    assert answer.status == 413 and (await answer.json())["field"] == "body"


async def test_too_many_commands_from_one_token_is_429(make_client: MakeClient) -> None:
    """Commands are limited per token; reads have their own limit, so the GM still reads."""
    client = await make_client(rate_burst=5, rate_per_second=1)
    table = await new_table(client, "four-color")
    statuses = [
        (
            await send(
                client,
                table,
                {"type": "join", "member": {"id": f"h{n}", "name": "Hero", "kind": "hero"}},
            )
        )[0]
        for n in range(8)
    ]
    assert statuses[:5] == [200] * 5 and statuses[-1] == 429
    read = await client.get(f"/api/tables/{table['id']}", headers=bearer(table["gm_token"]))
    assert read.status == 200


async def test_an_admin_token_guards_table_creation(make_client: MakeClient) -> None:
    client = await make_client(admin_token="s3cret-admin")
    body = {"system": "four-color", "name": "t"}
    assert (await client.post("/api/tables", json=body)).status == 401
    answer = await client.post("/api/tables", json=body, headers=bearer("s3cret-admin"))
    assert answer.status == 201


async def test_tokens_are_stored_hashed(client: Client, settings: Any) -> None:
    table = await new_table(client, "four-color")
    stored = [row[0] for row in await query(settings.db, "select hash from tokens")]
    assert len(stored) == 2
    assert all(table["gm_token"].encode() not in bytes(h) for h in stored)


async def test_a_restarted_server_loads_the_table_from_its_file(
    aiohttp_client: Any, settings: Any
) -> None:
    first: Client = await aiohttp_client(
        make_app(settings.model_copy(update={"snapshot_every": 3}))
    )
    table = await new_table(first, "four-color")
    for command in (HERO, VILLAIN, {"type": "deal"}, {"type": "next_panel"}, {"type": "undo"}):
        await send(first, table, command)
    before = await (
        await first.get(f"/api/tables/{table['id']}", headers=bearer(table["gm_token"]))
    ).json()
    await first.close()
    second: Client = await aiohttp_client(make_app(settings))
    after = await (
        await second.get(f"/api/tables/{table['id']}", headers=bearer(table["gm_token"]))
    ).json()
    assert after == before
    status, _ = await send(second, table, {"type": "undo"})  # reaches behind the snapshot
    assert status == 200


async def test_two_servers_on_one_database_never_both_append_the_same_sequence(
    aiohttp_client: Any, settings: Any
) -> None:
    """The second server's copy of the table is behind the first's append: its command finds
    sequence 1 taken, takes in what it missed and is decided again, as sequence 2. Made against
    the older version (``If-Match: 0``), it is refused as stale and nothing is stored."""
    first: Client = await aiohttp_client(make_app(settings))
    second: Client = await aiohttp_client(make_app(settings))
    table = await new_table(first, "four-color")
    url, gm = f"/api/tables/{table['id']}", bearer(table["gm_token"])
    assert (await second.get(url, headers=gm)).status == 200  # loaded at sequence 0
    assert (await send(first, table, HERO))[0] == 200
    stale = await second.post(f"{url}/commands", json=VILLAIN, headers={**gm, "If-Match": "0"})
    refused = await stale.json()
    assert stale.status == 409 and refused["error"] == "stale" and refused["seq"] == 1
    status, answer = await send(second, table, VILLAIN)
    assert status == 200 and answer["seq"] == 2
    assert await query(settings.db, "select seq, type from events order by seq") == [
        (1, "joined"),
        (2, "joined"),
    ]


async def test_a_snapshot_that_cannot_be_saved_leaves_its_command_done(
    aiohttp_client: Any, settings: Any
) -> None:
    """The command is committed and shown before the snapshot is taken: it is answered as
    done, and the table loads again from its log."""
    client: Client = await aiohttp_client(
        make_app(settings.model_copy(update={"snapshot_every": 1}))
    )
    table = await new_table(client, "four-color")
    await refuse_rows(settings.db, "snapshots")
    status, answer = await send(client, table, HERO)
    assert status == 200 and answer["seq"] == 1
    assert await query(settings.db, "select count(*) from snapshots") == [(0,)]
    assert await query(settings.db, "select seq from events") == [(1,)]


async def test_a_command_is_answered_before_its_snapshot_is_saved_and_shutdown_waits_for_it(
    aiohttp_client: Any, settings: Any
) -> None:
    """A snapshot only shortens the next load: the command that brings one is answered while
    it is still being written, and the server does not close its file before it is saved."""
    client: Client = await aiohttp_client(
        make_app(settings.model_copy(update={"snapshot_every": 1}))
    )
    seize = client.app[SEIZE]
    closing = asyncio.Event()
    save, close = seize.store.save_snapshot, seize.runner.close

    async def held(table_id: str, snapshot: Snapshot) -> None:
        await closing.wait()  # written only once the server is closing
        await save(table_id, snapshot)

    async def closed() -> None:
        closing.set()
        await close()

    seize.store.save_snapshot = held  # type: ignore[method-assign]
    seize.runner.close = closed  # type: ignore[method-assign]
    table = await new_table(client, "four-color")
    status, answer = await within(send(client, table, HERO), "the answer waited for a snapshot")
    assert status == 200 and answer["seq"] == 1
    assert await query(settings.db, "select count(*) from snapshots") == [(0,)]
    await client.close()
    assert await query(settings.db, "select seq from snapshots") == [(1,)]


@pytest.mark.parametrize("path", ["/healthz", "/metrics", "/api/openapi.json", "/api/docs"])
async def test_operations_endpoints_answer(client: Client, path: str) -> None:
    answer = await client.get(path)
    assert answer.status == 200


async def test_metrics_count_commands_by_outcome(client: Client) -> None:
    table = await new_table(client, "four-color")
    await send(client, table, HERO)
    await send(client, table, {"type": "next_panel"})
    text = await (await client.get("/metrics")).text()
    assert 'seize_commands_total{system="four-color",outcome="applied"} 1' in text
    assert 'seize_commands_total{system="four-color",outcome="refused"} 1' in text
    assert 'seize_events_total{system="four-color"} 1' in text
    full = re.search(r'^seize_collections_total\{generation="2"\} (\d+)$', text, re.MULTILINE)
    assert full is not None


async def test_the_openapi_document_has_every_command_of_every_system(client: Client) -> None:
    spec = await (await client.get("/api/openapi.json")).json()
    assert spec["openapi"].startswith("3.1")
    schemas = spec["components"]["schemas"]
    for system, command in (
        ("four-color", "next_panel"),
        ("awareness", "react"),
        ("megatraveller-rcs", "seize"),
    ):
        variants = schemas[f"{system}_command"]["oneOf"]
        names = {schemas[v["$ref"].split("/")[-1]]["properties"]["type"]["const"] for v in variants}
        assert command in names and "undo" in names


async def test_a_player_token_for_someone_not_at_the_table_is_refused(client: Client) -> None:
    table = await new_table(client, "four-color")
    await send(client, table, HERO)
    minted = await client.post(
        f"/api/tables/{table['id']}/tokens",
        json={"participants": ["h1", "nobody"]},
        headers=bearer(table["gm_token"]),
    )
    body = await minted.json()
    assert (
        minted.status == 422 and body["field"] == "participants" and "'nobody'" in body["message"]
    )
