"""PostgreSQL out of reach: commands are answered 503 with Retry-After and nothing is
acknowledged, tables in memory are still shown, and once the database is back the server
carries on from what was committed. The database is reached through a proxy the test cuts."""

from __future__ import annotations

import asyncio
from types import TracebackType
from typing import Any
from urllib.parse import urlsplit

from server.run.app import make_app
from server.settings import Settings
from tests.server.conftest import Client, bearer, new_table, send
from tests.server.databases import postgres_schema

HERO = {"type": "join", "member": {"id": "h1", "name": "Hero", "kind": "hero"}}
VILLAIN = {"type": "join", "member": {"id": "v1", "name": "Villain", "kind": "villain"}}


class Proxy:
    """A TCP proxy to PostgreSQL that can be cut, as a network or the database going away
    would: open connections are dropped and new ones closed at once, until it is restored."""

    def __init__(self, url: str) -> None:
        parts = urlsplit(url)
        self._target = (parts.hostname or "127.0.0.1", parts.port or 5432)
        self._parts = parts
        self._writers: set[asyncio.StreamWriter] = set()
        self.open = True
        self.url = ""

    async def __aenter__(self) -> Proxy:
        self._server = await asyncio.start_server(self._carry, "127.0.0.1", 0)
        port = self._server.sockets[0].getsockname()[1]
        user = f"{self._parts.username}@" if self._parts.username else ""
        self.url = self._parts._replace(netloc=f"{user}127.0.0.1:{port}").geturl()
        return self

    async def __aexit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        trace: TracebackType | None,
    ) -> None:
        self.cut()
        self._server.close()
        await self._server.wait_closed()

    def cut(self) -> None:
        self.open = False
        for writer in list(self._writers):
            writer.transport.abort()

    def restore(self) -> None:
        self.open = True

    async def _carry(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        if not self.open:
            writer.transport.abort()
            return
        upstream_reader, upstream_writer = await asyncio.open_connection(*self._target)
        self._writers |= {writer, upstream_writer}
        await asyncio.gather(
            _pipe(reader, upstream_writer), _pipe(upstream_reader, writer), return_exceptions=True
        )
        self._writers -= {writer, upstream_writer}


async def _pipe(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
    try:
        while data := await reader.read(65536):
            writer.write(data)
            await writer.drain()
    finally:
        writer.transport.abort()


async def test_an_unreachable_database_answers_503_and_acknowledges_nothing(
    aiohttp_client: Any,
) -> None:
    with postgres_schema() as url:
        async with Proxy(url) as proxy:
            client: Client = await aiohttp_client(make_app(Settings(db=proxy.url, port=0)))
            table = await new_table(client, "four-color")
            assert (await send(client, table, HERO))[0] == 200

            proxy.cut()
            shown = await client.get(
                f"/api/tables/{table['id']}", headers=bearer(table["gm_token"])
            )
            assert shown.status == 200 and (await shown.json())["seq"] == 1  # from memory
            refused = await client.post(
                f"/api/tables/{table['id']}/commands",
                json=VILLAIN,
                headers=bearer(table["gm_token"]),
            )
            assert refused.status == 503 and refused.headers["Retry-After"] == "5"
            assert (await refused.json())["error"] == "unavailable"
            health = await client.get("/healthz")
            assert health.status == 503 and health.headers["Retry-After"] == "5"
            assert (await health.json())[
                "message"
            ] == "this server cannot reach its database just now"
            created = await client.post(
                "/api/tables", json={"system": "four-color", "name": "t", "options": {}}
            )
            assert created.status == 503

            proxy.restore()
            status, answer = await send(client, table, VILLAIN)
            assert status == 200 and answer["seq"] == 2  # the refused command was not kept
            log = await client.get(
                f"/api/tables/{table['id']}/events", headers=bearer(table["gm_token"])
            )
            assert [e["event"]["member"]["id"] for e in (await log.json())["events"]] == [
                "h1",
                "v1",
            ]
            assert (await client.get("/healthz")).status == 200
