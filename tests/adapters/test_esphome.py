"""Every ESPHome configuration in firmware-config/ validates with `esphome config`, and what it
describes can work: every template number can be set (a web server or the API) and is read.

ESPHome lives in its own environment (.esphome/, as .ci/run installs it: its pinned libraries
would clash with this project's). Without it these tests are skipped, unless
SEIZE_REQUIRE_ESPHOME is set, as .ci/run sets it.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest

from tests.waiting import JOB_PATIENCE

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
        [command, "config", str(copy)],
        capture_output=True,
        text=True,
        timeout=JOB_PATIENCE,
        check=False,
    )
    assert run.returncode == 0, run.stdout[-2000:] + run.stderr[-2000:]


# ESPHome's own reading of a configuration (its YAML tags, !lambda and the like, included), as
# JSON: run with the Python of ESPHome's environment.
LOAD = (
    "import json, sys; from pathlib import Path; from esphome import yaml_util; "
    "print(json.dumps(yaml_util.load_yaml(Path(sys.argv[1])), default=str))"
)


def read(config: Path) -> dict[str, Any]:
    python = Path(esphome()).parent / "python"
    run = subprocess.run(
        [str(python), "-c", LOAD, str(config)],
        capture_output=True,
        text=True,
        timeout=JOB_PATIENCE,
        check=False,
    )
    assert run.returncode == 0, run.stderr[-2000:]
    loaded: dict[str, Any] = json.loads(run.stdout)
    return loaded


def test_every_template_number_can_be_set_and_is_read() -> None:
    """A template number is set only through a web server or the native API; one nothing can
    set stays at its initial value (the dice tray once rolled "6,1,1" every time)."""
    checked = 0
    for config in CONFIGS:
        loaded = read(config)
        numbers = [n for n in loaded.get("number", []) if n["platform"] == "template"]
        if not numbers:
            continue
        assert {"web_server", "api"} & loaded.keys(), f"{config.name}: no way to set its numbers"
        others = json.dumps({key: value for key, value in loaded.items() if key != "number"})
        for number in numbers:
            assert number.get("optimistic") or number.get("set_action"), number["id"]
            assert f"id({number['id']})" in others, f"{config.name}: nothing reads {number['id']}"
            checked += 1
    assert checked >= 2  # the dice tray's two faces
