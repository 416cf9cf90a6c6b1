"""Bad input found by probing the running server: each is a 4xx naming what is at fault, never
a 500, and changes nothing.

The raw-socket probes send bytes no HTTP client library would: header values that are not
UTF-8, which the server's HTTP parser hands over as unpaired surrogates.
"""

from __future__ import annotations

import asyncio
import json
from typing import Any

import pytest

from tests.server.conftest import Client, MakeClient, bearer, new_table, send

HERO = {"type": "join", "member": {"id": "h1", "name": "Hero", "kind": "hero"}}


async def _seq(client: Client, table: dict[str, Any]) -> int:
    read = await client.get(f"/api/tables/{table['id']}", headers=bearer(table["gm_token"]))
    seq: int = (await read.json())["seq"]
    return seq


async def _post_text(
    client: Client, table: dict[str, Any], text: str
) -> tuple[int, dict[str, Any]]:
    """A command body sent as it is written, for JSON no encoder would produce."""
    answer = await client.post(
        f"/api/tables/{table['id']}/commands",
        data=text,
        headers={**bearer(table["gm_token"]), "Content-Type": "application/json"},
    )
    return answer.status, await answer.json()


async def _raw(client: Client, request: bytes) -> tuple[int, dict[str, Any]]:
    """Send raw bytes and read the answer's status and JSON body."""
    reader, writer = await asyncio.open_connection(client.host, client.port)
    writer.write(request)
    await writer.drain()
    answer = await reader.read()
    writer.close()
    head, _, body = answer.partition(b"\r\n\r\n")
    status = int(head.split(b" ", 2)[1])
    if b"chunked" in head.lower():
        body = b"".join(body.split(b"\r\n")[1::2])
    return status, json.loads(body) if body.strip() else {}


async def test_a_body_nested_sixty_thousand_deep_is_400_naming_the_body(
    make_client: MakeClient,
) -> None:
    """With room for the body, so that it reaches the parser rather than the size limit."""
    client = await make_client(max_body=256 * 1024)
    table = await new_table(client, "four-color")
    status, body = await _post_text(client, table, "[" * 60_000 + "]" * 60_000)
    assert status == 400 and body["field"] == "body", body
    assert await _seq(client, table) == 0


async def test_a_body_nested_past_the_limit_is_refused_where_it_nests(client: Client) -> None:
    table = await new_table(client, "four-color")
    member: Any = "x"
    for _ in range(70):
        member = {"m": member}
    status, body = await send(client, table, {"type": "join", "member": member})
    assert status == 400 and body["field"].startswith("member.m.m"), body


async def test_an_integer_of_five_thousand_digits_is_400_naming_its_field(client: Client) -> None:
    table = await new_table(client, "megatraveller-rcs")
    raw = (
        '{"type": "join", "character": {"id": "a", "name": "A", "side": "s", '
        '"dex": ' + "9" * 5000 + ', "movement": 0}}'
    )
    status, body = await _post_text(client, table, raw)
    assert status == 400 and body["field"] == "character.dex", body
    assert await _seq(client, table) == 0


NOT_UTF8 = b"\xff\xfe\xc3("


@pytest.mark.parametrize("header", ["Authorization", "Idempotency-Key", "If-Match"])
async def test_a_command_header_that_is_not_utf8_is_400_naming_it(
    client: Client, header: str
) -> None:
    table = await new_table(client, "four-color")
    body = json.dumps(HERO).encode()
    auth = (
        b"Bearer " + NOT_UTF8
        if header == "Authorization"
        else b"Bearer " + table["gm_token"].encode()
    )
    extra = b"" if header == "Authorization" else header.encode() + b": k" + NOT_UTF8 + b"\r\n"
    request = (
        f"POST /api/tables/{table['id']}/commands HTTP/1.1\r\nHost: x\r\nConnection: close\r\n"
        f"Content-Type: application/json\r\nContent-Length: {len(body)}\r\n".encode()
        + b"Authorization: "
        + auth
        + b"\r\n"
        + extra
        + b"\r\n"
        + body
    )
    status, answer = await _raw(client, request)
    assert status == 400 and answer["field"] == header, answer
    assert await _seq(client, table) == 0


@pytest.mark.parametrize(
    "path",
    [
        "/api/tables/{id}",
        "/api/tables/{id}/events",
        "/api/tables/{id}/ws",
        "/api/tables/{id}/sse",
        "/api/tables/{id}/foundry/combat",
        "/api/tables/{id}/roll20/turnorder",
    ],
)
async def test_a_read_whose_token_is_not_utf8_is_400_naming_authorization(
    client: Client, path: str
) -> None:
    table = await new_table(client, "four-color")
    request = (
        f"GET {path.format(id=table['id'])} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n".encode()
        + b"Authorization: Bearer "
        + NOT_UTF8
        + b"\r\n\r\n"
    )
    status, answer = await _raw(client, request)
    assert status == 400 and answer["field"] == "Authorization", answer


async def test_creating_a_table_with_a_token_that_is_not_utf8_is_400(
    make_client: MakeClient,
) -> None:
    """With an admin token set, creation reads the Authorization header too."""
    client = await make_client(admin_token="the-admin")
    body = json.dumps({"system": "four-color", "name": "t"}).encode()
    request = (
        b"POST /api/tables HTTP/1.1\r\nHost: x\r\nConnection: close\r\n"
        + f"Content-Type: application/json\r\nContent-Length: {len(body)}\r\n".encode()
        + b"Authorization: Bearer "
        + NOT_UTF8
        + b"\r\n\r\n"
        + body
    )
    status, answer = await _raw(client, request)
    assert status == 400 and answer["field"] == "Authorization", answer


@pytest.mark.parametrize(
    ("entry", "query", "field"),
    [
        ({"id": "-1", "custom": "N" * 200}, "", "body.1.custom"),
        ({"id": "T" * 100, "custom": "Bea"}, "", "body.1.id"),
        ({"id": "-1", "custom": "Bea"}, "?side=" + "s" * 100, "side"),
    ],
)
async def test_a_roll20_turn_order_that_would_make_a_bad_join_is_422_and_joins_no_one(
    client: Client, entry: dict[str, Any], query: str, field: str
) -> None:
    table = await new_table(client, "megatraveller-rcs")
    fine = {"id": "-1", "custom": "Jena"}
    answer = await client.put(
        f"/api/tables/{table['id']}/roll20/turnorder{query}",
        json=[fine, entry],
        headers=bearer(table["gm_token"]),
    )
    body = await answer.json()
    assert answer.status == 422, body
    assert body["field"] == field
    assert await _seq(client, table) == 0


@pytest.mark.parametrize(
    ("system", "option", "value"),
    [
        ("awareness", "die_sides", 0),
        ("awareness", "die_sides", 1),
        ("awareness", "die_sides", -1),
        ("awareness", "die_sides", 10**100),
        ("megatraveller-rcs", "die_sides", 0),
        ("megatraveller-rcs", "initiative_dice", 0),
        ("megatraveller-rcs", "initiative_dice", 10**6),
        ("awareness", "position_limit", -1),
        ("awareness", "freeze_at", 0),
    ],
)
async def test_table_options_out_of_range_are_refused_naming_the_option(
    client: Client, system: str, option: str, value: int
) -> None:
    answer = await client.post(
        "/api/tables", json={"system": system, "name": "t", "options": {option: value}}
    )
    body = await answer.json()
    assert answer.status in (400, 422), body
    assert body["field"] == f"options.{option}", body
