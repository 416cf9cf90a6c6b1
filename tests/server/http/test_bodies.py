"""Request bodies read within limits, from a real server on loopback: a body announced too large
is refused before it is read, one that stops arriving times out, one its client abandons is
logged as that; and JSON is JSON, never NaN or Infinity, coming in or going out."""

from __future__ import annotations

import asyncio
import json
import logging
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import AsyncExitStack
from typing import Any

import pytest
from aiohttp import web
from pydantic import ValidationError

from server.devices.reports import ReportError, record
from server.http import api
from server.http.context import SEIZE
from server.http.openapi import OPENAPI
from server.run.app import make_app
from server.settings import Settings
from tests.server.conftest import Client, Database, bearer, new_table
from tests.waiting import PATIENCE, eventually, within

pytestmark = pytest.mark.sqlite_only


Serve = Callable[..., Awaitable[int]]


@pytest.fixture
async def serve(database: Database) -> AsyncIterator[Serve]:
    """Starts servers as ``seize serve`` runs them (a handler goes on when its client leaves,
    where aiohttp's test server would cancel it), each on its own port, given back."""
    async with AsyncExitStack() as running:

        async def start(**overrides: Any) -> int:
            runner = web.AppRunner(make_app(Settings(db=database(), port=0, **overrides)))
            await runner.setup()
            running.push_async_callback(runner.cleanup)
            await web.TCPSite(runner, "127.0.0.1", 0).start()
            port: int = runner.addresses[0][1]
            return port

        yield start


async def raw(port: int, head: str, body: bytes = b"") -> tuple[int, dict[str, str], bytes]:
    """One request as written, over its own connection: the status, headers and body."""
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    try:
        writer.write(head.replace("\n", "\r\n").encode() + b"\r\n" + body)
        status_line, *lines = (await reader.readuntil(b"\r\n\r\n")).decode().split("\r\n")
        headers = dict(line.lower().split(": ", 1) for line in lines if line)
        answer = await reader.readexactly(int(headers.get("content-length", 0)))
        return int(status_line.split()[1]), headers, answer
    finally:
        writer.close()


def head(path: str, length: int, method: str = "POST", token: str | None = None) -> str:
    """A request's head, announcing a JSON body of ``length`` bytes."""
    authorization = f"Authorization: Bearer {token}\n" if token else ""
    return (
        f"{method} {path} HTTP/1.1\nHost: seize\n{authorization}"
        f"Content-Type: application/json\nContent-Length: {length}\n"
    )


async def test_a_body_announced_over_the_limit_is_refused_before_it_is_read(
    serve: Serve,
) -> None:
    # A server that waited for the rest of the body would wait past the test's deadline, and
    # fail it, rather than answer 408: the answer coming at all says the body went unread.
    port = await serve(body_timeout=10 * PATIENCE)
    status, headers, body = await within(
        raw(port, head("/api/tables", 100_000_000), b'{"system": "awarene'),
        "the server waited for a body it should have refused unread",
    )
    assert status == 413 and json.loads(body)["field"] == "body"
    assert headers["connection"] == "close"


async def test_a_body_sent_in_chunks_is_refused_once_it_grows_past_the_limit(
    serve: Serve,
) -> None:
    chunked = "POST /api/tables HTTP/1.1\nHost: seize\nTransfer-Encoding: chunked\n"
    chunk = b"8000\r\n" + b" " * 0x8000 + b"\r\n"
    status, _, body = await within(
        raw(await serve(), chunked, chunk * 3), "a growing body was never refused"
    )
    assert status == 413 and json.loads(body)["error"] == "too_large"


async def test_a_body_that_stops_arriving_times_out(serve: Serve) -> None:
    port = await serve(body_timeout=0.5)  # the timeout under test, the server's own
    started = time.monotonic()
    status, headers, body = await within(
        raw(port, head("/api/tables", 200), b'{"system": "awarene'), "no answer came"
    )
    assert status == 408 and headers["connection"] == "close"
    assert json.loads(body) == {
        "error": "timeout",
        "message": "body: did not arrive within 0.5 seconds",
        "field": "body",
    }
    # Not before its half second; and after it, not after the default's ten seconds, a margin
    # that no load on the machine closes: the setting ended the wait, not the default.
    assert 0.5 <= time.monotonic() - started < Settings().body_timeout


async def test_an_abandoned_upload_is_logged_once_as_that_and_not_as_a_failure(
    serve: Serve, caplog: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch
) -> None:
    caplog.set_level(logging.INFO, logger="seize")
    reading = 0  # bodies the server has begun to read
    read_body = api.read_body

    async def watched(request: web.Request) -> bytes:
        nonlocal reading
        reading += 1
        return await read_body(request)

    monkeypatch.setattr(api, "read_body", watched)
    port = await serve()

    def begun(bodies: int) -> Callable[[], bool]:
        return lambda: reading > bodies

    for n in range(3):
        _, writer = await asyncio.open_connection("127.0.0.1", port)
        writer.write(head("/api/tables", 200).replace("\n", "\r\n").encode() + b'\r\n{"sys')
        await writer.drain()
        await eventually(begun(n), "the server never began to read the body")
        writer.close()  # left while the handler waits for the rest of the body
    await eventually(lambda: len(_abandoned(caplog)) >= 3, "an abandoned upload was not logged")
    assert len(_abandoned(caplog)) == 3
    assert all(r.levelno == logging.INFO and r.exc_info is None for r in caplog.records)
    assert not [r for r in caplog.records if getattr(r, "status", None) == 500]
    assert [getattr(r, "status", "") for r in _abandoned(caplog)] == [None] * 3


def _abandoned(caplog: pytest.LogCaptureFixture) -> list[logging.LogRecord]:
    return [r for r in caplog.records if "abandoned" in r.getMessage()]


async def test_a_device_report_is_refused_by_its_announced_length_alone(client: Client) -> None:
    table = await new_table(client, "awareness")
    put = head(f"/api/tables/{table['id']}/devices/tray", 60_000, "PUT", table["gm_token"])
    assert client.server.port is not None
    status, _, body = await within(raw(client.server.port, put), "no answer came")  # no byte
    assert status == 413 and "4096" in json.loads(body)["message"]


NOT_FINITE = ["NaN", "Infinity", "-Infinity", "1e999"]


@pytest.mark.parametrize("number", NOT_FINITE)
async def test_a_device_report_with_a_number_json_has_not_is_refused(
    client: Client, number: str
) -> None:
    table = await new_table(client, "awareness")
    answer = await client.put(
        f"/api/tables/{table['id']}/devices/tray",
        data=f'{{"connected": true, "temp": {number}}}',
        headers={**bearer(table["gm_token"]), "Content-Type": "application/json"},
    )
    refused = await answer.json()
    assert answer.status == 400 and refused["field"] == "temp"
    assert "finite" in refused["message"]
    listed = await client.get(
        f"/api/tables/{table['id']}/devices", headers=bearer(table["gm_token"])
    )
    assert (await listed.json())["devices"] == {}


@pytest.mark.parametrize("number", NOT_FINITE)
async def test_a_command_with_a_number_json_has_not_is_refused_naming_the_field(
    client: Client, number: str
) -> None:
    table = await new_table(client, "four-color")
    answer = await client.post(
        f"/api/tables/{table['id']}/commands",
        data=f'{{"type": "join", "member": {{"id": "h1", "name": "H", "kind": "hero", '
        f'"x": [1, {number}]}}}}',
        headers={**bearer(table["gm_token"]), "Content-Type": "application/json"},
    )
    refused = await answer.json()
    assert answer.status == 400 and refused["field"] == "member.x.1"


@pytest.mark.parametrize(
    ("system", "command", "field"),
    [
        (
            "awareness",
            {"sheet": {"id": "a", "name": "A", "perception": 10**20, "stealth": 5,
                       "coordination": 5}},
            "join.sheet.perception",
        ),
        (
            "awareness",
            {"sheet": {"id": "a", "name": "A", "perception": 5, "stealth": 5,
                       "coordination": -100}},
            "join.sheet.coordination",
        ),
        (
            "megatraveller-rcs",
            {"character": {"id": "a", "name": "A", "side": "crew", "dex": 7, "movement": 100}},
            "join.character.movement",
        ),
    ],
)  # fmt: skip
async def test_a_sheets_number_past_two_digits_is_refused_naming_it(
    client: Client, system: str, command: dict[str, Any], field: str
) -> None:
    """A slip of the finger, and past 2^53 a number a browser would show as another."""
    table = await new_table(client, system)
    answer = await client.post(
        f"/api/tables/{table['id']}/commands",
        json={"type": "join", **command},
        headers=bearer(table["gm_token"]),
    )
    refused = await answer.json()
    assert answer.status == 422 and refused["field"] == field, refused
    view = await client.get(f"/api/tables/{table['id']}", headers=bearer(table["gm_token"]))
    assert (await view.json())["seq"] == 0


async def test_a_device_inside_the_server_cannot_keep_a_nan(client: Client) -> None:
    table = await new_table(client, "awareness")
    seize = client.app[SEIZE]
    with pytest.raises(ReportError, match="temp: must be a finite number"):
        await record(seize, table["id"], "tray", {"connected": True, "temp": float("nan")})


@pytest.mark.parametrize("value", ["inf", "nan", "-inf"])
def test_settings_refuse_numbers_that_are_not_finite(value: str) -> None:
    with pytest.raises(ValidationError, match="heartbeat"):
        Settings(heartbeat=value)


async def test_creating_a_table_with_null_is_refused_as_the_document_says(client: Client) -> None:
    answer = await client.post(
        "/api/tables", data="null", headers={"Content-Type": "application/json"}
    )
    assert answer.status == 422
    document: dict[str, Any] = client.app[OPENAPI]
    operation = document["paths"]["/api/tables"]["post"]["requestBody"]
    assert operation["required"] is True
    schema = document["components"]["schemas"]["NewTable"]
    assert schema["type"] == "object" and {"system", "name"} <= set(schema["required"])
