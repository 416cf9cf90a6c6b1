"""The adapters' tests run against the same real server on loopback as the server's tests (on
SQLite: they exercise the devices, not the store)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import pytest
from aiohttp import web

from server.run.app import Handler, make_app
from server.settings import Settings
from tests.server.conftest import Client, backend, client, database, settings

from .nfc_driver import Senses

__all__ = ["Gate", "backend", "client", "database", "gated", "senses", "settings"]


@dataclass
class Gate:
    """What a server was asked, and whether it lets tables' streams open: closing it with the
    streams dropped leaves a link with no socket to send on."""

    asked: list[tuple[str, str]] = field(default_factory=list)
    streams_open: bool = True

    @property
    def posted(self) -> int:
        """Commands sent by POST."""
        return sum(method == "POST" and path.endswith("/commands") for method, path in self.asked)

    def middleware(self) -> Any:
        @web.middleware
        async def gate(request: web.Request, handler: Handler) -> web.StreamResponse:
            self.asked.append((request.method, request.path))
            if request.path.endswith("/ws") and not self.streams_open:
                raise web.HTTPServiceUnavailable()
            return await handler(request)

        return gate


@pytest.fixture
async def gated(aiohttp_client: Any, settings: Settings) -> tuple[Client, Gate]:
    """A client of a server, and the gate that sees every request it is asked."""
    gate = Gate()
    app = make_app(settings)
    app.middlewares.append(gate.middleware())
    made: Client = await aiohttp_client(app)
    return made, gate


@pytest.fixture
def senses(monkeypatch: pytest.MonkeyPatch) -> Senses:
    """nfcpy's udp driver, watched (see nfc_driver)."""
    return Senses(monkeypatch)
