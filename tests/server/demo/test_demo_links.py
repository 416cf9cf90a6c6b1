"""``seize serve --demo`` prints every demo table's GM, player and overlay links once, and the
log beneath them stays quiet while the simulated devices poll, report, deal and roll."""

from __future__ import annotations

import json
import re
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

import pytest

from server.demo import devices as demo_devices
from tests.server.process import UNLIMITED, ServerProcess, call
from tests.waiting import until

pytestmark = pytest.mark.sqlite_only

LINK = re.compile(r"^  (GM console|Overlay|.+'s player page): +(\S+)$", re.M)
ROLE = {"GM console": "gm", "Overlay": "overlay"}


def test_the_demo_prints_each_tables_links_above_a_quiet_log(tmp_path: Path) -> None:
    printed = tmp_path / "printed.txt"
    with ServerProcess(
        tmp_path / "seize.db", printed, extra_args=["--demo"], **UNLIMITED
    ) as server:
        links = LINK.findall(printed.read_text())
        assert [ROLE.get(kind, "player") for kind, _ in links] == ["gm", "overlay", "player"] * 2
        gm_of: dict[str, str] = {}
        for kind, url in links:
            parts = urlsplit(url)
            table_id = parts.path.rsplit("/", 1)[1]
            token = parse_qs(parts.fragment or parts.query)["token"][0]
            status, seen = call(f"{server.url}/api/tables/{table_id}", token=token)
            assert status == 200 and seen["you"]["role"] == ROLE.get(kind, "player"), kind
            if kind == "GM console":
                gm_of[table_id] = token
        if demo_devices.available():
            for table_id, token in gm_of.items():
                devices_worked(f"{server.url}/api/tables/{table_id}", token)
            logged = [
                json.loads(line) for line in printed.read_text().splitlines() if line[:1] == "{"
            ]
            asked = [e for e in logged if e["message"] == "request" and e["status"] < 400]
            assert asked == [], "a request answered as asked was logged above debug"


def devices_worked(table: str, token: str) -> None:
    """Wait until the table's device has reported and dealt or rolled what the table awaited:
    many requests of theirs, each of which a noisy log would show."""

    def worked() -> bool:
        _, devices = call(f"{table}/devices", token=token)
        _, events = call(f"{table}/events", token=token)
        sources = {(e["event"] or {}).get("source") for e in events["events"]}
        return bool(devices["devices"]) and "device" in sources

    until(worked, "the demo's devices never dealt or rolled")
