"""A table's die registry as the devices at the table read it (``GET``/``PUT
/api/tables/{id}/dice``, ``server/devices/dice.py``): whose die is whose, the claims open, and
the dice requests a VTT opened. The die station and the dice tray both read it, so it needs
neither Bluetooth nor a serial port."""

from __future__ import annotations

from typing import Any, Protocol

import aiohttp


class Registry(Protocol):
    """The table's die registry: over the network (``TableRegistry``), or inside the server
    that holds the table. Each raises ConnectionError or an aiohttp error when it cannot be
    read or the change is refused."""

    async def load(self) -> dict[str, Any]: ...

    async def change(self, change: dict[str, Any]) -> dict[str, Any]: ...

    async def close(self) -> None: ...


class TableRegistry:
    """The registry of a table on a server, with the table's GM token."""

    def __init__(self, server: str, table: str, token: str) -> None:
        self.url = f"{server.rstrip('/')}/api/tables/{table}/dice"
        self.headers = {"Authorization": f"Bearer {token}"}
        self._session: aiohttp.ClientSession | None = None

    def _client(self) -> aiohttp.ClientSession:
        if self._session is None:
            self._session = aiohttp.ClientSession(
                headers=self.headers, timeout=aiohttp.ClientTimeout(total=10)
            )
        return self._session

    async def load(self) -> dict[str, Any]:
        async with self._client().get(self.url) as answer:
            answer.raise_for_status()
            body: dict[str, Any] = await answer.json()
            return body

    async def change(self, change: dict[str, Any]) -> dict[str, Any]:
        async with self._client().put(self.url, json=change) as answer:
            answer.raise_for_status()
            body: dict[str, Any] = await answer.json()
            return body

    async def close(self) -> None:
        if self._session is not None:
            await self._session.close()
