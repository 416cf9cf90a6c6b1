"""``seize serve --tls-cert --tls-key`` serves HTTPS and WSS: a real server process with a
self-signed certificate made here (with the openssl command), reached over real TLS."""

from __future__ import annotations

import json
import shutil
import ssl
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import aiohttp
import pytest

from server.run.cli import main
from tests.server.process import free_port
from tests.waiting import PATIENCE, eventually_async, within


@pytest.fixture
def certificate(tmp_path: Path) -> tuple[Path, Path]:
    openssl = shutil.which("openssl")
    if openssl is None:
        pytest.skip("no openssl command here to make a test certificate")
    cert, key = tmp_path / "cert.pem", tmp_path / "key.pem"
    subprocess.run(
        [openssl, "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256",
         "-nodes", "-days", "1", "-subj", "/CN=localhost", "-keyout", str(key), "-out", str(cert),
         "-addext", "subjectAltName=IP:127.0.0.1,DNS:localhost"],
        check=True, capture_output=True,
    )  # fmt: skip
    return cert, key


@pytest.fixture
def https_server(tmp_path: Path, certificate: tuple[Path, Path]) -> Iterator[tuple[str, Path]]:
    """The server on a free port under TLS; its base URL and the file it prints to."""
    cert, key = certificate
    port = free_port()
    printed = tmp_path / "printed.txt"
    with printed.open("wb") as output:
        process = subprocess.Popen(
            [sys.executable, "-m", "server", "serve", "--port", str(port),
             "--db", str(tmp_path / "seize.db"), "--tls-cert", str(cert), "--tls-key", str(key)],
            stdout=output, stderr=subprocess.STDOUT,
        )  # fmt: skip
    try:
        yield f"https://127.0.0.1:{port}", printed
    finally:
        process.terminate()
        process.wait(timeout=PATIENCE)


async def test_https_and_wss_with_a_certificate(
    https_server: tuple[str, Path], certificate: tuple[Path, Path], tmp_path: Path
) -> None:
    base, printed = https_server
    trusted = ssl.create_default_context(cafile=str(certificate[0]))
    async with aiohttp.ClientSession() as session:

        async def healthy() -> bool:
            try:
                async with session.get(f"{base}/healthz", ssl=trusted) as answer:
                    assert answer.status == 200
                    return True
            except aiohttp.ClientConnectorError:
                return False  # not listening yet

        await eventually_async(healthy, printed.read_text)
        async with session.post(
            f"{base}/api/tables", json={"system": "four-color", "name": "tls"}, ssl=trusted
        ) as answer:
            table = await answer.json()
        async with session.get(f"{base}/foundry/module.json", ssl=trusted) as answer:
            assert (await answer.json())["manifest"] == f"{base}/foundry/module.json"
        wss = f"wss://127.0.0.1:{base.rsplit(':', 1)[1]}/api/tables/{table['id']}/ws"
        async with session.ws_connect(
            wss, params={"token": table["gm_token"]}, ssl=trusted
        ) as socket:
            first = json.loads((await within(socket.receive(), "no view came")).data)
            assert first["type"] == "view" and first["view"]["system"] == "four-color"
        # A client that does not trust the certificate is refused: it is TLS, not plain http.
        with pytest.raises(aiohttp.ClientConnectorCertificateError):
            await session.get(f"{base}/healthz")
        # A GM link minted on the host beside it is https too: http would open nothing.
        minted = subprocess.run(
            [sys.executable, "-m", "server", "gm-link", table["id"],
             "--port", base.rsplit(":", 1)[1], "--db", str(tmp_path / "seize.db")],
            capture_output=True, text=True, timeout=PATIENCE, check=True,
        )  # fmt: skip
        assert minted.stdout.startswith(f"{base}/console/{table['id']}#token=")
    assert f"Seize is serving at {base}" in printed.read_text()


def test_a_certificate_needs_its_key(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["serve", "--tls-cert", "cert.pem"])
    assert "--tls-cert and --tls-key go together" in capsys.readouterr().err
