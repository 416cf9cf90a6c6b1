"""``--share lan-ca``: https on the table's own network, without the internet.

A browser gives a plain-http LAN address no secure context, and registers no service worker on
a certificate the player tapped through. So Seize makes a certificate authority of its own, once
per host, that each phone trusts once, and a leaf for the host's LAN addresses and
``seize.local`` (announced over mDNS). The root is limited by name constraints to
``seize.local`` and the networks it was made on: if its key ever leaked, it could vouch for no
bank, no router page on another network, nothing but Seize's names. Its key never leaves the
host's data folder (readable by its owner only); a new network makes a new root, which the phones
trust once more.
"""

from __future__ import annotations

import datetime
import ipaddress
import os
import socket
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.x509.oid import ExtendedKeyUsageOID, NameOID

from server.http.reached import LanAddress, Network

LOCAL_NAME = "seize.local"
"""The name mDNS announces for the host, and the leaf's one DNS name."""

ROOT_YEARS = 10
LEAF_DAYS = 397
"""Browsers refuse a server certificate valid for longer than 398 days."""
RENEW_DAYS = 30
"""A leaf this close to its end is made again at start."""


@dataclass(frozen=True)
class Issued:
    """The files a lan-ca server serves with, and what the trust page shows of the root."""

    root: x509.Certificate
    chain: Path
    key: Path
    names: list[str]
    """What the leaf vouches for: ``seize.local``, then the LAN addresses."""
    new_root: bool

    @property
    def fingerprint(self) -> str:
        """The root's SHA-256, as phones' certificate screens show it (colon-separated)."""
        return self.root.fingerprint(hashes.SHA256()).hex(":").upper()

    @property
    def root_der(self) -> bytes:
        return self.root.public_bytes(serialization.Encoding.DER)


def issue(folder: Path, addresses: Iterable[LanAddress], now: datetime.datetime) -> Issued:
    """The root (kept, or made for networks it does not cover) and a leaf for ``seize.local``
    and ``addresses`` (kept while it names them and has a month left), written in ``folder``."""
    folder.mkdir(parents=True, exist_ok=True, mode=0o700)
    lans = list(addresses)
    networks = sorted({lan.network for lan in lans}, key=str)
    root, root_key, new_root = _root(folder, networks, now)
    names = [LOCAL_NAME, *dict.fromkeys(str(lan.address) for lan in lans)]
    chain, key = folder / "leaf.pem", folder / "leaf.key"
    if new_root or not _leaf_fits(chain, names, now):
        leaf_key = ec.generate_private_key(ec.SECP256R1())
        leaf = _leaf(root, root_key, leaf_key, lans, now)
        _write_key(key, leaf_key)
        chain.write_bytes(
            leaf.public_bytes(serialization.Encoding.PEM)
            + root.public_bytes(serialization.Encoding.PEM)
        )
    return Issued(root=root, chain=chain, key=key, names=names, new_root=new_root)


def _root(
    folder: Path, networks: list[Network], now: datetime.datetime
) -> tuple[x509.Certificate, ec.EllipticCurvePrivateKey, bool]:
    """The kept root, if it covers ``networks`` and has a year left; else a new one, for these
    networks and the ones the old root covered (a laptop carried between two homes keeps
    both)."""
    cert_file, key_file = folder / "root.pem", folder / "root.key"
    kept: list[Network] = []
    if cert_file.exists() and key_file.exists():
        root = x509.load_pem_x509_certificate(cert_file.read_bytes())
        key = serialization.load_pem_private_key(key_file.read_bytes(), password=None)
        kept = _permitted_networks(root)
        lasting = root.not_valid_after_utc - now > datetime.timedelta(days=365)
        covers = all(_within(n, kept) for n in networks)
        if isinstance(key, ec.EllipticCurvePrivateKey) and lasting and covers:
            return root, key, False
    covered = sorted(set(kept) | set(networks), key=str)
    key = ec.generate_private_key(ec.SECP256R1())
    name = x509.Name(
        [
            x509.NameAttribute(NameOID.ORGANIZATION_NAME, "Seize"),
            x509.NameAttribute(NameOID.COMMON_NAME, f"Seize table root ({socket.gethostname()})"),
        ]
    )
    permitted: list[x509.GeneralName] = [
        x509.DNSName(LOCAL_NAME),
        *(x509.IPAddress(n) for n in covered),
    ]
    root = (
        x509.CertificateBuilder()
        .subject_name(name)
        .issuer_name(name)
        .public_key(key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(now - datetime.timedelta(hours=1))
        .not_valid_after(now + datetime.timedelta(days=365 * ROOT_YEARS))
        .add_extension(x509.BasicConstraints(ca=True, path_length=0), critical=True)
        .add_extension(
            x509.KeyUsage(
                digital_signature=False,
                content_commitment=False,
                key_encipherment=False,
                data_encipherment=False,
                key_agreement=False,
                key_cert_sign=True,
                crl_sign=True,
                encipher_only=False,
                decipher_only=False,
            ),
            critical=True,
        )
        .add_extension(
            x509.NameConstraints(
                permitted_subtrees=permitted, excluded_subtrees=_unlisted(covered)
            ),
            critical=True,
        )
        .add_extension(x509.SubjectKeyIdentifier.from_public_key(key.public_key()), critical=False)
        .sign(key, hashes.SHA256())
    )
    _write_key(key_file, key)
    cert_file.write_bytes(root.public_bytes(serialization.Encoding.PEM))
    return root, key, True


def _within(network: Network, networks: list[Network]) -> bool:
    return any(
        network.version == other.version and network.subnet_of(other)  # type: ignore[arg-type]
        for other in networks
    )


def _unlisted(covered: list[Network]) -> list[x509.GeneralName] | None:
    """Every address of a version no permitted network is of: a name constraint leaves a
    kind of name it does not list unconstrained (RFC 5280, 4.2.1.10), so a root made on
    loopback alone would otherwise vouch for any address."""
    everything = [ipaddress.ip_network("0.0.0.0/0"), ipaddress.ip_network("::/0")]
    unlisted: list[x509.GeneralName] = [
        x509.IPAddress(whole)
        for whole in everything
        if not any(n.version == whole.version for n in covered)
    ]
    return unlisted or None


def _permitted_networks(root: x509.Certificate) -> list[Network]:
    try:
        constraints = root.extensions.get_extension_for_class(x509.NameConstraints).value
    except x509.ExtensionNotFound:
        return []
    return [
        name.value
        for name in constraints.permitted_subtrees or []
        if isinstance(name, x509.IPAddress)
        and isinstance(name.value, ipaddress.IPv4Network | ipaddress.IPv6Network)
    ]


def _leaf_fits(chain: Path, names: list[str], now: datetime.datetime) -> bool:
    if not chain.exists():
        return False
    leaf = x509.load_pem_x509_certificate(chain.read_bytes())
    return _names_of(leaf) == sorted(names) and leaf.not_valid_after_utc - now > datetime.timedelta(
        days=RENEW_DAYS
    )


def _names_of(leaf: x509.Certificate) -> list[str]:
    alternative = leaf.extensions.get_extension_for_class(x509.SubjectAlternativeName).value
    dns = alternative.get_values_for_type(x509.DNSName)
    ips = [str(ip) for ip in alternative.get_values_for_type(x509.IPAddress)]
    return sorted([*dns, *ips])


def _leaf(
    root: x509.Certificate,
    root_key: ec.EllipticCurvePrivateKey,
    key: ec.EllipticCurvePrivateKey,
    lans: list[LanAddress],
    now: datetime.datetime,
) -> x509.Certificate:
    permitted = _permitted_networks(root)
    addresses = sorted(
        {lan.address for lan in lans if any(lan.address in n for n in permitted)}, key=str
    )
    names: list[x509.GeneralName] = [
        x509.DNSName(LOCAL_NAME),
        *(x509.IPAddress(a) for a in addresses),
    ]
    return (
        x509.CertificateBuilder()
        .subject_name(x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, LOCAL_NAME)]))
        .issuer_name(root.subject)
        .public_key(key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(now - datetime.timedelta(hours=1))
        .not_valid_after(now + datetime.timedelta(days=LEAF_DAYS))
        .add_extension(x509.SubjectAlternativeName(names), critical=False)
        .add_extension(x509.BasicConstraints(ca=False, path_length=None), critical=True)
        .add_extension(x509.ExtendedKeyUsage([ExtendedKeyUsageOID.SERVER_AUTH]), critical=False)
        .add_extension(
            x509.AuthorityKeyIdentifier.from_issuer_public_key(root_key.public_key()),
            critical=False,
        )
        .sign(root_key, hashes.SHA256())
    )


def _write_key(path: Path, key: ec.EllipticCurvePrivateKey) -> None:
    """A private key, readable by the host's owner alone from the moment it exists."""
    path.unlink(missing_ok=True)
    descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    with os.fdopen(descriptor, "wb") as out:
        out.write(
            key.private_bytes(
                serialization.Encoding.PEM,
                serialization.PrivateFormat.PKCS8,
                serialization.NoEncryption(),
            )
        )
