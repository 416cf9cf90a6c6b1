"""A stand-in for Discord's channel webhooks, on loopback, written from Discord's own
documentation (no Discord can run here):

- "Execute Webhook", https://discord.com/developers/docs/resources/webhook#execute-webhook:
  ``POST /webhooks/{webhook.id}/{webhook.token}`` with a JSON body whose ``content`` is at most
  2000 characters, and ``allowed_mentions`` (the allowed mentions object: ``parse``, ``users``)
  saying which mentions ping; 204 No Content without ``?wait=true``; an unknown webhook is
  ``404 {"message": "Unknown Webhook", "code": 10015}``, a bad body ``400`` with code 50035.
- "Rate Limits", https://discord.com/developers/docs/topics/rate-limits: every answer carries
  the bucket's headers (``X-RateLimit-Limit``, ``-Remaining``, ``-Reset``, ``-Reset-After`` in
  seconds, ``-Bucket``); a request past the limit is answered ``429`` with a body of
  ``message``, ``retry_after`` (seconds) and ``global``, and the ``Retry-After`` and
  ``X-RateLimit-Scope`` headers. Limits are per webhook (its id and token are the route's
  top-level resource).

It keeps what was posted, and counts the 429s it had to answer, so a test can see that a
poster that reads the headers never runs into the limit. ``away`` answers every post as
Discord's edge does while Discord is down (502); ``throttle`` answers the next posts 429 as a
global limit would, however full the bucket.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Any

from aiohttp import web

HOOK_ID = "123456789012345678"
HOOK_TOKEN = "x" * 68


@dataclass
class Posted:
    content: str
    allowed_mentions: dict[str, Any] | None
    at: float = field(default_factory=time.monotonic)
    """When it reached the channel (``bench/alerts_bench.py`` times it)."""


@dataclass
class Discord:
    """The stand-in's state: one webhook, its bucket, and what reached the channel."""

    limit: int = 5
    per: float = 0.2
    """The bucket's size and how long it takes to refill, in seconds (Discord's webhooks allow
    about five posts per two seconds; a test's are faster)."""
    posted: list[Posted] = field(default_factory=list)
    refused: int = 0
    away: bool = False
    throttle: int = 0
    tries: int = 0
    _used: int = 0
    _since: float = field(default_factory=time.monotonic)

    def app(self) -> web.Application:
        app = web.Application()
        app.router.add_post("/api/webhooks/{hook_id}/{token}", self.execute)
        app.router.add_post("/api/v10/webhooks/{hook_id}/{token}", self.execute)
        return app

    def _bucket(self) -> dict[str, str]:
        now = time.monotonic()
        if now - self._since >= self.per:
            self._used, self._since = 0, now
        left = self.per - (now - self._since)
        return {
            "X-RateLimit-Limit": str(self.limit),
            "X-RateLimit-Remaining": str(max(0, self.limit - self._used)),
            "X-RateLimit-Reset": f"{time.time() + left:.3f}",
            "X-RateLimit-Reset-After": f"{left:.3f}",
            "X-RateLimit-Bucket": "stand-in-webhook-bucket",
        }

    def _limited(self, headers: dict[str, str], scope: str) -> web.Response:
        self.refused += 1
        after = float(headers["X-RateLimit-Reset-After"])
        body = {"message": "You are being rate limited.", "retry_after": after,
                "global": scope == "global"}  # fmt: skip
        return web.json_response(
            body,
            status=429,
            headers={**headers, "Retry-After": f"{after:.3f}", "X-RateLimit-Scope": scope},
        )

    async def execute(self, request: web.Request) -> web.Response:
        self.tries += 1
        if self.away:
            return web.Response(status=502, text="Bad Gateway")
        if (request.match_info["hook_id"], request.match_info["token"]) != (HOOK_ID, HOOK_TOKEN):
            return web.json_response({"message": "Unknown Webhook", "code": 10015}, status=404)
        headers = self._bucket()
        if self.throttle:
            self.throttle -= 1
            return self._limited(headers, "global")
        if self._used >= self.limit:
            return self._limited(headers, "user")
        body = await request.json()
        content = body.get("content") if isinstance(body, dict) else None
        if not isinstance(content, str) or not 0 < len(content) <= 2000:
            return web.json_response({"message": "Invalid Form Body", "code": 50035}, status=400)
        self._used += 1
        headers = {**headers, "X-RateLimit-Remaining": str(self.limit - self._used)}
        self.posted.append(Posted(content, body.get("allowed_mentions")))
        return web.Response(status=204, headers=headers)
