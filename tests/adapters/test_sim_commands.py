"""``seize sim tray`` and ``seize sim pn532`` as a developer runs them: each puts its device
behind a stable path, and takes the path away however it is ended (quit, SIGTERM)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import uuid
from pathlib import Path

import pytest

from server.run.cli import main
from tests.waiting import PATIENCE


def link_for(kind: str, tmp_path: Path) -> Path:
    if kind == "tray":
        return tmp_path / "seize-tray"
    if not os.access("/dev", os.W_OK):
        pytest.skip("the simulated PN532 needs a symlink under /dev: run as root")
    return Path("/dev") / f"seize-pn532-{uuid.uuid4().hex[:8]}"


def started(kind: str, link: Path) -> subprocess.Popen[str]:
    process = subprocess.Popen(
        [sys.executable, "-m", "server", "sim", kind, "--link", str(link)],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    assert process.stdout is not None
    assert f"at {link}:" in process.stdout.readline()  # its first line: it is plugged
    assert link.is_symlink() and Path(os.path.realpath(link)).exists()
    return process


def test_seize_sim_pn532_is_a_command(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as ended:
        main(["sim", "pn532", "--help"])
    assert ended.value.code == 0 and "--link" in capsys.readouterr().out


@pytest.mark.parametrize("kind", ["tray", "pn532"])
def test_a_simulator_ended_by_sigterm_takes_its_path_away(kind: str, tmp_path: Path) -> None:
    link = link_for(kind, tmp_path)
    process = started(kind, link)
    try:
        process.send_signal(signal.SIGTERM)
        assert process.wait(timeout=PATIENCE) == 128 + signal.SIGTERM
    finally:
        if process.poll() is None:
            process.kill()
        process.communicate()
    assert not link.is_symlink() and not link.exists()


@pytest.mark.parametrize("kind", ["tray", "pn532"])
def test_a_simulator_told_to_quit_takes_its_path_away(kind: str, tmp_path: Path) -> None:
    link = link_for(kind, tmp_path)
    process = started(kind, link)
    told = {"tray": "2d0\n2d6\nq\n", "pn532": "present 04zz\npresent 04a1b2c3d4e5f6 KH\nquit\n"}
    out, _ = process.communicate(told[kind], timeout=PATIENCE)
    assert process.returncode == 0
    said = out.splitlines()
    assert said[0].startswith("? ")  # a line it cannot follow is answered, not a crash
    if kind == "tray":
        assert said[1].startswith("$SEIZE,tray1,1,ROLL,6,")  # the roll as it went down the line
    assert not link.is_symlink() and not link.exists()
