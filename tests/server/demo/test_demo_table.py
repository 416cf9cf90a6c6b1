"""seize serve --demo: a dealt Four Color Hack table, reused across starts with fresh tokens."""

from __future__ import annotations

from typing import Any

from server.demo.tables import NAME, ready
from server.http.context import SEIZE
from tests.server.conftest import Client, bearer


async def test_the_demo_table_is_dealt_and_reused_with_fresh_tokens(client: Client) -> None:
    seize = client.app[SEIZE]
    game, first = await ready(seize)
    again, second = await ready(seize)
    assert again.id == game.id and len(await seize.store.tables_named(NAME)) == 1
    assert first["gm"] != second["gm"]
    old = await client.get(f"/api/tables/{game.id}", headers=bearer(first["gm"]))
    assert old.status == 401  # revoked
    answer: Any = await (
        await client.get(f"/api/tables/{game.id}", headers=bearer(second["peter"]))
    ).json()
    assert answer["you"] == {"role": "player", "participants": ["peter"]}
    assert answer["view"]["phase"] == "panels" and answer["view"]["hidden_cards"] >= 3


async def test_a_new_overlay_link_stops_the_printed_one(client: Client) -> None:
    """The demo's overlay link is an overlay link like any other: the console's "Show a new
    overlay link" revokes it."""
    seize = client.app[SEIZE]
    game, printed = await ready(seize)
    read = f"/api/tables/{game.id}"
    assert (await client.get(read, headers=bearer(printed["overlay"]))).status == 200
    made = await client.post(f"{read}/handoff/overlay", headers=bearer(printed["gm"]))
    assert made.status == 201
    assert (await client.get(read, headers=bearer(printed["overlay"]))).status == 401
    assert (await client.get(read, headers=bearer(printed["peter"]))).status == 200


async def test_a_restarted_worker_keeps_the_demo_links_already_printed(client: Client) -> None:
    seize = client.app[SEIZE]
    game, printed = await ready(seize)
    _, restarted = await ready(seize, keep=True)
    for tokens in (printed, restarted):
        held = await client.get(f"/api/tables/{game.id}", headers=bearer(tokens["peter"]))
        assert held.status == 200
