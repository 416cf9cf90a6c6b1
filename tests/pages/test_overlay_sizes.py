"""The overlay at the sizes a streaming tool gives it: OBS's default 800x600 browser source,
1280x720 and 1920x1080. Every name is big enough to read on stream and on one line (or
shortened, with the whole name on hover), nothing leaves the frame, the Taking Turn Token lies on
one card, and Editorial Control or a seize is its own moment, not a word between two cards.

What is measured is what the browser drew: a name's size is its computed font size times every
scaling above it, and its lines are the boxes of its own text."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from tests.server.process import ServerProcess

from .conftest import Table, shoot
from .test_overlay import seq_shown

SIZES = [(800, 600), (1280, 720), (1920, 1080)]
SMALLEST_NAME_PX = 18

FOUR_COLOR_CAST = [
    ("doom", "Doctor Doom", "villain"),
    ("sue", "Invisible Woman", "hero"),
    ("ben", "The Thing", "hero"),
    ("reed", "Mr. Fantastic", "hero"),
    ("johnny", "Human Torch", "hero"),
    ("peter", "Spider-Man", "hero"),
    ("jen", "She-Hulk", "hero"),
    ("bots", "Doombots", "mob"),
]
RCS_CAST = [
    ("jena", "Jena Vance", "crew"),
    ("tomas", "Tomas Kell", "crew"),
    ("guard", "Corporate guard", "corp"),
    ("sarge", "Sergeant Okoro", "corp"),
]
AWARENESS_CAST = [
    ("kid", "The Kid"),
    ("bart", "Black Bart"),
    ("sheriff", "Sheriff Dawson"),
    ("sniper", "Sniper on the roof"),
]

MEASURE = """
([names, cardSelector, momentPattern]) => {
  const root = document.getElementById("overlay");
  const rect = (box) => ({ left: box.left, top: box.top, right: box.right, bottom: box.bottom });
  // The size an element's text is drawn at: its font size times every scaling above it.
  const drawnPx = (element) => {
    let scale = 1;
    for (let e = element; e; e = e.parentElement) {
      const style = getComputedStyle(e);
      if (style.transform && style.transform !== "none") {
        const m = new DOMMatrix(style.transform);
        scale *= Math.sqrt(Math.abs(m.a * m.d - m.b * m.c));
      }
      if (style.scale && style.scale !== "none") {
        const [x, y = x] = style.scale.split(" ").map(Number);
        scale *= Math.sqrt(Math.abs(x * y));
      }
      if (style.zoom && style.zoom !== "normal") scale *= Number(style.zoom) || 1;
    }
    return parseFloat(getComputedStyle(element).fontSize) * scale;
  };
  const textNodes = [];
  const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
  while (walker.nextNode()) textNodes.push(walker.currentNode);
  const shown = [];
  for (const name of names) {
    for (const node of textNodes) {
      for (let at = node.data.indexOf(name); at >= 0; at = node.data.indexOf(name, at + 1)) {
        const range = document.createRange();
        range.setStart(node, at);
        range.setEnd(node, at + name.length);
        const boxes = [...range.getClientRects()].filter((b) => b.width > 0 && b.height > 0);
        const tops = [];
        for (const b of boxes) {
          if (!tops.some((t) => Math.abs(t - b.top) < b.height / 2)) tops.push(b.top);
        }
        const whole = range.getBoundingClientRect();
        // Cut off: the text's box reaches past an ancestor that clips what overflows it.
        let cutBy = null;
        for (let e = node.parentElement; e && e !== document.documentElement; e = e.parentElement) {
          const style = getComputedStyle(e);
          if (style.overflowX === "visible" && style.overflowY === "visible") continue;
          const clip = e.getBoundingClientRect();
          if (whole.left < clip.left - 1 || whole.right > clip.right + 1
              || whole.top < clip.top - 1 || whole.bottom > clip.bottom + 1) {
            cutBy = e;
            break;
          }
        }
        const titled = node.parentElement.closest("[title]");
        shown.push({
          name,
          px: drawnPx(node.parentElement),
          lines: tops.length,
          cut: cutBy !== null,
          ellipsis: cutBy !== null && getComputedStyle(cutBy).textOverflow === "ellipsis",
          title: titled ? titled.getAttribute("title") : null,
        });
      }
    }
  }
  const outside = [];
  for (const e of [root, ...root.querySelectorAll("*")]) {
    const b = e.getBoundingClientRect();
    if (b.width === 0 && b.height === 0) continue;
    if (b.left < -0.5 || b.top < -0.5
        || b.right > innerWidth + 0.5 || b.bottom > innerHeight + 0.5) {
      outside.push(`${e.tagName.toLowerCase()}.${e.className} ${JSON.stringify(rect(b))}`);
    }
  }
  const boxes = (selector) => [...root.querySelectorAll(selector)]
    .map((e) => rect(e.getBoundingClientRect()));
  const cards = boxes(cardSelector);
  const tokens = boxes(".token");
  // The moment: the innermost element whose own text says it.
  let moment = null;
  if (momentPattern) {
    const pattern = new RegExp(momentPattern, "i");
    const saying = textNodes.filter((n) => pattern.test(n.data));
    if (saying.length) {
      const element = saying[0].parentElement;
      moment = { box: rect(element.getBoundingClientRect()), px: drawnPx(element),
                 inStrip: element.closest(".strip") !== null };
    }
  }
  return { shown, outside, cards, tokens, moment,
           pageWidth: document.documentElement.scrollWidth,
           pageHeight: document.documentElement.scrollHeight };
}
"""


def four_color_at_editorial_control(server: ServerProcess) -> tuple[Table, int]:
    """The demo's cast, dealt by hand: Doom holds a joker and plays it out of turn."""
    table = Table(server, "four-color")
    for mid, name, kind in FOUR_COLOR_CAST:
        table.send({"type": "join", "member": {"id": mid, "name": name, "kind": kind}})
    table.send({"type": "deal", "source": "gm"})
    ranked = iter(["KH", "QD", "JC", "10S", "9H", "8D", "7C", "6S", "5H", "4D", "3C"])
    while owed := table.view(table.gm)["view"]["to_deal"]:
        card = "RJ" if owed[0] == "doom" else next(ranked)
        table.send({"type": "deal_card", "card": card, "source": "gm"})
    seq = table.send({"type": "play_joker", "card": "RJ"})["seq"]
    return table, seq


def rcs_after_a_seize(server: ServerProcess) -> tuple[Table, int]:
    """Tomas has had his turn; the Corporate guard declares, and Sergeant Okoro seizes the
    initiative from him and declares in turn."""
    table = Table(server, "megatraveller-rcs")
    for cid, name, side in RCS_CAST:
        character = {"id": cid, "name": name, "side": side, "dex": 0, "movement": 0}
        table.send({"type": "join", "character": character})
    table.send({"type": "roll_initiative", "source": "gm"})
    for cid, dice in (("tomas", [1, 2]), ("guard", [3, 3]), ("jena", [4, 4]), ("sarge", [6, 6])):
        table.send({"type": "enter_roll", "character": cid, "dice": dice, "source": "gm"})
    declare = {"type": "declare", "action": "long"}
    table.send({**declare, "character": "tomas", "what": "dives for cover", "target": "—"})
    table.send({"type": "resolve"})
    table.send({**declare, "character": "guard", "what": "charges", "target": "Jena Vance"})
    table.send({"type": "seize", "character": "sarge"})
    fires = {"what": "fires a burst", "target": "Corporate guard"}
    seq = table.send({**declare, "character": "sarge", **fires})["seq"]
    return table, seq


def awareness_mid_round(server: ServerProcess) -> tuple[Table, int]:
    """The Kid waits (for what, only the GM knows); Black Bart acts, and the Kid pre-empts him."""
    table = Table(server, "awareness")
    for cid, name in AWARENESS_CAST:
        sheet = {"id": cid, "name": name, "perception": 5, "stealth": 5, "coordination": 5}
        table.send({"type": "join", "sheet": sheet})
    table.send({"type": "roll_initiative", "source": "gm"})
    for cid, die in (("kid", 1), ("bart", 3), ("sheriff", 5), ("sniper", 9)):
        table.send({"type": "enter_initiative", "character": cid, "die": die, "source": "gm"})
    table.send({"type": "wait", "character": "kid", "trigger": "Bart reaches for his gun"})
    table.send({"type": "act", "character": "bart", "what": "draws and fires at the Sheriff"})
    preempt = {"type": "react", "character": "kid", "to": "bart", "timing": "before"}
    # A natural 1 always succeeds (ruling 10): the Kid acts before Bart.
    seq = table.send({**preempt, "what": "pre-emption", "die": 1, "source": "gm"})["seq"]
    return table, seq


SCENES = {
    "four-color": four_color_at_editorial_control,
    "rcs": rcs_after_a_seize,
    "awareness": awareness_mid_round,
}


@pytest.fixture(scope="module")
def scenes(server: ServerProcess) -> dict[str, tuple[Table, int]]:
    return {system: build(server) for system, build in SCENES.items()}


@pytest.fixture
def framed(browser: Any, request: pytest.FixtureRequest) -> Iterator[Any]:
    """A page the size of a browser source (the test's ``size``), its flourishes still so that
    what is measured and shot is the picture that stays."""
    width, height = request.param
    viewport = {"width": width, "height": height}
    context = browser.new_context(viewport=viewport, reduced_motion="reduce")
    yield context.new_page()
    context.close()


def measure(page: Any, names: list[str], cards: str, moment: str | None = None) -> dict[str, Any]:
    return dict(page.evaluate(MEASURE, [names, cards, moment]))


def assert_names_readable(measured: dict[str, Any], names: list[str], width: int) -> None:
    shown = measured["shown"]
    assert {s["name"] for s in shown} >= set(names), "every name is on the overlay"
    for s in shown:
        assert s["px"] >= SMALLEST_NAME_PX, f"{s['name']} is drawn at {s['px']:.1f} px"
        assert s["lines"] == 1, f"{s['name']} wraps onto {s['lines']} lines"
        if s["cut"]:
            # Shortened only where the frame is small, visibly, and whole on hover.
            assert width <= 800, f"{s['name']} is cut off at {width} px wide, with room to spare"
            assert s["ellipsis"], f"{s['name']} is cut off without an ellipsis"
            assert s["title"] and s["name"] in s["title"], f"{s['name']} is not whole on hover"


def assert_inside_the_frame(measured: dict[str, Any], width: int, height: int) -> None:
    assert measured["outside"] == [], "every element of the overlay lies inside the frame"
    assert measured["pageWidth"] <= width and measured["pageHeight"] <= height


def assert_its_own_moment(measured: dict[str, Any]) -> None:
    """The moment is said apart from the cards: not in their row, above or below all of them."""
    moment = measured["moment"]
    assert moment is not None, "the moment is shown"
    assert moment["px"] >= SMALLEST_NAME_PX
    assert not moment["inStrip"], "the moment is not one more thing in the row of cards"
    box = moment["box"]
    tops = min(c["top"] for c in measured["cards"])
    bottoms = max(c["bottom"] for c in measured["cards"])
    assert box["bottom"] <= tops or box["top"] >= bottoms, "the moment lies clear of the cards"


def frame_name(width: int, height: int) -> str:
    return f"{width}x{height}"


def framed_scene(
    page: Any, scene: tuple[Table, int], names: list[str], cards: str, moment: str
) -> tuple[dict[str, Any], str]:
    """The overlay of a scene in a frame, checked as every size must be: its names readable,
    nothing outside the frame, the moment apart from the cards. Answers what was measured and
    the frame's name."""
    table, seq = scene
    width, height = page.viewport_size["width"], page.viewport_size["height"]
    page.goto(table.overlay_url())
    seq_shown(page, seq)
    measured = measure(page, names, cards, moment)
    assert_names_readable(measured, names, width)
    assert_inside_the_frame(measured, width, height)
    assert_its_own_moment(measured)
    return measured, frame_name(width, height)


def backdrop(page: Any) -> None:
    """A stand-in for the streamer's scene behind the transparent page, for the screenshots."""
    page.add_style_tag(content="html { background: #3d4a5c; }")


@pytest.mark.parametrize("framed", SIZES, indirect=True, ids=lambda s: frame_name(*s))
def test_four_color_at_editorial_control(framed: Any, scenes: dict[str, tuple[Table, int]]) -> None:
    names = [name for _, name, _ in FOUR_COLOR_CAST]
    _, frame = framed_scene(framed, scenes["four-color"], names, ".card", "Editorial Control")
    backdrop(framed)
    shoot(framed, f"overlay-four-color-{frame}")


@pytest.mark.parametrize("framed", SIZES, indirect=True, ids=lambda s: frame_name(*s))
def test_rcs_after_a_seize(framed: Any, scenes: dict[str, tuple[Table, int]]) -> None:
    page = framed
    names = [name for _, name, _ in RCS_CAST]
    measured, frame = framed_scene(page, scenes["rcs"], names, ".index-card", "seize")
    # The token lies on the seizer's card alone, well inside it, touching no other card.
    [token] = measured["tokens"]

    def holds(card: dict[str, float]) -> bool:
        return bool(
            card["left"] <= token["left"]
            and token["right"] <= card["right"]
            and card["top"] <= token["top"]
            and token["bottom"] <= card["bottom"]
        )

    def touches(card: dict[str, float]) -> bool:
        return not bool(
            token["right"] <= card["left"]
            or token["left"] >= card["right"]
            or token["bottom"] <= card["top"]
            or token["top"] >= card["bottom"]
        )

    assert sum(map(holds, measured["cards"])) == 1, "the token lies inside one card"
    assert sum(map(touches, measured["cards"])) == 1, "the token touches no other card"
    holder = page.locator(".index-card:has(.token)").get_attribute("data-id")
    assert holder == "sarge"
    backdrop(page)
    shoot(page, f"overlay-rcs-{frame}")


@pytest.mark.parametrize("framed", SIZES, indirect=True, ids=lambda s: frame_name(*s))
def test_awareness_mid_round(framed: Any, scenes: dict[str, tuple[Table, int]]) -> None:
    page = framed
    names = ["The Kid", "Black Bart"]  # the Sheriff's and the Sniper's turns are still to come
    _, frame = framed_scene(page, scenes["awareness"], names, ".declared", "pre-empt")
    text = page.inner_text("body")
    assert "waits" in text and "reaches for his gun" not in text  # that he waits, never for what
    assert "Sheriff" not in text.replace("fires at the Sheriff", "") and "Sniper" not in text
    backdrop(page)
    shoot(page, f"overlay-awareness-{frame}")


LARGE_FOUR_COLOR = [
    "Invisible Woman", "The Amazing Spider-Man", "Captain Marvel of the Kree", "Doctor Strange",
    "Ms. Marvel", "Squirrel Girl", "Moon Knight", "Scarlet Witch", "Black Panther", "Iron Fist",
]  # fmt: skip
LARGE_POSSE = [
    "The Kid", "Black Bart", "Sheriff Dawson", "Deputy Jones", "Doc Holliday", "Calamity Jane",
    "Wild Bill Hickok", "Ike Clanton", "Johnny Ringo", "Sniper on the roof", "Big Nose Kate",
    "Curly Bill Brocius",
]  # fmt: skip


def test_a_large_table_packs_closer_and_leaves_the_scene_to_the_stream(
    browser: Any, server: ServerProcess
) -> None:
    """Ten heroes, three villains and a mob, dealt; a round of twelve gunfighters, eleven of
    them declared: on OBS's default source each still fits, names at a readable size, and the
    table covers no more than half the frame."""
    four_color = Table(server, "four-color")
    for n, name in enumerate(LARGE_FOUR_COLOR):
        four_color.send({"type": "join", "member": {"id": f"h{n}", "name": name, "kind": "hero"}})
    villains = ["Doctor Doom", "Baron Mordo the Sorcerer", "Kang the Conqueror"]
    for n, name in enumerate(villains):
        member = {"id": f"v{n}", "name": name, "kind": "villain"}
        four_color.send({"type": "join", "member": member})
    mob = {"id": "mob", "name": "A swarm of Doombots from Latveria", "kind": "mob"}
    four_color.send({"type": "join", "member": mob})
    four_color.send({"type": "deal", "source": "gm"})  # by hand: no joker hides a name
    deck = iter(f"{rank}{suit}" for rank in "AKQJ98765432" for suit in "HDCS")
    while four_color.view(four_color.gm)["view"]["to_deal"]:
        four_color.send({"type": "deal_card", "card": next(deck), "source": "gm"})
    posse = Table(server, "awareness")
    for n, name in enumerate(LARGE_POSSE):
        sheet = {"id": f"c{n}", "name": name, "perception": 5, "stealth": 5, "coordination": 5}
        posse.send({"type": "join", "sheet": sheet})
    posse.send({"type": "roll_initiative", "source": "gm"})
    for n in range(len(LARGE_POSSE)):
        command = {"type": "enter_initiative", "character": f"c{n}", "die": 1 + n % 6}
        posse.send({**command, "source": "gm"})
    declared = []
    for n in range(len(LARGE_POSSE) - 1):
        who = posse.view(posse.gm)["view"]["declaring"]
        declared.append(next(name for c, name in enumerate(LARGE_POSSE) if f"c{c}" == who))
        if n % 2:
            posse.send({"type": "wait", "character": who, "trigger": "someone moves"})
        else:
            act = {
                "type": "act",
                "character": who,
                "what": "draws and fires twice at the nearest outlaw",
            }
            posse.send(act)
            posse.send({"type": "resolve", "outcome": "a miss"})
    context = browser.new_context(viewport={"width": 800, "height": 600}, reduced_motion="reduce")
    page = context.new_page()
    cases = [
        (four_color, [*LARGE_FOUR_COLOR, *villains, mob["name"]], ".card"),
        (posse, declared[-3:], ".declared"),  # the latest declarations at least
    ]
    for table, names, cards in cases:
        page.goto(table.overlay_url())
        seq_shown(page, table.view()["seq"])
        measured = measure(page, names, cards)
        assert_names_readable(measured, names, 800)
        assert_inside_the_frame(measured, 800, 600)
        covered = page.locator("#overlay").bounding_box()["height"]
        assert covered <= 300, f"the table covers {covered:.0f} px of the frame's 600"
    text = page.inner_text("body")
    assert "declared before" in text  # the earliest gave way, and the stream is told so
    context.close()
