"""``seize export``: the host prints a table's story from the database, as a recap or as JSON,
as the role it names saw it: the same story the API tells that role."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from tests.server.process import UNLIMITED, ServerProcess, call
from tests.waiting import PATIENCE

SNIPER = {"id": "sniper", "name": "Lone Rifleman", "perception": 5, "stealth": 5, "coordination": 5}
KID = {"id": "kid", "name": "The Kid", "perception": 5, "stealth": 5, "coordination": 5}


def export(db: Path, table: str, *flags: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "server", "export", table, "--db", str(db), *flags],
        capture_output=True,
        text=True,
        timeout=PATIENCE,
        check=False,
    )


def test_the_host_exports_each_roles_story_and_only_the_gms_names_the_hidden(
    tmp_path: Path,
) -> None:
    db = tmp_path / "seize.db"
    with ServerProcess(db, **UNLIMITED) as server:
        _, table = call(f"{server.url}/api/tables", "POST", {"system": "awareness", "name": "Noon"})
        url = f"{server.url}/api/tables/{table['id']}"
        for command in (
            {"type": "join", "sheet": KID},
            {"type": "join", "sheet": SNIPER, "hidden": True},
            {"type": "roll_initiative", "source": "gm"},
            {"type": "enter_initiative", "character": "sniper", "die": 1},
            {"type": "enter_initiative", "character": "kid", "die": 5},
            {"type": "wait", "character": "sniper", "trigger": "the Kid draws"},
            {"type": "act", "character": "kid", "what": "draws"},
        ):
            status, _ = call(f"{url}/commands", "POST", command, table["gm_token"])
            assert status == 200, command
        _, minted = call(f"{url}/tokens", "POST", {"participants": ["kid"]}, table["gm_token"])
        _, api = call(f"{url}/export", token=minted["token"])
    gm = export(db, "Noon")
    assert gm.returncode == 0, gm.stderr
    assert gm.stdout.startswith("# Noon\n") and "As the GM saw it" in gm.stdout
    assert "Lone Rifleman waits for the Kid draws" in gm.stdout
    player = export(db, table["id"], "--as", "player", "--playing", "kid")
    assert "As the player of The Kid saw it" in player.stdout
    assert "The Kid acts: draws" in player.stdout
    stream = export(db, table["id"], "--as", "overlay", "--format", "json")
    for told in (player.stdout, stream.stdout):
        assert "sniper" not in told.lower() and "rifleman" not in told.lower()
    as_json = json.loads(
        export(db, "Noon", "--as", "player", "--playing", "kid", "--format", "json").stdout
    )
    assert as_json == api
    # Numbered as the Kid's table without the sniper: no gap where its join, die or wait was.
    assert [e["seq"] for e in as_json["events"]] == [1, 2, 3, 4]


def test_an_export_asked_wrongly_is_one_line_and_no_story(tmp_path: Path) -> None:
    db = tmp_path / "seize.db"
    with ServerProcess(db, **UNLIMITED) as server:
        call(f"{server.url}/api/tables", "POST", {"system": "awareness", "name": "Noon"})
    for asked in ("Dusk", "No such table"):
        missing = export(db, asked)
        assert missing.returncode == 2 and missing.stdout == ""
        assert missing.stderr.strip() == (
            f'seize: no table has the id or the name "{asked}" in {db} (--db reads another)'
        )

    unbound = export(db, "Noon", "--as", "player")
    assert unbound.returncode == 2 and "--playing" in unbound.stderr
