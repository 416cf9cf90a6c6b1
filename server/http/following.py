"""Following a table live: WebSocket and Server-Sent Events.

On connecting, a subscriber says the last sequence it saw (``?after=N`` or ``Last-Event-ID``)
and first gets every event since then, each as its role may see it, then the current view;
without one it gets the current view alone. Then it follows live. The catch-up is handed over
right after subscribing, with no await between, so nothing falls between the two.

A WebSocket client may also send commands on it (``server.http.socket_commands``). Each is answered
after the socket has been sent the command's own events, so the answer is the last word on it:
a client that has its answer has already been shown what its command did.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import socket
from collections.abc import Awaitable, Callable

from aiohttp import WSCloseCode, WSMessage, WSMsgType, web

from rules.roles import Viewer
from server.http import oversized, socket_commands
from server.http.api import AFTER, caller, game_of, sequence_param, view_json
from server.http.context import SEIZE, Seize
from server.http.routes import EVERYONE, Content, Route, refusals
from server.live.hub import (
    REVOKED,
    TOO_SLOW,
    Frame,
    Place,
    SocketSubscriber,
    StreamSubscriber,
    Subscriber,
    event_frame,
    view_frame,
)
from server.tables.access import presented
from server.tables.games import Game

SLOW = 4008  # WebSocket close code: the client fell behind and should resume
SEND_BUFFER = 64 * 1024  # kernel memory a live connection may hold
LARGEST_READ = 4 * 1024 * 1024
"""The largest message a socket reads (aiohttp's default): one over ``max_body`` but within
this is refused and the socket goes on; a larger one would cost memory to read, and the
connection is closed with 1009 (message too big), as the WebSocket protocol provides, once the
rest of it has been read and let go (``server.http.oversized``)."""
_running: set[asyncio.Task[object]] = set()
log = logging.getLogger("seize")


def _in_background(work: Awaitable[object]) -> None:
    """Run ``work`` beside the connection, held until it is done (the loop keeps only a weak
    reference to a task)."""
    task = asyncio.ensure_future(work)
    _running.add(task)
    task.add_done_callback(_running.discard)


async def _stamp_seen(seize: Seize, token_hash: bytes) -> None:
    """Stamp a GM's device as seen, for the console's list of devices; a store that is away
    costs the stamp, never the connection."""
    try:
        await seize.store.note_seen(token_hash)
    except Exception:
        log.warning("a GM device's last sight not stamped", exc_info=True)


def bound_send_buffer(request: web.Request) -> None:
    """Cap the socket's send buffer: a stalled client's backlog then shows in the server, which
    tells it to resume, instead of parking megabytes in the kernel for every subscriber."""
    transport = request.transport
    sock = transport.get_extra_info("socket") if transport is not None else None
    if sock is not None:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, SEND_BUFFER)


Seen = tuple[int, str]
"""A view as JSON and the sequence it shows: taken before a connection is set up, both to refuse
a table this version cannot show and to spare the catch-up rendering it again."""


def seen(game: Game, viewer: Viewer) -> Seen:
    return game.table.version, view_json(game, viewer)


def catch_up(game: Game, viewer: Viewer, after: int | None, early: Seen) -> list[Frame]:
    """The events after the one the viewer numbers ``after``, and the view, as it numbers
    them (``rules.numbering``)."""
    table = game.table
    numbering = table.numbering
    frames = []
    if after is not None:
        frames = [
            event_frame(number, json.dumps(event), None)
            for number, event in numbering.since(viewer, after, lambda seq: table.log[seq - 1])
        ]
    version, view = early
    if version != table.version:  # commands came while the connection was set up
        view = table.view(viewer).model_dump_json()
    frames.append(view_frame(numbering.count(viewer), view))
    return frames


async def _start(
    game: Game, subscriber: Subscriber, request: web.Request, after: int | None, early: Seen
) -> None:
    seize = request.app[SEIZE]
    if subscriber.viewer.is_gm:
        _in_background(_stamp_seen(seize, subscriber.token_hash))
    # The table as loaded now: if it left memory while the connection was set up, commands
    # since went to it as loaded afresh, and the catch-up must include them. Nothing runs
    # between this and the registration and catch-up below (no await), so no event falls
    # between the catch-up and what the hub delivers after it.
    current = await seize.tables.get(game.id)
    assert current is not None  # tables are never deleted
    if after is not None:  # it may have seen further on another server, or long ago
        # ``after`` is the viewer's number: where it has seen to, as a sequence of the table's
        numbering, viewer = current.table.numbering, subscriber.viewer
        current = await seize.follower.reaching(current, numbering.position(viewer, after))
        numbering = current.table.numbering
        current = await seize.tables.since(current, numbering.position(viewer, after))
    current.viewers.add(subscriber.viewer)  # one of the table's: its token said so
    seize.hub.subscribe(game.id, subscriber)
    for frame in catch_up(current, subscriber.viewer, after, early):
        subscriber.push(frame, catching_up=True)
    current.settle()  # the older events read back for the catch-up are let go again


def _after(request: web.Request, raw: str | None) -> int | None:
    return sequence_param(raw) if raw is not None else None


async def websocket(request: web.Request) -> web.WebSocketResponse:
    seize = request.app[SEIZE]
    game = await game_of(request)
    principal = await caller(request, game)
    after = _after(request, request.query.get("after"))
    early = seen(game, principal.viewer)  # refuses, before upgrading, a table it cannot show
    largest = max(LARGEST_READ, 2 * seize.settings.max_body)
    ws = web.WebSocketResponse(
        heartbeat=seize.settings.heartbeat, compress=False, max_msg_size=largest
    )
    await ws.prepare(request)
    oversized.bound(request, largest)
    bound_send_buffer(request)
    transport = request.transport
    assert transport is not None  # prepared: the connection is open (asyncio's or uvloop's)

    def close(reason: str) -> None:
        code: int
        if reason == REVOKED:  # not to come back: the token is no longer good
            code, message = WSCloseCode.POLICY_VIOLATION, b"this link was revoked"
        else:
            code = SLOW if reason == TOO_SLOW else WSCloseCode.GOING_AWAY
            message = b"resume with ?after=<seq>"
        _in_background(ws.close(code=code, message=message))

    subscriber = SocketSubscriber(
        principal.viewer, principal.token_hash, seize.settings.subscriber_backlog, transport, close
    )
    await _start(game, subscriber, request, after, early)
    seize.sockets.add(ws)
    token = presented(request)
    assert token is not None  # the caller was resolved from it
    others = request.app.get(socket_commands.MESSAGES, {})

    async def answer(message: WSMessage, place: Place, read_on: Callable[[], None]) -> None:
        try:
            with contextlib.suppress(ConnectionError):  # the client left while its command ran
                await socket_commands.reply(
                    seize, game.id, token, message, place, read_on, others, subscriber.reply
                )
        finally:
            place.abandon()  # nothing more will fill it (the client left)
            read_on()  # answered without waiting at a table (refused, or of another kind)

    answering: set[asyncio.Task[None]] = set()
    try:
        async for message in ws:
            if message.type == WSMsgType.ERROR:
                break
            # The next message is read once this one's command waits its turn at the table
            # (or this one is answered): a socket's commands run in the order sent, and a
            # device's burst waits at the table, where it is committed together, rather than
            # here, one commit after another.
            ready: asyncio.Future[None] = asyncio.get_running_loop().create_future()
            place = subscriber.expecting()  # its reply's place: replies go in the order read
            task = asyncio.create_task(answer(message, place, telling(ready)))
            answering.add(task)
            task.add_done_callback(answering.discard)
            await ready
        await asyncio.gather(*answering)
    except ConnectionError:  # the client left while its command ran
        pass
    finally:
        seize.hub.unsubscribe(game.id, subscriber)
        seize.sockets.discard(ws)
    return ws


def telling(ready: asyncio.Future[None]) -> Callable[[], None]:
    """What tells ``ready`` that the socket may read on: its message's command waits its turn
    at its table, or the message is answered. Told more than once, it minds the first."""

    def tell() -> None:
        if not ready.done():
            ready.set_result(None)

    return tell


async def server_sent_events(request: web.Request) -> web.StreamResponse:
    seize = request.app[SEIZE]
    game = await game_of(request)
    principal = await caller(request, game)
    after = _after(request, request.headers.get("Last-Event-ID", request.query.get("after")))
    early = seen(game, principal.viewer)  # refuses, before streaming, a table it cannot show
    response = web.StreamResponse(
        headers={
            "Content-Type": "text/event-stream",
            "Cache-Control": "no-cache",
            "X-Accel-Buffering": "no",
        }
    )
    await response.prepare(request)
    bound_send_buffer(request)
    subscriber = StreamSubscriber(
        principal.viewer, principal.token_hash, seize.settings.subscriber_backlog
    )
    await _start(game, subscriber, request, after, early)
    try:
        while True:
            try:
                frame = await asyncio.wait_for(subscriber.queue.get(), seize.settings.heartbeat)
            except TimeoutError:
                await response.write(b": heartbeat\n\n")
                continue
            if frame.kind == "bye":
                await response.write(subscriber.goodbye().sse)
                break
            await response.write(frame.sse)
            subscriber.sent(frame)
    except ConnectionError:
        pass
    finally:
        seize.hub.unsubscribe(game.id, subscriber)
    return response


ROUTES = [
    Route(
        "GET",
        "/api/tables/{table_id}/ws",
        websocket,
        "Follow the table live, and send commands, over a WebSocket",
        "followWs",
        {101: Content("Switching to WebSocket", media=None), **refusals(400, 401, 403, 404, 429)},
        roles=EVERYONE,
        parameters=(AFTER,),
        description=(
            "The server sends view, event and bye messages; the client may send "
            "command messages, each answered on the socket (answer or refused) "
            "after the command's own events, and dice requests (dice-asked, then "
            "dice-rolled or dice-timed-out). The message shapes are in docs/api.md."
        ),
    ),
    Route(
        "GET",
        "/api/tables/{table_id}/sse",
        server_sent_events,
        "Follow the table live as Server-Sent Events (Last-Event-ID)",
        "followSse",
        {
            200: Content("An event stream", media="text/event-stream"),
            **refusals(400, 401, 403, 404, 429),
        },
        roles=EVERYONE,
        parameters=(AFTER,),
    ),
]
