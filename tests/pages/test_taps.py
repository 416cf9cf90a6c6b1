"""Two taps on a tablet on the console's one obvious step: the first goes in, the table moves
on, and the console draws the next step's button where the GM is looking, often where the first
was. A second tap 50 or 150 ms after the first is one finger tapping twice, on a button its GM
has not seen yet: it must not send the next step too (a double tap on "Next Panel" played
Invisible Woman's 6♠ and then Human Torch's 5♦). 600 ms after, with the new button on screen,
it is a press of that button, and goes in.

Real touch (a context with touch), on every step the console offers as its primary button in
each system, the second tap on the primary step as it is then; and on "End turn", the second
tap on the spot the first was. The gap between the two taps is what is under test: it is the
one wait here that is a length of time; all else waits through ``tests.waiting``.

A double tap's taps are stamped as a touch screen stamps them, when the finger touched, and the
page times a press by its stamp: a busy tablet hands a page its taps late, never later apart.
So a double tap's two taps are sent with stamps ``gap`` apart, whenever a loaded machine gets
to deliver them (a tap stamped on delivery, as ``Locator.tap`` is, could reach the page long
after the new button was drawn, and be a deliberate press of it)."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from typing import Any

import pytest

from tests.server.process import ServerProcess
from tests.waiting import until

from .conftest import Table
from .console_driver import TABLET, Console
from .console_driver import settled as settled_button
from .test_console_races import HeldSocket, opened, pumped, rcs_declared, seq

QUICK = (0.05, 0.15)
"""Gaps in seconds of a finger tapping twice: the second tap was never meant for a new button."""
LATER = 0.6
"""A gap after which the new button has been on screen long enough to be pressed on purpose."""

PRIMARY = "#next [data-primary]"

COUNTING = """
  window.presses = 0;
  window.commands = 0;
  addEventListener("click", () => { window.presses++; }, true);
  const send = WebSocket.prototype.send;
  WebSocket.prototype.send = function (data) {
    if (JSON.parse(data).type === "command") window.commands++;
    return send.call(this, data);
  };
  window.read = 0;
  const json = Response.prototype.json;
  Response.prototype.json = async function () {
    const body = await json.call(this);
    window.read++;
    return body;
  };
"""
"""Counted in the page: taps (the clicks they make), commands it sent on its socket, and answers
it read over HTTP (a press refused as too late reads the table and its events afresh)."""


class Finger:
    """Taps on the page's touch screen, each stamped with the moment (seconds since the epoch)
    the finger touched, as the screen stamps it."""

    def __init__(self, page: Any) -> None:
        self.page = page
        self.screen = page.context.new_cdp_session(page)

    def tap(self, box: dict[str, float], at: float) -> None:
        """Tap the middle of ``box`` (a spot on screen), stamped ``at``."""
        middle = [{"x": box["x"] + box["width"] / 2, "y": box["y"] + box["height"] / 2}]
        for kind, points in (("touchStart", middle), ("touchEnd", [])):
            self.screen.send(
                "Input.dispatchTouchEvent", {"type": kind, "touchPoints": points, "timestamp": at}
            )


@pytest.fixture
def console(browser: Any) -> Iterator[Console]:
    """The console on a tablet, by touch."""
    context = browser.new_context(viewport=TABLET, has_touch=True)
    context.add_init_script(COUNTING)
    yield Console(context.new_page(), "")
    context.close()


def joined(table: Table, *people: tuple[str, dict[str, Any]]) -> Table:
    for key, person in people:
        table.send({"type": "join", key: person})
    return table


def four_color_page(server: ServerProcess) -> Table:
    """Invisible Woman holds 6♠, Human Torch 5♦, the Editor's extra card is 2♣: the console
    offers "Next Panel: Invisible Woman, 6♠"."""
    table = joined(
        Table(server, "four-color"),
        *(("member", {"id": i, "name": n, "kind": "hero"})
          for i, n in (("sue", "Invisible Woman"), ("johnny", "Human Torch"))),
    )  # fmt: skip
    table.send({"type": "deal", "source": "gm"})
    for card in ("6S", "5D", "2C"):
        table.send({"type": "deal_card", "card": card, "source": "gm"})
    return table


def rcs_encounter(server: ServerProcess) -> Table:
    """Jena (crew) and the Guard (corp), nothing rolled: the console offers the roll."""
    return joined(
        Table(server, "megatraveller-rcs"),
        *(("character", {"id": i, "name": n, "side": s, "dex": 0, "movement": 0, "tactics": 0})
          for i, n, s in (("jena", "Jena", "crew"), ("guard", "Guard", "corp"))),
    )  # fmt: skip


def rcs_one_short_action_left(server: ServerProcess) -> Table:
    """Jena holds the token with one Short Action left: the console offers to end her turn."""
    table = rcs_encounter(server)
    table.send({"type": "roll_initiative", "source": "gm"})
    for ident, dice in (("jena", [1, 1]), ("guard", [6, 6])):
        table.send({"type": "enter_roll", "character": ident, "dice": dice, "source": "gm"})
    declaring = {"type": "declare", "character": "jena", "action": "short", "target": "Guard"}
    table.send({**declaring, "what": "aims"})
    table.send({"type": "resolve"})
    return table


def awareness_situation(server: ServerProcess) -> Table:
    """The Kid and the Marshal, nothing rolled: the console offers the roll."""
    sheet = {"perception": 5, "stealth": 5, "coordination": 5, "state": "alert"}
    return joined(
        Table(server, "awareness"),
        *(("sheet", {"id": i, "name": n, **sheet})
          for i, n in (("kid", "Kid"), ("marshal", "Marshal"))),
    )  # fmt: skip


def awareness_declaring(server: ServerProcess) -> Table:
    """Initiative is in, and the Kid declares first: the console offers "Kid acts"."""
    table = awareness_situation(server)
    table.send({"type": "roll_initiative", "source": "gm"})
    for ident, die in (("kid", 1), ("marshal", 3)):
        table.send({"type": "enter_initiative", "character": ident, "die": die, "source": "gm"})
    return table


def awareness_acted(server: ServerProcess) -> Table:
    """The Kid acts and no one may react: the console offers "Resolve Kid's action (draws)"."""
    table = awareness_declaring(server)
    table.send({"type": "act", "character": "kid", "what": "draws"})
    return table


STEPS: dict[str, tuple[Callable[[ServerProcess], Table], str, str]] = {
    # name: the table, the button tapped, and what it says
    "four-color next Panel": (four_color_page, PRIMARY, "Next Panel: Invisible Woman, 6♠"),
    "rcs roll": (rcs_encounter, PRIMARY, "The engine rolls round 1"),
    "rcs resolve, the token moves": (rcs_declared, PRIMARY, "Resolve: Jena dives at Guard"),
    "awareness roll": (awareness_situation, PRIMARY, "The engine rolls round 1"),
    "awareness declare": (awareness_declaring, PRIMARY, "Kid acts"),
    "awareness resolve": (awareness_acted, PRIMARY, "Resolve Kid's action (draws)"),
}


def settled(console: Console, socket: HeldSocket) -> None:
    """Until the page has had both taps and the server has answered every command it sent
    (each call into the page lets the relay carry what it holds)."""
    until(
        lambda: (
            console.page.evaluate("window.presses") >= 2
            and console.page.evaluate("window.commands") == len(socket.replies)
        ),
        "the taps were not all answered",
    )


def where(button: Any) -> dict[str, float]:
    """The spot ``button`` (a locator) is on now; Playwright has none for it while a redraw
    replaces it."""
    box: dict[str, float] = until(button.bounding_box, "nothing on screen there to tap")
    return box


def tapped_twice(
    console: Console, table: Table, target: str, gap: float, *, again: str | None = PRIMARY
) -> tuple[int, str]:
    """Open the console, tap ``target``; ``gap`` seconds later tap ``again``, the primary step
    as it is then (the button the first tap pressed, or the one drawn after it), or with None
    the spot the first tap was on. Answers how many steps the table took, and what the first
    button said."""
    socket = opened(console, table)
    before = seq(table)
    read = console.page.evaluate("window.read")
    button = console.page.locator(target)
    first = button.inner_text()
    button.tap(trial=True)  # it takes taps: on screen, still, not settling
    spot = where(button)
    finger = Finger(console.page)
    touched = time.time()
    finger.tap(spot, touched)
    second = console.page.locator(again or target)
    if gap >= LATER:  # the second tap comes once the new step is on screen
        until(lambda: console.seq > before and second.inner_text() != first, "no new step")
    time.sleep(max(0.0, touched + gap - time.time()))  # the gap under test
    if gap >= LATER:
        second.tap()  # a hand presses a button it can press, when it presses it
    else:  # a finger waits for nothing, on the primary step as it is now or the same spot
        finger.tap(spot if again is None else where(second), touched + gap)
    settled(console, socket)
    if any(reply.get("status") == 409 for reply in socket.replies):
        # The second tap reached the old button and was refused as too late: the page reads
        # the table afresh (two answers), then says what it says. A condition polled runs
        # after what those answers' reading set going, so the notice is read once it is final.
        until(lambda: console.page.evaluate("window.read") >= read + 2, "no fresh reading")
    return seq(table) - before, first


@pytest.mark.parametrize("gap", QUICK, ids=lambda gap: f"{gap * 1000:.0f}ms")
@pytest.mark.parametrize("step", list(STEPS))
def test_a_double_tap_takes_one_step(
    console: Console, server: ServerProcess, step: str, gap: float
) -> None:
    build, target, label = STEPS[step]
    steps, first = tapped_twice(console, build(server), target, gap)
    assert first == label
    assert steps == 1, f"{steps} steps taken by one double tap"
    # Nothing went wrong that the GM should read about: the first tap did what was meant.
    assert console.page.inner_text("#notice") == ""


@pytest.mark.parametrize("gap", QUICK, ids=lambda gap: f"{gap * 1000:.0f}ms")
def test_a_double_space_takes_one_step(console: Console, server: ServerProcess, gap: float) -> None:
    """Space pressed twice, as a bounced key or an impatient GM: the first resolves Jena's
    action; the second lands on the Guard's declaration drawn a moment ago, and goes nowhere
    (before, it declared "acts" for him). Space once that step has been on screen takes it."""
    table = rcs_declared(server)
    console.page.goto(f"{server.url}/console/{table.id}#token={table.gm}")
    console.drawn(seq(table))
    before = seq(table)
    primary = console.page.locator(PRIMARY)
    settled_button(primary)
    assert primary.inner_text() == "Resolve: Jena dives at Guard"
    console.page.keyboard.press(" ")
    time.sleep(gap)  # the gap under test
    console.page.keyboard.press(" ")
    until(lambda: console.seq > before, "the first Space took no step")
    settled_button(primary)  # the new step, on screen long enough: a second command is in
    assert seq(table) == before + 1
    assert table.view(table.gm)["view"]["declared"] is None  # the Guard declared nothing
    console.key(" ")  # now seen: Space takes it
    assert table.view(table.gm)["view"]["declared"]["what"] == "acts"


@pytest.mark.parametrize("step", list(STEPS))
def test_a_second_tap_on_the_new_button_once_seen_takes_its_step(
    console: Console, server: ServerProcess, step: str
) -> None:
    build, target, label = STEPS[step]
    steps, first = tapped_twice(console, build(server), target, LATER)
    assert first == label
    assert steps == 2


@pytest.mark.parametrize("gap", QUICK, ids=lambda gap: f"{gap * 1000:.0f}ms")
def test_a_double_tap_on_end_turn_ends_one_turn(
    console: Console, server: ServerProcess, gap: float
) -> None:
    """MegaTraveller: "End Jena's turn", tapped twice, ends hers; the Guard, who holds the
    token after her, declares nothing."""
    table = rcs_one_short_action_left(server)
    steps, first = tapped_twice(console, table, "#next [data-action=end-turn]", gap, again=None)
    assert first == "End Jena's turn"
    assert steps == 1
    assert table.view(table.gm)["view"]["declared"] is None


def test_a_second_tap_on_the_step_just_taken_says_nothing(
    console: Console, server: ServerProcess
) -> None:
    """The second tap reaches the very button the first pressed, before the console has drawn
    what came of it (its news held on the way): that press is refused as too late, nothing
    changes, and the console says nothing of it, for the first tap did what was meant. Were
    the table moved on by another device, it would say so (``test_console_races``)."""
    table = four_color_page(server)
    socket = opened(console, table)
    before = seq(table)
    read = console.page.evaluate("window.read")
    socket.holding = True
    button = console.page.locator(PRIMARY)
    button.tap()
    pumped(console.page, lambda: len(socket.replies) >= 1, "the first tap unanswered")
    button.tap()
    pumped(console.page, lambda: len(socket.replies) >= 2, "the second tap unanswered")
    assert socket.replies[1].get("status") == 409, socket.replies[1]
    until(lambda: console.page.evaluate("window.read") >= read + 2, "no fresh reading")
    assert seq(table) == before + 1
    assert console.page.inner_text("#notice") == ""
    socket.release(console.page)
