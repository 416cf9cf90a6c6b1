"""Log lines: one JSON object each, naming the worker that wrote it when there are several."""

from __future__ import annotations

import json
import logging

from server.run.logs import JsonFormatter


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
