"""VTT client benchmark: a Foundry-style client's command latency. Prints figures; asserts nothing.

    .venv/bin/python -m bench.vtt_bench [--commands N]

The Foundry module and the Roll20 bridge send their commands through ``Link``
(server/vtt/foundry/scripts/link.mjs). This runs that very file in Node (its WebSocket is
Node's own, behind ``--experimental-websocket`` before Node 22) against a server in its own
process, as the active GM's client does: one Link following one table, its first view in hand.
It then sends commands one after another, each awaited, in two ways, in alternating blocks so
that the machine's drift falls on both alike:

- ``POST``: ``postCommand``, one request per command over the client's kept-alive connection,
  as every command went before the Link carried them;
- ``WebSocket``: ``Link.send``, on the socket the client already follows the table on.

Each time is from the call to the answer in hand, on Node's monotonic clock: p50, p99 and
mean. The commands hide and show a participant in turn, so the table stays the same size.
Node's fetch makes no CORS preflight, where a browser on Foundry's or Roll20's origin sends one
before a POST whenever its cached one (10 minutes) has run out: the POST here is its best case.
"""

from __future__ import annotations

import argparse
import json
import shutil
import statistics
import subprocess
import tempfile
from pathlib import Path

from tests.server.process import UNLIMITED, ServerProcess, call

LINK = Path(__file__).parents[1] / "server/vtt/foundry/scripts/link.mjs"

CLIENT = """
import { Link, postCommand } from LINK_URL;
const [server, table, token, count, blocks] = process.argv.slice(2);
let ready;
const first = new Promise((resolve) => { ready = resolve; });
const link = new Link({ server, table, token, onMessage: () => ready() }).open();
await first;
const commands = ["hide", "reveal"].map((type) => ({ type, participant: "h1" }));
let sent = 0;
const ways = {
  POST: (command, key) => postCommand(server, table, token, command, key),
  WebSocket: (command, key) => link.send(command, key),
};
const times = { POST: [], WebSocket: [] };
for (let block = 0; block < Number(blocks); block += 1) {
  for (const [way, send] of Object.entries(ways)) {
    for (let n = 0; n < Number(count) / Number(blocks); n += 1) {
      const start = performance.now();
      const answer = await send(commands[sent % 2], `bench-${sent}`);
      times[way].push(performance.now() - start);
      if (!answer.ok) throw new Error(JSON.stringify(answer));
      sent += 1;
    }
  }
}
link.close();
console.log(JSON.stringify(times));
"""


def pct(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(p / 100 * (len(ordered) - 1)))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--commands", type=int, default=1000, help="commands each way")
    arguments = parser.parse_args()
    node = shutil.which("node")
    if node is None:
        print("skipped: no node on this machine")
        return
    with tempfile.TemporaryDirectory() as folder:
        script = Path(folder) / "client.mjs"
        script.write_text(CLIENT.replace("LINK_URL", json.dumps(LINK.as_uri())))
        with ServerProcess(Path(folder) / "bench.db", **UNLIMITED) as server:
            spec = {"system": "four-color", "name": "Bench"}
            _, table = call(f"{server.url}/api/tables", "POST", spec)
            member = {"id": "h1", "name": "Valeros", "kind": "hero"}
            base = f"{server.url}/api/tables/{table['id']}"
            call(f"{base}/commands", "POST", {"type": "join", "member": member}, table["gm_token"])
            run = subprocess.run(
                [node, "--experimental-websocket", str(script), server.url, table["id"],
                 table["gm_token"], str(arguments.commands), "10"],
                capture_output=True, text=True, check=False,
            )  # fmt: skip
    if run.returncode != 0:
        print(f"skipped: the client failed: {run.stderr[-2000:]}")
        return
    times: dict[str, list[float]] = json.loads(run.stdout.splitlines()[-1])
    print(f"a Foundry-style client's command, call to answer, {arguments.commands} each way (ms)")
    print(f"{'way':10} {'p50':>7} {'p99':>7} {'mean':>7}")
    for way, values in times.items():
        print(
            f"{way:10} {pct(values, 50):7.2f} {pct(values, 99):7.2f} "
            f"{statistics.fmean(values):7.2f}"
        )
    ratio = statistics.median(times["POST"]) / statistics.median(times["WebSocket"])
    print(f"the WebSocket's p50 is {ratio:.2f}x faster than the POST's")


if __name__ == "__main__":
    main()
