"""The GM console and the player page in Chromium against a real server."""

from __future__ import annotations

from typing import Any

from tests.server.process import ServerProcess, call

from .conftest import Table, shoot


def at_seq(page: Any, seq: int) -> None:
    page.wait_for_function(f"Number(document.body.dataset.seq) >= {seq}")


def submit(page: Any, form: str, /, **fields: str) -> None:
    """Fill a console form's fields (inputs or selects) and send it."""
    for field, value in fields.items():
        selector = f"[data-form={form}] [name={field}]"
        if page.locator(selector).evaluate("e => e.tagName") == "SELECT":
            page.select_option(selector, value)
        else:
            page.fill(selector, value)
    page.click(f"[data-form={form}] button[type=submit]")


def dive(page: Any) -> None:
    """Jena declares she dives out of the window, through the console."""
    submit(
        page,
        "declare",
        character="jena",
        action="long",
        what="dives out the window",
        target="the window",
    )
    page.wait_for_selector("[data-declared]")


def create(page: Any, server: ServerProcess, system: str) -> str:
    page.goto(f"{server.url}/console")
    page.select_option("[data-form=create] select[name=system]", system)
    page.fill("[data-form=create] input[name=name]", "Friday game")
    page.click("[data-form=create] button")
    page.wait_for_selector("[data-form=join]")
    table_id: str = page.url.rsplit("/", 1)[1]
    assert "#" not in page.url  # the token left the address bar
    return table_id


def gm_view(server: ServerProcess, page: Any, table_id: str) -> dict[str, Any]:
    token = page.evaluate(f"JSON.parse(localStorage.getItem('seize:{table_id}')).gm_token")
    _, answer = call(f"{server.url}/api/tables/{table_id}", token=token)
    return dict(answer)


def test_the_console_runs_a_four_color_page_end_to_end(page: Any, server: ServerProcess) -> None:
    table_id = create(page, server, "four-color")
    for seq, (member, name, kind) in enumerate(
        (("h1", "Nightingale", "hero"), ("v1", "Doom", "villain"), ("m1", "Thugs", "mob")), 1
    ):
        submit(page, "join", id=member, name=name, kind=kind)
        at_seq(page, seq)
    page.click("[data-action=deal-by-hand]")
    for card in ("9H", "RJ", "5C"):
        submit(page, "deal_card", card=card)
    at_seq(page, 7)
    assert page.locator("[data-order] tr").evaluate_all(
        "rows => rows.map(r => r.dataset.card)"
    ) == ["9H", "5C"]
    page.click("[data-action=next]")
    page.wait_for_selector("[data-current='9H']")
    page.click("[data-action=joker-RJ]")
    page.wait_for_selector("[data-current=RJ]")
    assert "Editorial Control" in page.inner_text("[data-current=RJ]")
    page.click("[data-action=next]")
    page.wait_for_selector("[data-current='5C']")
    view = gm_view(server, page, table_id)["view"]
    assert [p["card"] for p in view["panels"]] == ["9H", "RJ", "5C"]
    assert view["phase"] == "page_done"
    shoot(page, "console-four-color")


def test_the_console_runs_an_rcs_round_with_a_seize(page: Any, server: ServerProcess) -> None:
    table_id = create(page, server, "megatraveller-rcs")
    for seq, (cid, name, side) in enumerate(
        (("jena", "Jena", "crew"), ("guard", "Guard", "corp")), 1
    ):
        submit(page, "join", id=cid, name=name, side=side, dex="0", movement="0", tactics="0")
        at_seq(page, seq)
    page.click("[data-action=await_rolls]")
    at_seq(page, 3)
    submit(page, "enter_roll", character="jena", a="1", b="2")
    at_seq(page, 4)
    submit(page, "enter_roll", character="guard", a="5", b="6")
    at_seq(page, 5)
    dive(page)
    page.click("[data-action=seize-guard]")
    page.wait_for_function(
        "document.querySelector('[data-line] tr.current')?.dataset.id === 'guard'"
    )
    submit(page, "declare", character="guard", action="long", what="fires", target="jena")
    page.click("[data-action=resolve]")
    page.wait_for_function(
        "document.querySelector('[data-line] tr.current')?.dataset.id === 'jena'"
    )
    view = gm_view(server, page, table_id)["view"]
    assert [c["character"] for c in view["line"]] == ["guard", "jena"]
    assert view["line"][0]["tapped"] and view["token"] == "jena"
    shoot(page, "console-rcs")
    dive(page)
    page.click("[data-action=resolve]")
    page.wait_for_selector("text=roll initiative")
    assert gm_view(server, page, table_id)["view"]["phase"] == "round_over"
    submit(page, "override", character="guard", initiative="3")
    page.wait_for_selector(".error:has-text('no initiative this round')")  # between rounds


def test_the_console_runs_an_awareness_round(page: Any, server: ServerProcess) -> None:
    table_id = create(page, server, "awareness")
    for seq, (cid, name) in enumerate((("kid", "Kid"), ("marshal", "Marshal")), 1):
        submit(
            page,
            "join",
            id=cid,
            name=name,
            perception="5",
            stealth="5",
            coordination="6",
            state="ready",
        )
        at_seq(page, seq)
    page.click("[data-action=await_rolls]")
    at_seq(page, 3)
    submit(page, "enter_initiative", character="kid", die="3")  # ready: QR 1
    at_seq(page, 4)
    submit(page, "enter_initiative", character="marshal", die="5")  # QR 3
    at_seq(page, 5)
    assert gm_view(server, page, table_id)["view"]["upcoming"] == ["kid", "marshal"]
    submit(page, "wait", character="kid", trigger="the Marshal draws")
    at_seq(page, 6)
    submit(page, "act", character="marshal", what="draws", mode="normal")
    at_seq(page, 7)
    submit(
        page,
        "react",
        character="kid",
        to="marshal",
        timing="before",
        what="fires",
        mode="normal",
        die="device",
    )
    at_seq(page, 8)
    page.wait_for_selector("[data-pending=kid]")  # the exchange waits for the kid's d10
    submit(page, "enter_preemption", character="kid", die="4")  # target 6 + (3 - 1) = 8
    at_seq(page, 9)
    assert "Resolves in order: Kid → Marshal" in page.inner_text("[data-section='The exchange']")
    shoot(page, "console-awareness")
    page.click("[data-action=resolve]")
    at_seq(page, 10)
    page.click("[data-action=resolve]")
    at_seq(page, 11)
    assert gm_view(server, page, table_id)["view"]["phase"] == "round_over"


def test_a_player_page_offers_seize_only_when_the_engine_allows_it(
    page: Any, server: ServerProcess
) -> None:
    table = Table(server, "megatraveller-rcs")
    for cid in ("jena", "guard"):
        table.send(
            {
                "type": "join",
                "character": {"id": cid, "name": cid.title(), "side": cid, "dex": 0, "movement": 0},
            }
        )
    _, minted = call(f"{table.url}/tokens", "POST", {"participants": ["guard"]}, table.gm)
    table.send({"type": "roll_initiative", "source": "gm"})
    table.send({"type": "enter_roll", "character": "jena", "dice": [1, 1], "source": "gm"})
    seq = table.send({"type": "enter_roll", "character": "guard", "dice": [6, 6], "source": "gm"})[
        "seq"
    ]
    page.goto(f"{server.url}/play/{table.id}?token={minted['token']}")
    seize = page.locator("[data-action=seize-guard]")
    steps = [
        (
            {
                "type": "declare",
                "character": "jena",
                "action": "short",
                "what": "aims",
                "target": "guard",
            },
            True,
        ),  # a declaration opens a window
        ({"type": "resolve"}, False),  # between two Short Actions: no window
        (
            {
                "type": "declare",
                "character": "jena",
                "action": "short",
                "what": "fires",
                "target": "guard",
            },
            True,
        ),
    ]
    at_seq(page, seq)
    assert seize.count() == 1  # the token just moved onto the lower card
    for command, offered in steps:
        seq = table.send(command)["seq"]
        at_seq(page, seq)
        allowed = "guard" in table.view(table.gm)["view"]["may_seize"]
        assert allowed == offered and seize.count() == int(offered)
    shoot(page, "player-rcs")
    seize.click()
    page.wait_for_function("!document.querySelector('[data-action=seize-guard]')")
    assert table.view(table.gm)["view"]["token"] == "guard"


def test_a_player_page_shows_only_the_players_own_secrets(page: Any, server: ServerProcess) -> None:
    table = Table(server, "awareness")
    for cid in ("kid", "marshal"):
        table.send(
            {
                "type": "join",
                "sheet": {
                    "id": cid,
                    "name": cid.title(),
                    "perception": 5,
                    "stealth": 5,
                    "coordination": 5,
                },
            }
        )
    _, minted = call(f"{table.url}/tokens", "POST", {"participants": ["kid"]}, table.gm)
    table.send({"type": "roll_initiative", "source": "gm"})
    table.send({"type": "enter_initiative", "character": "kid", "die": 3, "source": "gm"})
    seq = table.send(
        {"type": "enter_initiative", "character": "marshal", "die": 7, "source": "gm"}
    )["seq"]
    page.goto(f"{server.url}/play/{table.id}?token={minted['token']}")
    at_seq(page, seq)
    assert page.locator("[data-initiative]").inner_text() == "QR 3 · Score 5 · d10 3"
    assert "QR 7" not in page.content()
    page.fill("input[name=what]", "the Marshal draws")
    page.click("[data-action=wait]")
    page.wait_for_selector("text=Waiting for: the Marshal draws")
    shoot(page, "player-awareness")
    table.send(
        {"type": "act", "character": "marshal", "what": "draws", "mode": "all_out_offensive"}
    )  # QR 7: the Marshal panicked
    page.click("[data-action=preempt_tray]")
    page.wait_for_selector("[data-pending=kid]")  # the page asks for the d10 from the tray
    pending = table.view(table.gm)["view"]["exchange"]["pending"]
    assert [(p["character"], p["source"]) for p in pending] == [("kid", "device")]
