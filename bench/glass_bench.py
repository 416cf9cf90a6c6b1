"""Glass to glass: a tap in the GM console to the overlay painted, in Chromium. Prints figures;
asserts nothing.

    .venv/bin/python -m bench.glass_bench [--taps 200]

One page of the server's own origin holds the console and the overlay as two frames, so both
are timed on one clock, the page's own (``performance.now()``), with no clock shared between
processes. Each tap is a click on the console's undo button, dispatched in the console's frame
(the console sends the undo on the WebSocket it follows the table on, as every press);
the overlay has painted it when, after its DOM shows the undo's sequence, the next animation
frame starts (the frame that draws it). Before each tap, a command is sent over HTTP (untimed),
so there is always a step to undo. The server runs in its own process over SQLite
(synchronous=FULL), on the default event loop.
"""

from __future__ import annotations

import argparse
import tempfile
import time
from pathlib import Path

from bench.server_bench import CHROMIUM, HEARTBEAT, pct
from tests.server.process import UNLIMITED, ServerProcess, call

POOL = {"type": "set_pool", "side": "crew", "points": 3}
CHARACTER = {"id": "a", "name": "A", "side": "crew", "dex": 1, "movement": 1}
FRAMES = """(urls) => new Promise((loaded) => {
  document.body.innerHTML = "";
  window.painted = {};
  let waiting = 2;
  for (const [name, url] of Object.entries(urls)) {
    const frame = document.createElement("iframe");
    frame.name = name;
    frame.style.cssText = "width: 960px; height: 1000px; border: 0";
    frame.onload = () => { if (--waiting === 0) loaded(); };
    frame.src = url;
    document.body.append(frame);
  }
})"""
WATCH = """() => {
  const overlay = document.querySelector("iframe[name=overlay]").contentWindow;
  const root = overlay.document.getElementById("overlay");
  new overlay.MutationObserver(() => {
    const seq = Number(root.dataset.seq);
    if (seq in window.painted) return;
    window.painted[seq] = null;
    overlay.requestAnimationFrame(() => { window.painted[seq] = performance.now(); });
  }).observe(root, { attributes: true, childList: true, subtree: true });
}"""
TAP = """() => {
  const console = document.querySelector("iframe[name=console]").contentWindow;
  const undo = console.document.querySelector('button[data-action="undo"]');
  if (!undo) return null;
  const at = performance.now();
  undo.click();
  return at;
}"""


def glass(url: str, taps: int) -> list[float]:
    """Milliseconds from each tap to the overlay's paint of it."""
    from playwright.sync_api import sync_playwright  # noqa: PLC0415 - only with a browser

    _, table = call(f"{url}/api/tables", "POST", {"system": "megatraveller-rcs", "name": "glass"})
    commands = f"{url}/api/tables/{table['id']}/commands"
    call(commands, "POST", {"type": "join", "character": CHARACTER}, table["gm_token"])
    delays = []
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=str(CHROMIUM),
            args=["--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-sync"],
        )
        page = browser.new_page(viewport={"width": 1920, "height": 1080})
        page.goto(f"{url}/healthz")  # the server's origin, so both frames are readable
        page.evaluate(
            FRAMES,
            {
                "console": f"/console/{table['id']}#token={table['gm_token']}",
                "overlay": f"/overlay/{table['id']}?token={table['overlay_token']}",
            },
        )
        page.frame("overlay").wait_for_selector(".rcs")  # type: ignore[union-attr]
        page.evaluate(WATCH)
        for _ in range(taps):
            _, answer = call(commands, "POST", POOL, table["gm_token"])
            undone = answer["seq"] + 1
            page.wait_for_function(f"window.painted[{undone - 1}] > 0")
            console = page.frame("console")
            assert console is not None
            console.wait_for_selector('button[data-action="undo"]:not([disabled])')
            tapped = page.evaluate(TAP)
            if tapped is None:
                continue
            page.wait_for_function(f"window.painted[{undone}] > 0", timeout=10_000)
            delays.append(page.evaluate(f"window.painted[{undone}]") - tapped)
            time.sleep(0.05)  # a GM's pace, not a flood
        browser.close()
    return delays


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--taps", type=int, default=200)
    args = parser.parse_args()
    if not CHROMIUM.exists():
        print(f"glass to glass: skipped, no {CHROMIUM}")
        return
    with (
        tempfile.TemporaryDirectory() as folder,
        ServerProcess(Path(folder) / "glass.db", heartbeat=HEARTBEAT, **UNLIMITED) as server,
    ):
        delays = glass(server.url, args.taps)
    print(
        f"console tap → overlay painted, in Chromium  p50 {pct(delays, 0.5):6.2f} ms   "
        f"p99 {pct(delays, 0.99):6.2f} ms   ({len(delays)} of {args.taps} taps; goal p99 ≤ 30 ms)"
    )


if __name__ == "__main__":
    main()
