"""The die registry: kept in the store beside the device reports with a bound of its own; the
GM's whole, a player's for their own characters (their dice, their phone's report of them,
their claims, and the options to read); a bad change refused naming its field with nothing
kept."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from server.devices.dice import DEFAULTS, MAX_DICE, RegistryError, changed
from server.devices.reports import MAX_DEVICES
from tests.server.conftest import Client, bearer
from tests.server.http.test_socket_commands import player_token
from tests.server.table_setups import rcs_table


async def put(client: Client, table: dict[str, Any], body: Any, token: str | None = None) -> Any:
    answer = await client.put(
        f"/api/tables/{table['id']}/dice", json=body, headers=bearer(token or table["gm_token"])
    )
    return answer.status, await answer.json()


async def registry(
    client: Client, table: dict[str, Any], token: str | None = None
) -> dict[str, Any]:
    answer = await client.get(
        f"/api/tables/{table['id']}/dice", headers=bearer(token or table["gm_token"])
    )
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


async def test_who_can_send_a_roll_is_read_by_each_as_their_own(client: Client) -> None:
    """A connected tray rolls for anyone: every reader hears of it. A die connected at a die
    station or on a phone is its owner's: the GM hears of every owner, a player of their own
    characters alone (not the guard's die, which would tell of a hidden guard), and an overlay,
    bound to no one, reads no registry at all."""
    table = await rcs_table(client, "jena", "guard")
    jena = await player_token(client, table, "jena")
    devices = f"/api/tables/{table['id']}/devices"

    async def report(device: str, status: dict[str, Any]) -> None:
        sent = await client.put(
            f"{devices}/{device}", json=status, headers=bearer(table["gm_token"])
        )
        assert sent.status == 200

    async def listed() -> Any:
        answer = await client.get(devices, headers=bearer(table["gm_token"]))
        return (await answer.json())["rollers"]

    nobody = {"tray": False, "dice": []}
    assert (await registry(client, table))["rollers"] == nobody == await listed()
    await put(
        client, table, {"dice": {"godice-7": {"owner": "guard"}, "pixels-1": {"owner": "jena"}}}
    )
    met = [{"id": "godice-7", "connected": True}, {"id": "pixels-1", "connected": False}]
    station = {"kind": "dice station", "dice": met}
    await report("station", station)
    assert (await registry(client, table))["rollers"] == {"tray": False, "dice": ["guard"]}
    assert (await registry(client, table, jena))["rollers"] == nobody  # the guard's is not hers
    await report("tray", {"kind": "dice tray", "connected": True})
    await report("odd", {"kind": "dice station", "dice": 5})  # a device of the GM's own: ignored
    await report("station", {**station, "dice": [{"id": "pixels-1", "connected": True}, ["x"]]})
    assert await listed() == {"tray": True, "dice": ["jena"]}
    assert (await registry(client, table, jena))["rollers"] == {"tray": True, "dice": ["jena"]}
    await report("tray", {"kind": "dice tray", "connected": False})  # unplugged
    assert (await registry(client, table, jena))["rollers"] == {"tray": False, "dice": ["jena"]}
    overlay = await client.get(
        f"/api/tables/{table['id']}/dice", headers=bearer(table["overlay_token"])
    )
    assert overlay.status == 403


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


PHONE = {"connected": True, "battery": 77, "charging": False}


async def test_a_player_registers_and_reports_their_own_die_and_reads_their_share(
    client: Client,
) -> None:
    table = await rcs_table(client, "jena", "guard")
    await put(client, table, {"dice": {"godice-7": {"owner": "guard", "name": "Guard's"}},
                              "claims": ["guard"], "window": 0.5, "blink": False})  # fmt: skip
    jena = await player_token(client, table, "jena")
    status, answer = await put(client, table, {
        "dice": {"pixels-0000beef": {"owner": "jena", "name": "Jena's red d6", "phone": PHONE}},
        "claims": ["jena"],  # her own: the guard's, which she does not read, stays first
    }, token=jena)  # fmt: skip
    mine = {"pixels-0000beef": {"owner": "jena", "name": "Jena's red d6", "phone": PHONE}}
    # The answer, and what Jena reads, are hers: not the guard's die nor his claim.
    assert answer == await registry(client, table, jena)
    assert (answer["dice"], answer["claims"]) == (mine, ["jena"])
    assert (status, answer["window"], answer["blink"]) == (200, 0.5, False)  # the phone's options
    assert answer["rollers"] == {"tray": False, "dice": ["jena"]}  # her die, on her phone
    whole = await registry(client, table)
    assert whole["dice"] == {"godice-7": {"owner": "guard", "name": "Guard's"}, **mine}
    assert whole["claims"] == ["guard", "jena"]
    closed = await put(client, table, {"claims": []}, token=jena)  # hers: the guard's stays
    assert (closed[1]["claims"], (await registry(client, table))["claims"]) == ([], ["guard"])
    assert (await put(client, table, {"claims": ["jena"]}, token=jena))[0] == 200
    # The phone says the die dropped; the GM's console reassigning it keeps what it said.
    dropped = {**PHONE, "connected": False, "battery": None}
    change = {"dice": {"pixels-0000beef": {"owner": "jena", "phone": dropped}}}
    assert (await put(client, table, change, token=jena))[0] == 200
    assert (await registry(client, table, jena))["rollers"] == {"tray": False, "dice": []}
    assert (await put(client, table, {"dice": {"pixels-0000beef": {"owner": "gm"}}}))[0] == 200
    assert (await registry(client, table))["dice"]["pixels-0000beef"] == {
        "owner": "gm", "name": "Jena's red d6", "phone": dropped,
    }  # fmt: skip
    assert (await registry(client, table, jena))["dice"] == {}  # no longer hers to read


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"dice": {"pixels-1": {"owner": "guard"}}}, "dice.pixels-1.owner"),  # for someone else
        ({"dice": {"pixels-1": {"owner": "gm"}}}, "dice.pixels-1.owner"),
        ({"dice": {"godice-7": {"owner": "jena"}}}, "dice.godice-7"),  # the guard's die
        ({"dice": {"godice-7": None}}, "dice.godice-7"),
        ({"claims": ["guard", "guard", "jena"]}, "claims"),
        ({"claims": ["jena", "guard"]}, "claims"),  # jumping the queue
        ({"window": 0.2}, "window"), ({"blink": True}, "blink"),
    ],
)  # fmt: skip
async def test_a_player_may_not_reach_past_their_own_characters(
    client: Client, body: Any, field: str
) -> None:
    table = await rcs_table(client, "jena", "guard")
    await put(client, table, {"dice": {"godice-7": {"owner": "guard"}}, "claims": ["guard"]})
    jena = await player_token(client, table, "jena")
    before = await registry(client, table)
    status, problem = await put(client, table, body, token=jena)
    assert (status, problem["rule"], problem["field"]) == (403, "roles", field)
    assert await registry(client, table) == before


@pytest.mark.parametrize(
    ("phone", "field"),
    [
        ({"connected": True}, "dice.pixels-1.phone"),
        ({**PHONE, "battery": 101}, "dice.pixels-1.phone.battery"),
        ({**PHONE, "battery": True}, "dice.pixels-1.phone.battery"),
        ({**PHONE, "charging": "no"}, "dice.pixels-1.phone.charging"),
        ({**PHONE, "connected": 1}, "dice.pixels-1.phone.connected"),
        ([], "dice.pixels-1.phone"),
    ],
)  # fmt: skip
async def test_a_bad_phone_report_is_refused_naming_its_field(
    client: Client, phone: Any, field: str
) -> None:
    table = await rcs_table(client, "jena", "guard")
    jena = await player_token(client, table, "jena")
    change = {"dice": {"pixels-1": {"owner": "jena", "phone": phone}}}
    assert (await put(client, table, change, token=jena))[1]["field"] == field
    assert (await registry(client, table))["dice"] == {}


async def test_the_registry_has_its_own_bound_apart_from_the_devices(client: Client) -> None:
    """A table with its devices' limit reached still registers its dice, every one up to
    ``MAX_DICE``, and the devices reporting after never cost it the registry."""
    table = await rcs_table(client, "jena", "guard")
    dice = {f"pixels-{n:08x}": {"owner": "jena" if n % 2 else "guard", "name": f"d6 {n}"}
            for n in range(MAX_DICE)}  # fmt: skip
    for start in range(0, MAX_DICE, 8):  # in a few changes, as consoles and phones make them
        batch = dict(list(dice.items())[start : start + 8])
        assert (await put(client, table, {"dice": batch}))[0] == 200
    for number in range(MAX_DEVICES + 2):
        answer = await client.put(
            f"/api/tables/{table['id']}/devices/reader{number}",
            json={"connected": True}, headers=bearer(table["gm_token"]),
        )  # fmt: skip
        assert answer.status == 200
    devices = await client.get(
        f"/api/tables/{table['id']}/devices", headers=bearer(table["gm_token"])
    )
    kept = (await devices.json())["devices"]
    assert kept["dice"]["dice"] == dice  # the registry, not forgotten
    assert len(kept) == MAX_DEVICES + 1 and "reader0" not in kept  # the devices, bounded apart
    status, problem = await put(client, table, {"dice": {"godice-1": {"owner": "gm"}}})
    assert (status, problem["field"]) == (422, "dice")
    assert f"at most {MAX_DICE} dice" in problem["message"]
    assert (await registry(client, table))["dice"] == dice


async def test_changes_made_at_once_are_all_kept(client: Client) -> None:
    """A console and phones change the registry at the same moment: each change is made on
    what the one before left, none is lost."""
    table = await rcs_table(client, "jena", "guard")
    jena = await player_token(client, table, "jena")
    phones = [
        put(client, table, {"dice": {f"pixels-{n}": {"owner": "jena", "phone": PHONE}}}, jena)
        for n in range(6)
    ]
    console = [put(client, table, {"blink": False}), put(client, table, {"claims": ["guard"]})]
    answers = await asyncio.gather(*phones, *console)
    assert [status for status, _ in answers] == [200] * 8
    kept = await registry(client, table)
    assert sorted(kept["dice"]) == [f"pixels-{n}" for n in range(6)]
    assert (kept["blink"], kept["claims"]) == (False, ["guard"])


async def test_no_device_reports_under_the_registrys_name(client: Client) -> None:
    table = await rcs_table(client, "jena", "guard")
    await put(client, table, {"dice": {"pixels-1": {"owner": "jena"}}})
    answer = await client.put(
        f"/api/tables/{table['id']}/devices/dice",
        json={"kind": "dice station", "dice": []}, headers=bearer(table["gm_token"]),
    )  # fmt: skip
    assert (answer.status, (await answer.json())["field"]) == (422, "device")
    assert list((await registry(client, table))["dice"]) == ["pixels-1"]


async def test_only_the_gm_and_players_register_dice(client: Client) -> None:
    table = await rcs_table(client, "jena", "guard")
    status, _ = await put(client, table, {"claims": ["jena"]}, token=table["overlay_token"])
    assert status == 403
    answer = await client.get(
        f"/api/tables/{table['id']}/dice", headers=bearer(table["overlay_token"])
    )
    assert answer.status == 403


JSON = st.recursive(
    st.none() | st.booleans() | st.integers(-10, 10) | st.floats(-10, 10) | st.text(max_size=6)
    | st.sampled_from(["jena", "gm", "pixels-1", "pixels-a1", "godice-1", "dice", "claims",
                       "window", "blink", "owner"]),
    lambda inner: st.lists(inner, max_size=3)
    | st.dictionaries(
        st.sampled_from(["dice", "claims", "window", "blink", "owner", "name", "pixels-1",
                         "pixels-a1", "godice-1", "phone", "connected", "battery", "x!"]),
        inner,
        max_size=4,
    ),
    max_leaves=12,
)  # fmt: skip


@given(JSON, st.sampled_from([None, frozenset({"jena"})]))
def test_any_change_is_kept_whole_or_refused_naming_a_field(
    change: Any, mine: frozenset[str] | None
) -> None:
    """By the GM (``mine`` None) or by Jena's player, who never changes what is not hers."""
    before = {**DEFAULTS, "claims": ["gm"], "dice": {
        "pixels-a1": {"owner": "jena", "name": "red"}, "godice-1": {"owner": "gm", "name": "g"}
    }}  # fmt: skip
    kept = json.dumps(before, sort_keys=True)
    try:
        after = changed(before, change, {"jena", "gm"}, mine)
    except RegistryError as refused:
        assert refused.field and str(refused)
    else:
        assert set(after) == set(before)
        assert all(entry["owner"] in {"jena", "gm"} for entry in after["dice"].values())
        if mine is not None:
            others = {die: entry for die, entry in after["dice"].items() if entry["owner"] == "gm"}
            assert others == {"godice-1": before["dice"]["godice-1"]}
            assert after["claims"][0] == "gm"
            assert (after["window"], after["blink"]) == (before["window"], before["blink"])
    assert json.dumps(before, sort_keys=True) == kept  # the registry given is never changed
