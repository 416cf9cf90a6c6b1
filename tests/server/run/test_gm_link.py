"""``seize gm-link``: whoever holds the database holds its tables, so the host can always mint
a GM link, for a GM whose browser lost it, without the old one: a device of its own, named
with ``--name``, that the console lists."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

from server.http.reached import lan_addresses
from tests.server.process import UNLIMITED, ServerProcess, call
from tests.waiting import PATIENCE, until


def gm_link(db: Path, table: str, *flags: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "server", "gm-link", table, "--db", str(db), *flags],
        capture_output=True,
        text=True,
        timeout=PATIENCE,
        check=False,
    )


def test_the_host_mints_a_gm_link_from_the_database_by_id_or_name(tmp_path: Path) -> None:
    db = tmp_path / "seize.db"
    with ServerProcess(db, **UNLIMITED) as server:
        _, table = call(f"{server.url}/api/tables", "POST", {"system": "awareness", "name": "Noon"})
        for named in (table["id"], "Noon"):
            minted = gm_link(db, named)
            assert minted.returncode == 0, minted.stderr
            link = urlsplit(minted.stdout.strip())
            assert link.path == f"/console/{table['id']}"
            token = parse_qs(link.fragment)["token"][0]
            status, seen = call(f"{server.url}/api/tables/{table['id']}", token=token)
            assert status == 200 and seen["you"]["role"] == "gm"
            assert "runs the table" in minted.stderr  # said plainly, beside the link
        status, _ = call(f"{server.url}/api/tables/{table['id']}", token=table["gm_token"])
        assert status == 200  # the links already given still work
        status, listed = call(f"{server.url}/api/tables/{table['id']}/handoff/gm", token=token)
        assert status == 200
        assert [d["name"] for d in listed["devices"]] == [
            "Where the table was made",
            "From the host",
            "From the host",
        ]
        named = gm_link(db, table["id"], "--name", "Streaming PC")
        assert named.returncode == 0, named.stderr
        status, listed = call(f"{server.url}/api/tables/{table['id']}/handoff/gm", token=token)
        assert listed["devices"][-1]["name"] == "Streaming PC"
        port = server.url.rsplit(":", 1)[1]
        printed = gm_link(db, table["id"], "--port", port).stdout.strip()
        assert printed.startswith(f"{server.url}/console/")  # where the server really is
        # Given no port, the server that serves the database: not the default port's link,
        # where nothing listens.
        unported = gm_link(db, table["id"]).stdout.strip()
        assert unported.startswith(f"{server.url}/console/"), unported


def test_a_link_minted_beside_a_server_opens_where_the_servers_own_links_do(
    tmp_path: Path,
) -> None:
    """Listening on every address, the server's links name this machine's address on the
    table's network; a link minted beside it, given only the port (as the console's advice
    says), names the same: not 0.0.0.0 nor loopback, which no tablet opens. With no server
    there, the flags' address is named as a device reaches it."""
    db, printed = tmp_path / "seize.db", tmp_path / "printed.txt"
    lans = lan_addresses("0.0.0.0")
    reached = str(lans[0].address) if lans else "0.0.0.0"  # a machine on no network at all
    with ServerProcess(db, printed, ["--host", "0.0.0.0"], **UNLIMITED) as server:
        _, table = call(f"{server.url}/api/tables", "POST", {"system": "awareness", "name": "Dusk"})
        port = server.url.rsplit(":", 1)[1]
        until(lambda: "Seize is serving at" in printed.read_text(), printed.read_text)
        served = re.search(r"Seize is serving at (\S+)", printed.read_text())
        assert served is not None and served[1] == f"http://{reached}:{port}"
        minted = gm_link(db, table["id"], "--port", port)
        assert minted.stdout.startswith(f"{served[1]}/console/{table['id']}#token="), minted
    alone = gm_link(db, table["id"], "--port", port, "--host", "0.0.0.0")
    assert alone.stdout.startswith(f"http://{reached}:{port}/console/"), alone


def test_a_table_it_cannot_find_is_one_line_and_no_link(tmp_path: Path) -> None:
    db = tmp_path / "seize.db"
    with ServerProcess(db, **UNLIMITED) as server:
        for name in ("Twins", "Twins"):
            call(f"{server.url}/api/tables", "POST", {"system": "awareness", "name": name})
    for table, why, *flags in (
        ("nowhere", 'no table has the id or the name "nowhere"'),
        ("Twins", '2 tables are named "Twins": give its id'),
        ("nowhere", "--name: must be 1 to 80 characters", "--name", "  "),
    ):
        refused = gm_link(db, table, *flags)
        assert refused.returncode == 2 and refused.stdout == ""
        assert refused.stderr.count("\n") == 1 and why in refused.stderr
        # A GM who started the server with another --db is told which file was read.
        assert (str(db) in refused.stderr) == (table != "nowhere" or not flags), refused.stderr
