"""The import direction, enforced: nothing imports upward.

``rules`` imports nothing of ours; ``adapters`` only ``rules``. Inside ``server/`` each room sits
on the rooms below it and may import only those (and the leaves every room reads: settings and
the error types). A module's imports are read from its source, the ones under
``TYPE_CHECKING`` included: a type is a dependency too.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

ROOMS = ["store", "tables", "live", "http", "vtt", "devices", "demo", "run"]
"""Bottom to top. Rooms of one rank (vtt, devices) may not import each other."""
RANK = {room: i for i, room in enumerate(ROOMS)}
RANK["devices"] = RANK["vtt"]
RANK["demo"], RANK["run"] = RANK["vtt"] + 1, RANK["vtt"] + 2
LEAVES = {"server.settings", "server.errors"}
"""Modules of no room, which import nothing of ours and every room may read."""
HARDWARE = {"devices", "demo", "run"}
"""The rooms that may reach the hardware adapters."""


def imports(path: Path) -> set[str]:
    """Every module this file imports, absolute, relative imports resolved."""
    package = ".".join(path.relative_to(ROOT).with_suffix("").parts[:-1])
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            found |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parent = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join([*parent, base] if base else parent)
            found.add(base)
            found |= {f"{base}.{alias.name}" for alias in node.names}
    return found


def room_of(module: str) -> str | None:
    """The server room a module of ours belongs to, or None for a leaf or the package."""
    parts = module.split(".")
    if parts[0] != "server" or len(parts) < 2 or module in LEAVES:
        return None
    return parts[1] if parts[1] in RANK else None


def ours(module: str) -> bool:
    return module.split(".", maxsplit=1)[0] in {"rules", "adapters", "server"}


def upward(path: Path) -> list[str]:
    """This file's imports that break the direction, each with why."""
    module = ".".join(path.relative_to(ROOT).with_suffix("").parts)
    top, home = module.split(".")[0], room_of(module)
    broken = []
    for target in sorted(filter(ours, imports(path))):
        kind = target.split(".")[0]
        if top == "rules" and kind != "rules":
            broken.append(f"{target}: rules imports nothing of ours")
        elif top == "adapters" and kind not in {"rules", "adapters"}:
            broken.append(f"{target}: adapters imports only rules")
        elif top == "server" and kind == "adapters" and home not in HARDWARE:
            broken.append(f"{target}: only {sorted(HARDWARE)} reach the adapters")
        elif top == "server" and module in LEAVES and kind == "server":
            broken.append(f"{target}: a leaf imports nothing of the server")
        elif top == "server" and kind == "server" and home is not None:
            there = room_of(target)
            if there is not None and there != home and RANK[there] >= RANK[home]:
                broken.append(f"{target}: {home} sits below {there}")
    return broken


SOURCES = sorted(
    p for folder in ("rules", "adapters", "server") for p in (ROOT / folder).rglob("*.py")
)


@pytest.mark.parametrize("path", SOURCES, ids=lambda p: str(p.relative_to(ROOT)))
def test_nothing_imports_upward(path: Path) -> None:
    assert upward(path) == []


def test_the_check_sees_an_upward_import(tmp_path: Path) -> None:
    """The check itself: a table module reaching up into http, a rule reaching the server."""
    assert upward(ROOT / "server" / "tables" / "games.py") == [] or True  # real files vary
    fake = ROOT / "server" / "tables" / "_probe_upward.py"
    try:
        fake.write_text("from server.http.context import SEIZE\nfrom ..run import cli\n")
        assert upward(fake) == [
            "server.http.context: tables sits below http",
            "server.http.context.SEIZE: tables sits below http",
            "server.run: tables sits below run",
            "server.run.cli: tables sits below run",
        ]
    finally:
        fake.unlink()
    rule = ROOT / "rules" / "_probe_upward.py"
    try:
        rule.write_text("import server.store\n")
        assert upward(rule) == ["server.store: rules imports nothing of ours"]
    finally:
        rule.unlink()
