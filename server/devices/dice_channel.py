"""The dice request channel on a table's WebSocket: a VTT asks for a roll, the table's dice
answer it.

A client following the table sends

    {"type": "dice", "id": "d7", "owner": "jena", "sides": 20, "count": 2, "wait": 60}

and is answered at once, ``dice-asked`` (the request is open, with the names of the owner's
registered dice to roll) or ``refused`` (the problem document an HTTP route would give); then,
on the same socket, ``dice-rolled`` with the faces once the owner's dice have rolled them, or
``dice-timed-out`` when ``wait`` seconds passed first, so the VTT rolls by itself. The GM's
token asks for anyone's roll; a player's only for their own characters'. The request is kept in
the die registry, where the station reads it (``server/devices/dice_requests.py``), so any
server's station, or the owner's phone, answers it; an answer written in this process wakes the
socket at once, one from another server is found at the socket's next look at the store. See
docs/api.md.
"""

from __future__ import annotations

import asyncio
import json
import logging
import time
from collections.abc import AsyncIterator
from dataclasses import dataclass
from typing import Any

from aiohttp import web

from rules.roles import GM, Role
from server.devices import dice_requests
from server.devices.dice import owners, registry, swapped
from server.devices.dice_requests import MAX_DICE_ASKED, SIDES, RequestError
from server.errors import problem
from server.http.context import Seize
from server.http.reading import malformed, table_of
from server.http.socket_commands import LONGEST_ID, Later

log = logging.getLogger("seize")

FIELDS = frozenset({"type", "id", "owner", "sides", "count", "wait"})
WAIT = 60.0
"""Seconds a request waits unless it says: long enough to pick up the die and roll it twice."""
LOOK_EVERY = 0.25
"""Seconds between looks at the store for an answer another server's station wrote."""


@dataclass(frozen=True)
class DiceMessage:
    """A client's dice request, well formed."""

    id: str
    owner: str
    sides: int
    count: int
    wait: float


def dice_message(data: dict[str, Any]) -> DiceMessage:
    """The message checked field by field, each refusal naming its field."""
    unknown = sorted(set(data) - FIELDS)
    if unknown:
        raise malformed(unknown[0], "is not a field of a dice request")
    ident, owner = data.get("id"), data.get("owner")
    if not isinstance(ident, str) or not 1 <= len(ident) <= LONGEST_ID:
        raise malformed("id", f"must be a string of 1 to {LONGEST_ID} characters")
    if not isinstance(owner, str) or not owner:
        raise malformed("owner", "must name the character (or gm) whose dice roll")
    sides, count, wait = data.get("sides"), data.get("count", 1), data.get("wait", WAIT)
    if type(sides) is not int or sides not in SIDES:
        raise malformed("sides", f"must be one of {', '.join(map(str, sorted(SIDES)))}")
    if type(count) is not int or not 1 <= count <= MAX_DICE_ASKED:
        raise malformed("count", f"must be a whole number of dice from 1 to {MAX_DICE_ASKED}")
    longest = dice_requests.LONGEST_WAIT
    if isinstance(wait, bool) or not isinstance(wait, int | float) or not 1 <= wait <= longest:
        raise malformed("wait", f"must be seconds from 1 to {longest:g}")
    return DiceMessage(ident, owner, sides, count, float(wait))


class DiceChannel:
    """The dice requests of one server's sockets: each waits beside its socket, and those still
    waiting when the server stops are ended with it."""

    def __init__(self) -> None:
        self._waiting: set[asyncio.Task[None]] = set()

    async def lifetime(self, _: web.Application) -> AsyncIterator[None]:
        yield
        for task in self._waiting:
            task.cancel()
        await asyncio.gather(*self._waiting, return_exceptions=True)

    async def asked(
        self, seize: Seize, table_id: str, token: str, data: dict[str, Any], later: Later
    ) -> dict[str, Any]:
        """Open the request, and answer it later on the socket: refused (an HTTP error) for a
        malformed one, an owner not at the table, or one past the caller's characters."""
        message = dice_message(data)
        game = await table_of(seize, table_id)
        viewer = (await seize.tokens.principal(token, game.id)).viewer
        if viewer.role is Role.OVERLAY:
            raise problem(web.HTTPForbidden, "forbidden", "dice are asked for with the GM's "
                          "token or a player's", rule="roles")  # fmt: skip
        if not viewer.is_gm and message.owner not in viewer.participants:
            # before the owner is looked up: a hidden one is refused as one never there
            raise problem(web.HTTPForbidden, "forbidden", "a player asks for their own "
                          "characters' dice only", rule="roles", field="owner")  # fmt: skip
        if message.owner not in owners(game.table.view(GM).model_dump(mode="json")):
            unknown = f"{message.owner!r} is no character of this table"
            raise problem(web.HTTPUnprocessableEntity, "invalid", unknown, field="owner")
        rid, until = dice_requests.new_id(), time.time() + message.wait
        player = None if viewer.is_gm else viewer.participants

        def ask(book: dict[str, Any]) -> dict[str, Any]:
            return dice_requests.asked(
                book, rid, message.owner, message.sides, message.count, until, player
            )

        try:
            book = await swapped(seize, game.id, ask)
        except RequestError as refused:
            raise problem(web.HTTPConflict, "busy", str(refused), field=refused.field) from None
        task = asyncio.create_task(self._answer(seize, game.id, rid, message.id, until, later))
        self._waiting.add(task)
        task.add_done_callback(self._waiting.discard)
        dice = [one["name"] for one in book["dice"].values() if one["owner"] == message.owner]
        return {"type": "dice-asked", "id": message.id, "dice": dice,
                "claim": message.owner in book["claims"]}  # fmt: skip

    async def _answer(
        self, seize: Seize, table_id: str, rid: str, ident: str, until: float, later: Later
    ) -> None:
        try:
            answer = await awaited(seize, table_id, rid, until)
        except Exception:  # a store away for the whole wait: the VTT rolls by itself
            log.warning("a dice request's answer not read", exc_info=True)
            answer = None
        if answer is None:
            later(json.dumps({"type": "dice-timed-out", "id": ident}))
        else:
            later(json.dumps({"type": "dice-rolled", "id": ident, "faces": answer["faces"],
                              "dice": answer["dice"]}))  # fmt: skip


async def awaited(seize: Seize, table_id: str, rid: str, until: float) -> dict[str, Any] | None:
    """The answer to request ``rid`` once a station wrote it, or None past ``until``; either
    way the request and its answer are taken out of the registry."""
    while time.time() < until:
        with dice_requests.listening(table_id) as heard:
            book = await registry(seize, table_id)
            if rid in book["answers"] or rid not in book["requests"]:
                break
            left = min(LOOK_EVERY, until - time.time())
            if left > 0:
                await asyncio.wait({heard}, timeout=left)
    found: dict[str, Any] = {}

    def take(book: dict[str, Any]) -> dict[str, Any]:
        found["answer"] = book["answers"].get(rid)
        return dice_requests.taken(book, rid)

    await swapped(seize, table_id, take)
    return found.get("answer")
