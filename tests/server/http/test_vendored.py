"""The browser libraries Seize serves itself (server/static/vendor/lock.json): each served file is
the one pinned by its hash, and, where the npm registry can be reached, the very file the
package publishes at that version. A folder (a package published as several modules) is pinned
by one hash over its files' paths and hashes."""

from __future__ import annotations

import hashlib
import json
import shutil
import subprocess
import tarfile
from pathlib import Path
from typing import Any

import pytest

from server.http.pages import STATIC
from tests.waiting import JOB_PATIENCE

VENDOR = STATIC / "vendor"
LOCK: dict[str, dict[str, str]] = json.loads((VENDOR / "lock.json").read_text())


def digest(path: Path) -> str:
    """A file's sha256; a folder's, the sha256 of its files' sorted "path NUL sha256" lines."""
    if path.is_file():
        return hashlib.sha256(path.read_bytes()).hexdigest()
    lines = "".join(
        f"{file.relative_to(path).as_posix()}\0{digest(file)}\n"
        for file in sorted(found for found in path.rglob("*") if found.is_file())
    )
    return hashlib.sha256(lines.encode()).hexdigest()


def test_the_lock_has_its_shape() -> None:
    for package, entry in LOCK.items():
        assert set(entry) == {"version", "file", "served", "sha256", "licence"}, package
        assert all(isinstance(value, str) and value for value in entry.values()), package


@pytest.mark.parametrize("package", sorted(LOCK))
def test_the_served_file_is_the_pinned_one_with_its_licence(package: str) -> None:
    entry = LOCK[package]
    assert digest(VENDOR / entry["served"]) == entry["sha256"]
    assert (VENDOR / entry["licence"]).is_file()


def _published(package: str, version: str, into: Path) -> Path:
    """The package's published tarball, unpacked; skipped where the registry cannot be reached
    (CI can reach it)."""
    npm = shutil.which("npm")
    if npm is None:
        pytest.skip("no npm on this machine")
    packed = subprocess.run(
        [npm, "pack", f"{package}@{version}", "--pack-destination", str(into), "--json"],
        capture_output=True,
        text=True,
        timeout=JOB_PATIENCE,
        check=False,
    )
    if packed.returncode != 0:
        pytest.skip(f"the npm registry could not be reached: {packed.stderr.strip()[-200:]}")
    answer: list[dict[str, Any]] = json.loads(packed.stdout)
    with tarfile.open(into / answer[0]["filename"]) as archive:
        archive.extractall(into / "unpacked", filter="data")
    return into / "unpacked" / "package"


@pytest.mark.parametrize("package", sorted(LOCK))
def test_the_served_file_is_the_one_the_package_publishes(package: str, tmp_path: Path) -> None:
    entry = LOCK[package]
    published = _published(package, entry["version"], tmp_path)
    assert digest(published / entry["file"]) == entry["sha256"]
