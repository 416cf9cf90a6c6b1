"""The adapters' tests run against the same real server on loopback as the server's tests (on
SQLite: they exercise the devices, not the store)."""

from tests.server.conftest import backend, client, database, settings

__all__ = ["backend", "client", "database", "settings"]
