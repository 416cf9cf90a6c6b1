"""A real server on loopback with a real SQLite file, and clients that speak to it."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import pytest
from aiohttp import web
from aiohttp.test_utils import TestClient

from server.app import make_app
from server.settings import Settings

Client = TestClient[web.Request, web.Application]
MakeClient = Callable[..., Awaitable[Client]]


@pytest.fixture
def settings(tmp_path: Path) -> Settings:
    return Settings(db=tmp_path / "seize.db", port=0)


@pytest.fixture
async def client(aiohttp_client: Any, settings: Settings) -> Client:
    """A client of a server listening on 127.0.0.1, storing to a file in a temporary folder."""
    made: Client = await aiohttp_client(make_app(settings))
    return made


@pytest.fixture
async def make_client(aiohttp_client: Any, tmp_path: Path) -> MakeClient:
    """A server with other settings, for the tests of limits."""

    async def make(**overrides: Any) -> Client:
        settings = Settings(db=tmp_path / "limits.db", port=0, **overrides)
        made: Client = await aiohttp_client(make_app(settings))
        return made

    return make


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


async def new_table(client: Client, system: str, **options: Any) -> dict[str, Any]:
    answer = await client.post(
        "/api/tables", json={"system": system, "name": "t", "options": options}
    )
    assert answer.status == 201, await answer.text()
    created: dict[str, Any] = await answer.json()
    return created


async def send(
    client: Client,
    table: dict[str, Any],
    command: dict[str, Any],
    token: str | None = None,
    **headers: str,
) -> tuple[int, dict[str, Any]]:
    answer = await client.post(
        f"/api/tables/{table['id']}/commands",
        json=command,
        headers={**bearer(token or table["gm_token"]), **headers},
    )
    body: dict[str, Any] = await answer.json()
    return answer.status, body
