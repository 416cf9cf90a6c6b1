"""No route tells what is hidden: every route of the route table, and every kind of message a
table's WebSocket takes, asked by every kind of caller about a participant they may see, one
hidden from them and one never at the table. Whoever is not the GM gets the same answer, status
and body, about the hidden one as about the one who does not exist, and no answer to them names
the hidden one (its name never; its id only where they gave it themselves).

The cases are made from the route table as the server documents it (``server.http.openapi``)
and from the messages the application installs (``socket_commands.MESSAGES``): each route and
each message has a recipe here saying how to ask it about a participant, and one the table has
and the recipes lack fails the test until it is given one, so no new route skips the matrix.
One server serves the whole module; every route that changes anything gets tables of its own,
and its GM callers come last, so a GM's hide or reveal changes nothing a player is asked after.
"""

from __future__ import annotations

import json
from collections.abc import AsyncIterator, Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, ClassVar
from urllib.parse import parse_qs, urlsplit

import aiohttp
import pytest

from server.http.openapi import build
from server.http.socket_commands import MESSAGES
from server.run.app import ROUTES, make_app
from server.settings import Settings
from tests.server.process import UNLIMITED, ServerProcess
from tests.waiting import within

pytestmark = pytest.mark.sqlite_only

SYSTEMS = ("four-color", "awareness", "megatraveller-rcs")
SEEN, OTHER, HIDDEN, ABSENT = "kid", "marshal", "lurker", "absent"
"""The owner's player plays the kid, another player the marshal; the lurker joined hidden, and
nobody was ever called absent."""
HIDDEN_NAME = "Lurking Figure"
TARGETS = (SEEN, HIDDEN, ABSENT)
CALLERS = ("owner", "another", "overlay", "revoked", "no token", "gm", "gm device")
"""Who asks, the GM's tokens last: what they change is changed after everyone else asked."""
GMS = frozenset({"gm", "gm device"})
DEVICE = "0123456789abcdef"
"""A GM device's id no device has: the GM's revocation of it revokes nothing."""


def joining(system: str, pid: str, name: str, hidden: bool = False) -> dict[str, Any]:
    """The join of one participant in each system's words."""
    if system == "four-color":
        kind = "villain" if hidden else "hero"
        command: dict[str, Any] = {"type": "join", "member": {"id": pid, "name": name,
                                                              "kind": kind}}  # fmt: skip
    elif system == "awareness":
        sheet = {"id": pid, "name": name, "perception": 5, "stealth": 5, "coordination": 5}
        command = {"type": "join", "sheet": sheet}
    else:
        character = {"id": pid, "name": name, "side": pid, "dex": 1, "movement": 1}
        command = {"type": "join", "character": character}
    return {**command, "hidden": True} if hidden else command


@dataclass
class Setting:
    """A table of one system: the kid and the marshal at it, the lurker hidden, and a token
    for each caller (None: no token)."""

    system: str
    table: str
    tokens: dict[str, str | None]


@dataclass(frozen=True)
class Ask:
    """One request: its path (the query after it) and its JSON body; the route says the
    method."""

    path: str
    body: Any = None
    stream: bool = False
    """A live route (WebSocket, SSE): its catch-up, up to its first view, is its answer."""


@dataclass(frozen=True)
class Recipe:
    """How to ask a route: the requests for a target (one per variant), and whether the target
    is in them at all (a route naming no participant is asked once per caller)."""

    asks: Callable[[Setting, str], list[Ask]]
    names: bool = True


def plain(path: str, body: Any = None, *, stream: bool = False) -> Recipe:
    """A route that names no participant: asked at the table, as written."""

    def asks(setting: Setting, _: str) -> list[Ask]:
        return [Ask(path.format(table_id=setting.table), body, stream)]

    return Recipe(asks, names=False)


def naming(*bodies: Callable[[Setting, str], Any], path: str) -> Recipe:
    """A route whose body (or path, ``{participant}``) names the target."""

    def asks(setting: Setting, target: str) -> list[Ask]:
        where = path.format(table_id=setting.table, participant=target)
        return [Ask(where, body(setting, target)) for body in bodies] or [Ask(where)]

    return Recipe(asks)


def commands(setting: Setting, target: str) -> list[dict[str, Any]]:
    """Commands naming the target: the GM's hide and reveal (a player's is refused), and the
    system's that a player sends, the target as the actor and in the other fields that name
    someone (a partner, whom one reacts to, whose declaration is resolved, a card's holder)."""
    if setting.system == "four-color":
        own: list[dict[str, Any]] = [
            {"type": "offer_trade", "hero": SEEN, "partner": target},
            {"type": "offer_trade", "hero": target, "partner": SEEN},
            {"type": "deal_card", "card": "QH", "to": target},
            {"type": "play_joker", "card": "RJ", "acting": target},
        ]
    elif setting.system == "awareness":
        own = [
            {"type": "enter_initiative", "character": target, "die": 5},
            {"type": "react", "character": SEEN, "to": target, "timing": "after", "what": "x"},
            {"type": "wait", "character": target, "trigger": "the door opens"},
        ]
    else:
        own = [
            {"type": "seize", "character": target},
            {"type": "enter_roll", "character": target, "dice": [3, 4]},
            {"type": "resolve", "from": target},
        ]
    return [{"type": "hide", "participant": target}, {"type": "reveal", "participant": target},
            *own]  # fmt: skip


T = "/api/tables/{table_id}"
RECIPES: dict[tuple[str, str], Recipe] = {
    ("POST", "/api/tables"): Recipe(
        lambda setting, _: [Ask("/api/tables", {"system": setting.system, "name": "m"})],
        names=False,
    ),
    ("GET", T): plain(T),
    ("POST", f"{T}/commands"): Recipe(
        lambda setting, target: [
            Ask(f"/api/tables/{setting.table}/commands", one) for one in commands(setting, target)
        ]
    ),
    ("GET", f"{T}/events"): plain(f"{T}/events?after=0"),
    ("POST", f"{T}/tokens"): naming(
        lambda _, target: {"participants": [target]}, path=f"{T}/tokens"
    ),
    ("GET", "/healthz"): plain("/healthz"),
    ("GET", "/metrics"): plain("/metrics"),
    ("GET", f"{T}/timeline"): plain(f"{T}/timeline"),
    ("GET", f"{T}/replay"): plain(f"{T}/replay?seq=3"),
    ("GET", f"{T}/recap"): plain(f"{T}/recap"),
    ("GET", f"{T}/export"): plain(f"{T}/export"),
    ("GET", f"{T}/ws"): plain(f"{T}/ws?after=0", stream=True),
    ("GET", f"{T}/sse"): plain(f"{T}/sse?after=0", stream=True),
    ("GET", f"{T}/foundry/combat"): plain(f"{T}/foundry/combat"),
    ("GET", f"{T}/roll20/turnorder"): plain(f"{T}/roll20/turnorder"),
    ("PUT", f"{T}/roll20/turnorder"): plain(f"{T}/roll20/turnorder", []),
    ("GET", "/foundry/module.json"): plain("/foundry/module.json"),
    ("GET", "/foundry/module.zip"): plain("/foundry/module.zip"),
    ("GET", "/roll20/seize.user.js"): plain("/roll20/seize.user.js"),
    ("GET", "/owlbear/manifest.json"): plain("/owlbear/manifest.json"),
    ("GET", "/owlbear/popover.html"): plain("/owlbear/popover.html"),
    ("GET", "/owlbear/background.html"): plain("/owlbear/background.html"),
    ("GET", "/owlbear/icon.svg"): plain("/owlbear/icon.svg"),
    ("PUT", f"{T}/devices/{{device}}"): plain(f"{T}/devices/tray", {"ok": True}),
    ("GET", f"{T}/devices"): plain(f"{T}/devices"),
    ("GET", f"{T}/dice"): plain(f"{T}/dice"),
    ("PUT", f"{T}/dice"): naming(
        lambda _, target: {"dice": {"die-m": {"owner": target}}},
        lambda _, target: {"claims": [target]},
        path=f"{T}/dice",
    ),
    ("GET", f"{T}/discord"): plain(f"{T}/discord"),
    ("PUT", f"{T}/discord"): plain(f"{T}/discord", {"webhook": None}),
    ("PUT", f"{T}/discord/players/{{participant}}"): naming(
        lambda _, __: {"discord_id": "123456789012345678", "mention": False},
        path=f"{T}/discord/players/{{participant}}",
    ),
    ("GET", f"{T}/push"): plain(f"{T}/push"),
    ("PUT", f"{T}/push"): plain(f"{T}/push", {}),
    ("DELETE", f"{T}/push"): plain(f"{T}/push"),
    ("POST", f"{T}/handoff/players/{{participant}}"): naming(
        path=f"{T}/handoff/players/{{participant}}"
    ),
    ("POST", f"{T}/handoff/gm"): plain(f"{T}/handoff/gm", {"name": "Matrix"}),
    ("GET", f"{T}/handoff/gm"): plain(f"{T}/handoff/gm"),
    ("DELETE", f"{T}/handoff/gm/{{device}}"): plain(f"{T}/handoff/gm/{DEVICE}"),
    ("POST", f"{T}/handoff/overlay"): plain(f"{T}/handoff/overlay"),
    ("GET", "/api/openapi.json"): plain("/api/openapi.json"),
    ("GET", "/play/sw.js"): plain("/play/sw.js"),
    ("GET", "/api/docs"): plain("/api/docs"),
    ("GET", "/console"): plain("/console"),
    ("GET", "/console/{table_id}"): plain("/console/{table_id}"),
    ("GET", "/overlay/{table_id}"): plain("/overlay/{table_id}"),
    ("GET", "/play/{table_id}"): plain("/play/{table_id}"),
    ("GET", "/play/{table_id}/manifest.webmanifest"): plain(
        "/play/{table_id}/manifest.webmanifest"
    ),
    ("GET", "/tables/{table_id}/timeline"): plain("/tables/{table_id}/timeline"),
    ("GET", "/static/{path}"): plain("/static/shared/client.js"),
}
"""Every route of the table, by method and path as the document writes it."""

MESSAGE_RECIPES: dict[str, Callable[[Setting, str], list[dict[str, Any]]]] = {
    "command": lambda setting, target: [
        {"type": "command", "id": "m1", "command": one} for one in commands(setting, target)
    ],
    "dice": lambda _, target: [
        {"type": "dice", "id": "m1", "owner": target, "sides": 20, "wait": 1}
    ],
}
"""Every kind of message a table's socket takes: the command, and the application's others."""

DOCUMENT = build(ROUTES)
ROUTE_KEYS = [(method.upper(), path) for path, item in DOCUMENT["paths"].items() for method in item]


def message_kinds() -> set[str]:
    """The kinds of message the application's sockets take: a command, and those installed."""
    app = make_app(Settings(db=Path("never-opened.db"), port=0))  # its store opens at startup
    return {"command", *app[MESSAGES]}


@dataclass
class Answer:
    """What a caller was answered: the status, and the body as text."""

    status: int
    body: str
    heard: list[str] = field(default_factory=list)
    """Everything else the caller was sent on the way (a socket's view, say)."""


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    db = tmp_path_factory.mktemp("matrix") / "seize.db"
    with ServerProcess(db, **UNLIMITED) as running:
        yield running


@pytest.fixture
async def session() -> AsyncIterator[aiohttp.ClientSession]:
    async with aiohttp.ClientSession() as opened:
        yield opened


class Tables:
    """Makes the settings the matrix asks at, and keeps those that reads share."""

    shared: ClassVar[dict[str, Setting]] = {}

    def __init__(self, url: str, session: aiohttp.ClientSession) -> None:
        self.url, self.session = url, session

    async def call(self, method: str, path: str, token: str | None, body: Any = None) -> Any:
        headers = {"Authorization": f"Bearer {token}"} if token else {}
        async with self.session.request(
            method, self.url + path, json=body, headers=headers
        ) as answer:
            assert answer.status < 300, (method, path, answer.status, await answer.text())
            return await answer.json() if answer.status != 204 else None

    async def fresh(self, system: str) -> Setting:
        made = await self.call("POST", "/api/tables", None, {"system": system, "name": "m"})
        base, gm = f"/api/tables/{made['id']}", made["gm_token"]
        for pid, name, hidden in ((SEEN, "The Kid", False), (OTHER, "The Marshal", False),
                                  (HIDDEN, HIDDEN_NAME, True)):  # fmt: skip
            await self.call("POST", f"{base}/commands", gm, joining(system, pid, name, hidden))
        tokens: dict[str, str | None] = {"gm": gm, "overlay": made["overlay_token"]}
        for caller, pid in (("owner", SEEN), ("another", OTHER)):
            minted = await self.call("POST", f"{base}/tokens", gm, {"participants": [pid]})
            tokens[caller] = minted["token"]
        for caller, name in (("gm device", "Tablet"), ("revoked", "Lost phone")):
            link = await self.call("POST", f"{base}/handoff/gm", gm, {"name": name})
            tokens[caller] = parse_qs(urlsplit(link["url"]).fragment)["token"][0]
        devices = (await self.call("GET", f"{base}/handoff/gm", gm))["devices"]
        lost = next(one["id"] for one in devices if one["name"] == "Lost phone")
        await self.call("DELETE", f"{base}/handoff/gm/{lost}", gm)
        tokens["no token"] = None
        return Setting(system, made["id"], tokens)

    async def setting(self, system: str, *, changes: bool) -> Setting:
        """A table of its own for a route that may change one; else the one reads share."""
        if changes:
            return await self.fresh(system)
        if system not in self.shared:
            self.shared[system] = await self.fresh(system)
        return self.shared[system]

    async def asked(self, ask: Ask, method: str, token: str | None) -> Answer:
        headers = {"Authorization": f"Bearer {token}"} if token else {}
        url = self.url + ask.path
        caught_up: list[str] = []  # a live route's catch-up: every event, then the view
        if ask.stream and urlsplit(url).path.endswith("/ws"):
            try:
                async with self.session.ws_connect(url, headers=headers) as ws:
                    while '"type": "view"' not in (caught_up or [""])[-1]:
                        caught_up.append(await within(ws.receive_str(), f"no view: {url}"))
                    return Answer(101, caught_up[-1], caught_up[:-1])
            except aiohttp.WSServerHandshakeError as refused:
                return Answer(refused.status, refused.message)
        async with self.session.request(method, url, json=ask.body, headers=headers) as answer:
            if ask.stream and answer.status == 200:
                while "event: view" not in (caught_up or [""])[-1]:
                    frame = await within(answer.content.readuntil(b"\n\n"), f"no view: {url}")
                    caught_up.append(frame.decode())
                return Answer(200, caught_up[-1], caught_up[:-1])
            return Answer(answer.status, (await answer.read()).decode(errors="replace"))

    async def messaged(self, setting: Setting, message: dict[str, Any], token: str | None
                       ) -> Answer:  # fmt: skip
        """The reply to one message on the caller's socket, or the socket's refusal."""
        headers = {"Authorization": f"Bearer {token}"} if token else {}
        url = f"{self.url}/api/tables/{setting.table}/ws"
        try:
            async with self.session.ws_connect(url, headers=headers) as ws:
                await ws.send_json(message)
                heard: list[str] = []
                while True:
                    frame = await within(ws.receive_str(), f"no reply to {message}")
                    if json.loads(frame).get("id") == message["id"]:
                        return Answer(0, frame, heard)
                    heard.append(frame)
        except aiohttp.WSServerHandshakeError as refused:
            return Answer(refused.status, refused.message)


def same_but_the_id(hidden: Answer, absent: Answer) -> bool:
    """Whether the two answers are one, the target's id (where the caller gave it and the
    answer says it back) aside."""
    return (hidden.status, hidden.body.replace(HIDDEN, "·")) == (
        absent.status,
        absent.body.replace(ABSENT, "·"),
    )


def leaks(answer: Answer, target: str) -> bool:
    """Whether an answer to someone not the GM names the hidden participant: by its name ever,
    by its id unless the caller gave it."""
    said = " ".join([answer.body, *answer.heard])
    return HIDDEN_NAME.lower() in said.lower() or (target != HIDDEN and HIDDEN in said)


Results = dict[tuple[str, str, int], Answer]
"""The answers, by caller, target and variant."""


def check(results: Results, what: str, names: bool = True) -> None:
    """Every caller but the GM: no answer naming the hidden one, and where the route names a
    participant, the hidden target answered as the absent one."""
    faults = []
    for (caller, target, variant), answer in results.items():
        if caller in GMS:
            continue
        if leaks(answer, target):
            faults.append(f"{caller} is told of the hidden one ({target}): {answer.body[:300]}")
        if names and target == HIDDEN:
            absent = results[caller, ABSENT, variant]
            if not same_but_the_id(answer, absent):
                faults.append(
                    f"{caller}, variant {variant}: hidden → {answer.status} {answer.body[:300]}"
                    f" | absent → {absent.status} {absent.body[:300]}"
                )
    variants = {variant for (_, _, variant) in results}
    if names and all(
        same_but_the_id(results["gm", HIDDEN, v], results["gm", ABSENT, v]) for v in variants
    ):  # the recipe never reaches the participant: it would prove nothing
        faults.append("the GM, who sees the hidden one, is answered as of one never there")
    assert not faults, f"{what}:\n" + "\n".join(faults)


def test_every_route_and_message_has_a_recipe() -> None:
    """A route or a kind of message added without a recipe fails here (and in its own case
    below), and a recipe left behind by a route taken away too."""
    assert set(ROUTE_KEYS) == set(RECIPES), (
        f"without a recipe: {sorted(set(ROUTE_KEYS) - set(RECIPES))}; "
        f"recipes of no route: {sorted(set(RECIPES) - set(ROUTE_KEYS))}"
    )
    assert message_kinds() == set(MESSAGE_RECIPES)


@pytest.mark.parametrize(("method", "path"), ROUTE_KEYS, ids=[f"{m} {p}" for m, p in ROUTE_KEYS])
@pytest.mark.parametrize("system", SYSTEMS)
async def test_no_route_tells_a_hidden_participant_from_one_never_there(
    server: ServerProcess, session: aiohttp.ClientSession, method: str, path: str, system: str
) -> None:
    recipe = RECIPES.get((method, path))
    assert recipe is not None, f"{method} {path} has no recipe in the matrix: give it one"
    tables = Tables(server.url, session)
    setting = await tables.setting(system, changes=method != "GET")
    results: Results = {}
    for caller in CALLERS:
        for target in TARGETS if recipe.names else (HIDDEN,):
            for variant, ask in enumerate(recipe.asks(setting, target)):
                answer = await tables.asked(ask, method, setting.tokens[caller])
                results[caller, target, variant] = answer
    check(results, f"{method} {path} ({system})", recipe.names)


@pytest.mark.parametrize("kind", sorted(MESSAGE_RECIPES))
@pytest.mark.parametrize("system", SYSTEMS)
async def test_no_message_tells_a_hidden_participant_from_one_never_there(
    server: ServerProcess, session: aiohttp.ClientSession, kind: str, system: str
) -> None:
    tables = Tables(server.url, session)
    setting = await tables.fresh(system)
    results: Results = {}
    for caller in CALLERS:
        for target in TARGETS:
            for variant, message in enumerate(MESSAGE_RECIPES[kind](setting, target)):
                answer = await tables.messaged(setting, message, setting.tokens[caller])
                results[caller, target, variant] = answer
    check(results, f"the {kind} message ({system})")
