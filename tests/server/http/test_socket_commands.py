"""Commands over the WebSocket a client follows its table on: the same semantics as
``POST /commands`` (keys, If-Match, roles, limits, refusals), answered on the socket after the
command's own events."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Iterable
from contextlib import asynccontextmanager
from typing import Any

import pytest
from aiohttp import ClientWebSocketResponse, WSCloseCode, WSMsgType

from server.errors import UNAVAILABLE, StoreUnavailableError
from server.http import following as following_module
from server.http.context import SEIZE
from server.live.hub import SocketSubscriber
from tests.server.conftest import Client, MakeClient, bearer, new_table, send
from tests.server.live.test_hub import unframe
from tests.server.live.test_revocation import revoked_socket
from tests.waiting import within

HERO = {"type": "join", "member": {"id": "h1", "name": "Hero", "kind": "hero"}}
VILLAIN = {"type": "join", "member": {"id": "v1", "name": "Villain", "kind": "villain"}}


@asynccontextmanager
async def following(
    client: Client, table: dict[str, Any], token: str
) -> AsyncIterator[ClientWebSocketResponse]:
    """The table's socket, its first view read."""
    async with client.ws_connect(f"/api/tables/{table['id']}/ws", headers=bearer(token)) as ws:
        assert (await ws.receive_json())["type"] == "view"
        yield ws


def command(ident: str, body: Any, **fields: Any) -> dict[str, Any]:
    return {"type": "command", "id": ident, "command": body, **fields}


async def exchange(
    ws: ClientWebSocketResponse, message: dict[str, Any] | str | bytes
) -> tuple[list[dict[str, Any]], dict[str, Any]]:
    """Send a message; the messages that came before its reply, and the reply."""
    if isinstance(message, dict):
        await ws.send_json(message)
    elif isinstance(message, str):
        await ws.send_str(message)
    else:
        await ws.send_bytes(message)
    before: list[dict[str, Any]] = []
    while True:
        received = await within(ws.receive_json(), lambda: f"no reply came after {before}")
        if received["type"] in ("answer", "refused"):
            return before, received
        before.append(received)


async def events(client: Client, table: dict[str, Any], token: str) -> list[dict[str, Any]]:
    read = await client.get(f"/api/tables/{table['id']}/events", headers=bearer(token))
    shown: list[dict[str, Any]] = (await read.json())["events"]
    return shown


async def seq_of(client: Client, table: dict[str, Any]) -> int:
    read = await client.get(f"/api/tables/{table['id']}", headers=bearer(table["gm_token"]))
    seq: int = (await read.json())["seq"]
    return seq


async def player_token(client: Client, table: dict[str, Any], participant: str) -> str:
    minted = await client.post(
        f"/api/tables/{table['id']}/tokens",
        json={"participants": [participant]},
        headers=bearer(table["gm_token"]),
    )
    token: str = (await minted.json())["token"]
    return token


async def test_a_command_is_answered_after_its_own_events_and_every_subscriber_sees_them(
    client: Client,
) -> None:
    table = await new_table(client, "four-color")
    await send(client, table, HERO)
    async with (
        following(client, table, table["gm_token"]) as gm,
        following(client, table, table["overlay_token"]) as overlay,
    ):
        before, answer = await exchange(gm, command("c1", {"type": "deal"}))
        assert answer["type"] == "answer" and answer["id"] == "c1" and answer["seq"] > 1
        assert [m["seq"] for m in before] == list(range(2, answer["seq"] + 1))
        assert [m["event"] for m in before] == answer["events"]
        assert "view" in before[-1]
        shown = [await within(overlay.receive_json(), "the overlay fell behind") for _ in before]
        await send(client, table, VILLAIN)  # the next message is the next command's
        assert (await gm.receive_json())["seq"] == answer["seq"] + 1
    assert [m["seq"] for m in shown] == [m["seq"] for m in before]
    assert [m["event"] for m in shown] == [
        e["event"] for e in await events(client, table, table["overlay_token"])
    ][1 : answer["seq"]]
    assert (
        answer["events"]
        == [e["event"] for e in await events(client, table, table["gm_token"])][1 : answer["seq"]]
    )


class Sends(asyncio.Transport):
    """A socket's transport, its writes noted as the calls that made them: what left together
    in one send. The subscriber uses no more of a transport than this."""

    def __init__(self, transport: asyncio.Transport) -> None:
        super().__init__()
        self.transport = transport
        self.calls: list[list[dict[str, Any]]] = []

    def write(self, data: bytes | bytearray | memoryview[int]) -> None:
        self.calls.append(unframe(bytes(data)))
        self.transport.write(data)

    def writelines(self, chunks: Iterable[bytes | bytearray | memoryview[int]]) -> None:
        self.write(b"".join(chunks))

    def get_write_buffer_size(self) -> int:
        return self.transport.get_write_buffer_size()

    def is_closing(self) -> bool:
        return self.transport.is_closing()


async def test_an_answer_leaves_in_the_same_send_as_its_commands_events(
    client: Client, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The sender is woken once per command, its events and answer read together, and the
    server makes one send, not two: the answer is handed to the socket before the events are
    delivered, and waits there for them."""
    sockets: list[Sends] = []

    def noted(*args: Any) -> SocketSubscriber:
        viewer, token_hash, backlog, transport, close = args
        sockets.append(Sends(transport))
        return SocketSubscriber(viewer, token_hash, backlog, sockets[-1], close)

    monkeypatch.setattr(following_module, "SocketSubscriber", noted)
    table = await new_table(client, "four-color")
    await send(client, table, HERO)
    async with following(client, table, table["gm_token"]) as gm:
        before, answer = await exchange(gm, command("c1", {"type": "deal"}))
    assert before
    [gm_socket] = sockets
    assert gm_socket.calls[-1] == [*before, answer]


async def test_replies_come_in_the_order_the_messages_were_sent_whichever_is_ready_first(
    client: Client,
) -> None:
    """Sent without waiting: a command, then a message refused as soon as it is read (while the
    command still waits for its commit), then one the rules refuse, then another command. The
    refusals wait behind the answers before them, and each answer behind its events."""
    table = await new_table(client, "four-color")
    await send(client, table, HERO)
    async with following(client, table, table["gm_token"]) as gm:
        await gm.send_json(command("c1", VILLAIN))
        await gm.send_str("not json")
        await gm.send_json(command("c2", HERO))  # joined already
        await gm.send_json(command("c3", {"type": "deal"}))
        replies: list[dict[str, Any]] = []
        events: list[int] = []
        while len(replies) < 4:
            received = await within(gm.receive_json(), lambda: f"replies so far: {replies}")
            if received["type"] == "event":
                events.append(received["seq"])
                continue
            if received["type"] == "answer":  # right behind its own events
                assert events[-1] == received["seq"], (events, received)
            replies.append(received)
    assert [(r["type"], r["id"]) for r in replies] == [
        ("answer", "c1"),
        ("refused", None),
        ("refused", "c2"),
        ("answer", "c3"),
    ]
    assert replies[1]["status"] == 400 and replies[2]["status"] == 422


async def test_an_idempotent_retry_over_the_socket_or_http_gets_the_first_answer_once(
    client: Client,
) -> None:
    table = await new_table(client, "four-color")
    await send(client, table, HERO)
    deal = {"type": "deal"}
    async with following(client, table, table["gm_token"]) as gm:
        _, first = await exchange(gm, command("a", deal, idempotency_key="deal-1"))
        before, again = await exchange(gm, command("b", deal, idempotency_key="deal-1"))
        status, over_http = await send(client, table, deal, **{"Idempotency-Key": "deal-1"})
        assert before == [] and again == {**first, "id": "b"}
        assert (status, over_http) == (200, {"seq": first["seq"], "events": first["events"]})

        status, posted = await send(client, table, {"type": "undo"}, **{"Idempotency-Key": "u"})
        _, replayed = await exchange(gm, command("c", {"type": "undo"}, idempotency_key="u"))
        assert status == 200 and replayed == {"type": "answer", "id": "c", **posted}
    kinds = [e["event"]["type"] for e in await events(client, table, table["gm_token"])]
    assert kinds.count("dealt") == 1 and kinds.count("undone") == 1


async def test_a_stale_if_match_is_refused_409_with_the_current_seq(client: Client) -> None:
    table = await new_table(client, "four-color")
    await send(client, table, HERO)
    async with following(client, table, table["gm_token"]) as gm:
        before, refused = await exchange(gm, command("s", VILLAIN, if_match=0))
        over_http = await send(client, table, VILLAIN, **{"If-Match": "0"})
        assert before == [] and refused["id"] == "s"
        assert (refused["status"], refused["problem"]) == over_http
        assert refused["problem"]["error"] == "stale" and refused["problem"]["seq"] == 1
        _, answer = await exchange(gm, command("t", VILLAIN, if_match=1))
    assert answer["type"] == "answer" and answer["seq"] == 2


async def test_a_rule_refusal_names_the_rule_and_changes_nothing(client: Client) -> None:
    table = await new_table(client, "four-color")
    await send(client, table, HERO)
    async with following(client, table, table["gm_token"]) as gm:
        before, refused = await exchange(gm, command("r", {"type": "next_panel"}))
    assert before == [] and refused["status"] == 422
    assert refused["problem"]["error"] == "rule" and refused["problem"]["rule"] == "four-color.3"
    assert (refused["status"], refused["problem"]) == await send(
        client, table, {"type": "next_panel"}
    )
    assert await seq_of(client, table) == 1


async def test_a_player_socket_cannot_send_a_gm_command(client: Client) -> None:
    table = await new_table(client, "four-color")
    await send(client, table, HERO)
    token = await player_token(client, table, "h1")
    async with following(client, table, token) as player:
        _, refused = await exchange(player, command("p", {"type": "deal"}))
    assert refused["status"] == 403 and refused["problem"]["rule"] == "roles"
    assert (refused["status"], refused["problem"]) == await send(
        client, table, {"type": "deal"}, token
    )
    assert await seq_of(client, table) == 1


async def test_an_overlay_socket_is_refused_as_over_http_and_a_revoked_one_is_closed(
    client: Client,
) -> None:
    table = await new_table(client, "four-color")
    overlay = table["overlay_token"]
    async with following(client, table, overlay) as ws:
        _, refused = await exchange(ws, command("o", HERO))
        assert refused["status"] == 403
        assert (refused["status"], refused["problem"]) == await send(client, table, HERO, overlay)
        revoked = await client.post(
            f"/api/tables/{table['id']}/handoff/overlay", headers=bearer(table["gm_token"])
        )
        assert revoked.status == 201
        await revoked_socket(ws)  # nothing more can be sent on it
        assert (await send(client, table, HERO, overlay))[0] == 401
    assert await seq_of(client, table) == 0


DEEP: Any = 1
for _ in range(70):
    DEEP = [DEEP]
HUGE = "1" + "0" * 40  # an integer of 41 digits
HUGE_IF_MATCH = f'{{"type": "command", "id": "m", "command": {{}}, "if_match": {HUGE}}}'
HUGE_FIELD = f'{{"type": "command", "id": "i", "command": {{"type": "join", "member": {HUGE}}}}}'

MALFORMED: list[tuple[Any, int, str, str | None]] = [
    # (the message, the status, the field named, the id the refusal carries)
    (b'{"type": "command"}', 400, "message", None),
    ("{not json", 400, "message", None),
    ("[1, 2]", 400, "message", None),
    ('"command"', 400, "message", None),
    ({**command("u", HERO), "extra": 1}, 400, "extra", "u"),
    ({**command("t", HERO), "type": "subscribe"}, 400, "type", "t"),
    ({"type": "command", "command": HERO}, 400, "id", None),
    (command("x" * 65, HERO), 400, "id", None),
    (command(7, HERO), 400, "id", None),  # type: ignore[arg-type]
    ({"type": "command", "id": "n"}, 400, "command", "n"),
    (command("k", HERO, idempotency_key=""), 400, "idempotency_key", "k"),
    (command("k", HERO, idempotency_key="k" * 201), 400, "idempotency_key", "k"),
    (command("k", HERO, idempotency_key=5), 400, "idempotency_key", "k"),
    (command("m", HERO, if_match="0"), 400, "if_match", "m"),
    (command("m", HERO, if_match=True), 400, "if_match", "m"),
    (HUGE_IF_MATCH, 400, "if_match", "m"),
    (command("d", {"type": "join", "member": DEEP}), 400, "member" + ".0" * 64, "d"),
    (HUGE_FIELD, 400, "member", "i"),
    (command("big", {**HERO, "note": "x" * 1100}), 413, "message", None),
    (command("v", {"type": "deal_card", "card": "ZZ"}), 422, "deal_card.card", "v"),
]


async def test_malformed_messages_are_refused_naming_the_fault_and_the_socket_goes_on(
    make_client: MakeClient,
) -> None:
    client = await make_client(max_body=1024)
    table = await new_table(client, "four-color")
    async with following(client, table, table["gm_token"]) as gm:
        for message, status, field, ident in MALFORMED:
            before, refused = await exchange(gm, message)
            expected = {"type": "refused", "id": ident, "status": status}
            assert before == [] and refused.items() >= expected.items(), (message, refused)
            assert refused["problem"]["field"] == field, (message, refused)
            assert field in refused["problem"]["message"], (message, refused)
        _, answer = await exchange(gm, command("ok", HERO))
    assert answer["type"] == "answer" and answer["seq"] == 1


async def test_a_command_that_fails_validation_is_refused_as_over_http(client: Client) -> None:
    table = await new_table(client, "four-color")
    async with following(client, table, table["gm_token"]) as gm:
        bodies: list[Any] = [{"type": "deal_card", "card": "ZZ"}, {"type": "nonsense"}, [HERO], 1]
        for body in bodies:
            _, refused = await exchange(gm, command("v", body))
            assert (refused["status"], refused["problem"]) == await send(client, table, body)
    assert await seq_of(client, table) == 0


async def test_a_message_larger_than_a_socket_reads_closes_it_and_nothing_else(
    make_client: MakeClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    # As over 4 MiB, without sending those:
    monkeypatch.setattr(following_module, "LARGEST_READ", 4096)
    client = await make_client(max_body=1024)
    table = await new_table(client, "four-color")
    async with following(client, table, table["gm_token"]) as gm:
        _, refused = await exchange(gm, "x" * 3000)  # over max_body, within what it reads
        assert refused["status"] == 413
        await gm.send_str("x" * 5000)
        closing = await within(gm.receive(), "the socket was never closed")
        assert closing.type is WSMsgType.CLOSE and closing.data == WSCloseCode.MESSAGE_TOO_BIG
    async with following(client, table, table["gm_token"]) as gm:
        _, answer = await exchange(gm, command("ok", HERO))
    assert answer["seq"] == 1


async def test_a_message_of_megabytes_is_closed_with_1009_and_a_reason_not_dropped(
    client: Client,
) -> None:
    """The whole of a message over what a socket reads (4 MiB) is sent before the client reads
    again: the server reads and lets go of the rest of it, so the client reads the close
    rather than meeting a reset connection (1006)."""
    table = await new_table(client, "four-color")
    async with following(client, table, table["gm_token"]) as gm:
        await gm.send_str("x" * 5_000_000)
        closing = await within(gm.receive(), "the socket was never closed")
        while closing.type is WSMsgType.TEXT:  # the view sent on connecting
            closing = await within(gm.receive(), "the socket was never closed")
    assert (closing.type, closing.data) == (WSMsgType.CLOSE, WSCloseCode.MESSAGE_TOO_BIG)
    assert closing.extra == "message of 5000000 bytes: a message is at most 4194304 bytes"
    async with following(client, table, table["gm_token"]) as gm:
        _, answer = await exchange(gm, command("ok", HERO))
    assert answer["seq"] == 1


async def test_socket_messages_count_against_the_tokens_command_rate(
    make_client: MakeClient,
) -> None:
    client = await make_client(rate_burst=3, rate_per_second=0.01)
    table = await new_table(client, "four-color")
    assert (await send(client, table, HERO))[0] == 200
    async with following(client, table, table["gm_token"]) as gm:
        _, refused = await exchange(gm, "not json")  # counted, as a malformed POST is
        assert refused["status"] == 400
        _, answer = await exchange(gm, command("a", VILLAIN))
        assert answer["type"] == "answer"
        _, limited = await exchange(gm, command("b", {"type": "deal"}))
    assert limited["status"] == 429 and limited["id"] == "b" and limited["retry_after"] >= 1
    assert (limited["status"], limited["problem"]) == await send(client, table, {"type": "deal"})
    assert limited["problem"]["error"] == "rate_limited"
    assert await seq_of(client, table) == 2


async def test_a_database_out_of_reach_is_refused_503_with_retry_after_and_no_answer(
    client: Client, monkeypatch: pytest.MonkeyPatch
) -> None:
    table = await new_table(client, "four-color")
    store = client.app[SEIZE].store

    async def unreachable(*_: Any) -> None:
        raise StoreUnavailableError("cut")

    async with following(client, table, table["gm_token"]) as gm:
        with monkeypatch.context() as patched:
            patched.setattr(store, "append", unreachable)
            before, refused = await exchange(gm, command("a", HERO, idempotency_key="once"))
            over_http = await client.post(
                f"/api/tables/{table['id']}/commands", json=HERO, headers=bearer(table["gm_token"])
            )
        assert before == [] and refused["type"] == "refused" and refused["status"] == 503
        assert refused["problem"] == {"error": "unavailable", "message": UNAVAILABLE}
        assert refused["problem"] == await over_http.json()
        assert refused["retry_after"] == int(over_http.headers["Retry-After"])
        _, answer = await exchange(gm, command("b", HERO, idempotency_key="once"))
    assert answer["type"] == "answer" and answer["seq"] == 1  # nothing was kept before


async def test_a_failure_nobody_foresaw_is_refused_500_and_the_socket_goes_on(
    client: Client, monkeypatch: pytest.MonkeyPatch
) -> None:
    table = await new_table(client, "four-color")
    store = client.app[SEIZE].store

    async def full(*_: Any) -> None:
        raise OSError("disk full")

    async with following(client, table, table["gm_token"]) as gm:
        with monkeypatch.context() as patched:
            patched.setattr(store, "append", full)
            _, refused = await exchange(gm, command("a", HERO))
        assert refused["status"] == 500 and refused["problem"]["error"] == "internal"
        _, answer = await exchange(gm, command("b", HERO))
    assert answer["type"] == "answer" and answer["seq"] == 1


WORDED: list[tuple[Any, str, str]] = [
    # (the message, the field named, how its refusal begins)
    ("[1, 2]", "message", "message: must be a JSON object: "),
    ({**command("t", HERO), "type": "cmd"}, "type", 'type: must be "command"'),
    (command("i", HERO, idempotency_key=""), "idempotency_key", "idempotency_key: must be a "),
    (command("m", HERO, if_match="0"), "if_match", "if_match: must be a sequence number"),
    (command("n", {"type": "nonsense"}), "type", "type: must be one of 'join', "),
    (command("e", {}), "type", "type: is required"),
    (command("l", [HERO]), "command", "command: must be an object"),
    (
        command("s", {"type": "join", "member": {"id": "h", "name": "", "kind": "hero"}}),
        "join.member.name",
        "join.member.name: must not be empty",
    ),
    (
        command("w", {"type": "join", "member": {"id": "h", "name": "x" * 81, "kind": "hero"}}),
        "join.member.name",
        "join.member.name: must be at most 80 characters long",
    ),
    (command("c", {"type": "deal_card", "card": "ZZ"}), "deal_card.card", "deal_card.card: 'ZZ' "),
]


async def test_refusals_say_what_is_expected_naming_the_field(client: Client) -> None:
    """A refusal reads as what the field must be, in the API's names: not as what it is, nor in
    pydantic's words (no "Value error, ", no "Input tag", no field named "")."""
    table = await new_table(client, "four-color")
    async with following(client, table, table["gm_token"]) as gm:
        for message, field, begins in WORDED:
            _, refused = await exchange(gm, message)
            problem = refused["problem"]
            assert problem["field"] == field, (message, problem)
            assert problem["message"].startswith(begins), (message, problem)
            assert "Value error" not in problem["message"], (message, problem)
