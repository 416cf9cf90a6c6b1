"""The dice request channel's refusals and roles: a bad request is refused naming its field and
opens nothing; the GM asks for anyone's dice, a player for their own characters' only, an
overlay for none; an answer gives faces the die has, and a player answers only their own
characters' requests, with their own dice."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import example, given
from hypothesis import strategies as st

from server.devices.dice import DEFAULTS, NotYoursError, RegistryError, changed
from server.devices.dice_requests import (
    GM_ROOM,
    LONGEST_WAIT,
    MAX_REQUESTS,
    PLAYER_SHARE,
    RequestError,
    answered,
    asked,
    pruned,
    taken,
)
from tests.adapters.test_dice_requests import ask, next_of
from tests.adapters.test_dice_station import register, registry_of
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


async def test_the_gm_answers_with_faces_the_die_has(client: Client) -> None:
    table = await rcs_awaiting_rolls(client)
    async with following(client, table, table["gm_token"]) as ws:
        await ask(ws, "d1", owner="jena", sides=20, count=2)
        (rid,) = (await registry_of(client, table))["requests"]
        url = f"/api/tables/{table['id']}/dice"
        for answer, field in (
            ({"faces": [21, 3], "dice": ["a", "b"]}, f"answers.{rid}.faces"),
            ({"faces": [3], "dice": ["a"]}, f"answers.{rid}.faces"),
            ({"faces": [3, 4], "dice": ["a"]}, f"answers.{rid}.dice"),
        ):
            put = await client.put(url, json={"answers": {rid: answer}},
                                   headers=bearer(table["gm_token"]))  # fmt: skip
            assert (put.status, (await put.json())["field"]) == (422, field)
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


DICE = {"pixels-j": {"owner": "jena"}, "pixels-g": {"owner": "guard"}, "pixels-m": {"owner": "gm"}}


async def test_a_player_answers_their_own_characters_requests_with_their_own_dice_only(
    client: Client,
) -> None:
    """The phone's answer: Jena's player answers Jena's request with Jena's die; the guard's
    request, the guard's die, the GM's, a die nobody registered are refused as the roles' rule
    naming the answer, and nothing is kept, not even the part that was hers."""
    table = await rcs_awaiting_rolls(client)
    await register(client, table, {"dice": DICE})
    jena = await player_token(client, table, "jena")
    url = f"/api/tables/{table['id']}/dice"
    async with following(client, table, table["gm_token"]) as ws:
        await ask(ws, "g1", owner="guard", sides=20)
        await ask(ws, "j1", owner="jena", sides=20, count=2)
        asked = (await registry_of(client, table))["requests"]
        guards, hers = (next(r for r, one in asked.items() if one["owner"] == who)
                        for who in ("guard", "jena"))  # fmt: skip
        own = {"faces": [17, 4], "dice": ["pixels-j", "pixels-j"]}
        for answers, status, field in (
            ({guards: {"faces": [5], "dice": ["pixels-j"]}}, 403, f"answers.{guards}"),
            ({guards: {"faces": [99], "dice": []}}, 403, f"answers.{guards}"),  # told nothing
            ({hers: {"faces": [17, 4], "dice": ["pixels-j", "pixels-g"]}}, 403,
             f"answers.{hers}.dice"),
            ({hers: {"faces": [17, 4], "dice": ["pixels-m", "pixels-j"]}}, 403,
             f"answers.{hers}.dice"),
            ({hers: {"faces": [17, 4], "dice": ["pixels-j", "pixels-new"]}}, 403,
             f"answers.{hers}.dice"),
            ({hers: own, guards: {"faces": [5], "dice": ["pixels-j"]}}, 403,
             f"answers.{guards}"),
            ({hers: {"faces": [17, 21], "dice": ["pixels-j", "pixels-j"]}}, 422,
             f"answers.{hers}.faces"),
            ({"nope": {"faces": [1], "dice": ["pixels-j"]}}, 422, "answers.nope"),
        ):  # fmt: skip
            before = await registry_of(client, table)
            put = await client.put(url, json={"answers": answers}, headers=bearer(jena))
            problem = await put.json()
            assert (put.status, problem["field"]) == (status, field), problem
            assert problem.get("rule") == ("roles" if status == 403 else None)
            assert await registry_of(client, table) == before
        put = await client.put(url, json={"answers": {hers: own}}, headers=bearer(jena))
        assert put.status == 200
        assert list((await put.json())["answers"]) == [hers]  # her share: her answer alone
        assert await next_of(ws, "j1") == {"type": "dice-rolled", "id": "j1", **own}
        assert list((await registry_of(client, table))["requests"]) == [guards]  # still open


async def test_a_table_waits_on_a_bounded_number_of_requests(client: Client) -> None:
    table = await rcs_awaiting_rolls(client)
    async with following(client, table, table["gm_token"]) as ws:
        for n in range(MAX_REQUESTS):
            assert (await ask(ws, f"d{n}", owner="gm", sides=20))["type"] == "dice-asked"
        refused = await ask(ws, "over", owner="gm", sides=20)
    assert (refused["status"], refused["problem"]["field"]) == (409, "dice")


async def test_a_player_holds_a_fair_share_of_the_requests_and_the_gm_always_finds_room(
    client: Client,
) -> None:
    """Jena's player asks for roll after roll, each waiting the longest: past her share she is
    refused (409, busy), while the guard's player and the GM still ask."""
    table = await rcs_awaiting_rolls(client)
    jena = await player_token(client, table, "jena")
    async with following(client, table, jena) as ws:
        for n in range(PLAYER_SHARE):
            asked = await ask(ws, f"j{n}", owner="jena", sides=20, wait=LONGEST_WAIT)
            assert asked["type"] == "dice-asked"
        refused = await ask(ws, "greedy", owner="jena", sides=20, wait=LONGEST_WAIT)
    assert (refused["status"], refused["problem"]["error"]) == (409, "busy")
    assert (
        refused["problem"]["field"] == "dice" and str(PLAYER_SHARE) in refused["problem"]["message"]
    )
    async with following(client, table, await player_token(client, table, "guard")) as ws:
        assert (await ask(ws, "g1", owner="guard", sides=6))["type"] == "dice-asked"
    async with following(client, table, table["gm_token"]) as ws:
        assert (await ask(ws, "gm1", owner="jena", sides=20))["type"] == "dice-asked"
    requests = (await registry_of(client, table))["requests"].values()
    assert sorted(one["owner"] for one in requests) == ["guard", "jena", "jena", "jena"]


@given(
    st.lists(st.sampled_from(["gm", "p1", "p2", "p3", "p4", "p5", "p6", "p7", "p8"]), max_size=40),
    st.lists(st.integers(0, 39), max_size=10),
)
def test_no_player_takes_more_than_a_share_nor_the_players_the_gms_room(
    askers: list[str], done: list[int]
) -> None:
    """Whoever asks in whatever order, some requests taken on the way: a player's token holds
    at most its share, the players together leave the GM its room, and the GM is refused only
    by a full table."""
    book: dict[str, Any] = dict(DEFAULTS)
    for n, asker in enumerate(askers):
        player = None if asker == "gm" else frozenset({asker})
        held = [*book["requests"].values(), *book["answers"].values()]
        try:
            book = asked(book, f"r{n}", asker, 20, 1, 100.0, player)
        except RequestError as refused:
            assert refused.field == "dice"
            assert player is not None or len(held) == MAX_REQUESTS
        if n in done and book["requests"]:
            book = taken(book, next(iter(book["requests"])))
        held = [*book["requests"].values(), *book["answers"].values()]
        players = [one for one in held if one["owner"] != "gm"]
        assert len(held) <= MAX_REQUESTS and len(players) <= MAX_REQUESTS - GM_ROOM
        for one in {one["owner"] for one in players}:
            assert sum(other["owner"] == one for other in players) <= PLAYER_SHARE


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


BOOK = {**DEFAULTS,
        "dice": {die: {**entry, "name": die} for die, entry in DICE.items()},
        "requests": {"rj": {"owner": "jena", "sides": 6, "count": 1, "until": 0, "claim": False},
                     "rg": {"owner": "guard", "sides": 6, "count": 2, "until": 0, "claim": True}},
        "claims": ["guard"]}  # fmt: skip
COUNTS = {"rj": 1, "rg": 2, "gone": 1}


def answering(rid: str) -> st.SearchStrategy[tuple[str, Any]]:
    """An answer to ``rid``: mostly of the form asked, with any of the dice; now and then of
    another count or faces off the d6, or of no form at all."""
    count, die = COUNTS[rid], st.sampled_from([*DICE, "pixels-new"])
    well = st.fixed_dictionaries(
        {
            "faces": st.lists(st.integers(1, 6), min_size=count, max_size=count),
            "dice": st.lists(die, min_size=count, max_size=count),
        }
    )
    off = st.none() | st.fixed_dictionaries(
        {"faces": st.lists(st.integers(0, 7), max_size=3), "dice": st.lists(die, max_size=3)}
    )
    return st.tuples(st.just(rid), st.one_of(well, well, well, off))


@given(st.lists(st.sampled_from(list(COUNTS)).flatmap(answering), min_size=1, max_size=2).map(dict))
@example({"rj": {"faces": [3], "dice": ["pixels-g"]}})
@example({"rg": {"faces": [3, 4], "dice": ["pixels-j", "pixels-j"]}})
def test_a_player_is_refused_only_what_is_not_theirs_or_what_the_gm_is_refused_too(
    answers: dict[str, Any],
) -> None:
    """Jena's player and the GM send the same answers: hers is refused as not hers exactly
    when it reaches for the guard's request or any die but hers, and is otherwise kept or
    refused as the GM's is. Either way the registry given is never changed."""
    kept = json.dumps(BOOK, sort_keys=True)
    owners = {"jena", "guard", "gm"}
    try:
        by_gm: dict[str, Any] | None = changed(BOOK, {"answers": answers}, owners)
    except RegistryError:
        by_gm = None
    theirs = "rg" in answers or any(
        isinstance(answer, dict) and set(answer.get("dice", [])) - {"pixels-j"}
        for answer in answers.values()
    )
    try:
        by_jena = changed(BOOK, {"answers": answers}, owners, frozenset({"jena"}))
    except NotYoursError as refused:
        assert theirs and refused.field.startswith("answers.")
    except RegistryError as refused:
        assert not theirs and by_gm is None and refused.field.startswith("answers")
    else:
        assert not theirs and by_jena == by_gm
        assert all(one["owner"] == "jena" for one in by_jena["answers"].values())
    assert json.dumps(BOOK, sort_keys=True) == kept
