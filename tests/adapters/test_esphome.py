"""Every ESPHome configuration in firmware-config/ validates with `esphome config`.

ESPHome lives in its own environment (.esphome/, as .ci/run installs it: its pinned libraries
would clash with this project's). Without it these tests are skipped, unless
SEIZE_REQUIRE_ESPHOME is set, as .ci/run sets it.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).parents[2]
CONFIGS = sorted((ROOT / "firmware-config").rglob("*.yaml"))


def esphome() -> str:
    for candidate in (
        os.environ.get("SEIZE_ESPHOME"),
        str(ROOT / ".esphome/bin/esphome"),
        shutil.which("esphome"),
    ):
        if candidate and Path(candidate).exists():
            return candidate
    if os.environ.get("SEIZE_REQUIRE_ESPHOME"):
        pytest.fail(
            "ESPHome is required here: python3 -m venv .esphome && .esphome/bin/pip install esphome"
        )
    pytest.skip("no ESPHome here (python3 -m venv .esphome && .esphome/bin/pip install esphome)")


def test_there_are_configurations_for_a_reader_station_and_a_tray() -> None:
    assert {path.name for path in CONFIGS} >= {"reader-station.yaml", "dice-tray.yaml"}


@pytest.mark.parametrize("config", CONFIGS, ids=lambda path: path.name)
def test_the_configuration_validates(config: Path, tmp_path: Path) -> None:
    command = esphome()
    copy = tmp_path / config.name  # esphome writes its storage beside the file it reads
    shutil.copy(config, copy)
    run = subprocess.run(
        [command, "config", str(copy)], capture_output=True, text=True, timeout=300, check=False
    )
    assert run.returncode == 0, run.stdout[-2000:] + run.stderr[-2000:]
