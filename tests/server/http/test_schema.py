"""schemathesis against /api/openapi.json: whatever it sends, the server never answers 5xx.

The two live routes (WebSocket and SSE) are left to test_live.py: a stream answers by not
ending, which a request-and-response fuzzer can only wait out.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections import Counter
from pathlib import Path

from tests.server.process import UNLIMITED, ServerProcess, call
from tests.waiting import JOB_PATIENCE


def test_no_generated_request_gets_a_server_error(tmp_path: Path) -> None:
    log = tmp_path / "server.log"
    with ServerProcess(
        tmp_path / "schema.db", output=log, log_level="debug", **UNLIMITED
    ) as server:
        tables = [
            {**call(f"{server.url}/api/tables", "POST", {"system": s, "name": "schema"})[1]}
            for s in ("four-color", "awareness", "megatraveller-rcs")
        ]
        examples = "10" if os.environ.get("CI") else "25"
        run = subprocess.run(
            [
                str(Path(sys.executable).parent / "st"),
                "run",
                f"{server.url}/api/openapi.json",
                "--checks",
                "not_a_server_error",
                "--max-examples",
                examples,
                "--workers",
                "1",
                "--seed",
                "2026",
                "--exclude-path-regex",
                "/(ws|sse)$",
            ],
            capture_output=True,
            text=True,
            timeout=JOB_PATIENCE,
            check=False,
            env={
                **os.environ,
                "SCHEMATHESIS_HOOKS": "tests.server.schema_hooks",
                "SEIZE_SCHEMA_TABLES": json.dumps(tables),
                "PYTHONPATH": str(Path(__file__).parents[3]),
            },
        )
    assert run.returncode == 0, run.stdout[-3000:]
    assert "passed" in run.stdout
    reached = _reached(log, {table["id"] for table in tables})
    print(run.stdout[run.stdout.find("SUMMARY") :])
    print("table routes answered, by status:", dict(sorted(reached.items())))
    assert reached[200] > 0 and reached[422] > 0  # commands both applied and refused by rules
    assert not [status for status in reached if status >= 500]


def _reached(log: Path, table_ids: set[str]) -> Counter[int]:
    """How the table routes answered, from the server's request log."""
    statuses: Counter[int] = Counter()
    for line in log.read_text().splitlines():
        try:
            entry = json.loads(line)
        except json.JSONDecodeError:
            continue
        path = str(entry.get("path", ""))
        if entry.get("message") == "request" and any(t in path for t in table_ids):
            statuses[entry["status"]] += 1
    return statuses
