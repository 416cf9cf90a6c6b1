"""A server in its own process, for tests that kill it and benchmarks that load it."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Sequence
from pathlib import Path
from types import TracebackType
from typing import Any

from tests.waiting import PACE, PATIENCE

UNLIMITED: dict[str, Any] = {
    "rate_burst": 10**9,
    "rate_per_second": 10**9,
    "read_burst": 10**9,
    "read_rate_per_second": 10**9,
    "create_burst": 10**9,
    "create_per_minute": 10**9,
}
"""Settings that lift the rate limits, for tests and benchmarks that send fast."""


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


class ServerProcess:
    """``python -m server serve`` on a free loopback port, over the database ``db`` (an SQLite
    file, or a PostgreSQL URL)."""

    def __init__(
        self,
        db: Path | str,
        output: Path | None = None,
        extra_args: Sequence[str] = (),
        **settings: Any,
    ) -> None:
        """``output``: a file for what the server prints (its startup lines, its log);
        ``extra_args``: more flags for ``serve``."""
        self.db = db
        self.output = output
        self.extra_args = list(extra_args)
        self.env = {**os.environ, **{f"SEIZE_{k.upper()}": str(v) for k, v in settings.items()}}
        self.process: subprocess.Popen[bytes] | None = None
        self.url = ""

    def start(self, *, same_port: bool = False) -> ServerProcess:
        """Start the server; ``same_port`` restarts it where clients already look for it."""
        port = int(self.url.rsplit(":", 1)[1]) if same_port and self.url else free_port()
        self.url = f"http://127.0.0.1:{port}"
        with (self.output or Path(os.devnull)).open("ab") as printed:
            self.process = subprocess.Popen(
                [
                    sys.executable,
                    "-m",
                    "server",
                    "serve",
                    "--port",
                    str(port),
                    "--db",
                    str(self.db),
                    *self.extra_args,
                ],
                env=self.env,
                stdout=printed,
                stderr=subprocess.STDOUT,
            )
        deadline = time.monotonic() + PATIENCE
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"the server exited with status {self.process.returncode}")
            try:
                with urllib.request.urlopen(f"{self.url}/healthz", timeout=PATIENCE):
                    return self
            except (urllib.error.URLError, ConnectionError):
                time.sleep(PACE)  # refused: not listening yet
        self.kill()  # not left running behind the failure
        raise RuntimeError("the server did not start")

    def kill(self) -> None:
        """SIGKILL: no shutdown, no flush, as a crash or an out-of-memory kill would do."""
        assert self.process is not None
        self.process.kill()
        self.process.wait()

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            self.process.wait(timeout=PATIENCE)

    def __enter__(self) -> ServerProcess:
        return self.start()

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        trace: TracebackType | None,
    ) -> None:
        self.stop()


def call(
    url: str,
    method: str = "GET",
    body: Any = None,
    token: str | None = None,
    timeout: float = PATIENCE,
) -> tuple[int, Any]:
    """One HTTP request with the standard library; the status and the JSON answer."""
    data = json.dumps(body).encode() if body is not None else None
    request = urllib.request.Request(url, data=data, method=method)
    request.add_header("Content-Type", "application/json")
    if token:
        request.add_header("Authorization", f"Bearer {token}")
    try:
        with urllib.request.urlopen(request, timeout=timeout) as answer:
            return answer.status, json.loads(answer.read())
    except urllib.error.HTTPError as refused:
        return refused.code, json.loads(refused.read())
