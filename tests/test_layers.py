"""The import direction, enforced: nothing imports upward.

``rules`` imports nothing of ours; ``adapters`` only ``rules``. Inside ``server/`` each room sits
on the rooms below it and may import only those (and the leaves every room reads: settings and
the error types). A module's imports are read from its source, the ones under
``TYPE_CHECKING`` included: a type is a dependency too.

The command path every sender shares has one home below the HTTP room, and each sender reaches
it there, not through another module that happens to import it (a routes module, say). So has
the reading of what a client sends, in the HTTP room: a request and a socket message are read
and bounded one way, and the socket reads its messages without the routes module.
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


COMMAND_PATH = ROOT / "server" / "tables" / "commanding.py"
"""Where a command is parsed, run and refused, whoever sent it."""
SENDERS = [
    ROOT / "server" / "http" / "api.py",
    ROOT / "server" / "http" / "socket_commands.py",
    ROOT / "server" / "devices" / "local_link.py",
    ROOT / "server" / "vtt" / "dialects.py",
]
"""The request, the socket a client follows its table on, a device the server runs, and a VTT's
import of its turn order."""


def public(path: Path) -> set[str]:
    """The functions and classes a module offers."""
    tree = ast.parse(path.read_text(), str(path))
    kinds = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)
    return {n.name for n in tree.body if isinstance(n, kinds) and not n.name.startswith("_")}


def astray(path: Path, source: Path = COMMAND_PATH, what: str = "the command path") -> list[str]:
    """This file's imports of what ``source`` offers from anywhere but its home."""
    home = ".".join(source.relative_to(ROOT).with_suffix("").parts)
    offered = public(source)
    return [
        f"{target}: {what} is {home}'s"
        for target in sorted(imports(path))
        if target.startswith("server.")
        and target.rsplit(".", 1)[-1] in offered
        and target.rsplit(".", 1)[0] != home
    ]


@pytest.mark.parametrize("path", SOURCES, ids=lambda p: str(p.relative_to(ROOT)))
def test_the_command_path_is_reached_in_its_home(path: Path) -> None:
    assert astray(path) == []


@pytest.mark.parametrize("path", SENDERS, ids=lambda p: str(p.relative_to(ROOT)))
def test_every_sender_calls_the_command_path(path: Path) -> None:
    home = ".".join(COMMAND_PATH.relative_to(ROOT).with_suffix("").parts)
    assert any(target.startswith(f"{home}.") for target in imports(path))


def test_the_command_path_imports_nothing_of_the_http_room() -> None:
    assert not [t for t in imports(COMMAND_PATH) if t.split(".")[:2] == ["server", "http"]]


READING = ROOT / "server" / "http" / "reading.py"
"""Where what a client sends is read and bounded, a request's body and a socket's message alike."""
READS = "reading a client's input"
ROUTES_MODULE = "server.http.api"
SOCKET_MESSAGES = [
    ROOT / "server" / "http" / "socket_commands.py",
    ROOT / "server" / "devices" / "dice_channel.py",
]
"""The socket's commands, and a VTT's dice requests on the same socket."""


@pytest.mark.parametrize("path", SOURCES, ids=lambda p: str(p.relative_to(ROOT)))
def test_a_clients_input_is_read_in_its_home(path: Path) -> None:
    assert astray(path, READING, READS) == []


@pytest.mark.parametrize("path", SOCKET_MESSAGES, ids=lambda p: str(p.relative_to(ROOT)))
def test_a_socket_message_is_read_without_the_routes_module(path: Path) -> None:
    found = imports(path)
    assert not [t for t in found if t == ROUTES_MODULE or t.startswith(f"{ROUTES_MODULE}.")]


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
    sender = ROOT / "server" / "devices" / "_probe_astray.py"
    try:
        sender.write_text("from server.http.api import apply_command, json_body, malformed\n")
        assert astray(sender) == [
            "server.http.api.apply_command: the command path is server.tables.commanding's"
        ]
        assert astray(sender, READING, READS) == [
            "server.http.api.malformed: reading a client's input is server.http.reading's"
        ]
    finally:
        sender.unlink()
    rule = ROOT / "rules" / "_probe_upward.py"
    try:
        rule.write_text("import server.store\n")
        assert upward(rule) == ["server.store: rules imports nothing of ours"]
    finally:
        rule.unlink()
