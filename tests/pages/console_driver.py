"""The GM console driven as a GM drives it: by tapping, and typing only what the table's cards
and dice show. The tests and the console bench share it; it counts the taps."""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from playwright.sync_api import ViewportSize, expect

POSSESSIVE = re.compile(r"[^s]s$", re.IGNORECASE)


def possessive(name: str) -> str:
    """As the pages write it: "Kid's", "Sentinels'"."""
    return f"{name}'" if POSSESSIVE.search(name) else f"{name}'s"


# Counts the page's writes to its notice from now on (``report`` replaces its text even when the
# words are the same), so that what a tap put there can be told from what was there before.
WATCH_NOTICE = """() => {
  window.noticeWatch?.disconnect();
  window.noticeWrites = 0;
  window.noticeWatch = new MutationObserver(() => { window.noticeWrites += 1; });
  window.noticeWatch.observe(document.getElementById("notice"),
                             { childList: true, characterData: true, subtree: true });
}"""
NOTICE_WRITTEN = (
    'window.noticeWrites > 0 && /\\S/.test(document.getElementById("notice").textContent)'
)

TABLET: ViewportSize = {"width": 1024, "height": 768}
PHONE: ViewportSize = {"width": 390, "height": 844}


class Console:
    """One table's console in one browser page."""

    def __init__(self, page: Any, base_url: str) -> None:
        self.page = page
        self.base_url = base_url
        self.taps = 0

    def create(self, system: str, name: str = "Friday game") -> str:
        """A new table from the start page; answers its id."""
        self.page.goto(f"{self.base_url}/console")
        self.page.select_option("[data-form=create] select[name=system]", system)
        self.page.fill("[data-form=create] input[name=name]", name)
        self.page.click("[data-action=create]")
        self.page.wait_for_selector("[data-form=join]")
        table_id: str = self.page.url.rsplit("/", 1)[1]
        return table_id

    def add(self, name: str, **fields: str) -> None:
        """Add someone with the compact form; they are on the roster at once, and the form is
        back to its defaults once the answer has come (which a command sent on the socket has
        after its view), ready for the next."""
        form = self.page.locator("[data-form=join]")
        form.locator("input[name=name]").fill(name)
        for field, value in fields.items():
            control = form.locator(f"[name={field}]")
            if control.evaluate("e => e.tagName") == "SELECT":
                control.select_option(value)
            else:
                control.fill(value)
        form.locator("button[type=submit]").click()
        self.row(name).wait_for()
        expect(form.locator("input[name=name]")).to_have_value("")

    def drawn(self, seq: int) -> None:
        """Wait until the console shows the table at ``seq``, its prompt drawn: it learns the
        sequence before it has put its sections on the page, so the sequence alone is not
        enough to read the page by."""
        self.page.wait_for_function(f"Number(document.body.dataset.seq) === {seq} && {DRAWN}")

    @property
    def size(self) -> str:
        """The kind of screen: "phone" below 600 CSS px wide, else "tablet"."""
        return "phone" if self.page.viewport_size["width"] < 600 else "tablet"

    @property
    def seq(self) -> int:
        return int(self.page.evaluate("Number(document.body.dataset.seq ?? 0)"))

    def tap(self, target: str | Any) -> None:
        """Tap a button (a selector or a locator) and wait for the table to move on."""
        before = self.seq
        locator = self.page.locator(target) if isinstance(target, str) else target
        settled(locator)
        locator.click()
        self.taps += 1
        self.page.wait_for_function(f"Number(document.body.dataset.seq) > {before}")

    def key(self, key: str) -> None:
        """Take the one obvious step from the keyboard, once it is on screen to be taken."""
        before = self.seq
        settled(self.page.locator("#next [data-primary]"))
        self.page.keyboard.press(key)
        self.page.wait_for_function(f"Number(document.body.dataset.seq) > {before}")

    def press(self) -> None:
        """Take the one obvious step."""
        self.tap("#next [data-primary]")

    def type(self, selector: str, value: str) -> None:
        self.page.locator(selector).fill(value)

    def refused(self, target: str) -> str:
        """Tap something the engine refuses; answers what the console says, nothing moved."""
        before = self.seq
        # The refusal is read once the page has written the notice after this tap: a refusal
        # still shown from the tap before would otherwise be read as this one's.
        self.page.evaluate(WATCH_NOTICE)
        settled(self.page.locator(target))
        self.page.locator(target).click()
        self.taps += 1
        self.page.wait_for_function(NOTICE_WRITTEN)
        assert self.seq == before
        return str(self.page.inner_text("#notice"))

    @property
    def prompt(self) -> str:
        return str(self.page.inner_text("[data-prompt]"))

    @property
    def primary(self) -> str:
        return str(self.page.inner_text("#next [data-primary]"))

    @property
    def current(self) -> str | None:
        rows = self.page.locator(".row.current .who strong")
        return str(rows.inner_text()) if rows.count() else None

    def row(self, name: str) -> Any:
        return self.page.locator(".row", has=self.page.locator(".who strong", has_text=name))

    def doing(self, name: str) -> str:
        return str(self.row(name).locator("[data-doing]").inner_text())

    @property
    def names(self) -> list[str]:
        return list(self.page.locator(".row .who strong").all_inner_texts())

    def visible_text(self) -> str:
        return str(self.page.inner_text("body"))

    def gm_get(self, path: str = "") -> dict[str, Any]:
        """What the table's API answers the GM, asked from the console's own page with the
        token it keeps: the view (``""``) or the events (``"/events"``)."""
        table_id = self.page.url.split("/console/", 1)[1].split("#", 1)[0]
        answer: dict[str, Any] = self.page.evaluate(
            """async ([id, path]) => {
                 const token = JSON.parse(localStorage.getItem(`seize:${id}`)).gm_token;
                 const answer = await fetch(`/api/tables/${id}${path}`,
                                            { headers: { Authorization: `Bearer ${token}` } });
                 return answer.json();
               }""",
            [table_id, path],
        )
        return answer

    def events(self) -> list[dict[str, Any]]:
        """The table's events, as the GM may see them, oldest first."""
        return [entry["event"] for entry in self.gm_get("/events?after=0")["events"]]

    # MegaTraveller RCS.

    def roll_2d6_at_the_table(self, dice: dict[str, str]) -> None:
        """A round rolled at the table: each character's two dice ("35" is a 3 and a 5) typed
        as the console asks for them, by name."""
        self.tap("[data-action=await-rolls]")
        for name, both in dice.items():
            assert self.prompt == f"Waiting for {possessive(name)} 2D6: type it as rolled"
            self.type("#next input[name=die1]", both[0])
            self.type("#next input[name=die2]", both[1])
            self.press()

    # The awareness one-pager.

    def roll_at_the_table(self, dice: dict[str, int]) -> None:
        """A round rolled at the table: each d10 typed as the console asks for it, by name."""
        self.tap("[data-action=await-rolls]")
        for name, die in dice.items():
            assert self.prompt == f"Waiting for {possessive(name)} d10: type it as rolled"
            self.type("#next input[name=die]", str(die))
            self.press()

    def declare(self, name: str, what: str, *, wait: bool = False) -> None:
        """``name``'s declaration, when it comes round: an act, or a wait for ``what``."""
        assert self.prompt.startswith(f"{name} declares: act or wait"), self.prompt
        self.type("#next input[name=what]", what)
        if wait:
            self.tap("#next [data-action=wait]")
        else:
            self.press()

    def preempt(self, name: str, to: str, die: int) -> None:
        """``name``, waiting, pre-empts ``to`` with a d10 rolled at the table: on the line of
        ``name``'s row that answers ``to``."""
        self.tap(preempting(self.row(name), to, die))

    def resolve_exchange(self, taken_out: Sequence[str] = ()) -> list[str]:
        """Record every action of the exchange in the order the console gives; those in
        ``taken_out`` could not act (the console asks, for each one who was pre-empted).
        Answers who was resolved, in order."""
        order = []
        while (acting := self.current) is not None and self.primary.startswith(
            ("Resolve", "It happens")
        ):
            order.append(acting)
            if acting in taken_out:
                assert self.prompt.startswith(f"{acting} was pre-empted"), self.prompt
                self.tap("#next [data-action=not-performed]")
            else:
                self.press()
        return order


SETTLED = "button => !button.closest('[aria-disabled=true]')"
"""A page expression: ``button`` takes presses (not one still settling, ``steady.js``)."""


def settled(locator: Any) -> None:
    """Wait until the button ``locator`` finds takes presses. A button new on screen is held,
    marked ``aria-disabled``, for 400 ms; Playwright's click waits for that as for any disabled
    button, but tries again only after 20, 100, 100 and then 500 ms, so each tap took the whole
    of that 720 ms or more. Watched every frame here, a tap goes as soon as the button takes it,
    and the click's own check then passes at once."""
    locator.page.wait_for_function(SETTLED, arg=locator.element_handle())


def preempting(where: Any, to: str, die: int) -> Any:
    """On a console's row or a player's page (``where``), the line that answers ``to``, with a
    d10 rolled at the table typed in: answers its button, which then says the die."""
    page = getattr(where, "page", where)  # a locator's page, or the page itself
    found = where.locator(
        ".react",
        has=page.get_by_role("button", name=f"Pre-empt {to}: the engine rolls", exact=True),
    )
    line = where.locator(f".react[data-to={found.get_attribute('data-to')}]")
    line.locator("input[name=die]").fill(str(die))
    button = line.get_by_role("button", name=f"Pre-empt {to} with a {die}", exact=True)
    button.wait_for()
    return button


DRAWN = "Boolean(document.querySelector('#next [data-prompt]')?.textContent)"
"""A page expression: the console has drawn its next step (the sections are on the page)."""

ENGINE_WORDS = re.compile(
    r"\b[a-z]+_[a-z_]+\b|four-color\.\d|megatraveller-rcs\.\d|awareness\.\d|\bnull\b|undefined"
)


def speaks_the_game(page: Any, ids: Sequence[str] = ()) -> None:
    """No snake_case word, rule code, null or participant id in anything on screen."""
    text = str(page.inner_text("body"))
    found = ENGINE_WORDS.findall(text)
    assert not found, found
    for participant in ids:
        assert not re.search(rf"(?<![\w-]){re.escape(participant)}(?![\w-])", text), participant


def no_sideways_scroll(page: Any) -> None:
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= page.viewport_size["width"], width


def small_targets(page: Any) -> list[str]:
    """Buttons, summaries and inputs smaller than 44 CSS px either way. A checkbox is measured
    by the label around it, which takes the tap."""
    found: list[str] = page.evaluate(
        """() => [...document.querySelectorAll('button, summary, input, select')]
          .filter(e => e.offsetParent !== null)
          .filter(e => { const target = e.type === "checkbox" ? e.closest("label") ?? e : e;
                         const r = target.getBoundingClientRect();
                         return r.width < 44 || r.height < 44; })
          .map(e => e.outerHTML.slice(0, 80))"""
    )
    return found
