"""Every error the API answers is JSON: ``{"error": code, "message": …}`` and, where a rule or a
field is at fault, its name."""

from __future__ import annotations

import json
from typing import Any

from aiohttp import web

FAILED = "the server failed; it is logged"
"""What an unexpected failure answers, wherever a command came from: the details are logged."""
UNAVAILABLE = "the database cannot be reached just now, so nothing was stored; try again shortly"
"""What a request answers (503) when the database is unreachable: nothing was acknowledged."""


def problem(
    kind: type[web.HTTPError],
    error: str,
    message: str,
    headers: dict[str, str] | None = None,
    **detail: Any,
) -> web.HTTPError:
    """An HTTP error with a JSON body, to raise."""
    body = json.dumps({"error": error, "message": message, **detail})
    return kind(text=body, content_type="application/json", headers=headers)


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
