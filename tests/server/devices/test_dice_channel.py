"""The dice request channel's refusals and roles: a bad request is refused naming its field and
opens nothing; the GM asks for anyone's dice, a player for their own characters' only, an
overlay for none; only the GM's token answers a request, with faces the die has."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from server.devices.dice import DEFAULTS
from server.devices.dice_requests import (
    MAX_REQUESTS,
    RequestError,
    answered,
    asked,
    pruned,
    taken,
)
from tests.adapters.test_dice_requests import ask, next_of
from tests.adapters.test_dice_station import registry_of
from tests.adapters.test_tray import rcs_awaiting_rolls
from tests.server.conftest import Client, bearer
from tests.server.http.test_socket_commands import following, player_token


@pytest.mark.parametrize(
    ("request_", "field"),
    [
        ({"owner": "jena", "sides": 7}, "sides"), ({"owner": "jena"}, "sides"),
        ({"owner": "jena", "sides": True}, "sides"),
        ({"owner": "jena", "sides": 20, "count": 0}, "count"),
        ({"owner": "jena", "sides": 20, "count": 9}, "count"),
        ({"owner": "jena", "sides": 20, "wait": 0}, "wait"),
        ({"owner": "jena", "sides": 20, "wait": 301}, "wait"),
        ({"owner": "", "sides": 20}, "owner"), ({"sides": 20}, "owner"),
        ({"owner": "jena", "sides": 20, "extra": 1}, "extra"),
        ({"owner": "nobody", "sides": 20}, "owner"),
    ],
)  # fmt: skip
async def test_a_bad_request_is_refused_naming_its_field_and_opens_nothing(
    client: Client, request_: dict[str, Any], field: str
) -> None:
    table = await rcs_awaiting_rolls(client)
    async with following(client, table, table["gm_token"]) as ws:
        refused = await ask(ws, "d1", **request_)
    assert refused["type"] == "refused" and refused["problem"]["field"] == field
    assert refused["status"] in (400, 422)
    assert (await registry_of(client, table))["requests"] == {}


async def test_the_gm_asks_for_anyone_a_player_for_their_own_an_overlay_for_none(
    client: Client,
) -> None:
    table = await rcs_awaiting_rolls(client)
    jena = await player_token(client, table, "jena")
    async with following(client, table, jena) as ws:
        refused = await ask(ws, "d1", owner="guard", sides=20)
        assert (refused["status"], refused["problem"]["rule"]) == (403, "roles")
        assert (await ask(ws, "d2", owner="jena", sides=20))["type"] == "dice-asked"
    async with following(client, table, table["overlay_token"]) as ws:
        refused = await ask(ws, "d3", owner="jena", sides=20)
        assert (refused["status"], refused["problem"]["rule"]) == (403, "roles")
    async with following(client, table, table["gm_token"]) as ws:
        assert (await ask(ws, "d4", owner="gm", sides=6, count=2))["type"] == "dice-asked"
    requests = (await registry_of(client, table))["requests"]
    assert sorted((one["owner"], one["sides"]) for one in requests.values()) == [
        ("gm", 6),
        ("jena", 20),
    ]  # the one asked by a socket now closed stays until its wait, for the station to answer
    mine = await client.get(f"/api/tables/{table['id']}/dice", headers=bearer(jena))
    assert [one["owner"] for one in (await mine.json())["requests"].values()] == ["jena"]


async def test_only_the_gms_token_answers_and_with_faces_the_die_has(client: Client) -> None:
    table = await rcs_awaiting_rolls(client)
    jena = await player_token(client, table, "jena")
    async with following(client, table, table["gm_token"]) as ws:
        await ask(ws, "d1", owner="jena", sides=20, count=2)
        (rid,) = (await registry_of(client, table))["requests"]
        url = f"/api/tables/{table['id']}/dice"
        for token, answer, status, field in (
            (jena, {"faces": [20, 20], "dice": ["a", "b"]}, 403, "answers"),
            (
                table["gm_token"],
                {"faces": [21, 3], "dice": ["a", "b"]},
                422,
                f"answers.{rid}.faces",
            ),
            (table["gm_token"], {"faces": [3], "dice": ["a"]}, 422, f"answers.{rid}.faces"),
            (table["gm_token"], {"faces": [3, 4], "dice": ["a"]}, 422, f"answers.{rid}.dice"),
        ):
            put = await client.put(url, json={"answers": {rid: answer}}, headers=bearer(token))
            assert (put.status, (await put.json())["field"]) == (status, field)
        put = await client.put(url, json={"answers": {"nope": {"faces": [1], "dice": ["a"]}}},
                               headers=bearer(table["gm_token"]))  # fmt: skip
        assert (put.status, (await put.json())["field"]) == (422, "answers.nope")
        put = await client.put(url, json={"answers": {rid: {"faces": [20, 1], "dice": ["a", "b"]}}},
                               headers=bearer(table["gm_token"]))  # fmt: skip
        assert put.status == 200
        rolled = await next_of(ws, "d1")
        assert (rolled["type"], rolled["faces"], rolled["dice"]) == (
            "dice-rolled",
            [20, 1],
            ["a", "b"],
        )


async def test_a_table_waits_on_a_bounded_number_of_requests(client: Client) -> None:
    table = await rcs_awaiting_rolls(client)
    async with following(client, table, table["gm_token"]) as ws:
        for n in range(MAX_REQUESTS):
            assert (await ask(ws, f"d{n}", owner="gm", sides=20))["type"] == "dice-asked"
        refused = await ask(ws, "over", owner="gm", sides=20)
    assert (refused["status"], refused["problem"]["field"]) == (409, "dice")


def test_an_answer_closes_the_claim_its_request_opened_and_no_other() -> None:
    """The roll a claim waited for has come (from the tray, say): the next die nobody owns
    stays no one's. A claim the console opened stays open."""
    book = asked({**DEFAULTS, "claims": ["guard"]}, "r1", "jena", 20, 1, 100.0)
    book = asked(book, "r2", "guard", 20, 1, 100.0)  # the guard's claim was open already
    assert book["claims"] == ["guard", "jena"]
    book = answered(book, {"r2": {"faces": [3], "dice": ["tray:tray1"]}})
    assert book["claims"] == ["guard", "jena"]
    book = answered(book, {"r1": {"faces": [17], "dice": ["tray:tray1"]}})
    assert book["claims"] == ["guard"] and set(book["answers"]) == {"r1", "r2"}


OWNERS = ["gm", "jena", "guard"]


@given(
    st.lists(
        st.tuples(
            st.sampled_from(["ask", "answer", "take", "prune"]),
            st.sampled_from(OWNERS),
            st.integers(1, 3),
            st.floats(0, 200),
        ),
        max_size=30,
    )
)
def test_requests_and_answers_stay_bounded_and_a_claim_leaves_with_its_request(
    steps: list[tuple[str, str, int, float]],
) -> None:
    """Whatever is asked, answered, taken or forgotten in whatever order: never more than the
    bound, every answer of an owner asked for, and no claim outlives the request that opened it
    unless someone else opened it."""
    book: dict[str, Any] = {**DEFAULTS, "dice": {"p1": {"owner": "jena", "name": "p1"}},
                            "claims": ["gm"]}  # fmt: skip
    made = 0
    for action, owner, count, when in steps:
        rids = list(book["requests"])
        try:
            if action == "ask":
                made += 1
                book = asked(book, f"r{made}", owner, 20, count, when)
            elif action == "answer" and rids:
                need = book["requests"][rids[0]]["count"]
                book = answered(book, {rids[0]: {"faces": [20] * need, "dice": ["p1"] * need}})
            elif action == "take" and (rids or book["answers"]):
                book = taken(book, [*rids, *book["answers"]][0])
            elif action == "prune":
                book = pruned(book, when)
        except RequestError as refused:
            assert refused.field == "dice" and action == "ask"
        assert len(book["requests"]) + len(book["answers"]) <= MAX_REQUESTS
        assert len(book["claims"]) == len(set(book["claims"]))
        waiting = [*book["requests"].values(), *book["answers"].values()]
        opened = {one["owner"] for one in waiting if one["claim"]}
        assert set(book["claims"]) <= opened | {"gm"}
        assert "jena" not in opened  # she has a die: she never claims one
