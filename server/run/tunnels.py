"""The tools that give the table a public https name: Tailscale Funnel and a Cloudflare quick
tunnel, each run as a child of the server that ends with it.

What is read of each is what its own source writes (tailscale 1.103, cloudflared 2026.8):

- ``tailscale status --json`` prints ``ipnstate.Status`` (``ipn/ipnstate/ipnstate.go``: 43
  ``BackendState``, 50 ``Self``, 75 ``CertDomains``; 242 ``Self.DNSName``, which ends with a
  dot). ``tailscale funnel PORT`` runs in the foreground until interrupted
  (``cmd/tailscale/cli/serve_v2.go`` 549-557), printing ``Available on the internet:`` (1036)
  then the URL (1130); before that it may print a consent text and URL and wait for the tailnet's
  admin (``serve_legacy.go`` 821-826), or fail with ``Access denied: …`` and the operator advice
  (``cli.go`` 169), which the GM reads word for word. Funnel sets ``X-Forwarded-For`` to the
  client's address (``ipn/ipnlocal/serve.go`` 1074).
- ``cloudflared tunnel --url URL --metrics ADDR`` serves ``/quicktunnel`` (``{"hostname": …}``,
  no scheme: ``metrics/metrics.go`` 86-88) and ``/ready`` (200 once a connection to the edge is
  up, else 503: ``metrics/readiness.go`` 37-60). A ``config.yml`` of the user's with ingress
  rules would win over ``--url`` (``ingress/ingress.go`` 98-103), sending the table's link to some
  other service, so the tunnel is given a configuration file of its own.
"""

from __future__ import annotations

import contextlib
import json
import logging
import signal
import socket
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

log = logging.getLogger("seize")

Say = Callable[[str], None]
"""Where a tool's own words go, one line at a time: the host's terminal."""

CONNECT_SECONDS = 60.0
"""How long a quick tunnel may take to reach Cloudflare's edge before the server gives up on it
and says so (the tool retries forever, which would leave the GM staring at nothing)."""

PACE = 0.1


class ShareError(Exception):
    """Why a table could not be shared, in words the GM acts on."""


@dataclass
class Child:
    """A tool running beside the server: stopped with it, and reported if it ends first."""

    name: str
    process: subprocess.Popen[str]
    interrupt: signal.Signals
    heard: deque[str] = field(default_factory=lambda: deque(maxlen=20))
    stopping: bool = False

    def stop(self) -> None:
        """Ask the tool to end as Ctrl+C would (Funnel then takes back its configuration), and
        end it if it does not."""
        self.stopping = True
        if self.process.poll() is not None:
            return
        self.process.send_signal(self.interrupt)
        try:
            self.process.wait(timeout=5)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()

    def watch(self, ended: Callable[[Child], None]) -> None:
        """Call ``ended`` from a thread of its own if the tool exits while the table plays."""

        def waiting() -> None:
            self.process.wait()
            if not self.stopping:
                ended(self)

        threading.Thread(target=waiting, name=f"{self.name} watcher", daemon=True).start()


def _spawn(command: list[str]) -> subprocess.Popen[str]:
    """The tool, its output merged into one stream of lines, and on Linux ended by the kernel if
    the server is killed outright, so no tunnel outlives the table it opened."""
    return subprocess.Popen(
        command,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        bufsize=1,
        preexec_fn=_end_with_parent if sys.platform == "linux" else None,  # noqa: PLW1509
    )


def _end_with_parent() -> None:
    import ctypes  # noqa: PLC0415 - Linux only, in the child before exec

    pr_set_pdeathsig = 1
    ctypes.CDLL(None).prctl(pr_set_pdeathsig, signal.SIGTERM)


def _run(command: list[str]) -> subprocess.CompletedProcess[str]:
    try:
        return subprocess.run(command, capture_output=True, text=True, timeout=30, check=False)
    except subprocess.TimeoutExpired:
        raise ShareError(f"{' '.join(command)} did not answer within 30 seconds") from None


# --- Tailscale Funnel -----------------------------------------------------------------------


@dataclass(frozen=True)
class TailscaleStatus:
    """What ``tailscale status --json`` says of this machine."""

    backend_state: str
    dns_name: str
    """Without the trailing dot: the name Funnel serves at."""
    cert_domains: list[str]
    auth_url: str

    @property
    def logged_in(self) -> bool:
        return self.backend_state == "Running"


def tailscale_status(tool: str) -> TailscaleStatus:
    done = _run([tool, "status", "--json"])
    if done.returncode != 0:
        said = (done.stderr or done.stdout).strip()
        raise ShareError(f"tailscale status: {said}")
    try:
        status = json.loads(done.stdout)
        self = status.get("Self") or {}
        return TailscaleStatus(
            backend_state=str(status["BackendState"]),
            dns_name=str(self.get("DNSName") or "").removesuffix("."),
            cert_domains=[str(d) for d in status.get("CertDomains") or []],
            auth_url=str(status.get("AuthURL") or ""),
        )
    except (ValueError, KeyError, AttributeError) as wrong:
        said = f"tailscale status --json answered what Seize cannot read: {wrong}"
        raise ShareError(said) from None


FUNNEL_AVAILABLE = "Available on the internet:"


def funnel(tool: str, status: TailscaleStatus, port: int, say: Say) -> tuple[str, Child]:
    """Run ``tailscale funnel PORT`` and answer its https URL once it serves, passing every
    line it prints on to the GM as it comes (a consent link to open, an operator command to
    run); a Funnel that ends first is a ShareError with its exit code."""
    if not status.logged_in:
        login = f" (log in at {status.auth_url})" if status.auth_url else ""
        raise ShareError(
            f"Tailscale is not running and logged in here (its state: {status.backend_state})"
            f"{login}: run `tailscale up`, then start Seize again"
        )
    if status.dns_name not in status.cert_domains:
        say(
            f"seize: Tailscale has no https certificate for {status.dns_name or 'this machine'} "
            "yet (HTTPS is not enabled on the tailnet): tailscale funnel asks for it below"
        )
    process = _spawn([tool, "funnel", str(port)])
    child = Child("tailscale funnel", process, signal.SIGINT)
    assert process.stdout is not None
    announced = False
    for raw in process.stdout:
        line = raw.rstrip("\n")
        child.heard.append(line)
        if announced and line.startswith("https://"):
            _drain(child, lambda line: log.debug("tailscale funnel", extra={"said": line}))
            return line.rstrip("/"), child
        announced = announced or line.strip() == FUNNEL_AVAILABLE
        if line.strip():
            say(f"tailscale: {line}")
    code = process.wait()
    raise ShareError(f"tailscale funnel ended (exit code {code}) before it served the table")


# --- Cloudflare quick tunnel ----------------------------------------------------------------


def quick_tunnel(tool: str, port: int, config: Path, say: Say) -> tuple[str, Child]:
    """Run a quick tunnel to the server on ``port`` and answer its https URL once Cloudflare's
    edge is connected; a tunnel that ends or does not connect is a ShareError with its last
    words."""
    config.parent.mkdir(parents=True, exist_ok=True)
    config.write_text("{}\n")  # no ingress rules of the user's can take the table's link
    metrics = f"127.0.0.1:{_free_port()}"
    command = [tool, "tunnel", "--no-autoupdate", "--config", str(config), "--metrics", metrics]
    process = _spawn([*command, "--url", f"http://127.0.0.1:{port}"])
    child = Child("cloudflared", process, signal.SIGTERM)
    _drain(child, lambda line: log.debug("cloudflared", extra={"said": line}))
    hostname = ""
    deadline = time.monotonic() + CONNECT_SECONDS
    while True:
        if process.poll() is not None:
            raise ShareError(
                f"cloudflared ended (exit code {process.returncode}) before its tunnel was "
                f"ready; it said:\n  " + "\n  ".join(child.heard)
            )
        if time.monotonic() > deadline:
            child.stop()
            raise ShareError(
                "cloudflared did not reach Cloudflare within a minute (is this host online?); "
                "it said:\n  " + "\n  ".join(child.heard)
            )
        if not hostname:
            answer = _metric(metrics, "/quicktunnel")
            if answer is not None:
                hostname = str(json.loads(answer[1]).get("hostname") or "")
                if hostname:
                    say(f"cloudflared: quick tunnel https://{hostname}, connecting…")
        elif (ready := _metric(metrics, "/ready")) is not None and ready[0] == 200:
            return f"https://{hostname}", child
        time.sleep(PACE)


def _metric(address: str, path: str) -> tuple[int, str] | None:
    """The status and body of one of cloudflared's metrics pages, or None while it does not
    listen yet."""
    try:
        with urllib.request.urlopen(f"http://{address}{path}", timeout=5) as answer:
            return answer.status, answer.read().decode()
    except urllib.error.HTTPError as refused:
        return refused.code, refused.read().decode()
    except (urllib.error.URLError, ConnectionError, TimeoutError):
        return None


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


def _drain(child: Child, say: Say) -> None:
    """Go on reading the tool's lines (a pipe left unread would stop it once full), keeping the
    last few for the report if it ends."""
    stream = child.process.stdout
    assert stream is not None

    def reading() -> None:
        with contextlib.suppress(ValueError, OSError):  # closed as the tool ends
            for raw in stream:
                line = raw.rstrip("\n")
                child.heard.append(line)
                if line.strip():
                    say(line)

    threading.Thread(target=reading, name=f"{child.name} lines", daemon=True).start()
