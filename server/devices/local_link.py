"""The link of a device that ``seize serve`` runs itself (``[[devices]]`` in the settings).

A device inside the server reaches its table without the network: no request to its own
address, no WebSocket to follow the view; a die station reads and changes the table's die
registry the same way (``LocalRegistry``). That round trip was most of a roll's time from the
tray to the subscribers. Everything else is as over HTTP: the same token and role checks, the
same command path (``server.tables.commanding``), the same refusals as the API's problems, and
reports kept where the console reads them.
"""

from __future__ import annotations

from typing import Any

from aiohttp import web

from adapters.link import RefusedError, Turn
from rules.roles import GM, OVERLAY
from server.devices.dice import RegistryError, changing, owners, registry
from server.devices.reports import record
from server.http.context import Seize
from server.tables.access import Principal
from server.tables.commanding import Refusal, apply_command, settled
from server.tables.games import Game
from server.tables.turns import turn_order


class LocalLink:
    """One table of this server, reached in-process with the table's GM token."""

    def __init__(self, seize: Seize, table: str, token: str) -> None:
        self.seize, self.table, self.token = seize, table, token

    async def check(self) -> None:
        """Refuse a table that is not here or a token that is not its GM's, naming which:
        raises ConnectionError, as a link does when its table cannot be reached."""
        await self.reach()

    async def reach(self) -> tuple[Game, Principal]:
        game = await self.seize.tables.get(self.table)
        if game is None:
            raise ConnectionError(f"table: there is no table {self.table!r} on this server")
        try:
            principal = await self.seize.tokens.principal(self.token, game.id)
        except web.HTTPException as refused:
            raise ConnectionError(f"token: {Refusal.of(refused).problem.get('message')}") from None
        if not principal.viewer.is_gm:
            raise ConnectionError("token: a device needs the table's GM token")
        return game, principal

    async def view(self) -> dict[str, Any]:
        game, principal = await self.reach()
        view: dict[str, Any] = game.table.view(principal.viewer).model_dump(mode="json")
        return view

    async def public_order(self) -> list[Turn]:
        game, _ = await self.reach()
        order = turn_order(game.table.view(OVERLAY).model_dump(mode="json"))
        return [{"participant": turn.participant, "placed": turn.placed, "current": turn.current,
                 "done": turn.done} for turn in order.turns]  # fmt: skip

    async def send(self, command: dict[str, Any]) -> tuple[int, dict[str, Any]]:
        """Run the command as the API would, answering with its status and body: a refusal,
        a database out of reach or a failure (the disk full, a bug) is an answer, and the
        device goes on; raised, it would end the device."""
        game, principal = await self.reach()
        outcome = await settled(
            apply_command(self.seize.runner, self.seize.metrics, game, principal, command)
        )
        if isinstance(outcome, Refusal):
            return outcome.status, outcome.problem
        return 200, outcome

    async def report(self, device: str, status: dict[str, Any]) -> None:
        game, _ = await self.reach()
        await record(self.seize, game.id, device, status)

    async def close(self) -> None:
        """Nothing to let go of: the server owns the table."""


class LocalRegistry:
    """The die registry of a table of this server, for a die station the server runs: read
    and changed as the API does for the GM, through the station's link (its token checked at
    each call, as a request's would be). A change refused raises RefusedError, naming the
    field, as a registry over the network raises the server's answer."""

    def __init__(self, link: LocalLink) -> None:
        self.link = link

    async def load(self) -> dict[str, Any]:
        game, _ = await self.link.reach()
        return await registry(self.link.seize, game.id)

    async def change(self, change: dict[str, Any]) -> dict[str, Any]:
        game, _ = await self.link.reach()
        view = game.table.view(GM).model_dump(mode="json")
        try:
            return await changing(self.link.seize, game.id, change, owners(view), None)
        except RegistryError as refused:
            raise RefusedError(f"{refused.field}: {refused}") from None
        except web.HTTPException as refused:
            raise RefusedError(str(Refusal.of(refused).problem.get("message"))) from None

    async def close(self) -> None:
        """Nothing to let go of: the server owns the registry."""
