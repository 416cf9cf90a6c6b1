"""The adapters' tests run against the same real server on loopback as the server's tests."""

from tests.server.conftest import client, settings

__all__ = ["client", "settings"]
