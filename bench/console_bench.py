"""Console benchmark: taps. Prints figures; asserts nothing.

    .venv/bin/python -m bench.console_bench

Debian's Chromium at tablet size plays one page or round of each system on the GM console, by
tapping only (the engine deals and rolls), against a server in its own process. Setup (creating
the table, adding the participants) is not counted: it happens once a session. Each system's
taps are printed beside the fewest the rules allow, one tap per decision the GM must make:

- The Four Color Hack, a page of 8 cards (2 heroes, so 1 extra card): the deal, each Panel, and
  spending each of the Editor's extra cards;
- MegaTraveller RCS, a round of 4 with no seize: the roll, then per turn the declaration and its
  resolution;
- awareness, a round of 4: the roll, each declaration, each resolution.

Then the scenes the page tests play (tests/pages/test_scenes_*.py), each counted as the GM taps
it on the console, with the dice the seed gives typed where the console asks: the designer's four
awareness scenes and an RCS round with a seize of a seize. Their fewest taps is one per step the
table's log records, joining aside (setup), less the steps a player took on their phone.
"""

from __future__ import annotations

import inspect
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

from playwright.sync_api import sync_playwright

from tests.pages import test_scenes_awareness as awareness_scenes
from tests.pages import test_scenes_rcs as rcs_scenes
from tests.pages.conftest import CHROMIUM, FLAGS
from tests.pages.console_driver import PHONE, TABLET, Console
from tests.server.process import UNLIMITED, ServerProcess


def four_color(console: Console) -> tuple[int, int, int]:
    """Taps, Panels, and the fewest taps the rules allow for one page."""
    console.create("four-color")
    for name, kind in (("Nightingale", "hero"), ("Spider-Man", "hero"), ("Doom", "villain"),
                       ("Thugs", "mob"), ("Ock", "villain"), ("Goons", "mob"),
                       ("Mysterio", "villain")):  # fmt: skip
        console.add(name, kind=kind)
    console.taps = 0
    console.press()  # the deal
    panels = assigned = 0
    while console.primary != "Deal page 2":
        assigned += console.primary.startswith("Assign")
        panels += console.primary.startswith("Next Panel")
        console.press()
    return console.taps, panels, 1 + panels + assigned


def rcs(console: Console) -> tuple[int, int, int]:
    console.create("megatraveller-rcs")
    for name, side in (("Jena", "crew"), ("Bea", "crew"), ("Guard", "corp"), ("Boss", "corp")):
        console.add(name, side=side)
    console.taps = 0
    console.press()  # the roll
    turns = 0
    while not console.primary.startswith("Roll initiative"):
        console.press()  # the declaration
        console.press()  # its resolution
        turns += 1
    return console.taps, turns, 1 + 2 * turns


def awareness(console: Console) -> tuple[int, int, int]:
    console.create("awareness")
    for name in ("Kid", "Marshal", "Bea", "Deputy"):
        console.add(name)
    console.taps = 0
    console.press()  # the roll
    declarations = resolutions = 0
    while not console.primary.startswith("Roll initiative"):
        if console.primary.startswith(("Resolve", "It happens")):
            resolutions += 1
        else:
            declarations += 1
        console.press()
    return console.taps, declarations, 1 + declarations + resolutions


PLAYS: dict[str, tuple[Any, str, str]] = {
    "The Four Color Hack, 8 cards": (four_color, "Panel", "1 per Panel + 1 deal + 1 per extra"),
    "MegaTraveller RCS, 4, no seize": (rcs, "turn", "3 per turn + 1 roll"),
    "Awareness, 4": (awareness, "declaration", "3 per declaration + 1 per resolve"),
}


SCENES: dict[str, Callable[..., None]] = {
    "The Western shootout": awareness_scenes.test_the_western_shootout,
    "The shootout with a sniper": awareness_scenes.test_the_shootout_with_a_dastardly_sniper,
    "The Iai duel": awareness_scenes.test_the_iai_duel,
    "The hostage standoff": awareness_scenes.test_the_hostage_standoff_with_a_counter_sniper,
    "RCS, a seize of a seize": rcs_scenes.test_a_seize_as_the_token_moves_and_a_seize_of_that_seize,
}


def scene(play: Callable[..., None], browser: Any, server: ServerProcess) -> tuple[int, int, int]:
    """GM taps, actions resolved, and the fewest taps: one per step in the log that is neither
    a join nor a player's, from their phone."""
    contexts = [browser.new_context(viewport=TABLET, has_touch=True)]
    console = Console(contexts[0].new_page(), server.url)
    given: dict[str, Any] = {"console": console, "server": server}
    sent: list[str] = []  # the commands a player's phone sent

    def counted(request: Any) -> None:
        if request.method == "POST" and request.url.endswith("/commands"):
            sent.append(request.url)

    if "phone" in inspect.signature(play).parameters:
        contexts.append(browser.new_context(viewport=PHONE, has_touch=True))
        given["phone"] = contexts[-1].new_page()
        given["phone"].on("request", counted)
    wanted = inspect.signature(play).parameters
    play(**{name: value for name, value in given.items() if name in wanted})
    events = console.events()
    steps = sum(e["type"] != "joined" for e in events)
    actions = sum(e["type"] in ("resolved", "turn_ended") for e in events)
    for context in contexts:
        context.close()
    return console.taps, actions, steps - len(sent)


def main() -> None:
    with tempfile.TemporaryDirectory() as folder, sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=str(CHROMIUM), args=FLAGS)
        with ServerProcess(Path(folder) / "bench.db", **UNLIMITED) as server:
            print(f"{'system':32} {'taps':>5}  {'turns':16} {'per turn':>8} {'minimum':>8}  goal")
            for title, (play, unit, goal) in PLAYS.items():
                context = browser.new_context(viewport=TABLET, has_touch=True)
                console = Console(context.new_page(), server.url)
                taps, turns, minimum = play(console)
                counted = f"{turns} {unit}s"
                print(f"{title:32} {taps:5}  {counted:16} {taps / turns:8.2f} {minimum:8}  {goal}")
                context.close()
            for title, play in SCENES.items():
                taps, actions, minimum = scene(play, browser, server)
                counted = f"{actions} actions"
                print(
                    f"{title:32} {taps:5}  {counted:16} {taps / actions:8.2f} {minimum:8}  "
                    "1 per step of the log"
                )
        browser.close()


if __name__ == "__main__":
    main()
