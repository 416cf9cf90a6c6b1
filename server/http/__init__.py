"""The HTTP face of a table: the server's context, reading requests and answering them, the
table routes, following over WebSocket and SSE, commands sent on a socket, OpenAPI, metrics
and pages. Sits on ``live`` and ``tables``."""
