"""The aiohttp application: routes, the store's lifetime, and a graceful shutdown."""

from __future__ import annotations

import asyncio
import logging
import ssl
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from pathlib import Path

from aiohttp import WSCloseCode, web

from server import vtt
from server.devices import dice
from server.devices import reports as devices
from server.devices.dice_channel import DiceChannel
from server.errors import StoreUnavailableError, internal, unavailable
from server.http import (
    api,
    discord,
    following,
    handoff,
    openapi,
    pages,
    push,
    socket_commands,
    story,
)
from server.http.context import SEIZE, Seize
from server.http.routes import add_routes
from server.live import revocation
from server.settings import Settings
from server.vtt import dialects, owlbear

log = logging.getLogger("seize")
Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]


CORS = {
    "Access-Control-Allow-Origin": "*",
    "Access-Control-Allow-Methods": "GET, POST, PUT, DELETE, OPTIONS",
    "Access-Control-Allow-Headers": "Authorization, Content-Type, Idempotency-Key, If-Match",
    "Access-Control-Max-Age": "600",
}


@web.middleware
async def cross_origin(request: web.Request, handler: Handler) -> web.StreamResponse:
    """VTT modules and userscripts call from their own pages' origins. Any origin may: access is
    by bearer token, never by cookie, so another site gains nothing it was not given."""
    if request.method == "OPTIONS" and "Access-Control-Request-Method" in request.headers:
        headers = dict(CORS)
        if request.headers.get("Access-Control-Request-Private-Network") == "true":
            # A browser asking whether a public page (Roll20) may reach this server on the
            # GM's own machine or network: it may, with a token.
            headers["Access-Control-Allow-Private-Network"] = "true"
        return web.Response(status=204, headers=headers)
    try:
        response = await handler(request)
    except web.HTTPException as error:
        error.headers.update(CORS)
        raise
    if not response.prepared:
        response.headers.update(CORS)
    return response


@web.middleware
async def logged(request: web.Request, handler: Handler) -> web.StreamResponse:
    """One structured line per request (at debug for one answered as asked); an unexpected
    failure is logged and answered as JSON; a client that left while its body came is logged as
    that, not as a failure."""
    started = time.perf_counter()
    line = "request"
    status: int | None = 500  # none when nobody was there to answer
    try:
        response = await handler(request)
        status = response.status
        return response
    except api.Abandoned:
        line, status = "request abandoned by its client while its body came", None
        raise
    except web.HTTPException as error:
        status = error.status
        raise
    except StoreUnavailableError:
        # Nothing was acknowledged: a command's events are applied only once committed.
        log.warning("database unavailable", extra={"path": request.path})
        status = 503
        raise unavailable() from None
    except Exception:
        log.exception("request failed", extra={"path": request.path})
        raise internal() from None
    finally:
        # A request answered as asked is news to no one (a console polls, a device reports):
        # at debug. One refused, or left unanswered, is what a host looks into.
        level = logging.DEBUG if status is not None and status < 400 else logging.INFO
        if log.isEnabledFor(level):
            took = round((time.perf_counter() - started) * 1000, 2)
            where = {"method": request.method, "path": request.path, "status": status, "ms": took}
            log.log(level, line, extra=where)


async def _sweep(seize: Seize) -> None:
    """Now and then, let tables that sat idle leave memory."""
    idle = seize.settings.idle_table_seconds
    while True:
        await asyncio.sleep(min(idle / 2, 60.0))
        try:
            left = await seize.tables.evict_idle(idle)
        except Exception:  # a failed snapshot must not end the sweeping
            log.exception("idle tables could not leave memory")
            continue
        if left:
            log.info("idle tables left memory", extra={"tables": left})


async def _revocations(app: web.Application) -> AsyncIterator[None]:
    """Where other servers share the database, drop the subscribers whose token one of them
    revoked (``live/revocation.py``); a server alone revokes every token itself."""
    seize = app[SEIZE]
    if not seize.settings.shared:
        yield
        return
    async with revocation.watching(seize.store, seize.tokens, seize.hub):
        yield


def tls_context(cert: Path, key: Path) -> ssl.SSLContext:
    """A server-side TLS context from PEM files: HTTPS and WSS, for VTT pages served over https
    that may not reach a plain-http server on another machine (docs/foundry.md)."""
    context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    context.load_cert_chain(cert, key)
    return context


ROUTES = [
    *api.ROUTES,
    *story.ROUTES,
    *following.ROUTES,
    *dialects.ROUTES,
    *vtt.ROUTES,
    *owlbear.ROUTES,
    *devices.ROUTES,
    *dice.ROUTES,
    *discord.ROUTES,
    *push.ROUTES,
    *handoff.ROUTES,
    *openapi.ROUTES,
    *pages.ROUTES,
]
"""Every route the server serves, and documents: the rooms' tables joined."""


def make_app(settings: Settings) -> web.Application:
    app = web.Application(middlewares=[cross_origin, logged], client_max_size=settings.max_body)
    add_routes(app, ROUTES)
    app[openapi.OPENAPI] = openapi.build(ROUTES)
    channel = DiceChannel()
    handlers: dict[str, socket_commands.Handler] = {"dice": channel.asked}
    app[socket_commands.MESSAGES] = handlers

    async def lifetime(app: web.Application) -> AsyncIterator[None]:
        app[SEIZE] = seize = await Seize.open(settings)
        await seize.bus.start(seize.follower)
        sweeping = asyncio.create_task(_sweep(seize))
        yield
        sweeping.cancel()
        await seize.channels.close()
        await seize.pushes.close()
        await seize.outbound.close()
        try:
            await seize.bus.close()
        finally:  # the database let go of whatever happened to the bus
            await seize.runner.close()
            await seize.store.close()

    async def shutting_down(app: web.Application) -> None:
        """Every subscriber gets a goodbye saying where to resume; sockets still open after a
        moment's grace are closed."""
        seize = app[SEIZE]
        seize.hub.close_all("the server is shutting down")
        for _ in range(100):
            if not seize.sockets:
                break
            await asyncio.sleep(0.01)
        for ws in list(seize.sockets):
            await ws.close(code=WSCloseCode.GOING_AWAY, message=b"server shutting down")

    app.cleanup_ctx.append(lifetime)
    app.cleanup_ctx.append(_revocations)  # after the store opens, before it closes
    app.cleanup_ctx.append(channel.lifetime)  # its waiting requests end before the store
    app.on_shutdown.append(shutting_down)
    return app
