"""A real server on loopback over a real database, and clients that speak to it.

The server's fixtures run each test once per backend (``backend``): a fresh SQLite file, and a
fresh schema in a real PostgreSQL. A module whose tests exercise devices or scripts rather than
the store is marked ``sqlite_only`` and runs once, on SQLite.
"""

from __future__ import annotations

import itertools
from collections.abc import Awaitable, Callable, Iterator
from contextlib import ExitStack
from pathlib import Path
from typing import Any

import pytest
from aiohttp import web
from aiohttp.test_utils import TestClient

from server.run.app import make_app
from server.settings import Settings

from .databases import BACKENDS, POSTGRES, postgres_missing, postgres_schema

Client = TestClient[web.Request, web.Application]
MakeClient = Callable[..., Awaitable[Client]]
Database = Callable[[], Path | str]


def pytest_report_header() -> str:
    missing = postgres_missing()
    if missing is None:
        return f"postgresql: {POSTGRES}"
    return f"postgresql: its tests are skipped (fail under CI): {missing}"


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    if "backend" in metafunc.fixturenames:
        one = metafunc.definition.get_closest_marker("sqlite_only") is not None
        metafunc.parametrize("backend", BACKENDS[:1] if one else BACKENDS, indirect=True)


@pytest.fixture
def backend(request: pytest.FixtureRequest) -> str:
    """The backend under test: each one in turn (above), else SQLite (the adapters' tests)."""
    name: str = getattr(request, "param", "sqlite")
    return name


@pytest.fixture
def database(backend: str, tmp_path: Path) -> Iterator[Database]:
    """Makes a fresh, empty database of the backend under test, each time it is called."""
    with ExitStack() as made:
        counter = itertools.count()

        def fresh() -> Path | str:
            if backend == "sqlite":
                return tmp_path / f"seize-{next(counter)}.db"
            return made.enter_context(postgres_schema())

        yield fresh


@pytest.fixture
def settings(database: Database) -> Settings:
    return Settings(db=database(), port=0)


@pytest.fixture
async def client(aiohttp_client: Any, settings: Settings) -> Client:
    """A client of a server listening on 127.0.0.1, storing to a fresh database."""
    made: Client = await aiohttp_client(make_app(settings))
    return made


@pytest.fixture
async def make_client(aiohttp_client: Any, database: Database) -> MakeClient:
    """A server with other settings, for the tests of limits."""

    async def make(**overrides: Any) -> Client:
        settings = Settings(db=database(), port=0, **overrides)
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
