"""A push service on loopback, as a browser's would be, written from the RFCs (no browser's push
service can run here):

- RFC 8030 (Generic Event Delivery Using HTTP Push), section 5: an application server pushes a
  message with ``POST`` to the subscription's push resource, with a ``TTL`` header; the service
  answers ``201 Created`` with the message's ``Location``; a subscription that is gone answers
  ``404`` or, expired, ``410 Gone`` (section 7.3), and the application server must stop.
- RFC 8292 (VAPID), section 2 and 3: ``Authorization: vapid t=<JWT>, k=<public key>``; the JWT is
  ES256-signed by the application server's key, its ``aud`` the push resource's origin, its
  ``exp`` at most 24 hours ahead, its ``sub`` a contact; a subscription made with an
  applicationServerKey only takes messages signed by that key (section 4).
- RFC 8291 (Message Encryption for Web Push), with RFC 8188's ``aes128gcm`` coding: the body is
  decrypted with the subscription's private key and auth secret, as the browser would, by
  ``http_ece``.

Each subscription is made as a browser's ``pushManager.subscribe()`` makes it: a P-256 key pair
and a 16-byte auth secret, of which the subscription's JSON carries the public halves.
"""

from __future__ import annotations

import asyncio
import base64
import json
import os
import time
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urlsplit

import http_ece  # type: ignore[import-untyped]
from aiohttp import web
from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.asymmetric.utils import encode_dss_signature

LOOPBACK = "127.0.0.1/32"
"""Where the test suite's stand-ins listen: a server sends to it only where its
``outbound_allowed`` setting says so, as a deployment with a push service of its own would."""
LONGEST_CLAIM = 24 * 60 * 60
"""RFC 8292, section 2: a JWT's ``exp`` is no more than 24 hours from its making."""


def b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def unb64(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


@dataclass
class Subscription:
    server_key: bytes
    private: ec.EllipticCurvePrivateKey = field(
        default_factory=lambda: ec.generate_private_key(ec.SECP256R1())
    )
    auth: bytes = field(default_factory=lambda: os.urandom(16))
    gone: int | None = None
    """404 or 410 once the browser has let it go."""
    failing: int | None = None
    """A status it answers every push with, while its push service is in trouble (500)."""
    held: asyncio.Event | None = None
    """While not set, a push to it is taken in and never answered, as a push service that
    hangs."""
    tried: int = 0
    """Pushes that reached it, answered or not."""
    messages: list[dict[str, Any]] = field(default_factory=list)
    arrived: list[float] = field(default_factory=list)
    """When each message was taken in, decrypted (``bench/alerts_bench.py`` times it)."""


@dataclass
class PushService:
    base: str = ""
    subscriptions: dict[str, Subscription] = field(default_factory=dict)
    refused: list[str] = field(default_factory=list)

    def app(self) -> web.Application:
        app = web.Application()
        app.router.add_post("/push/{sub}", self.push)
        return app

    def subscribe(self, server_key: str) -> tuple[str, dict[str, Any]]:
        """A new subscription for the applicationServerKey given: its id, and its JSON as
        ``PushSubscription.toJSON()`` has it."""
        sub_id = b64(os.urandom(9))
        sub = self.subscriptions[sub_id] = Subscription(unb64(server_key))
        point = sub.private.public_key().public_bytes(
            serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint
        )
        return sub_id, {
            "endpoint": f"{self.base}/push/{sub_id}",
            "keys": {"p256dh": b64(point), "auth": b64(sub.auth)},
        }

    def _vapid(self, request: web.Request, sub: Subscription) -> str | None:
        """What is wrong with the request's VAPID authorization, or None."""
        scheme, _, params = request.headers.get("Authorization", "").partition(" ")
        fields = dict(p.strip().split("=", 1) for p in params.split(",") if "=" in p)
        if scheme.lower() != "vapid" or {"t", "k"} - set(fields):
            return "no vapid authorization"
        if unb64(fields["k"]) != sub.server_key:
            return "signed by another key than the subscription's"
        head, body, signature = fields["t"].split(".")
        key = ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), sub.server_key)
        raw = unb64(signature)
        der = encode_dss_signature(int.from_bytes(raw[:32], "big"), int.from_bytes(raw[32:], "big"))
        try:
            key.verify(der, f"{head}.{body}".encode(), ec.ECDSA(hashes.SHA256()))
        except InvalidSignature:
            return "a bad signature"
        claims = json.loads(unb64(body))
        origin = "{0.scheme}://{0.netloc}".format(urlsplit(str(request.url)))
        if claims.get("aud") != origin or not claims.get("sub"):
            return f"aud {claims.get('aud')} is not {origin}, or no sub"
        if not 0 < claims["exp"] - time.time() <= LONGEST_CLAIM:
            return "exp not within 24 hours"
        return None

    async def push(self, request: web.Request) -> web.Response:
        sub = self.subscriptions.get(request.match_info["sub"])
        if sub is None or sub.gone:
            return web.Response(status=sub.gone if sub and sub.gone else 404)
        sub.tried += 1
        if sub.held is not None:
            await sub.held.wait()
        if sub.failing:
            return web.Response(status=sub.failing)
        wrong = self._vapid(request, sub)
        if wrong is not None or "TTL" not in request.headers:
            self.refused.append(wrong or "no TTL")
            return web.Response(status=401 if wrong else 400, text=wrong or "TTL")
        if request.headers.get("Content-Encoding") != "aes128gcm":
            return web.Response(status=415)
        plain = http_ece.decrypt(
            await request.read(), private_key=sub.private, auth_secret=sub.auth,
            version="aes128gcm",
        )  # fmt: skip
        sub.messages.append(json.loads(plain))
        sub.arrived.append(time.monotonic())
        number = sum(len(s.messages) for s in self.subscriptions.values())
        return web.Response(status=201, headers={"Location": f"{self.base}/message/{number}"})
