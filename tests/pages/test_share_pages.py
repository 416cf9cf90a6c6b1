"""A phone at a LAN-like origin, in Chromium with a name mapped to loopback
(``--host-resolver-rules``): over plain http the page has no secure context and says why, and
the console says so beside the links; over ``--share lan-ca`` https, with the table's root
trusted in the browser's NSS database (in a throwaway home, ``certutil`` from libnss3-tools),
the page is a secure context where the service worker registers, Wake Lock is granted, and a
subscription handed over from the page brings a pushed turn to the loopback push service.
Through ``--share tailscale`` and ``cloudflare`` (the tools' stand-ins, their edge's name mapped
to its loopback port and its authority trusted as a public one is), the same page, followed live
through the tunnel."""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import re
import shutil
import ssl
import subprocess
import threading
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from aiohttp import web
from playwright.sync_api import expect, sync_playwright

from tests.pages.conftest import CHROMIUM, FLAGS, Patient, Table, shoot
from tests.pages.console_driver import PHONE
from tests.pages.test_play import hand_to
from tests.server.live.push_service import LOOPBACK, PushService
from tests.server.process import UNLIMITED, ServerProcess, call, free_port
from tests.server.run.sharing import (
    QUICK_NAME,
    TAILNET_NAME,
    free_pair,
    printed_once,
    served_lan_ca,
    standins,
)
from tests.waiting import PAGE_PATIENCE, PATIENCE, until

LAN_NAME = "table.lan"
LOCAL = "seize.local"
RULES = (f"MAP {LAN_NAME} 127.0.0.1", f"MAP {LOCAL} 127.0.0.1")


def needed() -> str:
    """certutil, or a skip where it is missing and the browser tests are not required."""
    if not CHROMIUM.exists() and not os.environ.get("SEIZE_REQUIRE_BROWSER"):
        pytest.skip("no /usr/bin/chromium on this machine (apt-get install chromium)")
    found = shutil.which("certutil")
    if found is None:
        if os.environ.get("SEIZE_REQUIRE_BROWSER"):
            pytest.fail("certutil is required here: apt-get install libnss3-tools")
        pytest.skip("no certutil here (apt-get install libnss3-tools)")
    return found


@contextlib.contextmanager
def launched(home: Path, *rules: str) -> Iterator[Any]:
    """Chromium with ``home`` for its own (whose NSS database the test may fill) and these
    host resolver rules: names mapped to loopback."""
    needed()
    (home / ".pki" / "nssdb").mkdir(parents=True, exist_ok=True)
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=str(CHROMIUM),
            args=[*FLAGS, f"--host-resolver-rules={', '.join(rules)}"],
            env={**os.environ, "HOME": str(home)},
            timeout=PAGE_PATIENCE,
        )
        yield Patient(browser)
        browser.close()


@pytest.fixture
def chromium(tmp_path: Path) -> Iterator[tuple[Any, Path]]:
    """Chromium with the LAN-like names mapped to loopback, and its home."""
    home = tmp_path / "browser-home"
    with launched(home, *RULES) as browser:
        yield browser, home


def trust(home: Path, root: Path) -> None:
    """The table's root trusted in the browser's NSS database, as a GM's own desktop would."""
    certutil = needed()
    folder = home / ".pki" / "nssdb"
    database = f"sql:{folder}"
    made = (folder / "cert9.db").exists()
    folder.mkdir(parents=True, exist_ok=True)
    for args in (
        [] if made else ["-N", "--empty-password"],
        ["-A", "-t", "C,,", "-n", "Seize table root", "-i", str(root)],
    ):
        if args:
            subprocess.run(
                [certutil, "-d", database, *args],
                check=True, capture_output=True, timeout=PATIENCE,
            )  # fmt: skip


def phone_page(browser: Any) -> Any:
    context = browser.new_context(viewport=PHONE, has_touch=True)
    return context.new_page()


def handed_as(table: Table, participant: str, base: str) -> str:
    """The player link the console shows to a GM whose browser reached the server at
    ``base`` (a LAN name): the server names links after the address its GM used."""
    request = urllib.request.Request(
        f"{table.url}/handoff/players/{participant}",
        data=b"{}",
        method="POST",
        headers={
            "Authorization": f"Bearer {table.gm}",
            "Content-Type": "application/json",
            "Host": base.split("://", 1)[1],
        },
    )
    with urllib.request.urlopen(request, timeout=PATIENCE) as answer:
        return str(json.loads(answer.read())["url"])


def reached_at(url: str) -> ServerProcess:
    """A server already running (started by the test), as ``Table`` reaches it at ``url``."""
    reached = ServerProcess.__new__(ServerProcess)
    reached.url = url
    return reached


CAPABILITIES = """async () => ({
  secure: window.isSecureContext,
  worker: "serviceWorker" in navigator,
  wakeLock: "wakeLock" in navigator,
})"""


def test_plain_http_on_the_lan_says_what_it_cannot_do(
    chromium: tuple[Any, Path], tmp_path: Path
) -> None:
    browser, _ = chromium
    with ServerProcess(tmp_path / "seize.db", **UNLIMITED) as server:
        lan = server.url.replace("127.0.0.1", LAN_NAME)  # the same server, as phones name it
        table = Table(server, "four-color")
        table.send({"type": "join", "member": {"id": "peter", "name": "Peter", "kind": "hero"}})
        phone = phone_page(browser)
        phone.goto(handed_as(table, "peter", lan))
        assert phone.url.startswith(f"http://{LAN_NAME}:")
        phone.wait_for_selector("#alerts")
        assert phone.evaluate(CAPABILITIES) == {"secure": False, "worker": False, "wakeLock": False}
        notice = phone.locator("[data-notice=plain-http]")
        expect(notice).to_contain_text("cannot be installed as an app")
        expect(notice).to_contain_text("seize serve --share auto")
        # What it still does, and, in the alerts, the link (not the browser) as the reason.
        expect(notice).to_contain_text("still flags and vibrates when your turn comes")
        phone.locator("#alerts summary").click()
        expect(phone.locator("#alerts")).to_contain_text(
            "Keeping the screen on needs an https link to this page."
        )
        shoot(phone, "share-plain-http-phone")
        notice.get_by_role("button", name="Got it").click()
        phone.reload()
        phone.wait_for_selector("#alerts")
        expect(phone.locator("[data-notice=plain-http]")).to_have_count(0)  # said once

        console = browser.new_context(viewport={"width": 1280, "height": 900}).new_page()
        console.goto(f"{lan}/console/{table.id}#token={table.gm}")
        console.get_by_role("button", name="Phone link for Peter").click()
        beside = console.locator("[data-qr=peter] [data-notice=plain-http]")
        expect(beside).to_contain_text("cannot install the page")
        expect(beside).to_contain_text("--share lan-ca")
        shoot(console, "share-plain-http-console")


def test_lan_ca_https_with_the_root_trusted_is_a_secure_context(
    chromium: tuple[Any, Path], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    browser, home = chromium
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    port = free_pair()
    with served_lan_ca(tmp_path, port):
        root = tmp_path / "data" / "seize" / "share" / "lan-ca" / "root.pem"
        trust(home, root)
        https = reached_at(f"https://127.0.0.1:{port}")
        trusted = ssl.create_default_context(cafile=str(root))
        trusted.check_hostname = False  # the test's own calls go to 127.0.0.1 by address
        opener = urllib.request.build_opener(urllib.request.HTTPSHandler(context=trusted))
        urllib.request.install_opener(opener)
        try:
            table = Table(https, "four-color")
            table.send({"type": "join", "member": {"id": "peter", "name": "Peter", "kind": "hero"}})
            link = hand_to(table, "peter")
        finally:
            urllib.request.install_opener(urllib.request.build_opener())
        assert link.startswith(f"https://{LOCAL}:{port}/play/")
        phone = phone_page(browser)
        phone.goto(link)
        phone.wait_for_selector("#alerts")
        assert phone.evaluate(CAPABILITIES) == {"secure": True, "worker": True, "wakeLock": True}
        expect(phone.locator("[data-notice=plain-http]")).to_have_count(0)
        scope = phone.evaluate(
            """async () => (await navigator.serviceWorker.register("/play/sw.js",
                                                                    { scope: "/play/" })).scope"""
        )
        assert scope == f"https://{LOCAL}:{port}/play/"
        assert phone.evaluate(
            """async () => {
              await navigator.serviceWorker.ready;
              return Boolean(navigator.serviceWorker.controller)
                || (await navigator.serviceWorker.getRegistration("/play/")).active !== null;
            }"""
        )
        held = phone.evaluate(
            """async () => {
              const lock = await navigator.wakeLock.request("screen");
              return { type: lock.type, released: lock.released };
            }"""
        )
        assert held == {"type": "screen", "released": False}
        shoot(phone, "share-lan-ca-phone")
        console = browser.new_context(viewport={"width": 1280, "height": 900}).new_page()
        console.goto(f"https://{LOCAL}:{port}/console/{table.id}#token={table.gm}")
        console.get_by_role("button", name="Phone link for Peter").click()
        shown = console.locator("[data-qr=peter]")
        expect(shown.locator("[data-notice=plain-http]")).to_have_count(0)  # https: nothing
        shown.get_by_text("First time on this network?").click()
        expect(shown.locator("[data-trust] a")).to_have_text(f"http://{LOCAL}:{port + 1}/")
        expect(shown.locator("[data-trust] svg")).to_be_visible()
        shoot(console, "share-lan-ca-console")


@contextlib.contextmanager
def push_service() -> Iterator[PushService]:
    """The tests' push service (RFC 8030, 8291, 8292) on loopback, on a thread of its own
    while the browser is driven from this one."""
    service = PushService()
    loop = asyncio.new_event_loop()
    runner = web.AppRunner(service.app())
    port = free_port()

    async def start() -> None:
        await runner.setup()
        await web.TCPSite(runner, "127.0.0.1", port).start()

    thread = threading.Thread(target=loop.run_forever, daemon=True)
    thread.start()
    asyncio.run_coroutine_threadsafe(start(), loop).result(timeout=PATIENCE)
    service.base = f"http://127.0.0.1:{port}"
    try:
        yield service
    finally:
        asyncio.run_coroutine_threadsafe(runner.cleanup(), loop).result(timeout=PATIENCE)
        loop.call_soon_threadsafe(loop.stop)
        thread.join(timeout=PATIENCE)


def test_lan_ca_a_pushed_turn_reaches_the_loopback_push_service(
    chromium: tuple[Any, Path], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Subscribed from the phone's page at the https origin, with the worker registered: the
    GM's next Panel reaches the player's push service, decrypted as the browser would. (The
    subscription is made by the push service stand-in, as Chromium's own needs Google's
    servers, which this machine cannot reach.)"""
    browser, home = chromium
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    monkeypatch.setenv("SEIZE_OUTBOUND_ALLOWED", json.dumps([LOOPBACK]))
    port = free_pair()
    with push_service() as service, served_lan_ca(tmp_path, port):
        root = tmp_path / "data" / "seize" / "share" / "lan-ca" / "root.pem"
        trust(home, root)
        trusted = ssl.create_default_context(cafile=str(root))
        trusted.check_hostname = False  # the test's own calls go to 127.0.0.1 by address
        urllib.request.install_opener(
            urllib.request.build_opener(urllib.request.HTTPSHandler(context=trusted))
        )
        try:
            table = Table(reached_at(f"https://127.0.0.1:{port}"), "four-color")
            for hero in ("peter", "sue"):
                member = {"id": hero, "name": hero.title(), "kind": "hero"}
                table.send({"type": "join", "member": member})
            table.send({"type": "deal", "source": "gm"})
            for card in ("KH", "2C", "3D"):
                table.send({"type": "deal_card", "card": card})
            link = hand_to(table, "peter")
            phone = phone_page(browser)
            phone.goto(link)
            phone.wait_for_selector("#alerts")
            token = link.split("token=")[1]
            key = phone.evaluate(
                """async ([id, token]) => {
                  await navigator.serviceWorker.register("/play/sw.js", { scope: "/play/" });
                  await navigator.serviceWorker.ready;
                  const answer = await fetch(`/api/tables/${id}/push`,
                    { headers: { Authorization: `Bearer ${token}` } });
                  return (await answer.json()).public_key;
                }""",
                [table.id, token],
            )
            sub_id, subscription = service.subscribe(key)
            status = phone.evaluate(
                """async ([id, token, subscription]) => (await fetch(`/api/tables/${id}/push`, {
                  method: "PUT", body: JSON.stringify(subscription),
                  headers: { Authorization: `Bearer ${token}`,
                             "Content-Type": "application/json" } })).status""",
                [table.id, token, subscription],
            )
            assert status == 200
            table.send({"type": "next_panel"})
        finally:
            urllib.request.install_opener(urllib.request.build_opener())
        pushed = until(lambda: service.subscriptions[sub_id].messages, "no push arrived")
        assert "Peter" in json.dumps(pushed[0])


@pytest.mark.parametrize(("way", "name"), [("tailscale", TAILNET_NAME), ("cloudflare", QUICK_NAME)])
def test_through_a_tunnel_the_phone_gets_the_whole_page(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, way: str, name: str
) -> None:
    """``seize serve --share`` through the tools' stand-ins: the phone opens the link the
    console hands out at the tunnel's name (mapped to the stand-in's edge, whose certificate
    the browser trusts as it trusts Tailscale's or Cloudflare's), follows the table live over
    its WebSocket through the tunnel, and has a secure context: worker, Wake Lock, no notice."""
    tools = standins(tmp_path, monkeypatch, ["tailscale", "cloudflared"])
    tools.play(BackendState="Running", DNSName=f"{TAILNET_NAME}.", funnel="ok", hostname=name)
    home = tmp_path / "browser-home"
    trust(home, tmp_path / "edge-ca.pem")
    with (
        ServerProcess(tmp_path / "seize.db", tmp_path / "printed.txt", ["--share", way]) as seize,
        launched(home, f"MAP {name} 127.0.0.1:{tools.edge_port}") as browser,
    ):
        key = re.findall(r"Host key:\s+(\S+)", printed_once(tmp_path, "Host key:"))[-1]
        table = keyed_table(seize, key)
        table.send({"type": "join", "member": {"id": "peter", "name": "Peter", "kind": "hero"}})
        link = hand_to(table, "peter")
        assert link.startswith(f"https://{name}/play/")
        phone = phone_page(browser)
        phone.goto(link)
        expect(phone.get_by_role("heading", name="Peter")).to_be_visible()
        assert phone.evaluate(CAPABILITIES) == {"secure": True, "worker": True, "wakeLock": True}
        expect(phone.locator("[data-notice=plain-http]")).to_have_count(0)
        before = phone.evaluate("document.body.dataset.seq")
        table.send({"type": "deal", "source": "gm"})  # followed live, through the tunnel
        expect(phone.locator("body")).not_to_have_attribute("data-seq", before)


def keyed_table(server: ServerProcess, key: str) -> Table:
    """A table made with the host key, as the GM of a shared server makes one."""
    status, created = call(
        f"{server.url}/api/tables", "POST", {"system": "four-color", "name": "Friday game"}, key
    )
    assert status == 201, created
    table = Table.__new__(Table)
    table.server, table.id = server, created["id"]
    table.gm, table.overlay = created["gm_token"], created["overlay_token"]
    return table
