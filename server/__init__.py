"""The ``seize`` command and, to come, the aiohttp server that shares a table live."""
