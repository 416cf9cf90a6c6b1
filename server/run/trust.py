"""What ``--share lan-ca`` serves beside the table: a plain-http page that walks a phone through
trusting the table's root once (a phone cannot open the https link before it does), and the mDNS
announcement of ``seize.local``.

The page is served on its own port, with nothing else: the root certificate, the steps, and the
root's fingerprint to compare with what the phone shows. It holds no secret.
"""

from __future__ import annotations

import html
import logging
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from aiohttp import web
from zeroconf import ServiceInfo
from zeroconf.asyncio import AsyncZeroconf

from server.http.reached import LanAddress
from server.run.lan_ca import LOCAL_NAME, Issued

log = logging.getLogger("seize")

ROOT_FILE = "seize-root.crt"


def page(issued: Issued, table_url: str) -> str:
    """The steps, for Android (Chrome) and for iPhone or iPad (Safari), in a player's words."""
    link = html.escape(table_url)
    fingerprint = html.escape(issued.fingerprint)
    return f"""<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Trust this table's Seize</title>
<style>
body {{ font: 17px/1.5 system-ui, sans-serif; max-width: 38rem; margin: 1rem auto;
       padding: 0 1rem; color: #111; background: #fff; }}
a.button {{ display: inline-block; padding: .6rem 1rem; background: #1a4e8a; color: #fff;
           border-radius: .4rem; text-decoration: none; }}
code {{ word-break: break-all; font-size: .85em; }}
</style></head>
<body>
<h1>Trust this table's Seize, once</h1>
<p>Your GM runs Seize on this network. For the whole player page (installing it as an app,
alerts when your turn comes, keeping the screen on, your smart dice), your phone must trust the
table's own certificate. You do this once; it then works at every session on this network.</p>
<p><a class="button" href="/{ROOT_FILE}" download>Download the certificate</a></p>
<h2>Android (Chrome)</h2>
<ol>
<li>Tap <b>Download the certificate</b> above.</li>
<li>Open <b>Settings</b>, search for <b>CA certificate</b> (under Security, then Encryption and
credentials, then Install a certificate), tap it and <b>Install anyway</b>.</li>
<li>Choose <b>{ROOT_FILE}</b> from your downloads.</li>
<li>Scan your player link's QR code from the GM again: it starts with
<a href="{link}">{link}</a>.</li>
</ol>
<h2>iPhone or iPad (Safari)</h2>
<ol>
<li>Tap <b>Download the certificate</b> above, then <b>Allow</b>.</li>
<li>Open <b>Settings</b>, <b>General</b>, <b>VPN &amp; Device Management</b>, tap the Seize
profile and <b>Install</b>.</li>
<li>Then <b>Settings</b>, <b>General</b>, <b>About</b>, <b>Certificate Trust Settings</b>, and
turn on the Seize table root.</li>
<li>Scan your player link's QR code from the GM again, and open it in Safari: it starts with
<a href="{link}">{link}</a>.</li>
</ol>
<h2>Is it the right one?</h2>
<p>The certificate's SHA-256 fingerprint, which your phone shows in its details, is
<code>{fingerprint}</code>. It can vouch only for {LOCAL_NAME} and addresses on the networks the
GM's machine was on when it was made: for no other site.</p>
</body></html>
"""


def trust_app(issued: Issued, table_url: str) -> web.Application:
    """The trust page and the root certificate, and nothing else."""
    shown = page(issued, table_url)

    async def steps(_: web.Request) -> web.Response:
        return web.Response(text=shown, content_type="text/html")

    async def root(_: web.Request) -> web.Response:
        return web.Response(
            body=issued.root_der,
            content_type="application/x-x509-ca-cert",
            headers={"Content-Disposition": f'attachment; filename="{ROOT_FILE}"'},
        )

    app = web.Application()
    app.router.add_get("/", steps)
    app.router.add_get(f"/{ROOT_FILE}", root)
    return app


@asynccontextmanager
async def serving(app: web.Application, host: str, port: int) -> AsyncIterator[int]:
    """The trust page served at ``host:port`` while the table is; answers the port bound."""
    runner = web.AppRunner(app, access_log=None)
    await runner.setup()
    try:
        await web.TCPSite(runner, host, port).start()
        bound: int = runner.addresses[0][1]
        yield bound
    finally:
        await runner.cleanup()


def service(lans: list[LanAddress], port: int) -> ServiceInfo:
    """What mDNS announces: an ``_https._tcp`` service at ``port`` whose host is
    ``seize.local``, at the LAN addresses, so asking for ``seize.local`` finds the server."""
    return ServiceInfo(
        "_https._tcp.local.",
        "Seize._https._tcp.local.",
        port=port,
        addresses=[lan.address.packed for lan in lans],
        server=f"{LOCAL_NAME}.",
        properties={"path": "/"},
    )


@asynccontextmanager
async def announced(lans: list[LanAddress], port: int) -> AsyncIterator[None]:
    """``seize.local`` answered over mDNS on the host's LAN interfaces, with an ``_https._tcp``
    service naming the port, while the table is served. Nothing is announced when the server
    listens on no LAN address."""
    if not lans:
        yield
        return
    zeroconf = AsyncZeroconf(interfaces=[str(lan.address) for lan in lans])
    info = service(lans, port)
    try:
        await zeroconf.async_register_service(info, allow_name_change=True)
    except Exception:  # another host's name, a network without multicast: the IP link works
        log.exception("seize.local could not be announced")
    try:
        yield
    finally:
        await zeroconf.async_close()
