"""Following a table live: WebSocket and Server-Sent Events.

On connecting, a subscriber says the last sequence it saw (``?after=N`` or ``Last-Event-ID``)
and first gets every event since then, each as its role may see it, then the current view;
without one it gets the current view alone. Then it follows live. Registering with the hub and
taking the catch-up happen with no await between them, so nothing falls between the two.
"""

from __future__ import annotations

import asyncio
import contextlib
import socket
from collections.abc import Awaitable, Callable

from aiohttp import WSCloseCode, WSMsgType, web

from rules.roles import Viewer
from server.api import caller, game_of, sequence_param
from server.context import SEIZE
from server.games import Game
from server.hub import TOO_SLOW, Frame, Subscriber, event_frame, view_frame

routes = web.RouteTableDef()

SLOW = 4008  # WebSocket close code: the client fell behind and should resume
SEND_BUFFER = 64 * 1024  # kernel memory a live connection may hold before it counts as slow


def bound_send_buffer(request: web.Request) -> None:
    """Cap the socket's send buffer: a stalled client then fills its queue here (and is told to
    resume) instead of parking megabytes in the kernel for every subscriber."""
    transport = request.transport
    sock = transport.get_extra_info("socket") if transport is not None else None
    if sock is not None:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, SEND_BUFFER)


def catch_up(game: Game, viewer: Viewer, after: int | None) -> list[Frame]:
    table = game.table
    frames = []
    if after is not None:
        frames = [
            event_frame(seq, table.censor(table.log[seq - 1], viewer), None)
            for seq in range(after + 1, table.version + 1)
        ]
    frames.append(view_frame(table.version, table.view(viewer).model_dump_json()))
    return frames


async def pump(
    subscriber: Subscriber,
    send: Callable[[Frame], Awaitable[None]],
    frames: list[Frame],
    heartbeat: Callable[[], Awaitable[None]] | None,
    every: float,
) -> None:
    """Send the catch-up, then live frames, until the subscriber is dropped."""
    for frame in frames:
        await send(frame)
        subscriber.delivered = frame.seq
    while True:
        try:
            frame = await asyncio.wait_for(subscriber.queue.get(), every if heartbeat else None)
        except TimeoutError:
            assert heartbeat is not None
            await heartbeat()
            continue
        if frame.kind == "bye":
            await send(subscriber.goodbye())
            return
        await send(frame)
        subscriber.delivered = frame.seq


@routes.get("/api/tables/{table_id}/ws")
async def websocket(request: web.Request) -> web.WebSocketResponse:
    seize = request.app[SEIZE]
    game = game_of(request)
    principal = caller(request, game)
    raw = request.query.get("after")
    after = sequence_param(raw) if raw is not None else None
    ws = web.WebSocketResponse(heartbeat=seize.settings.heartbeat)
    await ws.prepare(request)
    bound_send_buffer(request)
    subscriber = seize.hub.subscribe(game.id, principal.viewer)
    frames = catch_up(game, principal.viewer, after)
    seize.sockets.add(ws)

    async def send(frame: Frame) -> None:
        await ws.send_str(frame.json)

    sending = asyncio.create_task(pump(subscriber, send, frames, None, 0))
    try:
        receiving = asyncio.create_task(_drain(ws))
        done, _ = await asyncio.wait({sending, receiving}, return_when=asyncio.FIRST_COMPLETED)
        if sending in done and not sending.cancelled() and sending.exception() is None:
            code = SLOW if subscriber.reason == TOO_SLOW else WSCloseCode.GOING_AWAY
            await ws.close(code=code, message=b"resume with ?after=<last seq>")
        for task in (sending, receiving):
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError, ConnectionError):
                await task
    finally:
        seize.hub.unsubscribe(game.id, subscriber)
        seize.sockets.discard(ws)
    return ws


async def _drain(ws: web.WebSocketResponse) -> None:
    """Read until the client goes; clients have nothing to say on this socket."""
    async for message in ws:
        if message.type == WSMsgType.ERROR:
            break


@routes.get("/api/tables/{table_id}/sse")
async def server_sent_events(request: web.Request) -> web.StreamResponse:
    seize = request.app[SEIZE]
    game = game_of(request)
    principal = caller(request, game)
    raw = request.headers.get("Last-Event-ID", request.query.get("after"))
    after = sequence_param(raw) if raw is not None else None
    response = web.StreamResponse(
        headers={
            "Content-Type": "text/event-stream",
            "Cache-Control": "no-cache",
            "X-Accel-Buffering": "no",
        }
    )
    await response.prepare(request)
    bound_send_buffer(request)
    subscriber = seize.hub.subscribe(game.id, principal.viewer)
    frames = catch_up(game, principal.viewer, after)

    async def send(frame: Frame) -> None:
        await response.write(frame.sse.encode())

    async def heartbeat() -> None:
        await response.write(b": heartbeat\n\n")

    try:
        await pump(subscriber, send, frames, heartbeat, seize.settings.heartbeat)
    except ConnectionError:
        pass
    finally:
        seize.hub.unsubscribe(game.id, subscriber)
    return response
