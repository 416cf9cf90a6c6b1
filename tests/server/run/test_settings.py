"""Settings: flags over environment over a TOML file over defaults."""

from __future__ import annotations

import ipaddress
import signal
import sqlite3
import subprocess
import sys
from pathlib import Path
from urllib.parse import urlsplit

import platformdirs
import pytest

from server.http.reached import LanAddress
from server.run import cli
from server.run.cli import as_reached, main
from server.settings import Settings, default_db
from server.store import promised, shown
from tests.server.databases import POSTGRES, require_postgres
from tests.server.process import ServerProcess, call
from tests.waiting import PATIENCE

UNREACHABLE = "postgresql://postgres@127.0.0.1:1/seize"
"""A PostgreSQL URL at a port nothing listens on."""


def test_the_default_database_is_in_the_users_data_folder() -> None:
    assert default_db() == Path(platformdirs.user_data_dir("seize")) / "seize.db"
    assert Settings().db == default_db()


def test_a_toml_file_then_the_environment_then_flags(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    config = tmp_path / "table.toml"
    config.write_text('port = 9000\nsnapshot_every = 25\nadmin_token = "from-file"\n')
    monkeypatch.setenv("SEIZE_CONFIG", str(config))
    assert Settings().port == 9000 and Settings().snapshot_every == 25
    monkeypatch.setenv("SEIZE_PORT", "9100")
    assert Settings().port == 9100 and Settings().snapshot_every == 25
    assert Settings(port=9200).port == 9200
    secret = Settings().admin_token
    assert secret is not None and secret.get_secret_value() == "from-file"
    assert "from-file" not in repr(Settings())


def test_a_bad_setting_is_refused_naming_it(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SEIZE_PORT", "eighty")
    with pytest.raises(ValueError, match="port"):
        Settings()


@pytest.mark.parametrize(
    ("toml", "said"),
    [
        (
            '[[devices]]\nkind = "pixels"\ndevice = "/dev/x"\ntable = "t"\ntoken = "t0ken"\n',
            "setting devices.0.kind: Input should be 'nfc', 'tray', 'station' or 'dice'",
        ),
        (
            '[[devices]]\nkind = "dice"\ndevice = "/dev/x"\ntable = "t"\ntoken = "t0ken"\n',
            "setting devices.0: device: a die station finds its dice over Bluetooth",
        ),
        ('[[devices]]\nkind = "tray"\ndevice = "/dev/x"\n', "setting devices.0.table: "),
        ("port = \n", "not TOML: "),
        ("prot = 80\n", "setting prot: Extra inputs are not permitted"),
    ],
)
def test_a_bad_settings_file_is_one_line_naming_the_field(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    toml: str,
    said: str,
) -> None:
    config = tmp_path / "seize.toml"
    config.write_text(toml)
    monkeypatch.setenv("SEIZE_CONFIG", str(config))
    assert main(["serve", "--db", str(tmp_path / "seize.db")]) == 2
    (line,) = capsys.readouterr().err.splitlines()
    assert line.startswith("seize: ") and said in line and "t0ken" not in line
    assert not (tmp_path / "seize.db").exists()  # nothing was started


def test_a_configured_devices_bad_deck_file_is_one_line_naming_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    deck, config = tmp_path / "deck.json", tmp_path / "seize.toml"
    deck.write_text('{"cards": {"04AB12CD": "11H"}}')
    config.write_text(
        f'[[devices]]\nkind = "station"\ndevice = "/dev/x"\ndeck = "{deck}"\n'
        'table = "t"\ntoken = "t0ken"\n'
    )
    monkeypatch.setenv("SEIZE_CONFIG", str(config))
    assert main(["serve", "--db", str(tmp_path / "seize.db")]) == 2
    (line,) = capsys.readouterr().err.splitlines()
    assert line.startswith(f"seize: {deck}: cards.04AB12CD: '11H' is not a card")


@pytest.mark.parametrize(
    ("db", "said"),
    [
        ("mysql://db.example/seize", "setting db: a file path or a postgresql://"),
        ("postgresql://db.example:port/seize", "setting db: the URL's port is not"),
        ("postgresql//db.example/seize", "setting db: a postgresql:// URL needs its '://'"),
        ("postgres:/db.example/seize", "setting db: a postgresql:// URL needs its '://'"),
    ],
)
def test_a_malformed_database_url_is_one_line_naming_db(
    capsys: pytest.CaptureFixture[str], db: str, said: str
) -> None:
    assert main(["serve", "--db", db]) == 2
    (line,) = capsys.readouterr().err.splitlines()
    assert line.startswith(f"seize: {said}")
    assert not Path("postgresql").exists() and not Path("postgres:").exists()  # no file made


def test_a_database_is_a_file_path_or_a_postgresql_url_shown_without_its_password() -> None:
    assert Settings(db="seize.db").db == Path("seize.db")
    url = "postgresql://seize:s3cret@db.example:5432/seize"
    assert Settings(db=url).db == url
    assert shown(url) == "postgresql://seize:***@db.example:5432/seize"
    assert shown(Path("seize.db")) == "seize.db"


def refusal_to_start(db: str) -> str:
    """The one line ``seize serve --db db`` says as it exits 2."""
    started = subprocess.run(
        [sys.executable, "-m", "server", "serve", "--port", "0", "--db", db],
        capture_output=True,
        text=True,
        timeout=PATIENCE,
        check=False,
    )
    assert started.returncode == 2
    (line,) = started.stderr.splitlines()
    return line


def test_a_database_out_of_reach_at_start_is_one_line_naming_db() -> None:
    line = refusal_to_start(UNREACHABLE)
    assert line.startswith("seize: db: the database cannot be reached: ")


@pytest.mark.parametrize(
    ("where", "said"),
    [
        ("/seize_nonesuch", 'database "seize_nonesuch" does not exist (create it first'),
        ("/test?search_path=seize_nonesuch", "(the schema search_path names must exist"),
    ],
    ids=["database", "schema"],
)
def test_a_database_that_refuses_to_start_the_server_is_one_line_saying_what_to_do(
    where: str, said: str
) -> None:
    require_postgres()
    line = refusal_to_start(urlsplit(POSTGRES)._replace(path="", query="").geturl() + where)
    assert line.startswith("seize: db: ") and said in line


@pytest.mark.parametrize(
    ("variable", "value", "said"),
    [
        ("SEIZE_BUS", "http://x", "setting bus: a redis:// URL, not 'http://x'"),
        ("SEIZE_BUS", "redis://", "setting bus: a redis:// URL names a host"),
        ("SEIZE_WORKERS", "0", "setting workers: Input should be greater than or equal to 1"),
        (
            "SEIZE_FORWARDED_BY",
            "10.0.0.5",
            "setting forwarded_by: SEIZE_FORWARDED_BY is written as",
        ),
        ("SEIZE_FORWARDED_BY", '["proxy"]', "setting forwarded_by.0: value is not a valid IPv4 or"),
    ],
)
def test_a_bad_setting_for_many_servers_is_one_line_naming_it(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    variable: str,
    value: str,
    said: str,
) -> None:
    monkeypatch.setenv(variable, value)
    assert main(["serve", "--db", str(tmp_path / "seize.db")]) == 2
    (line,) = capsys.readouterr().err.splitlines()
    assert line.startswith(f"seize: {said}")


def test_a_host_that_logs_warnings_only_is_not_told_of_every_request(tmp_path: Path) -> None:
    printed = tmp_path / "printed.log"
    with ServerProcess(tmp_path / "seize.db", printed, log_level="warning") as server:
        for _ in range(3):
            call(f"{server.url}/api/tables", "POST", {"system": "four-color", "name": "t"})
    lines = printed.read_text().splitlines()
    assert lines[0].startswith("Seize is serving at")  # what to open is still printed
    assert not [line for line in lines if '"message": "request"' in line]


def test_a_server_behind_a_public_url_still_says_where_it_listens(tmp_path: Path) -> None:
    printed = tmp_path / "printed.log"
    public = "https://initiative.example.org"
    with ServerProcess(tmp_path / "seize.db", printed, public_url=public) as server:
        port = server.url.rsplit(":", 1)[1]
    first = printed.read_text().splitlines()[0]
    assert first.startswith(f"Seize is serving at {public}  (listening on 127.0.0.1:{port}; ")


@pytest.mark.parametrize(
    ("durability", "said"),
    [
        (None, "  Durability:   disk: each command on the disk before its answer (a power cut "),
        ("os", "  Durability:   os: each command with the operating system before its answer "),
    ],
    ids=["default", "os"],
)
def test_the_start_up_lines_say_which_durability_is_in_force(
    tmp_path: Path, durability: str | None, said: str
) -> None:
    printed = tmp_path / "printed.log"
    flags = ["--durability", durability] if durability else []
    with ServerProcess(tmp_path / "seize.db", printed, flags):
        pass
    lines = [line for line in printed.read_text().splitlines() if "Durability:" in line]
    assert [line[: len(said)] for line in lines] == [said]


def test_ctrl_c_stops_the_server_with_a_line_saying_where_the_tables_are_kept(
    tmp_path: Path,
) -> None:
    """A GM who pressed Ctrl-C is told that the server stopped, once its store is closed (a
    command answered before is kept), and where the tables wait for the next start."""
    printed, db = tmp_path / "printed.log", tmp_path / "seize.db"
    server = ServerProcess(db, printed).start()
    assert server.process is not None
    _, made = call(f"{server.url}/api/tables", "POST", {"system": "four-color", "name": "kept"})
    server.process.send_signal(signal.SIGINT)
    assert server.process.wait(timeout=PATIENCE) == 0
    assert printed.read_text().splitlines()[-1] == f"Seize stopped. The tables are kept in {db}."
    with sqlite3.connect(db) as kept:
        assert kept.execute("select name from tables where id = ?", (made["id"],)).fetchone()


def test_links_printed_for_every_address_name_this_machine_on_the_tables_network(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """``--host 0.0.0.0`` listens for the phones, but a link to 0.0.0.0 opens nothing on them:
    the printed links name the host's first address on the table's network (the interfaces
    are the test's, as ``lan_addresses`` reads them). A public address given wins; under TLS
    the links say https; on 127.0.0.1 they are as before."""
    lan = LanAddress(ipaddress.IPv4Address("192.168.1.20"), ipaddress.IPv4Network("192.168.1.0/24"))
    monkeypatch.setattr(cli, "lan_addresses", lambda host: [lan])
    everywhere = Settings(host="0.0.0.0", port=8099)
    assert as_reached(everywhere, tls=False).base_url == "http://192.168.1.20:8099"
    assert as_reached(everywhere, tls=True).base_url == "https://192.168.1.20:8099"
    public = everywhere.model_copy(update={"public_url": "https://table.example.org"})
    assert as_reached(public, tls=False).base_url == "https://table.example.org"
    here = Settings(port=8099)
    assert as_reached(here, tls=False) is here
    assert as_reached(here, tls=True).base_url == "https://127.0.0.1:8099"
    monkeypatch.setattr(cli, "lan_addresses", lambda host: [])  # no network: what it has
    assert as_reached(everywhere, tls=False).base_url == "http://0.0.0.0:8099"


def test_what_each_durability_loses_is_said_for_each_database() -> None:
    """A power cut under SQLite's os; a crash of PostgreSQL itself under PostgreSQL's."""
    url = "postgresql://seize@db/seize"
    assert "a power cut loses nothing" in promised(Path("seize.db"), "disk")
    assert "synchronous_commit" in promised(url, "disk")
    assert "a power cut may lose the last ones" in promised(Path("seize.db"), "os")
    assert "a crash of PostgreSQL or its machine may lose" in promised(url, "os")


@pytest.mark.parametrize("where", ["environment", "file"])
def test_a_bad_durability_is_refused_naming_the_setting(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], where: str
) -> None:
    if where == "file":
        (tmp_path / "seize.toml").write_text('durability = "fsync"\n')
        monkeypatch.setenv("SEIZE_CONFIG", str(tmp_path / "seize.toml"))
    else:
        monkeypatch.setenv("SEIZE_DURABILITY", "fsync")
    assert main(["serve", "--db", str(tmp_path / "seize.db")]) == 2
    (line,) = capsys.readouterr().err.splitlines()
    assert line == "seize: setting durability: Input should be 'disk' or 'os'"


def test_a_bad_durability_flag_is_refused_naming_it(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exited:
        main(["serve", "--durability", "fast"])
    assert exited.value.code == 2
    assert "argument --durability: invalid choice: 'fast'" in capsys.readouterr().err
