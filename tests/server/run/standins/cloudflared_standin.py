"""A stand-in for ``cloudflared`` (2026.8), as ``seize serve --share`` runs it:
``cloudflared tunnel --no-autoupdate --config FILE --metrics ADDR --url URL``. Each output is the
real tool's, from its source (the files and lines cited); the state file says which case to
play:

- The metrics server answers ``/quicktunnel`` with ``{"hostname":"…"}``, no scheme
  (``metrics/metrics.go`` 86-88), and ``/ready`` with 503 until a connection to the edge is up,
  then 200 and ``{"status","readyConnections","connectorId"}`` (``metrics/readiness.go``
  31-60).
- It logs the disclaimer and the request (``cmd/cloudflared/tunnel/quick_tunnel.go`` 27-28,
  72-75) on stderr; ``offline`` plays a host without the internet, failing with "failed to
  request quick Tunnel" (47) and exit code 1.
- Without ``--config``, the default ``~/.cloudflared/config.yml`` is read, and its ingress rules
  win over ``--url`` (``ingress/ingress.go`` 98-103; ``config/configuration.go`` 25): the tunnel
  then serves the config's first service. Only ``service:`` lines of it are read here.
"""

from __future__ import annotations

import asyncio
import json
import signal
import sys
import uuid
from datetime import UTC, datetime
from pathlib import Path
from urllib.parse import urlsplit

from tests.server.run.standins.proxy import edge, note_pid, state


def say(level: str, message: str) -> None:
    stamp = datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")
    print(f"{stamp} {level} {message}", file=sys.stderr, flush=True)


def option(args: list[str], name: str) -> str | None:
    return args[args.index(name) + 1] if name in args else None


def origin(args: list[str]) -> tuple[str, int]:
    """Where the tunnel sends requests: a config file's first ingress service, else --url."""
    config = option(args, "--config")
    path = Path(config) if config else Path.home() / ".cloudflared" / "config.yml"
    url = option(args, "--url") or ""
    if path.exists():
        for line in path.read_text().splitlines():
            if line.strip().startswith("- service:") or line.strip().startswith("service:"):
                url = line.split("service:", 1)[1].strip()
                break
    parts = urlsplit(url)
    return parts.hostname or "127.0.0.1", parts.port or 80


async def tunnel(args: list[str]) -> None:
    given = state()
    say(
        "INF",
        "Thank you for trying Cloudflare Tunnel. Doing so, without a Cloudflare account, is a "
        "quick way to experiment and try it out.",
    )
    say("INF", "Requesting new quick Tunnel on trycloudflare.com...")
    if given.get("offline"):
        say(
            "ERR",
            'failed to request quick Tunnel: Post "https://api.trycloudflare.com/tunnel": dial '
            "tcp: lookup api.trycloudflare.com: no such host",
        )
        sys.exit(1)
    hostname = given["hostname"]
    created = (
        "Your quick Tunnel has been created! Visit it at (it may take some time to be reachable):"
    )
    say("INF", f"|  {created}  |")
    say("INF", f"|  https://{hostname}  |")
    connected = asyncio.Event()
    connector = str(uuid.uuid4())

    async def metrics(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        request = (await reader.readline()).decode()
        while (await reader.readline()) not in (b"\r\n", b""):
            pass
        path = request.split(" ")[1] if " " in request else "/"
        if path == "/quicktunnel":
            code, body = 200, json.dumps({"hostname": hostname}, separators=(",", ":"))
        elif path == "/ready":
            code = 200 if connected.is_set() else 503
            body = json.dumps(
                {
                    "status": code,
                    "readyConnections": int(connected.is_set()),
                    "connectorId": connector,
                }
            )
        else:
            code, body = 404, "404 page not found\n"
        reason = {200: "OK", 503: "Service Unavailable", 404: "Not Found"}[code]
        writer.write(
            f"HTTP/1.1 {code} {reason}\r\nContent-Length: {len(body)}\r\n"
            f"Connection: close\r\n\r\n{body}".encode()
        )
        await writer.drain()
        writer.close()

    address = option(args, "--metrics") or "127.0.0.1:0"
    host, _, port = address.rpartition(":")
    metrics_server = await asyncio.start_server(metrics, host, int(port))
    server = await edge(given, origin(args))
    note_pid(given)
    connected.set()
    say("INF", "Registered tunnel connection connIndex=0 location=standin protocol=quic")
    stopped = asyncio.Event()
    asyncio.get_running_loop().add_signal_handler(signal.SIGINT, stopped.set)
    asyncio.get_running_loop().add_signal_handler(signal.SIGTERM, stopped.set)
    await stopped.wait()
    server.close()
    metrics_server.close()


def main(args: list[str]) -> None:
    if args[:1] != ["tunnel"] or "--url" not in args:
        print(f"the stand-in does not play: cloudflared {' '.join(args)}", file=sys.stderr)
        sys.exit(1)
    asyncio.run(tunnel(args[1:]))


if __name__ == "__main__":
    main(sys.argv[1:])
