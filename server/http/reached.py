"""Where the devices at the table reach this server: its addresses on the table's network, and
the address a link handed to a phone names.

A phone cannot open 127.0.0.1 (that is the phone itself) nor 0.0.0.0 (which is no address):
a link names the public address the server was given, else the address the GM's browser used,
which the phones at the same table share, unless that browser is on this machine's loopback,
when it names this machine's first address on the table's network (if the server listens
there)."""

from __future__ import annotations

import ipaddress
from dataclasses import dataclass
from urllib.parse import urlsplit

import ifaddr
from aiohttp import web

from server.http.context import SEIZE

VIRTUAL = ("docker", "br-", "veth", "virbr", "lxc", "lxd", "cni", "flannel", "tun", "tap", "wg")
"""Interfaces of containers, VMs and VPNs by their names' start (Linux's), listed last."""

WILDCARD = ("0.0.0.0", "::", "")
"""The hosts that listen on every address."""

Network = ipaddress.IPv4Network | ipaddress.IPv6Network
Address = ipaddress.IPv4Address | ipaddress.IPv6Address


@dataclass(frozen=True)
class LanAddress:
    """One of the host's addresses on a local network, and that network."""

    address: Address
    network: Network


def lan_addresses(host: str) -> list[LanAddress]:
    """The private, non-loopback addresses phones can reach the server at, listening on
    ``host``: every interface's for a wildcard host, the one given otherwise, none on loopback
    (a server phones cannot reach)."""
    found: list[LanAddress] = []
    # The table's own network first: the printed link is the first address's, and a container
    # bridge or a VPN's interface is none a phone at the table is on.
    adapters = sorted(ifaddr.get_adapters(), key=lambda a: a.nice_name.startswith(VIRTUAL))
    for adapter in adapters:
        for ip in adapter.ips:
            if not isinstance(ip.ip, str):
                continue  # IPv6: phones' mDNS and QR codes get the IPv4 address
            address = ipaddress.IPv4Address(ip.ip)
            if address.is_loopback or address.is_link_local or not address.is_private:
                continue
            network = ipaddress.IPv4Network(f"{address}/{ip.network_prefix}", strict=False)
            found.append(LanAddress(address, network))
    if host in WILDCARD:
        return found
    return [lan for lan in found if str(lan.address) == host]


def base(request: web.Request) -> str:
    """Where other devices reach this server, for a link handed to one of them."""
    settings = request.app[SEIZE].settings
    if settings.public_url:
        return settings.public_url.rstrip("/")
    asked = urlsplit(f"{request.scheme}://{request.host}")
    if not _loopback(asked.hostname or "") or not (lans := lan_addresses(settings.host)):
        return asked.geturl()
    port = f":{asked.port}" if asked.port else ""  # the port the GM's browser came in on
    return f"{request.scheme}://{lans[0].address}{port}"


def _loopback(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:  # a name
        return False
