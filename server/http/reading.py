"""What a client sends, read and bounded, the same for a request and a socket message.

A request's body (``server.http.api``), a command or a dice request on a table's WebSocket
(``server.http.socket_commands``, ``server/devices/dice_channel.py``) and a device's report
(``server/devices/reports.py``) are each parsed as JSON whose integers and nesting are bounded,
and refused with the same 400, 413 or 429 naming the place at fault; the table a client names
is found, or refused with the 404, the same way too. This module is where that reading lives,
so that every sender in the HTTP room reads its input one way without going through the routes
module. ``strict_json`` is here because the 413 is written with it: it is the same rule on the
way out (no NaN, no Infinity), and every answer is written with it too.
"""

from __future__ import annotations

import functools
import json
import math
from typing import Any

from aiohttp import web

from server.errors import problem
from server.http.context import Seize
from server.tables.games import Game

DEEPEST = 64  # levels of nesting a body may have: no command needs more than a few
LONGEST_INTEGER = 40  # digits: room for a 128-bit seed, none for a number that costs to parse


class _Oversized(int):
    """An integer too long to take, kept in its place so the refusal can say where it is."""


def _integer(digits: str) -> int:
    if len(digits.lstrip("-")) > LONGEST_INTEGER:
        return _Oversized(0)
    return int(digits)


strict_json = functools.partial(json.dumps, allow_nan=False)
"""JSON as every other reader takes it: a NaN or an Infinity is a fault, never an answer."""


def too_large(field: str, largest: int) -> web.HTTPError:
    """A 413 naming what was over ``max_body``."""
    body = {"error": "too_large", "message": f"{field}: over {largest} bytes", "field": field}
    return web.HTTPRequestEntityTooLarge(
        max_size=largest, text=strict_json(body), content_type="application/json"
    )


def parse_json(raw: bytes | str, part: str) -> Any:
    """``raw`` as JSON, its integers bounded (see ``check_shape``); a 400 naming ``part`` (the
    body, a message) when it is not JSON, or nests deeper than the parser can follow."""
    try:
        return json.loads(raw or b"null", parse_int=_integer)
    except RecursionError:
        raise malformed(part, f"the {part} nests deeper than {DEEPEST} levels") from None
    except (UnicodeDecodeError, json.JSONDecodeError) as error:
        raise problem(
            web.HTTPBadRequest, "malformed", f"the {part} is not JSON: {error}", field=part
        ) from None


def check_shape(value: Any, root: str) -> None:
    """Refuse, naming the place, what ``shape_fault`` finds."""
    fault = shape_fault(value, root)
    if fault is not None:
        raise malformed(*fault)


NOT_FINITE = "must be a finite number: NaN and Infinity are not JSON"


def shape_fault(value: Any, root: str) -> tuple[str, str] | None:
    """The place and the fault of a value nested deeper than DEEPEST, or holding an integer
    too long or a number that is not finite (Python's JSON reads NaN, Infinity and 1e999, and
    would write them back, where no other reader could take them); ``root`` names the value
    itself (the body, a message's command, a device's report)."""
    pending: list[tuple[Any, str, int]] = [(value, root, 0)]
    while pending:
        value, where, depth = pending.pop()
        if depth > DEEPEST:
            return where, f"the {root} nests deeper than {DEEPEST} levels"
        if isinstance(value, _Oversized):
            return where, f"an integer has more than {LONGEST_INTEGER} digits"
        if isinstance(value, float) and not math.isfinite(value):
            return where, NOT_FINITE
        if isinstance(value, dict | list):
            items = value.items() if isinstance(value, dict) else enumerate(value)
            pending.extend((v, _within(where, root, value, k), depth + 1) for k, v in items)
    return None


def _within(where: str, root: str, container: Any, key: Any) -> str:
    """A field's name as validation errors give it (``character.dex``), and ``body.3`` for the
    entries of a body (or ``command.3``, of a command) that is a list."""
    if where == root and isinstance(container, dict):
        return str(key)
    return f"{where}.{key}"


def malformed(field: str, message: str) -> web.HTTPError:
    """A 400 for input that is not even well formed, naming the field or header at fault."""
    return problem(web.HTTPBadRequest, "malformed", f"{field}: {message}", field=field)


async def table_of(seize: Seize, table_id: str) -> Game:
    """The table as this server holds it, or the 404 saying there is none."""
    game = await seize.tables.get(table_id)
    if game is None:
        raise problem(web.HTTPNotFound, "not_found", f"there is no table {table_id!r}")
    return game


TOO_MANY_COMMANDS = "too many commands from this token"


def limited(wait: float | None, message: str) -> None:
    """A 429 saying when to try again, when a rate limit says to wait."""
    if wait is not None:
        raise problem(
            web.HTTPTooManyRequests,
            "rate_limited",
            message,
            headers={"Retry-After": str(max(1, math.ceil(wait)))},
        )


NOT_A_SEQUENCE = "must be a sequence number"


def idempotency_key(key: object, field: str) -> str | None:
    """A client's idempotency key, as the header or a message's field ``field`` gives it."""
    if key is not None and not (isinstance(key, str) and 1 <= len(key) <= 200):
        raise malformed(field, "must be a string of 1 to 200 characters")
    return key
