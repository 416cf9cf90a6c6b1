"""The GM's way back in, in Chromium: the console moved to a second device by its GM link (a
browser of its own, sharing nothing with the first) and back; the link shown only on request,
after a warning; each device a link of its own, and a revoked one told so; the tables this
browser has run listed where new ones start."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from tests.server.process import ServerProcess, call

from .conftest import Table, shoot
from .console_driver import TABLET, Console
from .test_console_races import HeldSocket


def device(browser: Any, server: ServerProcess) -> tuple[Any, Console]:
    """A device of its own: a browser context shares no storage with another."""
    context = browser.new_context(viewport=TABLET, has_touch=True)
    return context, Console(context.new_page(), server.url)


@pytest.fixture
def devices(browser: Any, server: ServerProcess) -> Iterator[tuple[Console, Console]]:
    first_context, first = device(browser, server)
    second_context, second = device(browser, server)
    yield first, second
    first_context.close()
    second_context.close()


def gm_link(console: Console, name: str = "Co-GM tablet") -> str:
    """A GM link for the device called ``name``, made as a GM does: asked for, warned, named."""
    console.page.click("[data-action=elsewhere]")
    warning = console.page.locator("[data-section=Elsewhere] .warning")
    assert "run this table" in warning.text_content()
    assert console.page.locator("[data-qr=gm]").count() == 0  # not before it is asked for
    console.page.fill("[data-section=Elsewhere] input[name=device]", name)
    console.page.click("[data-action=gm-link]")
    console.page.locator("[data-qr=gm] svg").wait_for()
    href: str = console.page.locator("[data-qr=gm] a").get_attribute("href")
    return href


def test_the_gm_moves_the_console_to_another_device_and_back(
    devices: tuple[Console, Console], server: ServerProcess
) -> None:
    first, second = devices
    table_id = first.create("megatraveller-rcs", "Saturday firefight")
    first.add("Jena", side="crew")
    second.page.goto(f"{server.url}/console/{table_id}")
    second.page.get_by_text("seize gm-link").wait_for()  # no token here: the ways back in
    second.page.goto(gm_link(first))
    second.page.locator("[data-id=jena]").wait_for()
    second.add("Tomas", side="crew")
    first.page.locator("[data-id=tomas]").wait_for()  # the first console runs on, and follows
    first.add("Okoro", side="corp")
    second.page.locator("[data-id=okoro]").wait_for()
    second.page.goto(f"{server.url}/console")  # a new table, or one run here before
    second.page.locator(f"[data-table='{table_id}']").wait_for()
    assert second.page.locator(f"[data-table='{table_id}']").text_content() == "Saturday firefight"


def test_a_new_gm_link_stops_no_other_and_a_revoked_device_is_told(
    devices: tuple[Console, Console], server: ServerProcess
) -> None:
    """Two GMs' tablets and a stream's PC run one table: a link made for the stream leaves the
    co-GM's console running; the console lists the devices, and the one revoked is told, at
    once, that it no longer runs the table and how to get back in."""
    first, second = devices
    table_id = first.create("awareness")
    tablet = gm_link(first, "Co-GM tablet")
    second.page.goto(tablet)
    second.page.locator("[data-form=join]").wait_for()
    first.page.click("[data-qr=gm] button:text('Hide')")
    stream = gm_link(first, "Streaming PC")
    assert stream != tablet
    second.add("Kid")  # the co-GM runs on
    first.page.locator("[data-id=kid]").wait_for()
    listed = first.page.locator("[data-gm-devices] li")
    listed.filter(has_text="following now").wait_for()  # the co-GM's tablet follows the table
    assert [line.split("\n")[0] for line in listed.all_inner_texts()] == [
        "Where the table was made this device",
        "Co-GM tablet following now Revoke",
        "Streaming PC not opened yet Revoke",
    ]
    first.page.click("[data-device='Co-GM tablet'] button:text('Revoke')")
    gone = second.page.locator("[data-section='This link no longer runs the table']")
    gone.wait_for()
    assert "revoked" in gone.inner_text()
    assert f"seize gm-link {table_id}" in gone.inner_text()
    # Its link to the fight's story says the same, not "unknown token" over empty boxes.
    story = second.page.get_by_role("link", name="The fight's story").get_attribute("href")
    second.page.goto(f"{server.url}{story}" if story.startswith("/") else story)
    refused = second.page.locator("[data-section='This link no longer opens the table']")
    refused.wait_for()
    assert f"seize gm-link {table_id}" in refused.inner_text()
    assert "unknown token" not in second.page.inner_text("body")
    assert second.page.locator("#chart").count() == 0
    shoot(second.page, "timeline-revoked")
    first.page.locator("[data-device='Co-GM tablet']").wait_for(state="detached")
    assert call(f"{server.url}/api/tables/{table_id}", token=tablet.split("#token=")[1])[0] == 401
    assert call(f"{server.url}/api/tables/{table_id}", token=stream.split("#token=")[1])[0] == 200


def test_a_revoked_devices_link_leaves_the_screen(
    devices: tuple[Console, Console], server: ServerProcess
) -> None:
    """The GM shows a link for the stream's PC, then thinks better of it and revokes the PC
    while its QR code is still up: the code, its link and "Copy link" go with it (the device
    list is the server's answer), and the co-GM's tablet runs on."""
    first, other = devices
    first.create("awareness")
    other.page.goto(gm_link(first, "Co-GM tablet"))
    other.page.locator("[data-form=join]").wait_for()
    first.page.click("[data-qr=gm] button:text('Hide')")
    gm_link(first, "Streaming PC")
    first.page.click("[data-device='Streaming PC'] button:text('Revoke')")
    first.page.locator("[data-device='Streaming PC']").wait_for(state="detached")
    assert first.page.locator("[data-qr=gm]").count() == 0, "the revoked link is still shown"
    assert first.page.get_by_text("Copy link").count() == 0
    assert first.page.inner_text("#notice") == "Streaming PC no longer runs the table."
    other.add("Kid")  # the co-GM runs on: the table has moved on, and the note goes
    first.page.locator("[data-id=kid]").wait_for()
    assert first.page.inner_text("#notice") == ""


def test_a_press_the_server_never_answers_is_said_not_sent(
    devices: tuple[Console, Console], server: ServerProcess
) -> None:
    """The network drops as the GM presses: the command sent on the socket is lost on the way,
    and so is the POST the page then sends it again as. The page says the press was not sent,
    rather than looking as if it went in."""
    first, _ = devices
    socket = HeldSocket(first.page)
    first.create("megatraveller-rcs")
    first.add("Jena", side="crew")
    socket.open(first.page, first.page.url)  # the console, following on the relayed socket
    seq, before = first.seq, len(socket.sent)
    socket.dropping = True
    first.page.route("**/commands", lambda route: route.abort("internetdisconnected"))
    first.page.click("[data-action=roll]")
    notice = first.page.locator("#notice", has_text="Not sent")
    notice.wait_for()  # the socket's answer is waited for first
    assert "cannot be reached" in notice.inner_text()
    assert [sent["command"]["type"] for sent in socket.sent[before:]] == ["roll_initiative"]
    assert first.gm_get()["seq"] == seq  # nothing reached the table


def test_a_device_name_being_typed_survives_the_table_moving_on(
    console: Console, server: ServerProcess
) -> None:
    """The GM is naming the device a GM link is for when another screen deals the page: the
    name stays as typed, the cursor in it; and one the GM cancels, or whose link is shown, is
    not said lost."""
    table = Table(server, "four-color")
    table.send({"type": "join", "member": {"id": "jena", "name": "Jena", "kind": "hero"}})
    console.page.goto(f"{server.url}/console/{table.id}#token={table.gm}")
    console.page.click("[data-action=elsewhere]")
    name = console.page.locator("[data-section=Elsewhere] input[name=device]")
    name.fill("Co-GM")
    console.drawn(table.send({"type": "deal"})["seq"])
    console.page.keyboard.type(" tablet")
    assert name.input_value() == "Co-GM tablet"
    console.page.get_by_role("button", name="Cancel").click()
    name.wait_for(state="detached")
    assert console.page.inner_text("#notice") == ""
    gm_link(console)
    assert console.page.inner_text("#notice") == ""
