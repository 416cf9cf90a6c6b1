"""A Redis server of the test's own, on a free loopback port: one the test may kill and start
again without troubling anything else using the machine's Redis.

Without ``redis-server`` the tests that need it are skipped, saying why; under CI (``CI`` set)
they fail instead, so a CI run cannot pass without having tested it.
"""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import time
from types import TracebackType

import pytest

from tests.waiting import PACE, PATIENCE

from .process import free_port


def require_redis() -> str:
    """The ``redis-server`` binary; skips the test without one (fails it under CI)."""
    found = shutil.which("redis-server")
    if found is not None:
        return found
    missing = "redis-server is not installed (Debian: apt install redis-server)"
    if os.environ.get("CI"):
        pytest.fail(f"{missing}; CI requires it")
    pytest.skip(missing)


class RedisServer:
    """``redis-server`` keeping nothing on disk, as a bus needs nothing kept."""

    def __init__(self, password: str | None = None) -> None:
        self.binary = require_redis()
        self.port = free_port()
        self.password = password
        self.url = f"redis://{f':{password}@' if password else ''}127.0.0.1:{self.port}"
        self.process: subprocess.Popen[bytes] | None = None

    def start(self) -> RedisServer:
        self.process = subprocess.Popen(
            [
                *(self.binary, "--port", str(self.port), "--bind", "127.0.0.1"),
                *("--save", "", "--appendonly", "no", "--loglevel", "warning"),
                *(("--requirepass", self.password) if self.password else ()),
            ],
            stdout=subprocess.DEVNULL,
        )
        deadline = time.monotonic() + PATIENCE
        while time.monotonic() < deadline:
            try:
                with socket.create_connection(("127.0.0.1", self.port), timeout=PATIENCE):
                    return self
            except OSError:
                time.sleep(PACE)  # refused: not listening yet
        raise RuntimeError("redis-server did not start")

    def kill(self) -> None:
        """SIGKILL: every connection drops, every subscription is gone."""
        assert self.process is not None
        self.process.kill()
        self.process.wait()

    def __enter__(self) -> RedisServer:
        return self.start()

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        trace: TracebackType | None,
    ) -> None:
        if self.process is not None and self.process.poll() is None:
            self.kill()
