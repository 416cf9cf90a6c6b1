"""Pages in a real browser: Playwright driving Debian's Chromium (never a downloaded browser)
against a server in its own process. Without /usr/bin/chromium these tests are skipped, unless
SEIZE_REQUIRE_BROWSER is set, as .ci/run sets it: there they must run."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlsplit

import pytest
from playwright.sync_api import expect, sync_playwright

from tests.server.process import UNLIMITED, ServerProcess, call
from tests.waiting import PAGE_PATIENCE

from .console_driver import PHONE, TABLET, Console

SIZES = {"tablet": TABLET, "phone": PHONE}

CHROMIUM = Path("/usr/bin/chromium")
ARTIFACTS = Path(__file__).parents[2] / "test-artifacts"
FLAGS = [
    "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
]  # fmt: skip

expect.set_options(timeout=PAGE_PATIENCE)  # its own default is five seconds


class Patient:
    """A browser whose every context and page waits with the shared patience: for an element,
    a function, a navigation (Playwright's own default is thirty seconds)."""

    def __init__(self, browser: Any) -> None:
        self.browser = browser

    def new_context(self, **options: Any) -> Any:
        context = self.browser.new_context(**options)
        context.set_default_timeout(PAGE_PATIENCE)
        return context

    def new_page(self, **options: Any) -> Any:
        page = self.browser.new_page(**options)
        page.set_default_timeout(PAGE_PATIENCE)
        return page

    def __getattr__(self, name: str) -> Any:
        return getattr(self.browser, name)


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    """One browser per module: Playwright's synchronous API keeps an event loop running on this
    thread while it is open, which the asynchronous tests of other folders must not inherit."""
    if not CHROMIUM.exists():
        if os.environ.get("SEIZE_REQUIRE_BROWSER"):
            pytest.fail("Chromium is required here: apt-get install chromium")
        pytest.skip("no /usr/bin/chromium on this machine (apt-get install chromium)")
    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(
            executable_path=str(CHROMIUM), args=FLAGS, timeout=PAGE_PATIENCE
        )
        yield Patient(launched)
        launched.close()


@pytest.fixture
def page(browser: Any) -> Iterator[Any]:
    context = browser.new_context(viewport={"width": 1920, "height": 1080})
    opened = context.new_page()
    yield opened
    context.close()


@pytest.fixture
def phone(browser: Any) -> Iterator[Any]:
    """A phone's browser: its own storage, touch, a phone's viewport."""
    context = browser.new_context(viewport=PHONE, has_touch=True)
    yield context.new_page()
    context.close()


@pytest.fixture(params=list(SIZES))
def console(request: pytest.FixtureRequest, browser: Any, server: ServerProcess) -> Iterator[Any]:
    """The GM console at tablet and at phone size, by touch."""
    context = browser.new_context(viewport=SIZES[request.param], has_touch=True)
    page = context.new_page()
    yield Console(page, server.url)
    context.close()


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    db = tmp_path_factory.mktemp("pages") / "seize.db"
    with ServerProcess(db, **UNLIMITED) as running:
        yield running


class Table:
    """A table on the server, driven with the GM's token."""

    def __init__(self, server: ServerProcess, system: str, **options: Any) -> None:
        self.server = server
        spec = {"system": system, "name": "Friday game", "options": options}
        _, created = call(f"{server.url}/api/tables", "POST", spec)
        self.id: str = created["id"]
        self.gm: str = created["gm_token"]
        self.overlay: str = created["overlay_token"]

    @property
    def url(self) -> str:
        return f"{self.server.url}/api/tables/{self.id}"

    def send(self, command: dict[str, Any]) -> dict[str, Any]:
        status, answer = call(f"{self.url}/commands", "POST", command, self.gm)
        assert status == 200, answer
        return dict(answer)

    def view(self, token: str | None = None) -> dict[str, Any]:
        _, answer = call(self.url, token=token or self.overlay)
        return dict(answer)

    def overlay_url(self, query: str = "") -> str:
        return f"{self.server.url}/overlay/{self.id}?token={self.overlay}{query}"

    def tray(self) -> None:
        """A dice tray reports connected: it rolls for anyone at the table."""
        tray = {"kind": "dice tray", "connected": True, "rolls": 0, "refused": {}}
        assert call(f"{self.url}/devices/tray", "PUT", tray, self.gm)[0] == 200

    def die_on_phone(self, owner: str, die: str, name: str) -> None:
        """``owner``'s own die, paired to their player's phone and connected."""
        phone = {"connected": True, "battery": 80, "charging": False}
        dice = {"dice": {die: {"owner": owner, "name": name, "phone": phone}}}
        assert call(f"{self.url}/dice", "PUT", dice, self.gm)[0] == 200

    def devices(self, page: Any) -> None:
        """Open the table's GM console on ``page``, its devices panel unfolded."""
        page.goto(f"{self.server.url}/console/{self.id}#token={self.gm}")
        page.get_by_text("Card readers and dice trays").click()


def shoot(page: Any, name: str) -> Path:
    """A screenshot kept as a test artifact (transparent where the page is)."""
    ARTIFACTS.mkdir(exist_ok=True)
    path = ARTIFACTS / f"{name}.png"
    page.screenshot(path=str(path), omit_background=True)
    return path


FRAMES = """
// Every frame the overlay draws, with its seq: a replay's whole run, read back after it ended
// (the timeline's and the turn clock's replay tests read them).
window.frames_seen = [];
new MutationObserver((changes) => {
  for (const change of changes) {
    const root = change.target;
    if (root.id === "overlay" && change.attributeName === "data-seq") {
      window.frames_seen.push({ seq: Number(root.dataset.seq), replay: root.dataset.replay,
                                text: root.innerText });
    }
  }
}).observe(document, { subtree: true, attributes: true, attributeFilter: ["data-seq"] });
"""


def token_of(url: str) -> str:
    """The token a hand-off link carries (in its query or its fragment)."""
    parts = urlsplit(url)
    found = parse_qs(parts.query).get("token") or parse_qs(parts.fragment).get("token")
    assert found, url
    return found[0]
