"""A stand-in for the ``tailscale`` CLI (tailscale 1.103), as ``seize serve --share`` runs it:
``tailscale status --json`` and ``tailscale funnel PORT``. Each output is the real CLI's, from
its source (the files and lines cited); the state file says which case to play:

- ``daemon``: false plays tailscaled not running (``cmd/tailscale/cli/diag.go`` 59-61).
- ``BackendState``, ``DNSName``, ``AuthURL``, ``https``: ``ipnstate.Status``
  (``ipn/ipnstate/ipnstate.go`` 43, 47, 75 ``CertDomains``; 242 ``DNSName``, ending in a dot),
  printed indented by ``cmd/tailscale/cli/status.go`` 96-101.
- ``funnel``: ``"ok"`` prints the serve message (``serve_v2.go`` 1036, 1113-1131) then runs
  until interrupted (549-557); ``"consent"`` first prints the control server's text and URL
  (``serve_legacy.go`` 821-826) and waits until the state says ``"ok"``; ``"denied"`` fails as
  an operator-less user (``client/local/local.go`` 199, ``ipn/localapi/serve.go`` 29,
  ``cmd/tailscale/cli/cli.go`` 169). Without ``https`` Funnel is refused
  (``ipn/serve.go`` 657-659). Errors go to stderr with exit code 1
  (``cmd/tailscale/tailscale.go`` 22-25).
"""

from __future__ import annotations

import asyncio
import json
import signal
import sys
from typing import Any

from tests.server.run.standins.proxy import edge, note_pid, state
from tests.waiting import PACE


def fail(message: str) -> None:
    print(message, file=sys.stderr, flush=True)
    sys.exit(1)


def status(given: dict[str, Any]) -> None:
    name = given.get("DNSName", "")
    shown = {
        "Version": "1.103.0-standin",
        "TUN": True,
        "BackendState": given.get("BackendState", "Running"),
        "AuthURL": given.get("AuthURL", ""),
        "TailscaleIPs": ["100.101.102.103"],
        "Self": {"ID": "nSTANDIN", "HostName": name.split(".")[0], "DNSName": name, "OS": "linux"},
        "Health": [],
        "MagicDNSSuffix": name.partition(".")[2].removesuffix("."),
        "CertDomains": [name.removesuffix(".")] if given.get("https", True) and name else None,
    }
    print(json.dumps(shown, indent="  "))


async def funnel(port: int) -> None:
    given = state()
    if not given.get("https", True):
        fail("Funnel not available; HTTPS must be enabled. See https://tailscale.com/s/https.")
    if given.get("funnel") == "consent":
        print("\nFunnel is not enabled on your tailnet.\nTo enable, visit:", flush=True)
        print("\n         https://login.tailscale.com/f/funnel?node=nSTANDIN\n", flush=True)
        while state().get("funnel") == "consent":  # the admin has not clicked yet
            await asyncio.sleep(PACE)
        print("Success.", flush=True)
    if state().get("funnel") == "denied":
        fail(
            "Access denied: serve config denied\n\n"
            f"Use 'sudo tailscale funnel {port}'.\n"
            "To not require root, use 'sudo tailscale set --operator=$USER' once."
        )
    server = await edge(given, ("127.0.0.1", port))
    note_pid(given)
    host = given["DNSName"].removesuffix(".")
    print(
        f"Available on the internet:\n\nhttps://{host}/\n"
        f"|-- proxy http://127.0.0.1:{port}\n\nPress Ctrl+C to exit.",
        flush=True,
    )
    stopped = asyncio.Event()
    asyncio.get_running_loop().add_signal_handler(signal.SIGINT, stopped.set)
    asyncio.get_running_loop().add_signal_handler(signal.SIGTERM, stopped.set)
    await stopped.wait()
    server.close()


def main(args: list[str]) -> None:
    given = state()
    if not given.get("daemon", True):
        fail(
            "failed to connect to local tailscaled; it doesn't appear to be running "
            "(sudo systemctl start tailscaled ?)"
        )
    if args[:2] == ["status", "--json"]:
        status(given)
    elif args[:1] == ["funnel"] and len(args) == 2:
        asyncio.run(funnel(int(args[1])))
    else:
        fail(f"the stand-in does not play: tailscale {' '.join(args)}")


if __name__ == "__main__":
    main(sys.argv[1:])
