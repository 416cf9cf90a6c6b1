"""The one way out (server/live/outbound.py), probed as an attacker would: every address form
that reaches this host or its network is refused, with no connection made. Listeners on every
loopback address and port the probes name count the connections they are offered, so a probe
that slipped through would show as one, not only as a missing error."""

from __future__ import annotations

import asyncio
import contextlib
import ipaddress
import socket
from collections.abc import AsyncIterator
from dataclasses import dataclass, field

import aiohttp
import pytest
from aiohttp import web
from aiohttp.abc import AbstractResolver, ResolveResult

from server.live.outbound import Outbound, RefusedError, barred
from tests.waiting import within


@dataclass
class Listeners:
    """TCP listeners on loopback addresses, all on one port, counting connections."""

    port: int = 0
    offered: dict[str, int] = field(default_factory=dict)
    servers: list[asyncio.Server] = field(default_factory=list)

    async def listen(self, host: str) -> None:
        def accepted(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
            self.offered[host] = self.offered.get(host, 0) + 1
            writer.close()

        server = await asyncio.start_server(accepted, host, self.port)
        self.port = server.sockets[0].getsockname()[1]
        self.servers.append(server)

    @property
    def connections(self) -> int:
        return sum(self.offered.values())


def ipv6_loopback() -> bool:
    with contextlib.suppress(OSError), socket.socket(socket.AF_INET6) as probe:
        probe.bind(("::1", 0))
        return True
    return False


@pytest.fixture
async def listeners() -> AsyncIterator[Listeners]:
    """127.0.0.1, 127.0.0.2, 127.0.0.3 and (where the host has it) ::1, on one port."""
    made = Listeners()
    for host in ("127.0.0.1", "127.0.0.2", "127.0.0.3", *(["::1"] if ipv6_loopback() else [])):
        await made.listen(host)
    yield made
    for server in made.servers:
        server.close()
        await server.wait_closed()


def here(port: int) -> list[str]:
    """Every form of an address on this host that a player might give: each is posted to, and
    the listeners would count a connection that got through."""
    hosts = [
        # IPv4 loopback and unspecified, as addresses
        "127.0.0.1", "127.0.0.2", "127.0.0.3", "127.255.255.254", "0.0.0.0",
        # IPv4 written as numbers in the legacy forms a resolver maps onto an address
        "2130706433", "0x7f000001", "0x7f.0.0.1", "0177.0.0.1", "017700000001", "127.1",
        "127.0.1", "0", "0x7f.1", "0x7f.0x0.0x0.0x1",
        # IPv6 loopback, and IPv6 forms that carry IPv4 loopback
        "[::1]", "[::]", "[0:0:0:0:0:0:0:1]", "[::ffff:127.0.0.1]", "[::ffff:7f00:1]",
        "[::ffff:127.0.0.2]", "[2002:7f00:1::1]", "[64:ff9b::7f00:1]",
        "[2001:0:4136:e378:8000:63bf:80ff:fffe]", "[::127.0.0.1]", "[::ffff:0.0.0.0]",
        # names of this host: localhost and its subdomains (RFC 6761)
        "localhost", "LOCALHOST", "localhost.", "LocalHost.", "push.localhost",
    ]  # fmt: skip
    urls = [f"https://{host}:{port}/push/x" for host in hosts]
    return [
        *urls,
        # user names and passwords: which host is meant is a parser's guess
        f"https://localhost@127.0.0.2:{port}/x",
        f"http://localhost@127.0.0.2:{port}/x",
        f"https://push.example.com@127.0.0.1:{port}/x",
        f"https://user:pass@localhost:{port}/x",
        # schemes other than https, to this host
        f"http://127.0.0.1:{port}/x",
        f"http://localhost:{port}/x",
        f"ws://127.0.0.1:{port}/x",
        f"ftp://127.0.0.1:{port}/x",
        "file:///etc/passwd",
        "gopher://127.0.0.1:6379/_INFO",
        # not URLs with a host at all
        "https:///x",
        "/push/x",
        f"https://127.0.0.1:{port}:{port}/x",
    ]


THE_NETWORK = [
    # the host's networks and the cloud's metadata service, as addresses and as carried
    "10.0.0.1", "172.16.0.1", "172.31.255.254", "192.168.1.1", "169.254.169.254",
    "100.64.0.1", "224.0.0.1", "255.255.255.255", "192.0.0.8", "192.0.0.170", "198.18.0.1",
    "240.0.0.1", "[::ffff:10.0.0.1]", "[::ffff:169.254.169.254]", "[fe80::1]",
    "[fe80::1%25eth0]", "[fc00::1]", "[fd12:3456::1]", "[ff02::1]", "[fec0::1]",
    "[2002:a00:1::1]", "[2002:a9fe:a9fe::1]", "[64:ff9b::a9fe:a9fe]", "[64:ff9b:1::a00:1]",
    "[100::1]", "[2001:db8::1]", "0xa9.0xfe.0xa9.0xfe", "2852039166", "012.0.0.1",
    "https://user@push.example.com", "http://push.example.com",
]  # fmt: skip
"""Forms of addresses on the host's networks, each refused by its form alone: never posted
to, so that a hole would fail this test without sending anything off this host."""


async def test_every_address_on_this_host_is_refused_with_no_connection(
    listeners: Listeners,
) -> None:
    outbound = Outbound()
    refused = 0
    try:
        for url in here(listeners.port):
            with pytest.raises(RefusedError):
                await within(outbound.post(url, b"{}", {}), f"the probe of {url}")
            refused += 1
    finally:
        await outbound.close()
    assert listeners.connections == 0, listeners.offered
    for form in THE_NETWORK:
        url = form if "://" in form else f"https://{form}:443/push/x"
        with pytest.raises(RefusedError):
            outbound.checked(url)
        refused += 1
    assert refused >= 70, refused  # docs/security.md gives the count


async def test_an_allowed_address_is_reached_and_a_redirect_from_it_is_not_followed(
    listeners: Listeners,
) -> None:
    """What a deployment allows on purpose is reached (over http, written as the address);
    its redirect to loopback is an answer, never followed."""
    answered: list[str] = []

    async def redirect(request: web.Request) -> web.Response:
        answered.append(request.path)
        raise web.HTTPFound(f"http://127.0.0.1:{listeners.port}/admin/shutdown")

    app = web.Application()
    app.router.add_post("/push/x", redirect)
    runner = web.AppRunner(app)
    await runner.setup()
    site = web.TCPSite(runner, "127.0.0.4", 0)
    await site.start()
    port = runner.addresses[0][1]
    outbound = Outbound([ipaddress.ip_network("127.0.0.4/32")])
    try:
        answer = await within(
            outbound.post(f"http://127.0.0.4:{port}/push/x", b"{}", {}), "the allowed address"
        )
        assert answer.status == 302 and answered == ["/push/x"]
        with pytest.raises(RefusedError, match="not an https URL"):
            await outbound.post(f"http://push.example.com:{port}/push/x", b"{}", {})
    finally:
        await outbound.close()
        await runner.cleanup()
    assert listeners.connections == 0, listeners.offered


class Answers(AbstractResolver):
    """A name's DNS answers, one list per lookup, as a resolver that changes its mind would
    give them; counts the lookups."""

    def __init__(self, *answers: list[str]) -> None:
        self.answers = list(answers)
        self.lookups = 0

    async def resolve(
        self, host: str, port: int = 0, family: socket.AddressFamily = socket.AF_INET
    ) -> list[ResolveResult]:
        self.lookups += 1
        found = self.answers[min(self.lookups, len(self.answers)) - 1]
        return [{"hostname": host, "host": address, "port": port,
                 "family": socket.AF_INET6 if ":" in address else socket.AF_INET,
                 "proto": 0, "flags": 0} for address in found]  # fmt: skip

    async def close(self) -> None:
        return None


async def test_a_name_is_looked_up_once_and_the_connection_goes_where_it_was_checked(
    listeners: Listeners,
) -> None:
    """DNS rebinding: the name answers an allowed address, then loopback. The connection goes
    to the address checked, the name is never looked up a second time, and loopback is never
    offered a connection."""
    rebinding = Answers(["127.0.0.3"], ["127.0.0.1"])
    outbound = Outbound([ipaddress.ip_network("127.0.0.3/32")], lookup=rebinding)
    try:
        with pytest.raises(aiohttp.ClientError):  # the listener hangs up: no TLS there
            await within(
                outbound.post(f"https://push.example:{listeners.port}/x", b"", {}), "the name"
            )
    finally:
        await outbound.close()
    assert rebinding.lookups == 1
    assert listeners.offered == {"127.0.0.3": 1}


@pytest.mark.parametrize(
    "answers",
    [["127.0.0.1"], ["127.0.0.3", "127.0.0.1"], ["::1"], ["::ffff:127.0.0.1"], ["10.1.2.3"]],
)
async def test_a_name_with_any_forbidden_address_is_refused_whole(
    listeners: Listeners, answers: list[str]
) -> None:
    """Every address a name resolves to is checked: one forbidden among allowed ones refuses
    the name, so a connection attempt that falls back to the next address cannot reach it."""
    outbound = Outbound([ipaddress.ip_network("127.0.0.3/32")], lookup=Answers(answers))
    try:
        with pytest.raises(RefusedError, match="resolves to"):
            await within(
                outbound.post(f"https://push.example:{listeners.port}/x", b"", {}), "the name"
            )
    finally:
        await outbound.close()
    assert listeners.connections == 0, listeners.offered


def test_public_addresses_pass_and_what_they_carry_is_checked() -> None:
    """The check refuses by range, not by a list of known hosts: a public address passes, and
    the same address carried inside an IPv6 form that reaches a private one does not."""
    for public in ("93.184.215.14", "2606:2800:21f:cb07:6820:80da:af6b:8b2c", "1.1.1.1"):
        assert barred(ipaddress.ip_address(public)) is None, public
    for carried in ("::ffff:10.0.0.1", "2002:c0a8:0101::1", "64:ff9b::c0a8:101"):
        assert barred(ipaddress.ip_address(carried)) is not None, carried
