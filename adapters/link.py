"""The link from a device at the table to a Seize server: it asks what the table is waiting for
and sends the command a reading answers. It speaks the server's HTTP API with the table's GM
token, as any client does."""

from __future__ import annotations

import uuid
from typing import Any

import aiohttp

from adapters.tray_protocol import Roll

View = dict[str, Any]


def awaited(view: View, what: str) -> list[str]:
    return [who for wait in view["awaiting"] if wait["what"] == what for who in wait["who"]]


def command_for_roll(view: View, roll: Roll) -> dict[str, Any] | None:
    """The roll's command: the 2D6 of the next RCS character whose initiative is awaited; in the
    awareness one-pager, the d10 of a pre-emption waiting for its die (the oldest first), else of
    the next character whose initiative is awaited. None when the table waits for no such roll."""
    options = view["options"]
    if (
        len(roll.faces) == 1
        and view["system"] == "awareness"
        and roll.sides == options["die_sides"]
    ):
        die = {"die": roll.faces[0], "source": "device"}
        if who := awaited(view, "preemption"):
            return {"type": "enter_preemption", "character": who[0], **die}
        if who := awaited(view, "initiative"):
            return {"type": "enter_initiative", "character": who[0], **die}
    if (
        view["system"] == "megatraveller-rcs"
        and (who := awaited(view, "roll"))
        and len(roll.faces) == options["initiative_dice"]
        and roll.sides == options["die_sides"]
    ):
        return {
            "type": "enter_roll",
            "character": who[0],
            "dice": list(roll.faces),
            "source": "device",
        }
    return None


class TableLink:
    """One table on one server, reached over HTTP."""

    def __init__(self, server: str, table: str, token: str) -> None:
        self.base = f"{server.rstrip('/')}/api/tables/{table}"
        self.headers = {"Authorization": f"Bearer {token}"}
        self._session: aiohttp.ClientSession | None = None
        self._closed = False

    async def _client(self) -> aiohttp.ClientSession:
        if self._closed:
            raise ConnectionError("the link to the table is closed")
        if self._session is None or self._session.closed:
            # A server that accepts but never answers must not hold a reading forever.
            self._session = aiohttp.ClientSession(
                headers=self.headers, timeout=aiohttp.ClientTimeout(total=10)
            )
        return self._session

    async def view(self) -> View:
        session = await self._client()
        async with session.get(self.base) as answer:
            answer.raise_for_status()
            body: dict[str, Any] = await answer.json()
            view: View = body["view"]
            return view

    async def send(self, command: dict[str, Any]) -> tuple[int, dict[str, Any]]:
        """Send with a fresh idempotency key: a retry of the same reading never applies twice."""
        session = await self._client()
        key = {"Idempotency-Key": uuid.uuid4().hex}
        async with session.post(f"{self.base}/commands", json=command, headers=key) as answer:
            body: dict[str, Any] = await answer.json()
            return answer.status, body

    async def report(self, device: str, status: dict[str, Any]) -> None:
        """Tell the table how this device is, for the GM's console."""
        session = await self._client()
        async with session.put(f"{self.base}/devices/{device}", json=status) as answer:
            answer.raise_for_status()

    async def close(self) -> None:
        self._closed = True
        if self._session is not None:
            await self._session.close()
