"""The server's errors, in one module: the failures every room raises, and the JSON every
refusal is said in, over HTTP or not (``{"error": code, "message": …}`` and, where a rule or a
field is at fault, its name). A leaf: it imports nothing of the server, so every room may
raise and catch these without reaching into another room."""

from __future__ import annotations

import json
from typing import Any

from aiohttp import web
from pydantic import ValidationError
from pydantic_core import ErrorDetails

FAILED = "the server failed; it is logged"
"""What an unexpected failure answers, wherever a command came from: the details are logged."""
UNAVAILABLE = "the database cannot be reached just now, so nothing was stored; try again shortly"
"""What a request answers (503) when the database is unreachable: nothing was acknowledged."""


def document(error: str, message: str, **detail: Any) -> dict[str, Any]:
    """A refusal's JSON, whoever it is said to: an HTTP client, a socket, a device."""
    return {"error": error, "message": message, **detail}


def problem(
    kind: type[web.HTTPError],
    error: str,
    message: str,
    headers: dict[str, str] | None = None,
    **detail: Any,
) -> web.HTTPError:
    """An HTTP error with a JSON body (``document``), to raise."""
    body = json.dumps(document(error, message, **detail), allow_nan=False)
    return kind(text=body, content_type="application/json", headers=headers)


def invalid_input(
    error: ValidationError, prefix: str = "", *, root: str = "body"
) -> dict[str, Any]:
    """The document of input that fails validation (a 422): each field at fault (under
    ``prefix``), saying what it must be; ``root`` names the value itself (the body, a message's
    command) where the whole of it is at fault."""
    problems = []
    for e in error.errors(include_url=False, include_input=False):
        place, message = plain(e)
        field = ".".join((prefix, *place) if prefix else place) or root
        problems.append({"field": field, "message": message})
    first = problems[0]
    return document(
        "invalid", f"{first['field']}: {first['message']}", field=first["field"], errors=problems
    )


def plain(error: ErrorDetails) -> tuple[tuple[str, ...], str]:
    """One validation error as a client reads it: where, and what is expected there. pydantic
    places a command of no known kind at the union, not at its ``type``, and words its messages
    for Python programmers ("Input should be", "Value error, ")."""
    place = tuple(str(part) for part in error["loc"])
    ctx = error.get("ctx", {})
    match error["type"]:
        case "union_tag_invalid":
            expected = f"must be one of {ctx['expected_tags']}, not {ctx['tag']!r}"
            return (*place, ctx["discriminator"].strip("'")), expected
        case "union_tag_not_found":
            return (*place, ctx["discriminator"].strip("'")), "is required"
        case "missing":
            return place, "is required"
        case "value_error":
            return place, str(ctx["error"])
        case "model_type" | "model_attributes_type" | "dict_type":
            return place, "must be an object"
        case "string_too_short" if ctx.get("min_length") == 1:
            return place, "must not be empty"
        case "string_too_short":
            return place, f"must be at least {ctx['min_length']} characters long"
        case "string_too_long":
            return place, f"must be at most {ctx['max_length']} characters long"
    return place, error["msg"].replace("Input should be", "must be", 1)


RETRY_AFTER = 5
"""Seconds a client is asked to wait when the database cannot be reached."""


def unavailable() -> web.HTTPError:
    """The 503 for a database out of reach: nothing was acknowledged. A write cut off while
    it committed may be stored all the same, so a retry with the same idempotency key is safe,
    and one without may apply twice."""
    return problem(
        web.HTTPServiceUnavailable,
        "unavailable",
        UNAVAILABLE,
        headers={"Retry-After": str(RETRY_AFTER)},
    )


def internal() -> web.HTTPError:
    """The 500 for a failure nobody foresaw (a full disk, a bug): its details are logged."""
    return problem(web.HTTPInternalServerError, "internal", FAILED)


class StoreUnavailableError(Exception):
    """The database cannot be reached now: nothing was written, and a retry may succeed."""


class StoreRefusedError(Exception):
    """The database answers but refuses what the server needs to start (it does not exist, nor
    the schema named, or the user may not create tables): a setting to fix, not a wait."""


class ConflictError(Exception):
    """Another writer appended first: the sequence (or the idempotency key) is taken. Nothing
    of the append was written."""


class SchemaTooNewError(Exception):
    """The database was migrated by a newer version of the server."""

    def __init__(self, version: int, latest: int) -> None:
        super().__init__(
            f"the database is at schema version {version}, newer than this server's "
            f"{latest}: run the newer server, or restore a backup made before it"
        )


class StaleError(Exception):
    """The command was made against an older version of the table (``If-Match``)."""

    def __init__(self, current: int) -> None:
        super().__init__(f"the table is at sequence {current}")
        self.current = current


class KeyReusedError(Exception):
    """The idempotency key came with another command than the one it first answered: a
    client's bug, answered as such rather than with the first command's answer."""

    def __init__(self) -> None:
        super().__init__("this Idempotency-Key was sent with another command: use a new key")


class ServerFaultError(Exception):
    """The server could not decide or show a command's outcome: its fault, not the caller's.
    Nothing was stored, and the table goes on as it was."""

    def __init__(self, command: str) -> None:
        super().__init__(
            f"the server could not work out what {command} does to this table, so it stored "
            "nothing; the table is as it was (the fault is the server's, and it is logged)"
        )
        self.command = command
