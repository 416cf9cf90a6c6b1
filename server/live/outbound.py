"""The one way out: every request the server makes to an address it was given (a player's Web
Push endpoint, the GM's Discord webhook, and any later one) goes through ``Outbound``.

An address someone else typed is an address someone else chose, so the server must never be
turned into their probe of the host's own network (server-side request forgery). Trusted
servers that take user-supplied URLs guard the same way (Synapse's ``ip_range_blacklist``,
GitLab's "allow requests to the local network" switch, Mastodon's private-address check):

- The URL: ``https`` only (plain ``http`` only to an address the deployment allows, written as
  that address), no user name or password in it, and no host written as a bare number in a
  legacy form (``2130706433``, ``0x7f.1``, ``0177.0.0.1``, ``127.1``) that a resolver would map
  onto an address, and no ``localhost`` name (RFC 6761: always this host, whatever DNS says).
- The address: the name is resolved once, every address it resolves to is checked, and the
  connection goes to an address that was checked (no second lookup between check and connect,
  so a name that answers differently the second time, DNS rebinding, gains nothing).
  Loopback, private, link-local, shared (100.64/10), multicast, reserved, unspecified and every
  other non-global range are refused, in IPv4 and IPv6, with the IPv4 address inside an
  IPv4-mapped, 6to4, Teredo or NAT64 IPv6 address checked too.
- The answer: redirects are not followed, every request is bounded (a connect and a total
  time), and no more of a body is read than ``LARGEST``.

``allowed`` lists the networks a deployment reaches on purpose (a self-hosted push service; the
test suite's stand-ins on loopback): empty by default.
"""

from __future__ import annotations

import ipaddress
import re
import socket
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

import aiohttp
from aiohttp.abc import AbstractResolver, ResolveResult
from multidict import CIMultiDictProxy
from yarl import URL

Address = ipaddress.IPv4Address | ipaddress.IPv6Address
Network = ipaddress.IPv4Network | ipaddress.IPv6Network

CONNECT = 5.0
"""Seconds to reach an address: a push service or Discord that takes longer is away."""
TOTAL = 10.0
"""Seconds a whole request may take, answer included."""
LARGEST = 64 * 1024
"""Bytes of an answer's body read: a push service's or Discord's answer is a few hundred."""

NAT64 = (ipaddress.ip_network("64:ff9b::/96"), ipaddress.ip_network("64:ff9b:1::/48"))
"""RFC 6052's well-known prefix and RFC 8215's local-use one: the IPv4 address is the last 32
bits."""
NOT_PUBLIC = tuple(
    ipaddress.ip_network(net)
    for net in (
        "0.0.0.0/8", "100.64.0.0/10", "192.0.0.0/24", "192.0.2.0/24", "198.18.0.0/15",
        "198.51.100.0/24", "203.0.113.0/24", "240.0.0.0/4", "100::/64", "2001::/23",
        "2001:db8::/32", "3fff::/20", "5f00::/16", "fc00::/7",
    )
)  # fmt: skip
"""IANA's special-purpose ranges that are not globally reachable, named here as well as by
``ipaddress``'s flags, whose tables differ between Python releases (3.11's takes
``192.0.0.8`` for public)."""
NUMERIC_LABEL = re.compile(r"0[xX][0-9a-fA-F]*|[0-9]+")


class RefusedError(ValueError):
    """A URL or an address the server may not send to; ``reason`` says why, in words a log
    reader or the GM can act on. Nothing was sent."""

    def __init__(self, url: str, reason: str) -> None:
        super().__init__(f"{reason}: {url}")
        self.reason = reason


def embedded(address: Address) -> list[Address]:
    """The address and every IPv4 address an IPv6 one carries (mapped, 6to4, Teredo, NAT64),
    since a packet to the IPv6 form reaches the IPv4 one."""
    found: list[Address] = []
    if isinstance(address, ipaddress.IPv6Address):
        if address.ipv4_mapped is not None:
            found.append(address.ipv4_mapped)
        if address.sixtofour is not None:
            found.append(address.sixtofour)
        if address.teredo is not None:
            found.extend(address.teredo)
        if any(address in net for net in NAT64):
            found.append(ipaddress.IPv4Address(int(address) & 0xFFFFFFFF))
    return [*found, address]


def barred(address: Address) -> str | None:
    """Why the server may not send to ``address`` (None: a public address it may)."""
    for one in embedded(address):
        if one.is_unspecified:
            return "an unspecified address"
        if one.is_loopback:
            return "a loopback address (this host)"
        if one.is_link_local:
            return "a link-local address"
        if one.is_multicast:
            return "a multicast address"
        if one.is_private or (isinstance(one, ipaddress.IPv6Address) and one.is_site_local):
            return "a private address"
        if one.is_reserved or not one.is_global or any(one in net for net in NOT_PUBLIC):
            return "an address that is not public"
    return None


def address_of(host: str) -> Address | None:
    """The host as an address if it is written as one (an IPv6 zone dropped), else None."""
    try:
        return ipaddress.ip_address(host.split("%", 1)[0])
    except ValueError:
        return None


class Checking(AbstractResolver):
    """Resolves through ``lookup`` once, and answers only addresses the server may reach:
    aiohttp then connects to exactly these."""

    def __init__(self, outbound: Outbound, lookup: AbstractResolver) -> None:
        self.outbound, self.lookup = outbound, lookup

    async def resolve(
        self, host: str, port: int = 0, family: socket.AddressFamily = socket.AF_INET
    ) -> list[ResolveResult]:
        found = await self.lookup.resolve(host, port, family)
        for one in found:
            address = address_of(one["host"])
            reason = "no IP address" if address is None else self.outbound.reason(address)
            if reason is not None:
                raise RefusedError(host, f"resolves to {reason}")
        return found

    async def close(self) -> None:
        await self.lookup.close()


@dataclass(frozen=True)
class Answer:
    """What the other side answered: its status, headers, and up to ``LARGEST`` of its body."""

    status: int
    headers: CIMultiDictProxy[str]
    body: bytes


class Outbound:
    """The server's one client for addresses it was given."""

    def __init__(
        self, allowed: Iterable[Network] = (), lookup: AbstractResolver | None = None
    ) -> None:
        self.allowed = tuple(allowed)
        self._lookup = lookup
        self._session: aiohttp.ClientSession | None = None

    def allows(self, address: Address) -> bool:
        """Whether the deployment reaches ``address`` on purpose (``outbound_allowed``)."""
        return any(address in net for net in self.allowed if net.version == address.version)

    def reason(self, address: Address) -> str | None:
        """Why ``address`` may not be reached, or None: allowed on purpose, or public."""
        return None if self.allows(address) else barred(address)

    def checked(self, url: str) -> URL:
        """The URL, parsed, if its form may be sent to; else ``RefusedError``. A name is checked
        again, by what it resolves to, when it is sent to."""
        try:
            parsed = URL(url)
            port = parsed.port
        except (ValueError, TypeError):
            raise RefusedError(url, "not a URL") from None
        host = parsed.raw_host
        if not parsed.absolute or not host or port is None:
            raise RefusedError(url, "not an absolute URL with a host")
        if parsed.raw_user is not None or parsed.raw_password is not None:
            raise RefusedError(url, "a URL with a user name or password in it")
        address = address_of(host)
        name = host.rstrip(".").lower()
        if name == "localhost" or name.endswith(".localhost"):
            raise RefusedError(url, "a loopback name (this host)")  # RFC 6761, 6.3
        labels = name.split(".")
        if address is None and all(NUMERIC_LABEL.fullmatch(label) for label in labels):
            raise RefusedError(url, "a host written as a number, not as an address or a name")
        if address is not None and (reason := self.reason(address)) is not None:
            raise RefusedError(url, reason)
        allowed_plainly = address is not None and self.allows(address)
        if parsed.scheme != "https" and not (parsed.scheme == "http" and allowed_plainly):
            raise RefusedError(url, "not an https URL")
        return parsed

    def session(self) -> aiohttp.ClientSession:
        if self._session is None or self._session.closed:
            connector = aiohttp.TCPConnector(
                resolver=Checking(self, self._lookup or aiohttp.ThreadedResolver()),
                use_dns_cache=False,
                limit_per_host=4,
            )
            self._session = aiohttp.ClientSession(
                connector=connector,
                timeout=aiohttp.ClientTimeout(total=TOTAL, sock_connect=CONNECT),
                trust_env=False,
            )
        return self._session

    async def post(self, url: str, body: bytes, headers: Mapping[str, str]) -> Answer:
        """POST ``body`` to ``url``: ``RefusedError`` if it may not be sent there (nothing sent),
        ``aiohttp.ClientError`` or ``TimeoutError`` if it could not be, else the answer,
        whatever its status (a redirect is an answer, never followed)."""
        target = self.checked(url)
        async with self.session().post(
            target,
            data=body,
            headers=dict(headers),
            allow_redirects=False,
            timeout=aiohttp.ClientTimeout(total=TOTAL, sock_connect=CONNECT),
        ) as answer:
            return Answer(answer.status, answer.headers, await answer.content.read(LARGEST))

    async def close(self) -> None:
        if self._session is not None:
            await self._session.close()
