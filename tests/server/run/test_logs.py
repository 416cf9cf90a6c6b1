"""Log lines: one JSON object each, naming the worker that wrote it when there are several."""

from __future__ import annotations

import json
import logging
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

from server.run.logs import JsonFormatter
from tests.server.process import ServerProcess
from tests.waiting import until


def line(formatter: JsonFormatter) -> dict[str, object]:
    record = logging.makeLogRecord(
        {"name": "seize", "levelno": logging.INFO, "levelname": "INFO", "msg": "request"}
    )
    record.status = 200
    parsed: dict[str, object] = json.loads(formatter.format(record))
    return parsed


def test_a_workers_lines_name_it_and_a_lone_servers_do_not() -> None:
    assert line(JsonFormatter(worker=1))["worker"] == 1
    alone = line(JsonFormatter())
    assert "worker" not in alone and alone["message"] == "request" and alone["status"] == 200


def refused(url: str, headers: dict[str, str]) -> int:
    try:
        with urllib.request.urlopen(urllib.request.Request(url, headers=headers)) as answer:
            return int(answer.status)
    except urllib.error.HTTPError as error:
        return error.code


def test_a_header_too_long_is_refused_in_one_line_and_no_traceback(tmp_path: Path) -> None:
    """aiohttp refuses a request whose header is over its 8,190 bytes before the server's code
    sees it, and logged that as a failure of the server's, traceback and all. It is the
    client's fault: one line, which does not repeat what was sent (a token, maybe)."""
    output = tmp_path / "server.log"
    secret = "s3cr3t" * 1500
    with ServerProcess(tmp_path / "seize.db", output=output) as server:
        assert refused(f"{server.url}/healthz", {"X-Long": secret}) == 400
        assert refused(f"{server.url}/healthz", {}) == 200  # the server goes on

        def told() -> list[dict[str, Any]]:
            lines = [json.loads(one) for one in output.read_text().splitlines() if one[:1] == "{"]
            return [one for one in lines if one["logger"] == "aiohttp.server"]

        line = until(told, "the refused request was never logged")
    assert len(line) == 1 and line[0]["message"] == "request refused unread"
    assert (line[0]["level"], line[0]["status"]) == ("info", 400)
    assert line[0]["fault"] == "a request line or header over 8190 bytes"
    written = output.read_text()
    assert "Traceback" not in written and '"exception"' not in written
    assert "s3cr3t" not in written
