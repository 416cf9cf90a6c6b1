"""No command can brick a table: an outcome the server cannot show is refused before it is
stored, and a table whose stored log already cannot be shown still answers its GM and undoes.

The rules bugs that once did this are fixed, so the fault is injected: the RCS system's view is
swapped for one that fails whenever side ``a``'s tactics pool holds 3 points, a stand-in for a
view that an older or newer version of the rules cannot render. Everything else is real.
"""

from __future__ import annotations

import dataclasses
import logging
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from aiohttp import WSMsgType

from server.run.app import make_app
from server.settings import Settings
from server.tables import systems
from tests.server.conftest import Client, bearer, send
from tests.server.table_setups import rcs_table
from tests.waiting import within

RCS = systems.SYSTEMS["megatraveller-rcs"]


def _fails_on_three(state: Any, viewer: Any) -> Any:
    if state.pools.get("a") == 3:
        raise KeyError("a")
    return RCS.view(state, viewer)


@pytest.fixture
def faulty_view() -> Iterator[None]:
    systems.SYSTEMS["megatraveller-rcs"] = dataclasses.replace(RCS, view=_fails_on_three)
    yield
    systems.SYSTEMS["megatraveller-rcs"] = RCS


def _pool(points: int) -> dict[str, Any]:
    return {"type": "set_pool", "side": "a", "points": points}


async def _read(client: Client, table: dict[str, Any], token: str) -> tuple[int, dict[str, Any]]:
    answer = await client.get(f"/api/tables/{table['id']}", headers=bearer(token))
    body: dict[str, Any] = await answer.json()
    return answer.status, body


@pytest.mark.usefixtures("faulty_view")
async def test_a_command_whose_outcome_cannot_be_shown_is_refused_and_stores_nothing(
    client: Client, caplog: pytest.LogCaptureFixture
) -> None:
    table = await rcs_table(client)
    async with client.ws_connect(
        f"/api/tables/{table['id']}/ws", headers=bearer(table["overlay_token"])
    ) as ws:
        assert (await ws.receive_json())["seq"] == 2
        with caplog.at_level(logging.ERROR, logger="seize"):
            status, body = await send(client, table, _pool(3))
        assert status == 500, body
        assert body["error"] == "server_fault" and body["command"] == "set_pool"
        assert "stored nothing" in body["message"] and "server" in body["message"]
        logged = [r for r in caplog.records if getattr(r, "command", None) == "set_pool"]
        assert logged and logged[0].table == table["id"] and logged[0].seq == 3  # type: ignore[attr-defined]
        for token in (table["gm_token"], table["overlay_token"]):
            status, read = await _read(client, table, token)
            assert status == 200 and read["seq"] == 2 and read["view"]["pools"]["a"] == 0
        status, body = await send(client, table, _pool(2))
        assert status == 200 and body["seq"] == 3
        message = await ws.receive_json()
    assert message["seq"] == 3 and message["view"]["pools"]["a"] == 2  # no gap, no loss
    async with client.ws_connect(
        f"/api/tables/{table['id']}/ws?after=0", headers=bearer(table["gm_token"])
    ) as ws:
        seqs = [(await ws.receive_json())["seq"] for _ in range(4)]
    assert seqs == [1, 2, 3, 3]  # three events, then the view


@pytest.mark.usefixtures("faulty_view")
async def test_a_refusal_also_covers_a_player_bound_to_someone(client: Client) -> None:
    """The GM's view is not the only one: every role a token serves must be shown."""
    table = await rcs_table(client)
    minted = await client.post(
        f"/api/tables/{table['id']}/tokens",
        json={"participants": ["b"]},
        headers=bearer(table["gm_token"]),
    )
    assert minted.status == 201
    status, body = await send(client, table, _pool(3))
    assert status == 500 and body["command"] == "set_pool"


async def test_a_stored_log_that_cannot_be_shown_still_answers_its_gm_and_undoes(
    tmp_path: Path, aiohttp_client: Any
) -> None:
    """A log written by a version that could show it, read by one that cannot."""
    settings = Settings(db=tmp_path / "older.db", port=0)
    older: Client = await aiohttp_client(make_app(settings))
    table = await rcs_table(older)
    assert (await send(older, table, _pool(3)))[0] == 200
    await older.close()

    systems.SYSTEMS["megatraveller-rcs"] = dataclasses.replace(RCS, view=_fails_on_three)
    try:
        client: Client = await aiohttp_client(make_app(settings))
        status, read = await _read(client, table, table["gm_token"])
        assert status == 200 and read["view"] is None and "undo" in read["fault"]
        assert read["seq"] == 3
        status, read = await _read(client, table, table["overlay_token"])
        assert status == 503 and read["error"] == "unshowable"
        refused = await client.get(
            f"/api/tables/{table['id']}/ws", headers=bearer(table["overlay_token"])
        )
        assert refused.status == 503
        other_side = {"type": "set_pool", "side": "b", "points": 1}
        status, body = await send(client, table, other_side)
        assert status == 500  # the GM cannot leave it unshowable ...
        status, body = await send(client, table, {"type": "undo"})
        assert status == 200 and body["seq"] == 4  # ... but can take the bad event back
        status, read = await _read(client, table, table["overlay_token"])
        assert status == 200 and read["view"]["pools"]["a"] == 0
        async with client.ws_connect(
            f"/api/tables/{table['id']}/ws", headers=bearer(table["overlay_token"])
        ) as ws:
            first = await ws.receive()
        assert first.type == WSMsgType.TEXT and first.json()["seq"] == 4
    finally:
        systems.SYSTEMS["megatraveller-rcs"] = RCS


async def test_rcs_round_two_with_typed_dice_stays_readable_with_a_follower(
    client: Client,
) -> None:
    """The bug that bricked tables in play: an engine round played to its end, then the next
    round's dice awaited from the table."""
    table = await rcs_table(client)
    async with client.ws_connect(
        f"/api/tables/{table['id']}/ws", headers=bearer(table["overlay_token"])
    ) as ws:
        await ws.receive_json()
        assert (await send(client, table, {"type": "roll_initiative"}))[0] == 200
        for _ in range(2):
            status, read = await _read(client, table, table["gm_token"])
            declared = {
                "type": "declare",
                "character": read["view"]["token"],
                "action": "long",
                "what": "moves",
                "target": "cover",
            }
            assert (await send(client, table, declared))[0] == 200
            assert (await send(client, table, {"type": "resolve"}))[0] == 200
        for source in ("gm", "device"):
            status, body = await send(client, table, {"type": "roll_initiative", "source": source})
            assert status == 200, body
            status, read = await _read(client, table, table["gm_token"])
            assert status == 200, read
            assert (await send(client, table, {"type": "undo"}))[0] == 200
        seqs: list[int] = []
        while True:
            message = await within(ws.receive_json(), lambda: f"the stream stopped at {seqs}")
            seqs.append(message["seq"])
            if message["seq"] == read["seq"] + 1:
                break
    assert seqs == list(range(3, read["seq"] + 2))
