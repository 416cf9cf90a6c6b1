"""``seize serve --share``: one https link for every phone at the table.

A browser gives ``http://192.168.…`` no secure context, so a player's page there cannot be
installed, notify, keep the screen on or pair dice; a certificate the player taps through is not
enough either (no service worker registers on it). ``--share`` gives the table an https address
the phones trust, through a tool the GM may already run, and makes it the server's public
address, so every link the server prints or shows (the console's hand-offs, GM devices, the
overlay, Foundry's manifest) uses it:

- ``tailscale``: Tailscale Funnel, a stable ``*.ts.net`` name with a public certificate;
- ``cloudflare``: a Cloudflare quick tunnel, no account, a new address each start;
- ``lan-ca``: no internet, a certificate authority of the host's own that each phone trusts
  once (``lan_ca.py``, ``trust.py``);
- ``auto``: Tailscale where it is installed and logged in, else cloudflared where installed.

Shared to the internet, strangers can reach the server: creating a table then needs the host's
own key (the admin token, made once and kept in the host's data folder), and the client address
the per-client limits count is the one the tunnel forwards, believed from loopback only (where
the tunnel connects from, the server listening nowhere else unless told to).
"""

from __future__ import annotations

import datetime
import io
import ipaddress
import logging
import os
import secrets
import shutil
import ssl
import sys
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal

import platformdirs
import segno
from aiohttp import web
from pydantic import SecretStr

from server.http.reached import LanAddress, lan_addresses
from server.run import trust
from server.run.app import tls_context
from server.run.lan_ca import LOCAL_NAME, Issued, issue
from server.run.tunnels import Child, Say, ShareError, funnel, quick_tunnel, tailscale_status
from server.settings import Settings

log = logging.getLogger("seize")

Way = Literal["off", "auto", "tailscale", "cloudflare", "lan-ca"]
WAYS: tuple[Way, ...] = ("off", "auto", "tailscale", "cloudflare", "lan-ca")

LOOPBACK = [ipaddress.ip_network("127.0.0.0/8"), ipaddress.ip_network("::1/128")]

__all__ = ["WAYS", "ShareError", "Shared", "attach", "begin", "listening"]


def folder() -> Path:
    """Where sharing keeps its files (the table root, the host key): the host's data folder."""
    return Path(platformdirs.user_data_dir("seize")) / "share"


def _say(line: str) -> None:
    """Lines beside the links the server prints, on its standard output."""
    print(line, flush=True)


@dataclass
class Shared:
    """How the table is shared: the settings to serve with, and what runs beside it."""

    way: Way
    settings: Settings
    tls: ssl.SSLContext | None = None
    lines: list[str] = field(default_factory=list)
    child: Child | None = None
    issued: Issued | None = None
    lans: list[LanAddress] = field(default_factory=list)


def listening(settings: Settings) -> Settings:
    """The settings with the address to listen on: on the table's network for ``lan-ca``,
    unless the host names one (phones cannot reach loopback)."""
    if settings.share == "lan-ca" and "host" not in settings.model_fields_set:
        return settings.model_copy(update={"host": "0.0.0.0"})
    return settings


def begin(settings: Settings, *, tls_given: bool, say: Say = _say) -> Shared:
    """Start sharing as ``settings.share`` asks, before the server listens: the tunnel's child
    running and its URL known, or the table's certificate issued. A way that cannot work here
    is a ShareError saying what to do, with nothing left running."""
    way = settings.share
    if way == "off":
        return Shared("off", settings, lines=_plain_http(settings, tls_given))
    if settings.workers > 1:
        raise ShareError("sharing runs with one worker: leave out --workers")
    if way == "lan-ca":
        if tls_given:
            raise ShareError("lan-ca makes its own certificate: leave out --tls-cert/--tls-key")
        return _lan_ca(settings)
    if tls_given:
        raise ShareError("the tunnel brings its own https: leave out --tls-cert/--tls-key")
    if settings.host not in ("127.0.0.1", "localhost", "::1", "0.0.0.0", "::"):
        raise ShareError(
            f"the tunnel reaches the server at 127.0.0.1, where --host {settings.host} does "
            "not listen: leave out --host, or give 0.0.0.0"
        )
    if way == "auto":
        way = _choose()
    if way == "tailscale":
        tool = _tool("tailscale", "Tailscale (https://tailscale.com/download)")
        url, child = funnel(tool, tailscale_status(tool), settings.port, say)
        note = "Tailscale Funnel: the same address at every start"
    else:
        tool = _tool("cloudflared", "cloudflared (https://github.com/cloudflare/cloudflared)")
        url, child = quick_tunnel(tool, settings.port, folder() / "cloudflared.yml", say)
        note = (
            "a Cloudflare quick tunnel: the address changes at every start, so hand out new "
            "links each session; live updates go over WebSocket there (quick tunnels carry no "
            "Server-Sent Events)"
        )
    return _on_the_internet(way, settings, url, child, note)


def _tool(name: str, where: str) -> str:
    found = shutil.which(name)
    if found is None:
        raise ShareError(f"{name} is not installed here: install {where}, or use --share lan-ca")
    return found


def _choose() -> Way:
    """Tailscale where it is installed and logged in (a stable name), else cloudflared."""
    tailscale = shutil.which("tailscale")
    if tailscale is not None:
        try:
            if tailscale_status(tailscale).logged_in:
                return "tailscale"
        except ShareError as wrong:
            log.info("tailscale is installed but not usable", extra={"why": str(wrong)})
    if shutil.which("cloudflared") is not None:
        return "cloudflare"
    raise ShareError(
        "neither Tailscale (logged in) nor cloudflared is here: install either one, or use "
        "--share lan-ca to serve https on this network without the internet"
    )


def _on_the_internet(way: Way, settings: Settings, url: str, child: Child, note: str) -> Shared:
    """Served at the tunnel's address; anyone with a link reaches it, so new tables need the
    host key, and the tunnel's forwarded client address counts."""
    key = settings.admin_token.get_secret_value() if settings.admin_token else host_key()
    forwarded = [*settings.forwarded_by, *(n for n in LOOPBACK if n not in settings.forwarded_by)]
    shared = settings.model_copy(
        update={"public_url": url, "admin_token": SecretStr(key), "forwarded_by": forwarded}
    )
    lines = [
        f"  Shared at:    {url} ({note})",
        f"  Host key:     {key}",
        "                (anyone on the internet can reach this server: creating a table needs "
        'this key, the console\'s "Admin token"; keep it to yourself)',
    ]
    return Shared(way, shared, lines=lines, child=child)


def host_key() -> str:
    """The host's own key, made once and kept in its data folder, readable by its owner only:
    the same at every start, so the GM's console keeps it."""
    path = folder() / "host-key"
    if path.exists():
        return path.read_text().strip()
    path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
    key = secrets.token_urlsafe(24)
    descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    with os.fdopen(descriptor, "w") as out:
        out.write(key + "\n")
    return key


def _lan_ca(settings: Settings) -> Shared:
    lans = lan_addresses(settings.host)
    issued = issue(folder() / "lan-ca", lans, datetime.datetime.now(datetime.UTC))
    port = settings.port
    first = next((n for n in issued.names if n != LOCAL_NAME), LOCAL_NAME)
    url = settings.public_url or f"https://{first}:{port}"
    shared = settings.model_copy(update={"public_url": url})
    also = f" and https://{LOCAL_NAME}:{port}" if first != LOCAL_NAME else ""
    lines = [f"  Shared at:    {url}{also} (this network's own certificate)"]
    if issued.new_root:
        lines.append("                a new table root: each phone trusts it once (the page below)")
    return Shared(
        "lan-ca",
        shared,
        tls=tls_context(issued.chain, issued.key),
        lines=lines,
        issued=issued,
        lans=lans,
    )


def _plain_http(settings: Settings, tls_given: bool) -> list[str]:
    """Served over plain http to other devices: say once what phones lose there."""
    local = settings.host in ("127.0.0.1", "::1", "localhost")
    secure = tls_given or (settings.public_url or "").startswith("https://")
    if local or secure:
        return []
    return [
        "  Phones:       over plain http a phone's page cannot be installed, notify, keep the "
        "screen on or pair dice;",
        "                `seize serve --share auto` (Tailscale or cloudflared) or "
        "`--share lan-ca` (this network, offline) gives them https",
    ]


def attach(app: web.Application, shared: Shared, say: Say = _say) -> None:
    """Print how the table is shared once the server is up; serve the trust page and announce
    ``seize.local`` beside it (lan-ca); stop the tunnel with the server, and tell the GM if it
    ends while the table plays."""
    if shared.issued is not None:
        app.cleanup_ctx.append(_trusting(shared))

    async def tell(_: web.Application) -> None:
        if shared.lines:
            say("\n".join(shared.lines))

    app.on_startup.append(tell)  # after the links, which the server prints as it starts
    child = shared.child
    if child is None:
        return

    def ended(gone: Child) -> None:
        last = "\n  ".join(gone.heard)
        log.error("share ended", extra={"tool": gone.name, "code": gone.process.returncode})
        print(
            f"seize: {gone.name} ended (exit code {gone.process.returncode}): "
            f"{shared.settings.public_url} no longer reaches this table. Start Seize again to "
            f"share it; its last words:\n  {last}",
            file=sys.stderr,
            flush=True,
        )

    async def stop(_: web.Application) -> None:
        child.stop()

    child.watch(ended)
    app.on_cleanup.append(stop)


def _trusting(shared: Shared) -> Callable[[web.Application], AsyncIterator[None]]:
    """The trust page served (its address and QR code told with the links) and
    ``seize.local`` announced, while the table is."""
    issued = shared.issued
    assert issued is not None
    settings = shared.settings
    url = settings.public_url or settings.base_url

    async def trusting(_: web.Application) -> AsyncIterator[None]:
        page = trust.trust_app(issued, url)
        port = settings.port + 1 if settings.port else 0
        async with trust.serving(page, settings.host, port) as bound:
            where = next((n for n in issued.names if n != LOCAL_NAME), "127.0.0.1")
            trust_url = f"http://{where}:{bound}/"
            qr = io.StringIO()
            segno.make(trust_url, error="m").terminal(out=qr, compact=True)
            shared.lines += [
                f"  Trust page:   {trust_url} (plain http: each phone trusts the table's root "
                "there once, then opens the https link)",
                qr.getvalue().rstrip("\n"),
            ]
            async with trust.announced(shared.lans, settings.port):
                yield

    return trusting
