"""A PostgreSQL server of a test's own, which the test may stop and start as it likes: initdb
into a temporary folder, pg_ctl on a free loopback port. The machine's shared PostgreSQL, which
other tests use at the same time, is never stopped.

PostgreSQL refuses to run as root, so as root its tools run as the ``postgres`` user, in a
folder that user owns. Without initdb and pg_ctl the tests that need them are skipped, saying
why; under CI (``CI`` set) they fail instead, as for the shared PostgreSQL (``databases.py``).
"""

from __future__ import annotations

import os
import pwd
import shutil
import subprocess
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Literal

import pytest

from tests.waiting import PATIENCE

from .process import free_port

USER = "postgres"
SETTINGS = {
    "listen_addresses": "'127.0.0.1'",
    "unix_socket_directories": "''",
    "max_connections": "40",
    "shared_buffers": "16MB",
    "max_wal_senders": "0",
    "wal_level": "minimal",
}
"""Loopback only, no socket file beside the shared server's, and small: it starts in a moment.
``fsync`` stays on: a crash must lose what it would lose in production, no more."""
StopMode = Literal["fast", "immediate"]
WAIT = str(int(PATIENCE))
"""How long ``pg_ctl`` waits for the server to start or stop: the tests' shared patience."""


def tools() -> Path | None:
    """The folder holding initdb and pg_ctl: on the PATH, else the newest of Debian's."""
    on_path = shutil.which("pg_ctl")
    candidates = [Path(on_path).parent] if on_path else []
    candidates += sorted(
        Path("/usr/lib/postgresql").glob("*/bin"),
        key=lambda folder: int(folder.parent.name) if folder.parent.name.isdigit() else 0,
        reverse=True,
    )
    for folder in candidates:
        if (folder / "initdb").is_file() and (folder / "pg_ctl").is_file():
            return folder
    return None


class PrivatePostgres:
    """One PostgreSQL cluster in ``folder``, listening on 127.0.0.1:``port``."""

    def __init__(self, bin_dir: Path, folder: Path) -> None:
        self.bin_dir, self.folder = bin_dir, folder
        self.data = folder / "data"
        self.port = free_port()

    def url(self, database: str = "postgres") -> str:
        return f"postgresql://{USER}@127.0.0.1:{self.port}/{database}"

    def initdb(self) -> None:
        self._run(
            "initdb",
            "--pgdata",
            str(self.data),
            "--username",
            USER,
            "--auth",
            "trust",
            "--encoding",
            "UTF8",
            "--no-locale",
            "--no-sync",  # the cluster is thrown away: only the server's own writes must sync
        )
        settings = {"port": str(self.port), **SETTINGS}
        with (self.data / "postgresql.conf").open("a") as conf:
            conf.writelines(f"{name} = {value}\n" for name, value in settings.items())

    def start(self) -> None:
        """Start it and return once it accepts connections (after crash recovery, if any)."""
        self._run("pg_ctl", "start", "--wait", "--timeout", WAIT, *self._where())

    def stop(self, mode: StopMode) -> None:
        """``fast`` ends every session with an admin-shutdown error and checkpoints;
        ``immediate`` kills the server as a crash would, leaving recovery to the next start."""
        self._run("pg_ctl", "stop", "--wait", "--timeout", WAIT, "--mode", mode, *self._where())

    def _where(self) -> list[str]:
        return ["--pgdata", str(self.data), "--log", str(self.folder / "postgres.log")]

    def _run(self, tool: str, *args: str) -> None:
        as_user = ["runuser", "-u", USER, "--"] if os.geteuid() == 0 else []
        done = subprocess.run(
            [*as_user, str(self.bin_dir / tool), *args],
            cwd=self.folder,
            capture_output=True,
            text=True,
            check=False,
        )
        if done.returncode != 0:
            raise RuntimeError(f"{tool} {' '.join(args)} failed:\n{done.stdout}{done.stderr}")


@contextmanager
def private_postgres() -> Iterator[PrivatePostgres]:
    """A running PostgreSQL of the caller's own, stopped and deleted afterwards, whatever
    happened to it in between."""
    bin_dir = tools()
    if bin_dir is None:
        missing = "initdb and pg_ctl are not installed (Debian: apt-get install postgresql)"
        if os.environ.get("CI"):
            pytest.fail(f"{missing}; CI requires them")
        pytest.skip(missing)
    folder = Path(tempfile.mkdtemp(prefix="seize-postgres-"))
    try:
        if os.geteuid() == 0:
            owner = pwd.getpwnam(USER)
            os.chown(folder, owner.pw_uid, owner.pw_gid)
        postgres = PrivatePostgres(bin_dir, folder)
        postgres.initdb()
        postgres.start()
        try:
            yield postgres
        finally:
            if (postgres.data / "postmaster.pid").exists():  # running, or left by a crash
                postgres.stop("immediate")
    finally:
        shutil.rmtree(folder, ignore_errors=True)
