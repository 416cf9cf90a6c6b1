"""The one table of routes. Each room declares its routes once, as ``Route``s beside their
handlers; the top room joins the rooms' lists, and that joined table builds both the router and
the OpenAPI document (``server.http.openapi``), so a route cannot be served undocumented, nor
documented and missing."""

from __future__ import annotations

import re
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass
from typing import Any, Literal

from aiohttp import web
from pydantic import BaseModel, Field

from rules.roles import Role

Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]
Schema = type[BaseModel] | dict[str, Any]
"""A pydantic model (the document names it among its schemas) or a JSON schema, inline."""
REF = "#/components/schemas/{model}"


def ref(name: str) -> dict[str, str]:
    """A reference to one of the document's schemas."""
    return {"$ref": REF.format(model=name)}


class Problem(BaseModel):
    """Every error: what went wrong, and where a rule or a field is at fault, its name."""

    error: str = Field(
        description="invalid, rule, forbidden, stale, not_found, unauthorized, "
        "rate_limited, malformed, too_large, timeout"
    )
    message: str
    rule: str | None = None
    field: str | None = None
    errors: list[dict[str, str]] | None = None
    seq: int | None = Field(default=None, description="For stale: the table's sequence now")


@dataclass(frozen=True)
class Content:
    """A body a route takes or answers: what it is, its schema, and its media type (none for an
    answer without a body)."""

    description: str
    schema: Schema | None = None
    media: str | None = "application/json"


@dataclass(frozen=True)
class Parameter:
    """A query parameter or a header a route reads. Path parameters are read from the path."""

    name: str
    where: Literal["query", "header"]
    schema: dict[str, Any]
    description: str | None = None


@dataclass(frozen=True)
class Route:
    """One route: what serves it, and what the document says of it. ``roles`` are the token
    roles that may call it (none: no table's token is asked for); a GET answers HEAD too."""

    method: Literal["GET", "POST", "PUT", "DELETE"]
    path: str
    handler: Handler
    summary: str
    operation: str
    answers: Mapping[int, Content]
    body: Content | None = None
    roles: frozenset[Role] = frozenset()
    parameters: tuple[Parameter, ...] = ()
    description: str | None = None
    largest: int | None = None
    """Bytes its body may have, where fewer than ``max_body``: a body announced as larger is
    refused before it is read, so what a route would refuse anyway costs no memory."""

    @property
    def template(self) -> str:
        """The path as the document (and aiohttp's ``canonical``) writes it: a parameter's
        pattern (``{path:.+}``) left out."""
        return re.sub(r"\{(\w+):[^}]*\}", r"{\1}", self.path)

    @property
    def path_parameters(self) -> list[str]:
        return re.findall(r"\{(\w+)", self.path)


EVERYONE = frozenset(Role)
GM = frozenset({Role.GM})

REASONS = {
    400: "Malformed request",
    401: "No or unknown token",
    403: "Role may not",
    404: "No such table",
    408: "The body stopped arriving (body_timeout)",
    409: "StaleError (If-Match)",
    413: "Body too large",
    422: "Invalid input or a rule broken",
    429: "Too many requests",
    500: "The server could not work out or show the outcome (server_fault: nothing was "
    "stored), or failed as nobody foresaw (internal: resend with the same Idempotency-Key)",
    503: "The database cannot be reached just now (unavailable: Retry-After), or this version "
    "cannot show the table (unshowable: its GM can undo)",
}


def refusals(*statuses: int) -> dict[int, Content]:
    """The error answers a route gives, each a ``Problem``."""
    return {status: Content(REASONS[status], Problem) for status in statuses}


LIMITS = web.AppKey("limits", dict[web.AbstractRoute, int])
"""The routes that take smaller bodies than ``max_body``, and their limits."""


def add_routes(app: web.Application, table: list[Route]) -> None:
    """Serve every route of the table."""
    limits: dict[web.AbstractRoute, int] = {}
    for route in table:
        if route.method == "GET":
            served = app.router.add_get(route.path, route.handler)  # and HEAD
        else:
            served = app.router.add_route(route.method, route.path, route.handler)
        if route.largest is not None:
            limits[served] = route.largest
    app[LIMITS] = limits


def body_limit(request: web.Request, max_body: int) -> int:
    """The bytes the request's body may have: ``max_body``, or less where its route says."""
    return min(max_body, request.app[LIMITS].get(request.match_info.route, max_body))
