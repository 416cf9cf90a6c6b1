"""schemathesis against /api/openapi.json: whatever it sends, the server never answers 5xx.

The two live routes (WebSocket and SSE) are left to test_live.py: a stream answers by not
ending, which a request-and-response fuzzer can only wait out.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from .process import UNLIMITED, ServerProcess, call


def test_no_generated_request_gets_a_server_error(tmp_path: Path) -> None:
    with ServerProcess(tmp_path / "schema.db", **UNLIMITED) as server:
        _, table = call(
            f"{server.url}/api/tables", "POST", {"system": "four-color", "name": "schema"}
        )
        config = tmp_path / "schemathesis.toml"
        config.write_text(f'[parameters]\ntable_id = "{table["id"]}"\n')
        examples = "10" if os.environ.get("CI") else "25"
        run = subprocess.run(
            [
                str(Path(sys.executable).parent / "st"),
                "--config-file",
                str(config),
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
                "--header",
                f"Authorization: Bearer {table['gm_token']}",
            ],
            capture_output=True,
            text=True,
            timeout=600,
            check=False,
        )
    assert run.returncode == 0, run.stdout[-3000:]
    assert "passed" in run.stdout
