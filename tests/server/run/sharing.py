"""What the sharing tests share: the stand-ins for ``tailscale`` and ``cloudflared`` put on PATH
as real executables, a certificate for their "edge" that the test trusts, and a reader of what
the server printed."""

from __future__ import annotations

import contextlib
import datetime
import json
import os
import socket
import ssl
import stat
import subprocess
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.x509.oid import NameOID

from tests.server.process import free_port
from tests.waiting import PATIENCE, until

REPO = Path(__file__).resolve().parents[3]
TAILNET_NAME = "table-pi.tail1234.ts.net"
QUICK_NAME = "shy-wave-dice-table.trycloudflare.com"


def edge_certificate(folder: Path, names: list[str]) -> tuple[Path, Path, Path]:
    """A throwaway authority and a certificate for ``names``, as a tunnel's edge presents one
    a phone trusts: the authority's file (for the test to trust), the chain and the key."""
    now = datetime.datetime.now(datetime.UTC)
    ca_key = ec.generate_private_key(ec.SECP256R1())
    ca_name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "Test edge authority")])
    ca = (
        x509.CertificateBuilder()
        .subject_name(ca_name)
        .issuer_name(ca_name)
        .public_key(ca_key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(now - datetime.timedelta(hours=1))
        .not_valid_after(now + datetime.timedelta(days=1))
        .add_extension(x509.BasicConstraints(ca=True, path_length=0), critical=True)
        .sign(ca_key, hashes.SHA256())
    )
    key = ec.generate_private_key(ec.SECP256R1())
    leaf = (
        x509.CertificateBuilder()
        .subject_name(x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, names[0])]))
        .issuer_name(ca_name)
        .public_key(key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(now - datetime.timedelta(hours=1))
        .not_valid_after(now + datetime.timedelta(days=1))
        .add_extension(
            x509.SubjectAlternativeName([x509.DNSName(n) for n in names]), critical=False
        )
        .sign(ca_key, hashes.SHA256())
    )
    ca_file, chain, key_file = folder / "edge-ca.pem", folder / "edge.pem", folder / "edge.key"
    ca_file.write_bytes(ca.public_bytes(serialization.Encoding.PEM))
    chain.write_bytes(leaf.public_bytes(serialization.Encoding.PEM))
    key_file.write_bytes(
        key.private_bytes(
            serialization.Encoding.PEM,
            serialization.PrivateFormat.PKCS8,
            serialization.NoEncryption(),
        )
    )
    return ca_file, chain, key_file


@dataclass
class Standins:
    """The stand-ins on PATH, and the state file that tells them which case to play."""

    folder: Path
    state_file: Path
    edge_port: int
    trusted: ssl.SSLContext
    """Trusts the edge's certificate, as a phone trusts Tailscale's or Cloudflare's."""
    edge: dict[str, Any]

    def play(self, **state: Any) -> None:
        self.state_file.write_text(json.dumps({**self.edge, **state}))

    @property
    def pid(self) -> int | None:
        written = self.folder / "tool.pid"
        return int(written.read_text()) if written.exists() else None


def standins(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, tools: list[str]) -> Standins:
    """``tools`` (tailscale, cloudflared) on PATH, ahead of any real one; a home and a data
    folder of the test's own; the edge's certificate for both tools' names."""
    found, env = standins_in(tmp_path, tools)
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    return found


def standins_in(folder: Path, tools: list[str]) -> tuple[Standins, dict[str, str]]:
    """The stand-ins in ``folder``, and the environment a server finds them with."""
    bin_dir = folder / "bin"
    bin_dir.mkdir()
    for tool in tools:
        script = bin_dir / tool
        module = f"tests.server.run.standins.{tool}_standin"
        script.write_text(f'#!/bin/sh\nexec "{sys.executable}" -m {module} "$@"\n')
        script.chmod(script.stat().st_mode | stat.S_IXUSR)
    home = folder / "home"
    home.mkdir()
    state_file = folder / "standin.json"
    env = {
        "PATH": f"{bin_dir}{os.pathsep}{os.environ['PATH']}",
        "PYTHONPATH": str(REPO),
        "HOME": str(home),
        "XDG_DATA_HOME": str(folder / "data"),
        "STANDIN_STATE": str(state_file),
    }
    ca, chain, key = edge_certificate(folder, [TAILNET_NAME, QUICK_NAME])
    port = free_port()
    edge = {
        "listen": port,
        "cert": str(chain),
        "key": str(key),
        "pidfile": str(folder / "tool.pid"),
    }
    trusted = ssl.create_default_context(cafile=ca)
    return Standins(folder, state_file, port, trusted, edge), env


def free_pair() -> int:
    """A free port whose next is free too: lan-ca serves its trust page there."""
    while True:
        port = free_port()
        try:
            socket.create_server(("127.0.0.1", port + 1)).close()
        except OSError:
            continue
        return port


def printed(tmp_path: Path) -> str:
    path = tmp_path / "printed.txt"
    return path.read_text() if path.exists() else ""


def printed_once(tmp_path: Path, words: str) -> str:
    """What the server printed, once it has printed ``words``."""
    until(
        lambda: words in printed(tmp_path),
        lambda: f"the server never printed {words!r}; it printed:\n{printed(tmp_path)}",
    )
    return printed(tmp_path)


@contextlib.contextmanager
def served_lan_ca(tmp_path: Path, port: int) -> Iterator[subprocess.Popen[bytes]]:
    """``seize serve --share lan-ca`` on loopback at ``port``, printing to printed.txt, until
    it has said where its trust page is."""
    with (tmp_path / "printed.txt").open("wb") as output:
        process = subprocess.Popen(
            [sys.executable, "-m", "server", "serve", "--port", str(port),
             "--db", str(tmp_path / "seize.db"), "--share", "lan-ca", "--host", "127.0.0.1"],
            stdout=output, stderr=subprocess.STDOUT,
        )  # fmt: skip
    try:
        printed_once(tmp_path, "Trust page:")
        # The links are printed as the server starts, a moment before its port listens.
        until(lambda: _accepts(port), f"nothing listens on {port}")
        yield process
    finally:
        process.terminate()
        process.wait(timeout=PATIENCE)


def _accepts(port: int) -> bool:
    with socket.socket() as probe:
        return probe.connect_ex(("127.0.0.1", port)) == 0
