"""The link from a device at the table to a Seize server: it knows what the table is waiting
for and sends the command a reading answers. It speaks the server's API with the table's GM
token, as any client does.

What the table waits for is followed live over the table's WebSocket, and commands go over that
same socket, so a reading costs no request of its own (asking for the view before each command
was half of a roll's latency). While the socket is down the link asks with a GET and sends with
a POST instead; each command carries an idempotency key, so one whose socket dropped before its
answer is sent again over HTTP and still applies once. The link never routes a reading by a
view older than its own last command.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import logging
import time
import uuid
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

import aiohttp

from adapters.tray_protocol import Roll

log = logging.getLogger("seize.link")

FRESH_WAIT = 0.5
"""How long a reading waits for the live view to show the link's own last command before it
asks with a GET instead."""

ANSWER_WAIT = 5.0
"""How long a command sent over the socket waits for its answer before it is sent again as a
POST (with the same idempotency key, so it still applies once)."""

FAREWELL = 5.0
"""Seconds after the server said goodbye (a ``bye``: it is shutting down, or drops its streams)
in which the link's failing reconnects are expected, and logged at debug only: devices that
stop with the server stop quietly, and one that waits out a restart says nothing of it."""

View = dict[str, Any]
Answer = tuple[int, dict[str, Any]]
Turn = dict[str, Any]
"""One turn of the public order: its ``participant`` (or None), whether it is ``placed``,
``current`` and ``done``."""


class Link(Protocol):
    """How an adapter reaches its table: over the network (``TableLink``), or inside the server
    that holds the table. Each raises ConnectionError or an aiohttp error when the table cannot
    be reached; a command the table refuses is an answer, not an error."""

    async def view(self) -> View: ...

    async def public_order(self) -> list[Turn]:
        """The table's turn order as everyone may see it (the overlay's): no hidden
        participant is in it."""
        ...

    async def send(self, command: dict[str, Any]) -> tuple[int, dict[str, Any]]: ...

    async def report(self, device: str, status: dict[str, Any]) -> None: ...

    async def close(self) -> None: ...


class RefusedError(ConnectionError):
    """A change its table refused, told by a link inside the table's server: no status to
    show, so the message says why."""


def unanswered(error: aiohttp.ClientError | OSError) -> str:
    """Why a reading did not reach its table, for the console: a refusal of the link itself
    (a revoked token: 401) is not the server being away."""
    if isinstance(error, aiohttp.ClientResponseError):
        return f"the server answered {error.status}"
    if isinstance(error, RefusedError):
        return f"the server refused it ({error})"
    return "the server is unreachable"


def awaited(view: View, what: str) -> list[str]:
    return [who for wait in view["awaiting"] if wait["what"] == what for who in wait["who"]]


@dataclass(frozen=True)
class Ask:
    """A roll the table waits for: the command that enters it, whose it is, and its dice."""

    command: str
    character: str
    sides: int
    count: int

    def command_for(self, faces: Sequence[int], dice: Sequence[str] = ()) -> dict[str, Any]:
        """The command entering ``faces``, rolled by the smart dice ``dice`` if any."""
        rolled = {"dice": list(faces)} if self.command == "enter_roll" else {"die": faces[0]}
        ids = {"dice_ids": list(dice)} if dice else {}
        return {"type": self.command, "character": self.character, **rolled,
                "source": "device", **ids}  # fmt: skip


def asked(view: View, may: Callable[[str], bool] = lambda _: True) -> Ask | None:
    """The first roll the table waits for from a character ``may`` allows: the 2D6 of an RCS
    character whose initiative is awaited; in the awareness one-pager, the d10 of a
    pre-emption waiting for its die (the oldest first), else of a character whose initiative
    is awaited. None when the table waits for no such roll."""
    options = view["options"]
    if view["system"] == "awareness":
        for what, command in (("preemption", "enter_preemption"),
                              ("initiative", "enter_initiative")):  # fmt: skip
            if who := [one for one in awaited(view, what) if may(one)]:
                return Ask(command, who[0], options["die_sides"], 1)
    if view["system"] == "megatraveller-rcs" and (
        who := [one for one in awaited(view, "roll") if may(one)]
    ):
        return Ask("enter_roll", who[0], options["die_sides"], options["initiative_dice"])
    return None


def command_for_roll(
    view: View, roll: Roll, may: Callable[[str], bool] = lambda _: True
) -> dict[str, Any] | None:
    """The roll's command, for the first roll awaited (from a character ``may`` allows) that
    has as many dice of the roll's size; None when the table waits for no such roll."""
    ask = asked(view, may)
    if ask is None or (ask.sides, ask.count) != (roll.sides, len(roll.faces)):
        return None
    return ask.command_for(roll.faces)


class TableLink:
    """One table on one server: the view followed and commands sent over its WebSocket, with
    HTTP while that is down."""

    def __init__(self, server: str, table: str, token: str, *, max_pause: float = 5.0) -> None:
        self.base = f"{server.rstrip('/')}/api/tables/{table}"
        self.headers = {"Authorization": f"Bearer {token}"}
        self.max_pause = max_pause
        self._session: aiohttp.ClientSession | None = None
        self._closed = False
        self._follower: asyncio.Task[None] | None = None
        self._live: tuple[int, View] | None = None  # (seq, view) while the stream is up
        self._moved = asyncio.Condition()
        self._caused = 0  # the seq of the link's own last command
        self._socket: aiohttp.ClientWebSocketResponse | None = None  # while the stream is up
        self._answers: dict[str, asyncio.Future[dict[str, Any]]] = {}  # by command message id
        self._ids = itertools.count(1)
        self._news: asyncio.Queue[dict[str, Any] | None] = asyncio.Queue()
        self.streams = 0  # how many times the table's stream was opened
        self._farewell: float | None = None  # when the server last said goodbye (monotonic)

    async def _client(self) -> aiohttp.ClientSession:
        if self._closed:
            raise ConnectionError("the link to the table is closed")
        if self._session is None or self._session.closed:
            # A server that accepts but never answers must not hold a reading forever.
            self._session = aiohttp.ClientSession(
                headers=self.headers, timeout=aiohttp.ClientTimeout(total=10)
            )
        return self._session

    @property
    def seen(self) -> int | None:
        """The sequence number of the view the stream gave last; None while it is down."""
        return None if self._live is None else self._live[0]

    async def view(self) -> View:
        """The table's view, no older than the link's own last command. The first call starts
        following the table."""
        if self._follower is None and not self._closed:
            self._follower = asyncio.create_task(self._follow())
        if self._live is not None:
            with contextlib.suppress(TimeoutError):
                async with asyncio.timeout(FRESH_WAIT), self._moved:
                    await self._moved.wait_for(self._settled)
        live = self._live
        if live is not None and live[0] >= self._caused:
            return live[1]
        return await self._get()

    async def public_order(self) -> list[Turn]:
        """Read from Foundry's rendering of the public view (docs/foundry.md), which the GM's
        token may ask for: the turns in order."""
        session = await self._client()
        async with session.get(f"{self.base}/foundry/combat", params={"as": "public"}) as answer:
            answer.raise_for_status()
            combat: dict[str, Any] = await answer.json()
        turns = [(one["flags"]["seize"], one["initiative"]) for one in combat["combatants"]]
        return [{"participant": turn["participant"], "placed": initiative is not None,
                 "current": turn["current"], "done": turn["done"]}
                for turn, initiative in turns]  # fmt: skip

    def _settled(self) -> bool:
        """The stream is down, or it shows the link's own last command."""
        return self._live is None or self._live[0] >= self._caused

    async def _get(self) -> View:
        session = await self._client()
        async with session.get(self.base) as answer:
            answer.raise_for_status()
            body: dict[str, Any] = await answer.json()
            view: View = body["view"]
            return view

    async def _follow(self) -> None:
        """Keep the table's stream open, reconnecting with growing pauses, and hand on what it
        says: answers to their commands at once, the table's news to ``_relay``, so an answer is
        never kept waiting behind a view that a reading is holding up."""
        relay = asyncio.create_task(self._relay())
        pause = 0.05
        try:
            while True:
                try:
                    session = await self._client()
                    async with session.ws_connect(f"{self.base}/ws", heartbeat=10) as ws:
                        pause = 0.05
                        self.streams += 1
                        self._socket = ws
                        async for message in ws:
                            if message.type is not aiohttp.WSMsgType.TEXT:
                                break
                            self._take(message.json())
                except (aiohttp.ClientError, OSError, ValueError) as error:
                    said = self._farewell
                    expected = said is not None and time.monotonic() - said < FAREWELL
                    log.log(
                        logging.DEBUG if expected else logging.INFO,
                        "table stream lost",
                        extra={"error": repr(error)},
                    )
                finally:
                    self._lost()
                await asyncio.sleep(pause)
                pause = min(pause * 2, self.max_pause)
        finally:
            relay.cancel()

    def _take(self, message: dict[str, Any]) -> None:
        if message.get("type") == "bye":
            self._farewell = time.monotonic()
        if message.get("type") in ("answer", "refused"):
            waiting = self._answers.pop(str(message.get("id")), None)
            if waiting is not None and not waiting.done():
                waiting.set_result(message)
        else:
            self._news.put_nowait(message)

    def _lost(self) -> None:
        """The stream is down: commands still waiting for their answers go over HTTP."""
        self._socket = None
        for waiting in self._answers.values():
            if not waiting.done():
                waiting.set_exception(ConnectionError("the table's stream dropped"))
        self._answers.clear()
        self._news.put_nowait(None)

    async def _relay(self) -> None:
        while True:
            await self._heard(await self._news.get())

    async def _heard(self, message: dict[str, Any] | None) -> None:
        """A message from the stream (None: the stream is down). Events that end a command
        carry the view after it; the first message is the view itself."""
        if message is not None and message.get("view") is None:
            return
        async with self._moved:
            self._live = None if message is None else (message["seq"], message["view"])
            self._moved.notify_all()

    async def send(self, command: dict[str, Any]) -> Answer:
        """Send over the table's socket, or as a POST while it is down or if it drops before
        answering; one fresh idempotency key serves both, so a reading never applies twice."""
        key = uuid.uuid4().hex
        answer = await self._over_socket(command, key) or await self._post(command, key)
        status, body = answer
        if status == 200:
            self._caused = max(self._caused, body["seq"])
        return answer

    async def _over_socket(self, command: dict[str, Any], key: str) -> Answer | None:
        """The answer over the socket; None when it could not carry the command."""
        ws = self._socket
        if ws is None or ws.closed:
            return None
        ident = f"c{next(self._ids)}"
        waiting = self._answers[ident] = asyncio.get_running_loop().create_future()
        message = {"type": "command", "id": ident, "command": command, "idempotency_key": key}
        try:
            await ws.send_json(message)
            async with asyncio.timeout(ANSWER_WAIT):
                reply = await waiting
        except (ConnectionError, TimeoutError, aiohttp.ClientError) as error:
            log.info("command sent again over HTTP", extra={"error": repr(error)})
            return None
        finally:
            self._answers.pop(ident, None)
        if reply["type"] == "answer":
            return 200, {"seq": reply["seq"], "events": reply["events"]}
        return reply["status"], reply["problem"]

    async def _post(self, command: dict[str, Any], key: str) -> Answer:
        session = await self._client()
        headers = {"Idempotency-Key": key}
        async with session.post(f"{self.base}/commands", json=command, headers=headers) as answer:
            body: dict[str, Any] = await answer.json()
            return answer.status, body

    async def report(self, device: str, status: dict[str, Any]) -> None:
        """Tell the table how this device is, for the GM's console."""
        session = await self._client()
        async with session.put(f"{self.base}/devices/{device}", json=status) as answer:
            answer.raise_for_status()

    async def close(self) -> None:
        self._closed = True
        if self._follower is not None:
            self._follower.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._follower
        if self._session is not None:
            await self._session.close()
