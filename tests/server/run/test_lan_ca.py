"""``--share lan-ca``: the host's own certificate authority, limited to Seize's names, a leaf
for ``seize.local`` and the LAN addresses, https served with it and a plain-http trust page
beside it. Certificates are checked with the openssl command, as a client other than ours."""

from __future__ import annotations

import datetime
import hashlib
import ipaddress
import re
import shutil
import ssl
import subprocess
from pathlib import Path
from typing import Any

import aiohttp
import ifaddr
import pytest
from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec

from server.http.reached import LanAddress, lan_addresses
from server.run.lan_ca import LOCAL_NAME, issue
from server.run.trust import service
from tests.server.run.sharing import free_pair, printed_once, served_lan_ca
from tests.waiting import PATIENCE

NOW = datetime.datetime(2026, 12, 6, tzinfo=datetime.UTC)
HOME_LAN = LanAddress(ipaddress.ip_address("192.168.1.20"), ipaddress.ip_network("192.168.1.0/24"))
CLUB_LAN = LanAddress(ipaddress.ip_address("10.4.0.7"), ipaddress.ip_network("10.4.0.0/16"))


def openssl_verifies(root: Path, leaf: Path, name: str) -> str:
    """What ``openssl verify`` says of ``leaf`` for ``name`` (a host name or an IP address)
    under ``root`` alone: "OK" or its complaint."""
    openssl = shutil.which("openssl")
    if openssl is None:
        pytest.skip("no openssl command here")
    check = ["-verify_ip", name] if name[0].isdigit() else ["-verify_hostname", name]
    done = subprocess.run(
        [openssl, "verify", "-x509_strict", "-CAfile", str(root), *check, str(leaf)],
        capture_output=True, text=True, timeout=PATIENCE, check=False,
    )  # fmt: skip
    return (done.stdout + done.stderr).strip()


def leaf_only(chain: Path, out: Path) -> Path:
    out.write_bytes(
        chain.read_bytes().split(b"-----END CERTIFICATE-----")[0] + b"-----END CERTIFICATE-----\n"
    )
    return out


def test_the_leaf_names_seize_local_and_the_lan_address(tmp_path: Path) -> None:
    issued = issue(tmp_path, [HOME_LAN], NOW)
    root = tmp_path / "root.pem"
    leaf = leaf_only(issued.chain, tmp_path / "only.pem")
    assert issued.names == [LOCAL_NAME, "192.168.1.20"]
    assert openssl_verifies(root, leaf, LOCAL_NAME).endswith("OK")
    assert openssl_verifies(root, leaf, "192.168.1.20").endswith("OK")
    assert "OK" not in openssl_verifies(root, leaf, "192.168.1.21")
    for key in ("root.key", "leaf.key"):
        assert (tmp_path / key).stat().st_mode & 0o077 == 0


def forged(tmp_path: Path, name: x509.GeneralName) -> Path:
    """A leaf for ``name`` signed with the table root's own key: what a leaked key could
    make."""
    root = x509.load_pem_x509_certificate((tmp_path / "root.pem").read_bytes())
    root_key = serialization.load_pem_private_key((tmp_path / "root.key").read_bytes(), None)
    assert isinstance(root_key, ec.EllipticCurvePrivateKey)
    key = ec.generate_private_key(ec.SECP256R1())
    leaf = (
        x509.CertificateBuilder()
        .subject_name(x509.Name([]))
        .issuer_name(root.subject)
        .public_key(key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(NOW - datetime.timedelta(days=1))
        .not_valid_after(NOW + datetime.timedelta(days=30))
        .add_extension(x509.SubjectAlternativeName([name]), critical=True)
        .add_extension(
            x509.AuthorityKeyIdentifier.from_issuer_public_key(root_key.public_key()),
            critical=False,
        )
        .sign(root_key, hashes.SHA256())
    )
    out = tmp_path / "forged.pem"
    out.write_bytes(leaf.public_bytes(serialization.Encoding.PEM))
    return out


@pytest.mark.parametrize(
    ("lans", "name", "checked"),
    [
        ([HOME_LAN], x509.DNSName("bank.example"), "bank.example"),
        ([HOME_LAN], x509.IPAddress(ipaddress.ip_address("10.0.0.1")), "10.0.0.1"),
        ([], x509.IPAddress(ipaddress.ip_address("192.168.1.1")), "192.168.1.1"),
    ],
    ids=["another-site", "another-network", "any-address-from-loopback"],
)
def test_the_root_vouches_for_nothing_but_seizes_names(
    tmp_path: Path, lans: list[LanAddress], name: x509.GeneralName, checked: str
) -> None:
    issue(tmp_path, lans, NOW)
    said = openssl_verifies(tmp_path / "root.pem", forged(tmp_path, name), checked)
    assert "OK" not in said and ("subtree" in said or "constraint" in said), said


def test_a_new_network_makes_a_new_root_keeping_the_old_one(tmp_path: Path) -> None:
    first = issue(tmp_path, [HOME_LAN], NOW)
    again = issue(tmp_path, [HOME_LAN], NOW + datetime.timedelta(days=1))
    assert not again.new_root and again.fingerprint == first.fingerprint
    club = issue(tmp_path, [CLUB_LAN], NOW + datetime.timedelta(days=2))
    assert club.new_root and club.fingerprint != first.fingerprint
    back_home = issue(tmp_path, [HOME_LAN], NOW + datetime.timedelta(days=3))
    assert not back_home.new_root  # the club's root still covers home
    assert back_home.names == [LOCAL_NAME, "192.168.1.20"]


def test_a_leaf_is_made_again_a_month_before_its_end(tmp_path: Path) -> None:
    first = issue(tmp_path, [HOME_LAN], NOW)
    kept = first.chain.read_bytes()
    assert (
        issue(tmp_path, [HOME_LAN], NOW + datetime.timedelta(days=300)).chain.read_bytes() == kept
    )
    renewed = issue(tmp_path, [HOME_LAN], NOW + datetime.timedelta(days=380))
    assert renewed.chain.read_bytes() != kept and not renewed.new_root


async def test_served_over_https_with_a_trust_page_beside(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    port = free_pair()
    with served_lan_ca(tmp_path, port):
        said = printed_once(tmp_path, "Trust page:")
        public = f"https://{LOCAL_NAME}:{port}"
        assert f"Seize is serving at {public}" in said
        trust_page = re.search(r"Trust page:\s+(\S+)", said)
        assert trust_page is not None and trust_page[1] == f"http://127.0.0.1:{port + 1}/"
        root = tmp_path / "data" / "seize" / "share" / "lan-ca" / "root.pem"
        trusted = ssl.create_default_context(cafile=str(root))
        async with aiohttp.ClientSession() as session:
            async with session.post(
                f"https://127.0.0.1:{port}/api/tables",
                json={"system": "four-color", "name": "LAN"},
                ssl=trusted,
                server_hostname=LOCAL_NAME,
            ) as answer:
                assert answer.status == 201  # a table on the LAN needs no host key
                table = await answer.json()
            api = f"https://127.0.0.1:{port}/api/tables/{table['id']}"
            gm = {"Authorization": f"Bearer {table['gm_token']}"}
            tls: dict[str, Any] = {"ssl": trusted, "server_hostname": LOCAL_NAME}
            async with session.post(f"{api}/handoff/overlay", headers=gm, **tls) as answer:
                overlay = await answer.json()
            assert overlay["url"].startswith(f"{public}/overlay/") and "trust" not in overlay
            hero = {"type": "join", "member": {"id": "peter", "name": "Peter", "kind": "hero"}}
            async with session.post(f"{api}/commands", json=hero, headers=gm, **tls) as answer:
                assert answer.status == 200
            async with session.post(f"{api}/handoff/players/peter", headers=gm, **tls) as answer:
                phone = await answer.json()
            assert phone["url"].startswith(f"{public}/play/")
            # The phone that has not trusted the table yet scans the trust page first.
            assert phone["trust"]["url"] == f"http://{LOCAL_NAME}:{port + 1}/"
            assert phone["trust"]["svg"].startswith("<svg")
            async with session.get(trust_page[1]) as answer:
                steps = await answer.text()
            async with session.get(f"{trust_page[1]}seize-root.crt") as answer:
                assert answer.content_type == "application/x-x509-ca-cert"
                der = await answer.read()
        assert der == x509.load_pem_x509_certificate(root.read_bytes()).public_bytes(
            serialization.Encoding.DER
        )
        fingerprint = hashlib.sha256(der).hexdigest().upper()
        assert ":".join(re.findall("..", fingerprint)) in steps
        assert "Android" in steps and "iPhone" in steps and public in steps


def test_lan_addresses_are_the_tables_network_first(monkeypatch: pytest.MonkeyPatch) -> None:
    """Loopback, public and IPv6 addresses are no phone's way in; a container bridge comes
    after the Wi-Fi the table is on, whose address the printed link then carries."""

    def adapter(name: str, *ips: tuple[str | tuple[str, int, int], int]) -> ifaddr.Adapter:
        return ifaddr.Adapter(name, name, [ifaddr.IP(ip, prefix, name) for ip, prefix in ips])

    adapters = [
        adapter("lo", ("127.0.0.1", 8)),
        adapter("docker0", ("172.17.0.1", 16)),
        adapter("wlan0", ("192.168.1.20", 24), (("fe80::1", 0, 2), 64)),
        adapter("eth1", ("93.184.216.34", 24)),
    ]
    monkeypatch.setattr(ifaddr, "get_adapters", lambda: adapters)
    found = lan_addresses("0.0.0.0")
    assert [str(lan.address) for lan in found] == ["192.168.1.20", "172.17.0.1"]
    assert str(found[0].network) == "192.168.1.0/24"
    assert [str(lan.address) for lan in lan_addresses("172.17.0.1")] == ["172.17.0.1"]
    assert lan_addresses("127.0.0.1") == []


def test_mdns_answers_seize_local_with_the_lan_addresses() -> None:
    """The record announced (built here, never sent: the tests send nothing past loopback)."""
    info = service([HOME_LAN, CLUB_LAN], 8080)
    assert info.server == f"{LOCAL_NAME}."
    assert info.port == 8080 and info.type == "_https._tcp.local."
    assert info.parsed_addresses() == ["192.168.1.20", "10.4.0.7"]
