"""``seize serve --share tailscale|cloudflare|auto``: the tunnel's https name becomes every
link's, the tool runs as a child that ends with the server, its own words reach the GM, and a
table shared to the internet needs the host key to create tables. The tools are stand-ins
written from their source (``standins/``), run as real processes on PATH."""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import urllib.error
import urllib.request
from pathlib import Path

import aiohttp
import pytest

from server.run.share import ShareError, begin
from server.settings import Settings
from tests.server.process import ServerProcess, call, free_port
from tests.server.run.sharing import (
    QUICK_NAME,
    TAILNET_NAME,
    Standins,
    edge_certificate,
    printed_once,
    standins,
)
from tests.waiting import PATIENCE, until

TAILSCALE_UP = {"BackendState": "Running", "DNSName": f"{TAILNET_NAME}.", "funnel": "ok"}
TABLE = {"system": "four-color", "name": "Shared"}


@pytest.fixture
def tools(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Standins:
    return standins(tmp_path, monkeypatch, ["tailscale", "cloudflared"])


def server(tmp_path: Path, *flags: str) -> ServerProcess:
    return ServerProcess(tmp_path / "seize.db", output=tmp_path / "printed.txt", extra_args=flags)


def refused(tmp_path: Path, *flags: str) -> str:
    """What ``seize serve`` says as it refuses to start (exit code 2)."""
    done = subprocess.run(
        [sys.executable, "-m", "server", "serve", "--port", str(free_port()),
         "--db", str(tmp_path / "seize.db"), *flags],
        capture_output=True, text=True, timeout=PATIENCE, check=False,
    )  # fmt: skip
    assert done.returncode == 2, done.stdout + done.stderr
    return done.stdout + done.stderr


def gone(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return True
    return False


async def through_edge(tools: Standins, name: str, path: str) -> str:
    """A phone's request to the shared address: TLS to the tunnel's edge under ``name``,
    trusted as a public certificate is."""
    async with (
        aiohttp.ClientSession() as session,
        session.get(
            f"https://127.0.0.1:{tools.edge_port}{path}",
            ssl=tools.trusted,
            server_hostname=name,
            headers={"Host": name},
        ) as answer,
    ):
        assert answer.status == 200, await answer.text()
        return await answer.text()


async def test_funnel_gives_every_link_its_name_and_ends_with_the_server(
    tools: Standins, tmp_path: Path
) -> None:
    tools.play(**TAILSCALE_UP)
    public = f"https://{TAILNET_NAME}"
    with server(tmp_path, "--share", "tailscale") as seize:
        said = printed_once(tmp_path, "Host key:")
        assert f"Seize is serving at {public}" in said
        assert f"  New table:    {public}/console" in said
        key = re.search(r"Host key:\s+(\S+)", said)
        assert key is not None
        # A stranger reaching the server (through the tunnel, from loopback) makes no table.
        status, _ = call(f"{seize.url}/api/tables", "POST", TABLE)
        assert status == 401
        status, table = call(f"{seize.url}/api/tables", "POST", TABLE, token=key[1])
        assert status == 201
        gm = table["gm_token"]
        status, overlay = call(
            f"{seize.url}/api/tables/{table['id']}/handoff/overlay", "POST", token=gm
        )
        assert overlay["url"].startswith(f"{public}/overlay/{table['id']}?token=")
        status, device = call(
            f"{seize.url}/api/tables/{table['id']}/handoff/gm", "POST", {"name": "Tablet"}, gm
        )
        assert device["url"].startswith(f"{public}/console/{table['id']}#token=")
        # A GM link minted on the host while it shares is the shared one too.
        assert host_link(tmp_path, seize, table["id"]).startswith(f"{public}/console/")
        status, module = call(f"{seize.url}/foundry/module.json")
        assert module["manifest"] == f"{public}/foundry/module.json"
        assert '"status": "ok"' in await through_edge(tools, TAILNET_NAME, "/healthz")
        funnel = tools.pid
        assert funnel is not None and not gone(funnel)
    until(lambda: gone(funnel), "the funnel outlived the server")
    assert host_link(tmp_path, seize, table["id"]).startswith(seize.url), "no longer shared"


def host_link(tmp_path: Path, seize: ServerProcess, table: str) -> str:
    """``seize gm-link`` on the host, for the server's port and database: the link printed."""
    done = subprocess.run(
        [sys.executable, "-m", "server", "gm-link", table, "--port", seize.url.rsplit(":", 1)[1],
         "--db", str(tmp_path / "seize.db")],
        capture_output=True, text=True, timeout=PATIENCE, check=True,
    )  # fmt: skip
    return done.stdout.strip().splitlines()[-1]


async def test_the_host_key_is_kept_from_one_start_to_the_next(
    tools: Standins, tmp_path: Path
) -> None:
    tools.play(**TAILSCALE_UP)
    keys = []
    for _ in range(2):
        with server(tmp_path, "--share", "tailscale"):
            said = printed_once(tmp_path, "Host key:")
            keys.append(re.findall(r"Host key:\s+(\S+)", said)[-1])
    assert keys[0] == keys[1]
    kept = tmp_path / "data" / "seize" / "share" / "host-key"
    assert kept.read_text().strip() == keys[0]
    assert kept.stat().st_mode & 0o077 == 0


def test_not_logged_in_is_told_to_log_in(tools: Standins, tmp_path: Path) -> None:
    login = "https://login.tailscale.com/a/1a2b3c"
    tools.play(BackendState="NeedsLogin", DNSName="", AuthURL=login)
    said = refused(tmp_path, "--share", "tailscale")
    assert "NeedsLogin" in said and "tailscale up" in said and login in said


def test_tailscaled_not_running_is_said_in_its_words(tools: Standins, tmp_path: Path) -> None:
    tools.play(daemon=False)
    said = refused(tmp_path, "--share", "tailscale")
    assert "failed to connect to local tailscaled; it doesn't appear to be running" in said


def test_https_not_enabled_is_said_in_its_words(tools: Standins, tmp_path: Path) -> None:
    tools.play(**TAILSCALE_UP, https=False)
    said = refused(tmp_path, "--share", "tailscale")
    assert f"Tailscale has no https certificate for {TAILNET_NAME} yet" in said
    assert (
        "tailscale: Funnel not available; HTTPS must be enabled. See https://tailscale.com/s/https."
        in said
    )


def test_the_operator_advice_is_passed_on_word_for_word(tools: Standins, tmp_path: Path) -> None:
    tools.play(**{**TAILSCALE_UP, "funnel": "denied"})
    said = refused(tmp_path, "--share", "tailscale")
    assert "tailscale: Access denied: serve config denied" in said
    assert "tailscale: To not require root, use 'sudo tailscale set --operator=$USER' once." in said
    assert "tailscale funnel ended (exit code 1)" in said


def test_the_consent_link_is_shown_and_waited_for(tools: Standins, tmp_path: Path) -> None:
    tools.play(**{**TAILSCALE_UP, "funnel": "consent"})
    seize = server(tmp_path, "--share", "tailscale")
    consent = "https://login.tailscale.com/f/funnel?node=nSTANDIN"
    with (tmp_path / "printed.txt").open("wb") as output:
        process = subprocess.Popen(
            [sys.executable, "-m", "server", "serve", "--port", str(free_port()),
             "--db", str(seize.db), "--share", "tailscale"],
            stdout=output, stderr=subprocess.STDOUT,
        )  # fmt: skip
    try:
        said = printed_once(tmp_path, consent)
        assert "tailscale: Funnel is not enabled on your tailnet." in said
        assert "Seize is serving" not in said  # no link handed out before the funnel serves
        tools.play(**TAILSCALE_UP)  # the admin clicks the link
        said = printed_once(tmp_path, "Host key:")
        assert f"Seize is serving at https://{TAILNET_NAME}" in said
    finally:
        process.terminate()
        process.wait(timeout=PATIENCE)


def test_a_funnel_ending_while_the_table_plays_is_told(tools: Standins, tmp_path: Path) -> None:
    tools.play(**TAILSCALE_UP)
    with server(tmp_path, "--share", "tailscale") as seize:
        funnel = tools.pid
        assert funnel is not None  # written before the funnel says it serves
        os.kill(funnel, signal.SIGKILL)
        said = printed_once(tmp_path, "no longer reaches")
        assert f"tailscale funnel ended (exit code -9): https://{TAILNET_NAME} no longer" in said
        assert call(f"{seize.url}/healthz")[0] == 200  # the table plays on, on the LAN


async def test_a_quick_tunnel_is_read_from_its_metrics(tools: Standins, tmp_path: Path) -> None:
    tools.play(hostname=QUICK_NAME)
    with server(tmp_path, "--share", "cloudflare") as seize:
        said = printed_once(tmp_path, "Host key:")
        assert f"Seize is serving at https://{QUICK_NAME}" in said
        assert "the address changes at every start" in said
        assert "live updates go over WebSocket there" in said
        _, module = call(f"{seize.url}/foundry/module.json")
        assert module["manifest"] == f"https://{QUICK_NAME}/foundry/module.json"
        assert '"status": "ok"' in await through_edge(tools, QUICK_NAME, "/healthz")
        tunnel = tools.pid
        assert tunnel is not None
    until(lambda: gone(tunnel), "cloudflared outlived the server")


async def test_a_config_file_of_the_users_cannot_take_the_link(
    tools: Standins, tmp_path: Path
) -> None:
    """A ``~/.cloudflared/config.yml`` with ingress rules wins over ``--url``: the table's link
    would lead to the user's other service (here, nothing at all)."""
    config = Path(os.environ["HOME"]) / ".cloudflared" / "config.yml"
    config.parent.mkdir()
    config.write_text(f"tunnel: home\ningress:\n  - service: http://127.0.0.1:{free_port()}\n")
    tools.play(hostname=QUICK_NAME)
    with server(tmp_path, "--share", "cloudflare"):
        assert '"status": "ok"' in await through_edge(tools, QUICK_NAME, "/healthz")


def test_a_quick_tunnel_without_the_internet_says_so(tools: Standins, tmp_path: Path) -> None:
    tools.play(hostname=QUICK_NAME, offline=True)
    said = refused(tmp_path, "--share", "cloudflare")
    assert "cloudflared ended (exit code 1) before its tunnel was ready" in said
    assert "failed to request quick Tunnel" in said


def test_auto_takes_tailscale_when_logged_in_else_cloudflared(
    tools: Standins, tmp_path: Path
) -> None:
    tools.play(BackendState="NeedsLogin", DNSName="", hostname=QUICK_NAME)
    with server(tmp_path, "--share", "auto"):
        said = printed_once(tmp_path, "Host key:")
        assert f"Seize is serving at https://{QUICK_NAME}" in said
    (tmp_path / "printed.txt").unlink()
    tools.play(**TAILSCALE_UP, hostname=QUICK_NAME)
    with server(tmp_path, "--share", "auto"):
        said = printed_once(tmp_path, "Host key:")
        assert f"Seize is serving at https://{TAILNET_NAME}" in said


def test_auto_without_either_tool_says_what_to_install(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("PATH", str(tmp_path))  # no tailscale, no cloudflared
    said = refused(tmp_path, "--share", "auto")
    assert "neither Tailscale (logged in) nor cloudflared is here" in said
    assert "--share lan-ca" in said


@pytest.mark.parametrize(
    ("flags", "why"),
    [
        (["--share", "lan-ca", "--workers", "2"], "sharing runs with one worker"),
        (
            ["--share", "lan-ca", "--tls-cert", "edge.pem", "--tls-key", "edge.key"],
            "own certificate",
        ),
    ],
    ids=["workers", "own-certificate"],
)
def test_what_sharing_cannot_go_with_is_refused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, flags: list[str], why: str
) -> None:
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    monkeypatch.chdir(tmp_path)
    edge_certificate(tmp_path, ["table.example"])  # a certificate of the GM's own
    assert why in refused(tmp_path, *flags)
    assert not (tmp_path / "data" / "seize" / "share").exists()  # nothing made


def test_guessing_the_host_key_is_limited_per_client_the_tunnel_names(
    tools: Standins, tmp_path: Path
) -> None:
    """Behind the tunnel every request comes from loopback: the client is the address the
    tunnel forwards (Funnel's ``X-Forwarded-For``), so one stranger's guesses do not lock out
    another, nor the GM."""
    tools.play(**TAILSCALE_UP)
    seize = ServerProcess(
        tmp_path / "seize.db", tmp_path / "printed.txt", ["--share", "tailscale"],
        create_burst=2, create_per_minute=1,
    )  # fmt: skip
    with seize:
        key = re.findall(r"Host key:\s+(\S+)", printed_once(tmp_path, "Host key:"))[-1]

        def guess(client: str, token: str = "guess") -> int:
            request = urllib.request.Request(
                f"{seize.url}/api/tables", data=json.dumps(TABLE).encode(), method="POST",
                headers={"Authorization": f"Bearer {token}", "X-Forwarded-For": client,
                         "Content-Type": "application/json"},
            )  # fmt: skip
            try:
                with urllib.request.urlopen(request, timeout=PATIENCE) as answer:
                    return int(answer.status)
            except urllib.error.HTTPError as refused:
                return refused.code

        assert [guess("198.51.100.7") for _ in range(3)] == [401, 401, 429]
        assert guess("203.0.113.40") == 401  # another client, its own count
        assert guess("203.0.113.41", key) == 201  # the GM, from wherever


@pytest.mark.parametrize(
    ("host", "public_url", "tls", "told"),
    [
        ("0.0.0.0", None, False, True),
        ("192.168.1.20", None, False, True),
        ("127.0.0.1", None, False, False),  # this machine's browser is a secure context
        ("0.0.0.0", None, True, False),
        ("0.0.0.0", "https://initiative.example.org", False, False),
    ],
)
def test_serving_plain_http_to_the_lan_tells_the_gm_what_phones_lose(
    host: str, public_url: str | None, tls: bool, told: bool
) -> None:
    settings = Settings(host=host, public_url=public_url)
    lines = "\n".join(begin(settings, tls_given=tls).lines)
    assert ("cannot be installed, notify, keep the screen on or pair dice" in lines) == told
    assert ("--share auto" in lines) == told


def test_what_phones_lose_is_said_under_the_links(tmp_path: Path) -> None:
    """Served to the table's network over plain http, the server prints its links, then what
    phones lose there (it came first, above "Seize is serving at")."""
    with ServerProcess(tmp_path / "seize.db", tmp_path / "printed.txt", ["--host", "0.0.0.0"]):
        said = printed_once(tmp_path, "Phones:")
    assert "Seize is serving at" in said.split("Phones:")[0], said


@pytest.mark.skipif(sys.platform != "linux", reason="the kernel ends the tool on Linux only")
def test_a_server_killed_outright_takes_its_tunnel_with_it(tools: Standins, tmp_path: Path) -> None:
    """No shutdown runs on SIGKILL (an out-of-memory kill): the kernel ends the tool, so no
    Funnel goes on serving a table nobody runs."""
    tools.play(**TAILSCALE_UP)
    seize = server(tmp_path, "--share", "tailscale").start()
    printed_once(tmp_path, "Host key:")
    funnel = tools.pid
    assert funnel is not None
    seize.kill()
    until(lambda: gone(funnel), "the funnel outlived a killed server")


def test_a_tunnel_to_an_address_the_server_is_not_on_is_refused() -> None:
    """The tools reach the server at 127.0.0.1: one listening on a LAN address alone would be
    shared as a dead link. Refused before any tool runs."""
    settings = Settings(host="192.0.2.1", share="cloudflare")
    with pytest.raises(ShareError, match=re.escape("where --host 192.0.2.1 does not listen")):
        begin(settings, tls_given=False)
