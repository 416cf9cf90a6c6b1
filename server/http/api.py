"""The HTTP API: tables, tokens, commands and reads. See docs/api.md."""

from __future__ import annotations

import asyncio
import json
import logging
from typing import Annotated, Any, Literal

from aiohttp import web
from pydantic import BaseModel, ConfigDict, Field, ValidationError

from rules.participants import ParticipantId
from rules.roles import Viewer
from server.errors import RETRY_AFTER, StoreUnavailableError, invalid_input, problem
from server.http.context import SEIZE, Seize
from server.http.metrics import every_workers_figures, render
from server.http.reading import (
    NOT_A_SEQUENCE,
    TOO_MANY_COMMANDS,
    check_shape,
    idempotency_key,
    limited,
    malformed,
    parse_json,
    strict_json,
    table_of,
    too_large,
)
from server.http.routes import (
    EVERYONE,
    GM,
    Content,
    Parameter,
    Route,
    body_limit,
    ref,
    refusals,
)
from server.tables.access import Principal, admin_allowed, client_address, text_header
from server.tables.commanding import Refusal, apply_command
from server.tables.games import Game
from server.tables.systems import SYSTEMS

log = logging.getLogger("seize")


class NewTable(BaseModel):
    """``POST /api/tables``: the system, a name, and the table's options (see docs/rules.md)."""

    model_config = ConfigDict(extra="forbid")

    system: Literal["four-color", "awareness", "megatraveller-rcs"]
    name: Annotated[str, Field(min_length=1, max_length=80)]
    options: dict[str, Any] = {}


class NewTableAnswer(BaseModel):
    id: str
    system: str
    name: str
    gm_token: str
    overlay_token: str


class NewToken(BaseModel):
    """``POST /api/tables/{id}/tokens``: a player token bound to these participants."""

    model_config = ConfigDict(extra="forbid")

    participants: Annotated[list[ParticipantId], Field(min_length=1, max_length=20)]
    label: Annotated[str, Field(min_length=1, max_length=80)] = "player"


class NewTokenAnswer(BaseModel):
    token: str
    participants: list[str]


class Caller(BaseModel):
    """Who the token is: its role, and the participants a player token is bound to."""

    role: str
    participants: list[str]


class TableAnswer(BaseModel):
    id: str
    system: str
    name: str
    you: Caller
    seq: int
    view: dict[str, Any] | None = Field(
        description="The table as the caller's role may see it; null only with ``fault``"
    )
    fault: str | None = Field(
        default=None,
        description="Only for the GM of a table this version cannot show: what to do about it",
    )


class CommandAnswer(BaseModel):
    seq: int = Field(description="The sequence number of the command's last event")
    events: list[dict[str, Any] | None] = Field(description="Its events as the caller may see")


class EventsAnswer(BaseModel):
    seq: int
    events: list[dict[str, Any]] = Field(description='[{"seq": n, "event": {...} | null}]')


def invalid(error: ValidationError, prefix: str = "", *, root: str = "body") -> web.HTTPError:
    """A 422 naming each field at fault (``server.errors.invalid_input``)."""
    return problem(web.HTTPUnprocessableEntity, **invalid_input(error, prefix, root=root))


class Abandoned(web.HTTPBadRequest):
    """The client left before its body had all come: nobody hears the answer, and the log
    says what happened rather than counting a failure of the server."""


async def read_body(request: web.Request) -> bytes:
    """The request's body, at most ``max_body`` bytes or less where its route says (``Route.
    largest``). A body announced as larger is refused (413) before a byte of it is read, one
    sent in chunks as soon as it grows past the limit, and one that stops arriving after
    ``body_timeout`` seconds (408); each refusal closes the connection, so the rest of that
    body is never kept."""
    settings = request.app[SEIZE].settings
    largest = body_limit(request, settings.max_body)
    if (request.content_length or 0) > largest:
        raise closing(too_large("body", largest))
    body = bytearray()
    try:
        async with asyncio.timeout(settings.body_timeout):
            async for chunk in request.content.iter_any():
                body += chunk
                if len(body) > largest:
                    raise closing(too_large("body", largest))
    except TimeoutError:
        late = f"body: did not arrive within {settings.body_timeout:g} seconds"
        raise closing(problem(web.HTTPRequestTimeout, "timeout", late, field="body")) from None
    except ConnectionError:  # aiohttp's word for a client gone mid-body
        raise Abandoned() from None
    return bytes(body)


def closing(error: web.HTTPError) -> web.HTTPError:
    """``error``, answered with ``Connection: close``: the request's body was not all read."""
    error.force_close()
    return error


async def json_body(request: web.Request) -> Any:
    """The request's JSON (``read_body``), refused with a 400 naming the place when it nests
    too deep, holds an integer too long or a number JSON has not (NaN, Infinity)."""
    body = parse_json(await read_body(request), "body")
    check_shape(body, "body")
    return body


def json_answer(
    data: Any, status: int = 200, headers: dict[str, str] | None = None
) -> web.Response:
    """A JSON answer (``strict_json``)."""
    return web.json_response(data, status=status, headers=headers, dumps=strict_json)


async def game_of(request: web.Request) -> Game:
    """The table as the store holds it now (``Games.latest``), or the 404."""
    seize = request.app[SEIZE]
    return await seize.follower.latest(await table_of(seize, request.match_info["table_id"]))


async def caller(request: web.Request, game: Game) -> Principal:
    """The caller's token, checked against this table, and their rate of calls."""
    seize = request.app[SEIZE]
    principal = await seize.tokens.resolve(request, game.id)
    reading = request.method in ("GET", "HEAD")
    limited(
        (seize.reads if reading else seize.rate).allow(principal.token_hash),
        "too many reads from this token" if reading else TOO_MANY_COMMANDS,
    )
    return principal


async def create_table(request: web.Request) -> web.Response:
    seize = request.app[SEIZE]
    address = client_address(request, seize.settings.forwarded_by).encode()
    if seize.admin_token is None:
        limited(seize.creations.allow(address), "too many new tables from this address")
    elif not admin_allowed(request, seize.admin_token):
        # Guessing at the admin token (a server shared to the internet) is limited per client
        # as new tables are without one.
        limited(seize.creations.allow(address), "too many tries at the admin token from here")
        raise problem(
            web.HTTPUnauthorized,
            "unauthorized",
            "creating a table needs the admin token",
            headers={"WWW-Authenticate": 'Bearer realm="seize"'},
        )
    try:
        spec = NewTable.model_validate(await json_body(request))
    except ValidationError as error:
        raise invalid(error) from None
    try:
        created = await seize.tables.create(spec.system, spec.name, spec.options)
    except ValidationError as error:
        raise invalid(error, "options") from None
    answer = NewTableAnswer(
        id=created.game.id,
        system=spec.system,
        name=spec.name,
        gm_token=created.gm_token,
        overlay_token=created.overlay_token,
    )
    return json_answer(answer.model_dump(), status=201)


UNSHOWABLE = (
    "this version of Seize cannot show the table as its log leaves it; the GM can undo the "
    "last event, and the fault is logged"
)


def view_json(game: Game, viewer: Viewer) -> str:
    """The table as ``viewer`` sees it, as JSON; a 503 if this version of the server cannot
    show it (a log an older version wrote): the table is not lost, and its GM can repair it."""
    try:
        return game.table.view(viewer).model_dump_json()
    except Exception:
        log.exception("the table cannot be shown", extra={"table": game.id})
        raise problem(
            web.HTTPServiceUnavailable,
            "unshowable",
            UNSHOWABLE,
            headers={"Retry-After": "30"},
        ) from None


def view_of(game: Game, viewer: Viewer) -> dict[str, Any]:
    """``view_json``, as data."""
    view: dict[str, Any] = json.loads(view_json(game, viewer))
    return view


async def read_table(request: web.Request) -> web.Response:
    game = await game_of(request)
    principal = await caller(request, game)
    fault = None
    try:
        view: dict[str, Any] | None = view_of(game, principal.viewer)
    except web.HTTPServiceUnavailable:
        if not principal.viewer.is_gm:
            raise
        view, fault = None, UNSHOWABLE
    you = Caller(
        role=principal.viewer.role.value, participants=sorted(principal.viewer.participants)
    )
    answer = TableAnswer(
        id=game.id,
        system=game.system.name,
        name=game.name,
        you=you,
        seq=game.table.numbering.count(principal.viewer),
        view=view,
        fault=fault,
    )
    return json_answer(answer.model_dump())


async def mint_token(request: web.Request) -> web.Response:
    game = await game_of(request)
    principal = await caller(request, game)
    if not principal.viewer.is_gm:
        raise problem(
            web.HTTPForbidden, "forbidden", "only the GM may mint player tokens", rule="roles"
        )
    try:
        spec = NewToken.model_validate(await json_body(request))
    except ValidationError as error:
        raise invalid(error) from None
    unknown = sorted(set(spec.participants) - game.system.participants(game.table.state))
    if unknown:
        raise problem(
            web.HTTPUnprocessableEntity,
            "invalid",
            f"{unknown[0]!r} is not at this table: add them first",
            field="participants",
        )
    token = await request.app[SEIZE].tables.mint_player(
        game, frozenset(spec.participants), spec.label
    )
    answer = NewTokenAnswer(token=token, participants=sorted(set(spec.participants)))
    return json_answer(answer.model_dump(), status=201)


def _if_match(request: web.Request) -> int | None:
    raw = text_header(request, "If-Match")
    if raw is None:
        return None
    try:
        return int(raw.removeprefix("W/").strip('" '))
    except ValueError:
        raise malformed("If-Match", NOT_A_SEQUENCE) from None


async def command(request: web.Request) -> web.Response:
    # The copy as held: a command on a copy behind finds its sequence taken and is decided
    # again on the latest (Games.execute), so it needs no read of the store first.
    seize = request.app[SEIZE]
    game = await table_of(seize, request.match_info["table_id"])
    principal = await caller(request, game)
    if_match = _if_match(request)
    key = idempotency_key(text_header(request, "Idempotency-Key"), "Idempotency-Key")
    body = await json_body(request)
    outcome = await apply_command(seize.runner, seize.metrics, game, principal, body, key, if_match)
    return refusal_answer(outcome) if isinstance(outcome, Refusal) else json_answer(outcome)


def refusal_answer(refusal: Refusal) -> web.Response:
    """A refusal as the API answers it: its problem document, under its status, and how long
    to wait before trying again where it says."""
    wait = refusal.retry_after
    headers = {"Retry-After": str(wait)} if wait is not None else None
    return json_answer(refusal.problem, refusal.status, headers)


async def events(request: web.Request) -> web.Response:
    game = await game_of(request)
    principal = await caller(request, game)
    after, viewer = sequence_param(request.query.get("after")), principal.viewer
    seen = game.table.numbering.position(viewer, after)  # the caller's number, as a sequence
    held = await request.app[SEIZE].tables.since(game, seen)
    table = held.table
    numbering = table.numbering
    shown = [
        {"seq": number, "event": event}
        for number, event in numbering.since(viewer, after, lambda seq: table.log[seq - 1])
    ]
    held.settle()  # the older events read back for this are let go again
    return json_answer(EventsAnswer(seq=numbering.count(viewer), events=shown).model_dump())


def sequence_param(raw: str | None) -> int:
    if raw is None or raw == "":
        return 0
    try:
        after = int(raw)
    except ValueError:
        after = -1
    if after < 0:
        raise malformed("after", "is a sequence number (0 or more)")
    return after


async def health(request: web.Request) -> web.Response:
    seize: Seize = request.app[SEIZE]
    try:
        await seize.store.ping()  # the database answers
    except StoreUnavailableError:
        raise problem(
            web.HTTPServiceUnavailable,
            "unavailable",
            "this server cannot reach its database just now",
            headers={"Retry-After": str(RETRY_AFTER)},
        ) from None
    return json_answer({"status": "ok", "subscribers": seize.hub.subscribers})


async def metrics(request: web.Request) -> web.Response:
    own = request.app[SEIZE].metrics.figures()
    return web.Response(
        text=render(every_workers_figures(own)), content_type="text/plain", charset="utf-8"
    )


AFTER = Parameter(
    "after",
    "query",
    {"type": "integer", "minimum": 0},
    "The last sequence the client has seen",
)
"""Where a read of events, or a live subscription, starts."""

ROUTES = [
    Route(
        "POST",
        "/api/tables",
        create_table,
        "Create a table",
        "createTable",
        {201: Content("Created", NewTableAnswer), **refusals(400, 401, 408, 413, 422, 429)},
        body=Content("The system, a name and options", NewTable),
    ),
    Route(
        "GET",
        "/api/tables/{table_id}",
        read_table,
        "The table as the caller's role sees it",
        "readTable",
        {200: Content("The view", TableAnswer), **refusals(401, 403, 404, 429, 503)},
        roles=EVERYONE,
    ),
    Route(
        "POST",
        "/api/tables/{table_id}/commands",
        command,
        "Send one command",
        "sendCommand",
        {
            200: Content("Applied", CommandAnswer),
            **refusals(400, 401, 403, 404, 408, 409, 413, 422, 429, 500, 503),
        },
        body=Content(
            "A command of the table's system",
            {"anyOf": [ref(f"{name}_command") for name in SYSTEMS]},
        ),
        roles=EVERYONE,
        parameters=(
            Parameter(
                "Idempotency-Key",
                "header",
                {"type": "string", "minLength": 1, "maxLength": 200},
                "A retry with the same key returns the first answer",
            ),
            Parameter(
                "If-Match",
                "header",
                {"type": "string", "pattern": r'^(W/)?"?[0-9]{1,18}"?$'},
                "The sequence it was made against; 409 if stale",
            ),
        ),
    ),
    Route(
        "GET",
        "/api/tables/{table_id}/events",
        events,
        "Events after a sequence, as the caller may see them",
        "readEvents",
        {200: Content("Events", EventsAnswer), **refusals(400, 401, 403, 404, 429)},
        roles=EVERYONE,
        parameters=(AFTER,),
    ),
    Route(
        "POST",
        "/api/tables/{table_id}/tokens",
        mint_token,
        "Mint a player token (GM)",
        "mintToken",
        {
            201: Content("Minted", NewTokenAnswer),
            **refusals(400, 401, 403, 404, 408, 413, 422, 429),
        },
        body=Content("The participants the token plays", NewToken),
        roles=GM,
    ),
    Route(
        "GET",
        "/healthz",
        health,
        "Liveness",
        "health",
        {200: Content("Serving", media=None)},
    ),
    Route(
        "GET",
        "/metrics",
        metrics,
        "Prometheus metrics",
        "metrics",
        {200: Content("Prometheus text", media="text/plain")},
    ),
]
