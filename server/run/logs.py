"""Structured logs: one JSON object per line, so a log shipper needs no parsing rules."""

from __future__ import annotations

import json
import logging
import sys
import time
from typing import Any

from aiohttp.http_exceptions import HttpProcessingError, LineTooLong

_STANDARD = set(vars(logging.makeLogRecord({}))) | {"message", "asctime"}


class JsonFormatter(logging.Formatter):
    """A line's JSON; under ``--workers`` each names its worker, so a request can be traced to
    the process that served it."""

    def __init__(self, worker: int | None = None) -> None:
        super().__init__()
        self.worker = worker

    def format(self, record: logging.LogRecord) -> str:
        entry: dict[str, Any] = {
            "time": time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(record.created))
            + f".{int(record.msecs):03d}Z",
            "level": record.levelname.lower(),
            "logger": record.name,
            "message": record.getMessage(),
        }
        if self.worker is not None:
            entry["worker"] = self.worker
        entry.update({k: v for k, v in vars(record).items() if k not in _STANDARD})
        if record.exc_info:
            entry["exception"] = self.formatException(record.exc_info)
        return json.dumps(entry, default=str)


class Unreadable(logging.Filter):
    """aiohttp answers a request it cannot parse (a header over its 8,190 bytes, a line that is
    not HTTP) with 400 itself, and logs it as a failure of the server's, traceback and all.
    It is the client's fault, told here in one line at info, as other refused requests are
    (``server.run.app.logged``), naming what was wrong but not the bytes sent, which may hold a
    token."""

    def filter(self, record: logging.LogRecord) -> bool:
        fault = record.exc_info[1] if record.exc_info else None
        if not isinstance(fault, HttpProcessingError):
            return True
        if isinstance(fault, LineTooLong):
            what = f"a request line or header over {fault.args[1]} bytes"
        else:
            what = f"not HTTP as the server reads it ({type(fault).__name__})"
        client = record.args[0] if isinstance(record.args, tuple) and record.args else None
        record.msg, record.args = "request refused unread", ()
        record.exc_info = record.exc_text = None
        record.levelno = min(record.levelno, logging.INFO)
        record.levelname = logging.getLevelName(record.levelno)
        record.__dict__.update(status=fault.code, fault=what, client=client)
        return logging.getLogger(record.name).isEnabledFor(record.levelno)


def configure(level: int = logging.INFO, worker: int | None = None) -> None:
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(JsonFormatter(worker))
    logging.basicConfig(level=level, handlers=[handler], force=True)
    server = logging.getLogger("aiohttp.server")
    if not any(isinstance(one, Unreadable) for one in server.filters):
        server.addFilter(Unreadable())
