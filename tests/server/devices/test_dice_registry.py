"""The die registry: kept in the store as a device report, GM only, and a bad change refused
naming its field with nothing kept."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from server.devices.dice import DEFAULTS, MAX_DICE, RegistryError, changed
from tests.server.conftest import Client, bearer
from tests.server.table_setups import rcs_table


async def put(client: Client, table: dict[str, Any], body: Any, token: str | None = None) -> Any:
    answer = await client.put(
        f"/api/tables/{table['id']}/dice", json=body, headers=bearer(token or table["gm_token"])
    )
    return answer.status, await answer.json()


async def registry(client: Client, table: dict[str, Any]) -> dict[str, Any]:
    answer = await client.get(f"/api/tables/{table['id']}/dice", headers=bearer(table["gm_token"]))
    assert answer.status == 200
    body: dict[str, Any] = await answer.json()
    return body


async def test_dice_are_registered_to_characters_or_the_gm_and_kept(client: Client) -> None:
    table = await rcs_table(client, "jena", "guard")
    assert (await registry(client, table))["dice"] == {}
    status, _ = await put(client, table, {
        "dice": {"pixels-000000a1": {"owner": "jena", "name": "Jena's red d6"},
                 "godice-B0C7B0": {"owner": "gm"}},
        "claims": ["guard"], "window": 0.5, "blink": False,
    })  # fmt: skip
    assert status == 200
    kept = await registry(client, table)
    assert kept["dice"] == {
        "pixels-000000a1": {"owner": "jena", "name": "Jena's red d6"},
        "godice-B0C7B0": {"owner": "gm", "name": "godice-B0C7B0"},
    }
    assert (kept["claims"], kept["window"], kept["blink"]) == (["guard"], 0.5, False)
    status, _ = await put(client, table, {"dice": {"godice-B0C7B0": None}})
    assert status == 200 and list((await registry(client, table))["dice"]) == ["pixels-000000a1"]
    devices = await client.get(
        f"/api/tables/{table['id']}/devices", headers=bearer(table["gm_token"])
    )
    assert "dice" in (await devices.json())["devices"]  # a device report like the others


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ([], "body"), ({"owners": {}}, "body"), ({"dice": []}, "dice"),
        ({"dice": {"bad id!": {"owner": "jena"}}}, "dice.bad id!"),
        ({"dice": {"pixels-1": {"owner": "nobody"}}}, "dice.pixels-1.owner"),
        ({"dice": {"pixels-1": {"owner": "jena", "name": ""}}}, "dice.pixels-1.name"),
        ({"dice": {"pixels-1": "jena"}}, "dice.pixels-1"),
        ({"dice": {f"pixels-{n}": {"owner": "gm"} for n in range(MAX_DICE + 1)}}, "dice"),
        ({"claims": ["nobody"]}, "claims"), ({"claims": [{}]}, "claims"),
        ({"dice": {"pixels-1": {"owner": ["jena"]}}}, "dice.pixels-1.owner"),
        ({"window": 9}, "window"),
        ({"window": True}, "window"), ({"blink": "yes"}, "blink"),
    ],
)  # fmt: skip
async def test_a_bad_change_is_refused_naming_its_field_and_keeps_nothing(
    client: Client, body: Any, field: str
) -> None:
    table = await rcs_table(client, "jena", "guard")
    await put(client, table, {"dice": {"pixels-000000a1": {"owner": "jena"}}})
    before = await registry(client, table)
    status, problem = await put(client, table, body)
    assert (status, problem["field"]) == (422, field)
    assert await registry(client, table) == before


async def test_only_the_gm_registers_dice(client: Client) -> None:
    table = await rcs_table(client, "jena", "guard")
    status, _ = await put(client, table, {"claims": ["jena"]}, token=table["overlay_token"])
    assert status == 403
    answer = await client.get(
        f"/api/tables/{table['id']}/dice", headers=bearer(table["overlay_token"])
    )
    assert answer.status == 403


JSON = st.recursive(
    st.none() | st.booleans() | st.integers(-10, 10) | st.floats(-10, 10) | st.text(max_size=6)
    | st.sampled_from(["jena", "gm", "pixels-1", "dice", "claims", "window", "blink", "owner"]),
    lambda inner: st.lists(inner, max_size=3)
    | st.dictionaries(
        st.sampled_from(["dice", "claims", "window", "blink", "owner", "name", "pixels-1", "x!"]),
        inner,
        max_size=4,
    ),
    max_leaves=12,
)  # fmt: skip


@given(JSON)
def test_any_change_is_kept_whole_or_refused_naming_a_field(change: Any) -> None:
    before = {**DEFAULTS, "dice": {"pixels-a1": {"owner": "jena", "name": "red"}}}
    kept = json.dumps(before, sort_keys=True)
    try:
        after = changed(before, change, {"jena", "gm"})
    except RegistryError as refused:
        assert refused.field and str(refused)
    else:
        assert set(after) == set(before)
        assert all(entry["owner"] in {"jena", "gm"} for entry in after["dice"].values())
    assert json.dumps(before, sort_keys=True) == kept  # the registry given is never changed
