"""Devices: their reports, the link of a device the server runs itself, and the
``seize adapter``, ``sim`` and ``deck`` commands. Sits on ``http`` and ``adapters``."""
