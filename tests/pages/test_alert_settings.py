"""The player's notification settings (static/play/alerts.js) in Chromium against a real server,
where Web Push cannot work: in a context of Playwright's own, which Chromium treats as a private
window (its push service refuses with "Registration failed - permission denied", notifications
allowed or not), and in an ordinary profile with no push service to reach (its subscribe then
neither answers nor fails). Each time the page says, in its own words, that push is not on, why,
and what to do; and the page's own notification while it is not in view, which needs no push
service, stays on and tells the turn.

Whether the page is in view is the one stand-in: a test's page is never hidden by a user, so
``document.hidden`` answers what the test sets (as Chromium's does when the tab is left)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tests.server.process import ServerProcess
from tests.waiting import until

from .conftest import ARTIFACTS, FLAGS, Table
from .console_driver import PHONE
from .test_play import at_seq, hand_to

PUSH_WAIT = 20_000
"""Milliseconds the page gives the browser's push service (alerts.js, ``PUSH_WAIT``)."""

HIDING = """
window.pageHidden = false;
Object.defineProperty(Document.prototype, "hidden", { configurable: true,
                                                      get: () => window.pageHidden });
"""

PUSH = "Notify me when the page is closed or the phone locked"
IN_PAGE = "Notify me while this page is not in view"


def heroes(server: ServerProcess) -> Table:
    """Peter and Nightingale, a page dealt: Peter's Panel first, Nightingale's next."""
    table = Table(server, "four-color")
    for hero in ("peter", "nightingale"):
        table.send({"type": "join", "member": {"id": hero, "name": hero.title(), "kind": "hero"}})
    table.send({"type": "deal", "source": "gm"})
    for card in ("KH", "QC", "2C"):  # Peter, Nightingale, then the Editor's extra card
        table.send({"type": "deal_card", "card": card})
    return table


def said(phone: Any, key: str) -> str:
    return str(phone.locator(f"[data-state={key}]").inner_text())


def test_a_push_a_private_window_refuses_says_so_and_the_page_still_notifies(
    browser: Any, server: ServerProcess
) -> None:
    table = heroes(server)
    context = browser.new_context(viewport=PHONE, has_touch=True, permissions=["notifications"])
    context.add_init_script(HIDING)
    phone = context.new_page()
    phone.goto(hand_to(table, "nightingale"))
    at_seq(phone, table.view()["seq"])
    phone.get_by_text("Alerts on this device…").click()
    phone.get_by_label(IN_PAGE).check()
    phone.wait_for_function("document.querySelector('[data-state=notify]').textContent !== ''")
    assert said(phone, "notify").startswith("On: "), said(phone, "notify")

    phone.get_by_label(PUSH).click()
    phone.wait_for_function(
        "document.querySelector('[data-state=push]').textContent.startsWith('Not on')"
    )
    assert "private window" in said(phone, "push") and "ordinary window" in said(phone, "push")
    assert "Registration failed" not in phone.inner_text("body"), "the browser's words"
    assert not phone.get_by_label(PUSH).is_checked()
    assert phone.get_by_label(IN_PAGE).is_checked(), "a failed push took the page's own down"
    phone.locator("#alerts").screenshot(path=str(ARTIFACTS / "push-refused.png"))

    phone.evaluate("window.pageHidden = true")
    seq = table.send({"type": "next_panel"})["seq"]  # Peter's Panel: Nightingale is on deck
    at_seq(phone, seq)
    shown = until(
        lambda: phone.evaluate(
            """async () => { const ready = await navigator.serviceWorker.ready;
                             return (await ready.getNotifications()).map((n) => n.title); }"""
        ),
        "no notification was shown",
    )
    assert shown == ["On deck: Nightingale"]
    context.close()


def test_a_push_service_that_never_answers_is_said_not_to(
    browser: Any, server: ServerProcess, tmp_path: Path
) -> None:
    """An ordinary profile (its own folder): Chromium's subscribe waits on a push service this
    machine cannot reach. The page waits its own while, then says so; the box is never left
    ticked for a push that is not on."""
    table = heroes(server)
    profile = browser.browser_type.launch_persistent_context(
        str(tmp_path / "profile"), executable_path="/usr/bin/chromium", args=FLAGS,
        permissions=["notifications"], viewport=PHONE, has_touch=True,
    )  # fmt: skip
    try:
        profile.clock.install()
        phone = profile.new_page()
        phone.goto(hand_to(table, "nightingale"))
        at_seq(phone, table.view()["seq"])
        phone.get_by_text("Alerts on this device…").click()
        phone.get_by_label(PUSH).click()
        phone.wait_for_function(
            "document.querySelector('[data-state=push]').textContent.includes('push service…')"
        )
        assert not phone.get_by_label(PUSH).is_checked(), "ticked before it is on"
        profile.clock.fast_forward(PUSH_WAIT)
        phone.wait_for_function(
            "document.querySelector('[data-state=push]').textContent.startsWith('Not on')"
        )
        assert "push service did not answer" in said(phone, "push")
        assert not phone.get_by_label(PUSH).is_checked()
        assert phone.get_by_label(PUSH).is_enabled(), "it can be tried again"
    finally:
        profile.close()
