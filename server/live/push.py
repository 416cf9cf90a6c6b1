"""Web Push: "You're up" on a phone whose page is closed or whose screen is locked.

A player's page subscribes its browser's push service (RFC 8030) with the table's public VAPID
key (RFC 8292), and hands the server the subscription: the push service's endpoint and the
browser's keys. When a command committed here gives that player a new alert (their view's
``alerts``, cut to what they may see), the server encrypts a short message to those keys
(RFC 8291, ``aes128gcm``) and posts it to the endpoint, signed with the table's VAPID key, through
pywebpush. The keys are made once per table and kept in the store, so every server sharing the
database signs with the same key the browsers subscribed with.

A subscription belongs to the player's grant (the token the page came in with): it is kept
under that token's hash, and a grant revoked takes its subscriptions with it, found out before
anything is pushed. A push service that answers 404 or 410 has let the subscription go (the
browser unsubscribed): it is forgotten. As with Discord, a command never waits for a push: each
table has a task of its own, fed a bounded queue.
"""

from __future__ import annotations

import asyncio
import base64
import contextlib
import json
import logging
import time
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

import aiohttp
from cryptography.hazmat.primitives import serialization
from py_vapid import Vapid  # type: ignore[import-untyped]
from pywebpush import WebPushException, webpush_async  # type: ignore[import-untyped]

from rules.roles import Role, Viewer
from server.store import Store
from server.tables.audience import Shown

log = logging.getLogger("seize")

KEYS = "push keys"
"""The table setting the VAPID key pair is kept under: ``{"private": PEM, "public": …}``."""
SUBSCRIBED = "push"
"""The table setting the subscriptions are kept under: ``{token hash (hex): {"participants",
"subscriptions"}}``."""
PER_GRANT = 4
"""Subscriptions one grant keeps: a phone and a tablet, a browser reinstalled; past it the
oldest goes."""
QUEUE = 32
FRESH = 2.0
WORDS = {"turn": "Your turn", "on_deck": "On deck", "seize": "You may seize the initiative",
         "react": "You may react", "die": "Roll your die"}  # fmt: skip
TTL = 60
"""Seconds a push service holds a message for a phone that is away: a turn told later than
that is no news."""


class SubscriptionError(ValueError):
    def __init__(self, field: str, message: str) -> None:
        super().__init__(message)
        self.field = field


def _b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def made_keys() -> dict[str, str]:
    """A fresh VAPID key pair (P-256): the private key as PEM, the public one as the
    applicationServerKey a browser subscribes with (the uncompressed point, base64url)."""
    vapid = Vapid()
    vapid.generate_keys()
    point = vapid.public_key.public_bytes(
        serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint
    )
    return {"private": vapid.private_pem().decode(), "public": _b64(point)}


def checked_subscription(body: object) -> dict[str, Any]:
    """A browser's PushSubscription as its ``toJSON()`` gives it: an https endpoint (or http
    on loopback, for a local push service), and its ``p256dh`` and ``auth`` keys."""
    if not isinstance(body, dict) or not isinstance(body.get("endpoint"), str):
        raise SubscriptionError("endpoint", "a PushSubscription as toJSON() gives it")
    endpoint: str = body["endpoint"]
    if not endpoint.startswith(("https://", "http://127.0.0.1", "http://localhost")):
        raise SubscriptionError("endpoint", "a push service's https URL")
    keys = body.get("keys")
    if not isinstance(keys, dict):
        raise SubscriptionError("keys", "the subscription's p256dh and auth keys")
    try:
        p256dh = base64.urlsafe_b64decode(keys["p256dh"] + "==")
        auth = base64.urlsafe_b64decode(keys["auth"] + "==")
    except (KeyError, TypeError, ValueError):
        raise SubscriptionError("keys", "p256dh and auth, base64url") from None
    if len(p256dh) != 65 or p256dh[0] != 4 or len(auth) != 16:
        raise SubscriptionError("keys", "p256dh a P-256 point (65 bytes), auth 16 bytes")
    return {"endpoint": endpoint, "keys": {"p256dh": keys["p256dh"], "auth": keys["auth"]}}


def subscribed(
    kept: dict[str, Any], token_hash: bytes, viewer: Viewer, sub: dict[str, Any]
) -> dict[str, Any]:
    """The subscriptions once ``sub`` joins its grant's (the same endpoint replaced)."""
    grant = kept.get(token_hash.hex(), {"participants": sorted(viewer.participants),
                                        "subscriptions": []})  # fmt: skip
    subs = [s for s in grant["subscriptions"] if s["endpoint"] != sub["endpoint"]]
    grant = {**grant, "subscriptions": [*subs, sub][-PER_GRANT:]}
    return {**kept, token_hash.hex(): grant}


@dataclass
class Pushing:
    """One table's pushes: its queue, its task, and each player's alerts last pushed."""

    queue: asyncio.Queue[tuple[frozenset[str], list[dict[str, str]]]] = field(
        default_factory=lambda: asyncio.Queue(QUEUE)
    )
    before: dict[frozenset[str], set[tuple[str, str]]] = field(default_factory=dict)
    task: asyncio.Task[None] | None = None
    pushed: int = 0


class Pushes:
    """Every table's Web Push on this server."""

    def __init__(self, store: Store, subject: str) -> None:
        self.store, self.subject = store, subject
        self.tables: dict[str, Pushing] = {}
        self.quiet: dict[str, float] = {}
        """Tables found with no subscription, and when: asked again after ``FRESH``."""
        self.session: aiohttp.ClientSession | None = None

    async def keys(self, table_id: str) -> dict[str, str]:
        """The table's VAPID keys, made the first time any server asks."""
        while True:
            kept = await self.store.setting(table_id, KEYS)
            if kept is not None:
                return dict(json.loads(kept))
            await self.store.swap_setting(table_id, KEYS, None, json.dumps(made_keys()))

    async def subscriptions(self, table_id: str) -> dict[str, Any]:
        kept = await self.store.setting(table_id, SUBSCRIBED)
        return dict(json.loads(kept)) if kept else {}

    def changed(self, table_id: str) -> None:
        self.quiet.pop(table_id, None)

    def told(self, table_id: str, shown: Mapping[Viewer, Shown]) -> None:
        """A command committed here: each player's new alerts are queued for pushing."""
        if time.monotonic() - self.quiet.get(table_id, -FRESH) < FRESH:
            return
        pushing = self.tables.setdefault(table_id, Pushing())
        for viewer, seen in shown.items():
            if viewer.role is not Role.PLAYER or seen.view is None:
                continue
            view = json.loads(seen.view)
            names = {p["id"]: p["name"] for p in view.get("members", view.get("characters", []))}
            alerts = [{**a, "name": names.get(a["character"], "")} for a in view["alerts"]]
            now = {(a["kind"], a["character"]) for a in alerts}
            fresh = [a for a in alerts if (a["kind"], a["character"]) not in
                     pushing.before.get(viewer.participants, set())]  # fmt: skip
            pushing.before[viewer.participants] = now
            if fresh:
                if pushing.queue.full():
                    pushing.queue.get_nowait()
                pushing.queue.put_nowait((viewer.participants, fresh))
        if not pushing.queue.empty() and (pushing.task is None or pushing.task.done()):
            pushing.task = asyncio.get_running_loop().create_task(self._run(table_id, pushing))

    async def _run(self, table_id: str, pushing: Pushing) -> None:
        try:
            while not pushing.queue.empty():
                participants, fresh = pushing.queue.get_nowait()
                kept = await self.subscriptions(table_id)
                if not kept:
                    self.quiet[table_id] = time.monotonic()
                    return
                live = await self.store.tokens_kept([bytes.fromhex(h) for h in kept])
                for grant_hash, grant in kept.items():
                    if bytes.fromhex(grant_hash) not in live:
                        await self._forget(table_id, grant_hash, None)
                    elif frozenset(grant["participants"]) == participants:
                        for sub in grant["subscriptions"]:
                            await self._push(table_id, grant_hash, sub, fresh)
        except Exception:  # a push must never take the server's loop down with it
            log.exception("pushing stopped", extra={"table": table_id})

    async def _push(
        self, table_id: str, grant: str, sub: dict[str, Any], fresh: list[dict[str, str]]
    ) -> None:
        keys = await self.keys(table_id)
        first = fresh[0]
        message = {"title": WORDS[first["kind"]], "body": first.get("name", first["character"]),
                   "alerts": fresh, "table": table_id}  # fmt: skip
        if self.session is None or self.session.closed:
            self.session = aiohttp.ClientSession(timeout=aiohttp.ClientTimeout(total=10))
        try:
            await webpush_async(
                sub,
                json.dumps(message),
                vapid_private_key=Vapid.from_pem(keys["private"].encode()),
                vapid_claims={"sub": self.subject},
                ttl=TTL,
                aiohttp_session=self.session,
            )
            self.tables[table_id].pushed += 1
        except WebPushException as refused:
            if refused.status_code in (404, 410):  # the browser let the subscription go
                await self._forget(table_id, grant, sub["endpoint"])
            else:
                log.warning("a push was refused", extra={"table": table_id})
        except (aiohttp.ClientError, TimeoutError):
            log.warning("a push service could not be reached", extra={"table": table_id})

    async def _forget(self, table_id: str, grant: str, endpoint: str | None) -> None:
        """Forget a grant's subscriptions (its token revoked), or one of them."""
        for _ in range(8):
            before = await self.store.setting(table_id, SUBSCRIBED)
            kept = dict(json.loads(before)) if before else {}
            if grant not in kept:
                return
            subs = [
                s for s in kept[grant]["subscriptions"] if endpoint not in (None, s["endpoint"])
            ]
            if subs:
                kept[grant] = {**kept[grant], "subscriptions": subs}
            else:
                del kept[grant]
            if await self.store.swap_setting(table_id, SUBSCRIBED, before, json.dumps(kept)):
                return

    async def close(self) -> None:
        for pushing in self.tables.values():
            if pushing.task is not None:
                pushing.task.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await pushing.task
        if self.session is not None:
            await self.session.close()
