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
anything is pushed.

An endpoint is an address a player chose, so every push goes out through the server's one
guarded client (``live/outbound.py``): never to this host or its network, never redirected,
bounded in time. As with Discord, a command never waits for a push: each table has a task of
its own, fed a bounded queue, that hands each subscription its messages; each subscription
sends its own, one at a time, so an endpoint that never answers holds up only itself. A push
service that answers 404 or 410 has let the subscription go (the browser unsubscribed), and one
that fails ``GIVE_UP`` times running, or whose address may not be reached, is given up: such a
subscription is *retired*, kept but no longer pushed to, so that what a player reads of their
subscriptions (how many their grant keeps) never tells how an endpoint answered. A failing
endpoint is logged once, as one line, until it answers again.
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
from pywebpush import WebPusher  # type: ignore[import-untyped]
from yarl import URL

from rules.roles import Role, Viewer
from server.errors import StoreUnavailableError
from server.live.outbound import Outbound, RefusedError
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
LANE = 8
"""Messages one subscription holds while its endpoint is slow: past it, the oldest go (a turn
told that late is no news)."""
GIVE_UP = 5
"""Failures running after which a subscription is retired."""
CLAIMS_FOR = 12 * 60 * 60
"""Seconds a VAPID signature is good for (RFC 8292 allows up to 24 hours)."""
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


def checked_subscription(body: object, outbound: Outbound) -> dict[str, Any]:
    """A browser's PushSubscription as its ``toJSON()`` gives it: an endpoint the server may
    send to (``outbound``'s rules: https, a public address unless the deployment allows it),
    and its ``p256dh`` and ``auth`` keys."""
    if not isinstance(body, dict) or not isinstance(body.get("endpoint"), str):
        raise SubscriptionError("endpoint", "a PushSubscription as toJSON() gives it")
    endpoint: str = body["endpoint"]
    try:
        outbound.checked(endpoint)
    except RefusedError as refused:
        raise SubscriptionError(
            "endpoint", f"a push service's https URL, not {refused.reason}"
        ) from None
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


def reached(grant: dict[str, Any]) -> list[dict[str, Any]]:
    """The grant's subscriptions still pushed to (not retired)."""
    return [s for s in grant["subscriptions"] if not s.get("retired")]


def signed_and_sealed(
    sub: dict[str, Any], message: bytes, private_pem: str, subject: str
) -> tuple[bytes, dict[str, str]]:
    """The body and headers of one push: ``message`` encrypted to the subscription's keys
    (RFC 8291, ``aes128gcm``) and signed with the table's VAPID key for the endpoint's origin
    (RFC 8292)."""
    origin = URL(sub["endpoint"]).origin()
    claims = {"sub": subject, "aud": str(origin), "exp": int(time.time()) + CLAIMS_FOR}
    headers = dict(Vapid.from_pem(private_pem.encode()).sign(claims))
    body = WebPusher(sub).encode(message, "aes128gcm")["body"]
    return body, {**headers, "Content-Encoding": "aes128gcm", "TTL": str(TTL)}


@dataclass
class Pushing:
    """One table's pushes: its queue, its task, and each player's alerts last pushed."""

    queue: asyncio.Queue[tuple[frozenset[str], list[dict[str, str]]]] = field(
        default_factory=lambda: asyncio.Queue(QUEUE)
    )
    before: dict[frozenset[str], set[tuple[str, str]]] = field(default_factory=dict)
    task: asyncio.Task[None] | None = None


@dataclass
class Lane:
    """One subscription's pushes, sent one at a time, apart from every other subscription's:
    what it holds (the grant, the subscription, the message), its task, and its failures
    running."""

    queue: asyncio.Queue[tuple[str, dict[str, Any], bytes]] = field(
        default_factory=lambda: asyncio.Queue(LANE)
    )
    task: asyncio.Task[None] | None = None
    failures: int = 0
    retired: bool = False
    """Given up: messages handed to it meanwhile (read before the store said so) are let go,
    until the player subscribes again."""


class Pushes:
    """Every table's Web Push on this server."""

    def __init__(self, store: Store, subject: str, outbound: Outbound) -> None:
        self.store, self.subject, self.outbound = store, subject, outbound
        self.tables: dict[str, Pushing] = {}
        self.lanes: dict[tuple[str, str], Lane] = {}
        """Each subscription's lane, by table and endpoint, while it has pushes to send or
        failures to remember."""
        self.quiet: dict[str, float] = {}
        """Tables found with no subscription, and when: asked again after ``FRESH``."""

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
        """The table's subscriptions changed here: a retired one may be back."""
        self.quiet.pop(table_id, None)
        for key in [k for k, lane in self.lanes.items() if k[0] == table_id and lane.retired]:
            del self.lanes[key]

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
        """Hand each queued message to the lanes of the subscriptions it is for."""
        try:
            while not pushing.queue.empty():
                participants, fresh = pushing.queue.get_nowait()
                kept = await self.subscriptions(table_id)
                if not kept:
                    self.quiet[table_id] = time.monotonic()
                    return
                live = await self.store.tokens_kept([bytes.fromhex(h) for h in kept])
                first = fresh[0]
                message = json.dumps({"title": WORDS[first["kind"]],
                                      "body": first.get("name", first["character"]),
                                      "alerts": fresh, "table": table_id}).encode()  # fmt: skip
                for grant_hash, grant in kept.items():
                    if bytes.fromhex(grant_hash) not in live:
                        await self._forget(table_id, grant_hash)
                    elif frozenset(grant["participants"]) == participants:
                        for sub in reached(grant):
                            self._hand(table_id, grant_hash, sub, message)
        except StoreUnavailableError:
            log.warning("pushes let go: the database cannot be read", extra={"table": table_id})

    def _hand(self, table_id: str, grant: str, sub: dict[str, Any], message: bytes) -> None:
        lane = self.lanes.setdefault((table_id, sub["endpoint"]), Lane())
        if lane.retired:
            return
        if lane.queue.full():
            lane.queue.get_nowait()
        lane.queue.put_nowait((grant, sub, message))
        if lane.task is None or lane.task.done():
            lane.task = asyncio.get_running_loop().create_task(
                self._send(table_id, sub["endpoint"], lane)
            )

    async def _send(self, table_id: str, endpoint: str, lane: Lane) -> None:
        """Send a lane's messages in turn; each one's outcome counted against its
        subscription."""
        while not lane.queue.empty():
            grant, sub, message = lane.queue.get_nowait()
            where = {"table": table_id, "push_service": URL(endpoint).host}
            try:
                keys = await self.keys(table_id)
                body, headers = signed_and_sealed(sub, message, keys["private"], self.subject)
                answer = await self.outbound.post(sub["endpoint"], body, headers)
            except RefusedError as refused:
                log.warning("a push subscription was retired: its endpoint may not be "
                            "reached", extra={**where, "why": refused.reason})  # fmt: skip
                await self._retire(table_id, grant, endpoint, lane)
                continue
            except StoreUnavailableError:
                log.warning("a push was let go: the database cannot be read", extra=where)
                continue
            except (aiohttp.ClientError, TimeoutError) as failed:
                status, why = None, type(failed).__name__
            else:
                status, why = answer.status, f"answered {answer.status}"
            if status is not None and 200 <= status < 300:
                if lane.failures:
                    log.info("a push service answers again", extra=where)
                lane.failures = 0
            elif status in (404, 410):  # the browser let the subscription go
                await self._retire(table_id, grant, endpoint, lane)
            else:
                lane.failures += 1
                if lane.failures == 1:
                    log.warning("a push service is failing", extra={**where, "why": why})
                if lane.failures >= GIVE_UP:
                    log.warning("a push subscription was retired: its push service failed "
                                f"{GIVE_UP} times running", extra=where)  # fmt: skip
                    await self._retire(table_id, grant, endpoint, lane)
        if not (lane.failures or lane.retired) and self.lanes.get((table_id, endpoint)) is lane:
            del self.lanes[(table_id, endpoint)]

    async def _swap(self, table_id: str, change: Any) -> None:
        """Apply ``change`` (the kept subscriptions to the new ones, or None: unchanged) as a
        compare-and-swap, again if another server changed them meanwhile."""
        for _ in range(8):
            before = await self.store.setting(table_id, SUBSCRIBED)
            after = change(dict(json.loads(before)) if before else {})
            if after is None or await self.store.swap_setting(
                table_id, SUBSCRIBED, before, json.dumps(after)
            ):
                return

    async def _forget(self, table_id: str, grant: str) -> None:
        """Forget a grant's subscriptions: its token was revoked."""

        def without(kept: dict[str, Any]) -> dict[str, Any] | None:
            return {h: g for h, g in kept.items() if h != grant} if grant in kept else None

        await self._swap(table_id, without)

    async def _retire(self, table_id: str, grant: str, endpoint: str, lane: Lane) -> None:
        """Stop pushing to one of a grant's subscriptions, keeping it in its count; what its
        lane still holds is let go, and its failures with it."""
        while not lane.queue.empty():
            lane.queue.get_nowait()
        lane.failures, lane.retired = 0, True

        def retired(kept: dict[str, Any]) -> dict[str, Any] | None:
            if grant not in kept:
                return None
            subs = [{**s, "retired": True} if s["endpoint"] == endpoint else s
                    for s in kept[grant]["subscriptions"]]  # fmt: skip
            return {**kept, grant: {**kept[grant], "subscriptions": subs}}

        await self._swap(table_id, retired)

    async def close(self) -> None:
        tasks = [p.task for p in self.tables.values()] + [lane.task for lane in self.lanes.values()]
        for task in tasks:
            if task is not None:
                task.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await task
