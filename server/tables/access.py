"""Who is calling: tokens, the roles they carry, and how often they may call.

A token is a long random secret shown once, when it is made; the store keeps only its SHA-256.
A presented token is looked up by its hash and the hashes are then compared in constant time,
so neither the lookup nor the comparison tells an attacker how close a guess came.
"""

from __future__ import annotations

import hashlib
import hmac
import ipaddress
import secrets
import time
from collections import OrderedDict
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import TypeVar

from aiohttp import web

from rules.roles import Role, Viewer
from server.errors import problem
from server.store import Store, TokenRow

Networks = list[ipaddress.IPv4Network | ipaddress.IPv6Network]


def client_address(request: web.Request, proxies: Networks) -> str:
    """The address a request came from: behind reverse proxies the server trusts, the last
    address in ``X-Forwarded-For`` that is not one of them (each proxy appends the address it
    heard from, so the ones before it are whatever the client claimed). From anywhere else the
    header is ignored, or a client could name any address it likes."""
    remote = request.remote or ""
    hops = [hop.strip() for hop in request.headers.get("X-Forwarded-For", "").split(",")]
    for hop in reversed([remote, *hops] if _trusted(remote, proxies) else []):
        if hop and not _trusted(hop, proxies):
            return hop
    return remote


def _trusted(address: str, proxies: Networks) -> bool:
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:
        return False
    return any(ip in network for network in proxies)


def mint() -> str:
    """A new token: 256 bits from the OS's cryptographic source, never beginning with "-". One
    in 64 did, and a command line read it as an option: ``seize adapter … --token -x…`` was
    refused as "expected one argument". Drawing again costs under 0.03 bits."""
    while (token := secrets.token_urlsafe(32)).startswith("-"):
        pass
    return token


def digest(token: str) -> bytes:
    return hashlib.sha256(token.encode()).digest()


def token_row(token: str, table_id: str, viewer: Viewer, label: str, name: str = "") -> TokenRow:
    return TokenRow(
        hash=digest(token),
        table_id=table_id,
        role=viewer.role.value,
        participants=tuple(sorted(viewer.participants)),
        label=label,
        name=name,
    )


@dataclass(frozen=True)
class Principal:
    """A caller with a valid token of one table."""

    table_id: str
    viewer: Viewer
    token_hash: bytes


def unauthorized(message: str) -> web.HTTPError:
    return problem(
        web.HTTPUnauthorized,
        "unauthorized",
        message,
        headers={"WWW-Authenticate": 'Bearer realm="seize"'},
    )


def text_header(request: web.Request, name: str) -> str | None:
    """A header's value, refused with a 400 naming it when its bytes are not UTF-8 (the HTTP
    parser hands those over as unpaired surrogates, which no later step could encode)."""
    value = request.headers.get(name)
    if value is not None:
        try:
            value.encode()
        except UnicodeEncodeError:
            raise problem(
                web.HTTPBadRequest, "malformed", f"{name}: not UTF-8 text", field=name
            ) from None
    return value


def presented(request: web.Request) -> str | None:
    """The token in ``Authorization: Bearer …``, or in ``?token=`` (for pages such as overlays,
    which a streaming tool loads by URL and cannot add headers to)."""
    header = text_header(request, "Authorization") or ""
    if header.startswith("Bearer "):
        return header.removeprefix("Bearer ").strip()
    return request.query.get("token")


OVERLAY_LABEL = "overlay"
"""The label of every overlay link's token: a new overlay link revokes every token so labelled,
so only the newest link shows the table on stream."""
GM_DEVICE_LABEL = "gm device"
"""The label of every GM link handed to another device (the console's "open this console on
another device", ``seize gm-link``). Each is a device of its own, named by the GM ("Streaming
PC", "Co-GM tablet"): adding one revokes nothing, and the console revokes any one of them
(``server/http/handoff.py``)."""
REVOKED_WITHIN = 2.0
"""Seconds within which a token that another server sharing the database revoked stops working
here: a cached token is read again once it is older than this, and the tokens of the live
connections are checked this often (``revocation.py``)."""


class Tokens:
    """Resolves tokens to principals, with a cache so a busy table does not read the disk. The
    cache keeps the ``most`` tokens used last: a server that runs for weeks stays its size.

    ``trusted_for``: seconds a cached token is believed before it is read again. A server alone
    with its database revokes every token itself, and forgets it then (None: for as long as it
    is cached); one that shares it must also hear of the tokens others revoke."""

    def __init__(self, store: Store, most: int = 10_000, trusted_for: float | None = None) -> None:
        self._store = store
        self._cache: OrderedDict[bytes, tuple[TokenRow, float]] = OrderedDict()
        self._most = most
        self._trusted_for = trusted_for

    async def resolve(self, request: web.Request, table_id: str) -> Principal:
        token = presented(request)
        if not token:
            raise unauthorized("a token is required: Authorization: Bearer <token>")
        return await self.principal(token, table_id)

    async def principal(self, token: str, table_id: str) -> Principal:
        """Who ``token`` is at ``table_id``; raises the API's 401 or 403 if no one there."""
        token_hash = digest(token)
        row, read = self._cache.get(token_hash) or (None, 0.0)
        now = time.monotonic()
        if row is None or (self._trusted_for is not None and now - read > self._trusted_for):
            row, read = await self._store.token(token_hash), now
        if row is None or not hmac.compare_digest(row.hash, token_hash):
            self._cache.pop(token_hash, None)
            raise unauthorized("unknown token")
        _keep(self._cache, token_hash, (row, read), self._most)
        if row.table_id != table_id:
            raise problem(web.HTTPForbidden, "forbidden", "this token belongs to another table")
        viewer = Viewer(role=Role(row.role), participants=frozenset(row.participants))
        return Principal(table_id=table_id, viewer=viewer, token_hash=token_hash)

    def forget(self, token_hashes: Iterable[bytes]) -> None:
        """Drop revoked tokens from the cache."""
        for token_hash in token_hashes:
            self._cache.pop(token_hash, None)

    def __len__(self) -> int:
        return len(self._cache)


K = TypeVar("K")
V = TypeVar("V")


def _keep(cache: OrderedDict[K, V], key: K, value: V, most: int) -> None:
    """Put ``key`` last (used last) and forget the least recently used past ``most``."""
    cache[key] = value
    cache.move_to_end(key)
    while len(cache) > most:
        cache.popitem(last=False)


@dataclass
class RateLimit:
    """A bucket per key (a token, a client's address): ``burst`` requests at once, refilled at
    ``per_second``. It keeps the ``most`` buckets used last; one forgotten was long idle, so
    it would have refilled anyway."""

    per_second: float
    burst: int
    most: int = 10_000
    _buckets: OrderedDict[bytes, tuple[float, float]] = field(default_factory=OrderedDict)

    def allow(self, key: bytes) -> float | None:
        """None if the request may go ahead, else the seconds to wait before trying again."""
        now = time.monotonic()
        tokens, since = self._buckets.get(key, (float(self.burst), now))
        tokens = min(float(self.burst), tokens + (now - since) * self.per_second)
        if tokens < 1:
            _keep(self._buckets, key, (tokens, now), self.most)
            return (1 - tokens) / self.per_second
        _keep(self._buckets, key, (tokens - 1, now), self.most)
        return None

    def __len__(self) -> int:
        return len(self._buckets)


def admin_allowed(request: web.Request, admin_token: str) -> bool:
    token = presented(request)
    return token is not None and hmac.compare_digest(digest(token), digest(admin_token))
