"""Whole games: the commands a real table sends over hours, for the model-based tests.

Each ``Game`` knows one system: a table to start from (options and a cast), and at any state
the moves a table might make next, weighted so that play moves on: mostly what the GM's view
is ``awaiting``, with every ``source`` (engine, device, gm), and between them the awkward ones
(undos, overrides, latecomers, take-outs, trades, jokers, pre-emptions with and without their
die, seizes in chains) and commands the rules must refuse. A ``Watch`` knows what each role
may not see. ``WholeGame`` plays a game with them in the rules alone; the server tests send the
same moves over HTTP.
"""

from __future__ import annotations

import json
import random
import re
from abc import ABC, abstractmethod
from typing import Any, ClassVar

from hypothesis import event
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, rule
from pydantic import BaseModel

from rules.awareness import AWARENESS
from rules.awareness import commands as aw
from rules.awareness.situation import AwarenessOptions, Situation
from rules.awareness.situation import Phase as AwPhase
from rules.awareness.view import view as aw_view
from rules.cards import Card
from rules.errors import RuleError
from rules.four_color import FOUR_COLOR
from rules.four_color import commands as fc
from rules.four_color.scene import FULL_DECK, FourColorOptions, Scene
from rules.four_color.scene import Phase as FcPhase
from rules.four_color.view import view as fc_view
from rules.hiding import Hide, Reveal
from rules.megatraveller_rcs import MEGATRAVELLER_RCS
from rules.megatraveller_rcs import commands as rcs
from rules.megatraveller_rcs.encounter import Encounter
from rules.megatraveller_rcs.encounter import Phase as RcsPhase
from rules.megatraveller_rcs.view import view as rcs_view
from rules.randomness import Source
from rules.roles import GM, OVERLAY, Viewer, player
from rules.standing import Window
from rules.table import System, Table, Undo

from .awareness.test_secrets import leaks as awareness_leaks
from .four_color.test_properties import secret_cards, shown_cards

Move = tuple[int, Any, Viewer]
"""A weight, a command (or ``Undo``) and who sends it."""

PHYSICAL = (Source.DEVICE, Source.GM)


def by(rnd: random.Random, *participants: str) -> Viewer:
    """The GM, or the player of these participants: either may send what a player may."""
    return rnd.choice([GM, player(*participants)])


class Watch(ABC):
    """What each role may not see, as the game goes on."""

    @abstractmethod
    def update(self, table: Table[Any, Any, Any, Any]) -> None:
        """Called after every step that changed the table."""

    @abstractmethod
    def leaks(self, shown: Any, viewer: Viewer) -> list[str]:
        """Where ``shown`` (JSON data a non-GM ``viewer`` receives) shows what it may not."""

    def refusal_leaks(self, message: str, command: Any, viewer: Viewer) -> list[str]:
        """Where a refusal's message to ``viewer`` names what it may not see."""
        return []


class Game(ABC):
    """One system's table life: a start, and the moves a table might make at any state."""

    system: ClassVar[System[Any, Any, Any, Any]]
    progress_name: ClassVar[str]

    @abstractmethod
    def options(self, rnd: random.Random) -> BaseModel: ...

    @abstractmethod
    def cast(self, rnd: random.Random) -> list[Any]:
        """The joins the GM sends before play."""

    @abstractmethod
    def table_moves(self, state: Any, rnd: random.Random) -> list[Move]:
        """The moves of this system's play, the undo last."""

    def moves(self, state: Any, rnd: random.Random) -> list[Move]:
        """The system's moves, with the GM hiding and revealing anyone now and then (the shared
        rulings) and some latecomers joining hidden; the undo stays last."""
        moves = [
            (weight, _maybe_hidden(command, rnd), actor)
            for weight, command, actor in self.table_moves(state, rnd)
        ]
        roster = [p.id for p in self.system.roster(state)]
        hidden = sorted(self.system.hidden(state))
        hiding: list[Move] = []
        if roster:
            hiding.append((2, Hide(participant=rnd.choice(roster)), GM))  # refused if hidden
        if hidden:
            hiding.append((3, Reveal(participant=rnd.choice(hidden)), GM))
        return [*moves[:-1], *hiding, moves[-1]]

    @abstractmethod
    def progress(self, state: Any) -> int:
        """How far the game is: its round, or its page."""

    @abstractmethod
    def broken(self, state: Any) -> list[str]:
        """What of the rulings' invariants the state breaks (nothing, for a sound engine)."""

    @abstractmethod
    def answers(self, state: Any) -> list[list[Any]]:
        """For each thing the GM's view says the table awaits, the GM's commands that would
        answer it: a table that awaits what no command can give is stuck."""

    @abstractmethod
    def players(self, state: Any) -> list[Viewer]:
        """Every player bound to one participant, and one bound to several."""

    @abstractmethod
    def secrets(self, options: Any) -> Watch:
        """What the system's own rules keep from each role."""

    def watch(self, options: Any) -> Watch:
        return Hiding(self.secrets(options))

    def viewers(self, state: Any) -> list[Viewer]:
        return [GM, OVERLAY, *self.players(state)]


def _maybe_hidden(command: Any, rnd: random.Random) -> Any:
    """A join, now and then hidden from the start."""
    if isinstance(getattr(command, "hidden", None), bool) and rnd.random() < 0.3:
        return command.model_copy(update={"hidden": True})
    return command


class Hiding(Watch):
    """Besides what the system keeps secret: nothing of a participant hidden from a viewer,
    neither its id nor its name, anywhere in what that viewer is shown (the shared rulings)."""

    def __init__(self, inner: Watch) -> None:
        self.inner = inner
        self.hidden: dict[str, str] = {}  # id: name

    def update(self, table: Table[Any, Any, Any, Any]) -> None:
        self.inner.update(table)
        state, system = table.state, table.system
        hidden = system.hidden(state)
        self.hidden = {p.id: p.name for p in system.roster(state) if p.id in hidden}

    def leaks(self, shown: Any, viewer: Viewer) -> list[str]:
        unseen = {i: n for i, n in self.hidden.items() if not viewer.plays(i)}
        named = _strings(shown)
        found = sorted(i for i, n in unseen.items() if i in named or n in named)
        return self.inner.leaks(shown, viewer) + [f"hidden {i}" for i in found]

    def refusal_leaks(self, message: str, command: Any, viewer: Viewer) -> list[str]:
        sent = json.dumps(command.model_dump(mode="json"))
        found = [
            i
            for i, n in self.hidden.items()
            if not viewer.plays(i) and (i in message or n in message) and i not in sent
        ]
        return self.inner.refusal_leaks(message, command, viewer) + found


def _strings(data: Any) -> set[str]:
    """Every string in JSON data, keys included."""
    if isinstance(data, str):
        return {data}
    if isinstance(data, dict):
        return set(data) | {s for value in data.values() for s in _strings(value)}
    if isinstance(data, list):
        return {s for value in data for s in _strings(value)}
    return set()


def several(ids: list[str]) -> list[Viewer]:
    """A player for each participant, and one bound to the first two."""
    return [player(i) for i in ids] + ([player(*ids[:2])] if len(ids) > 1 else [])


# The Four Color Hack ---------------------------------------------------------------------------


class FourColorWatch(Watch):
    """The Editor's unplayed extra cards and jokers that were never public this page."""

    def __init__(self) -> None:
        self.page = 0
        self.public: set[Card] = set()
        self.secret: set[str] = set()

    def update(self, table: Table[Any, Any, Any, Any]) -> None:
        state = table.state
        if state.page != self.page:
            self.page, self.public = state.page, set()
        self.public |= {h.card for h in state.holdings if not h.is_secret or h.played}
        self.secret = {c.code for c in secret_cards(table, self.public)}

    def leaks(self, shown: Any, viewer: Viewer) -> list[str]:
        return sorted(shown_cards(json.dumps(shown)) & self.secret)

    def refusal_leaks(self, message: str, command: Any, viewer: Viewer) -> list[str]:
        return sorted(code for code in self.secret if re.search(rf"\b{code}\b", message))


class FourColorGame(Game):
    system = FOUR_COLOR
    progress_name = "page"

    def options(self, rnd: random.Random) -> FourColorOptions:
        return FourColorOptions(
            reshuffle_each_deal=rnd.random() < 0.7,
            unplayed_joker=rnd.choice(["play_last", "discard"]),
        )

    def cast(self, rnd: random.Random) -> list[Any]:
        kinds = [fc.Kind.HERO] * rnd.randint(1, 4)
        kinds += [rnd.choice([fc.Kind.VILLAIN, fc.Kind.MOB]) for _ in range(rnd.randint(0, 3))]
        return [self._join(kind, n, Source.ENGINE, 0) for n, kind in enumerate(kinds)]

    @staticmethod
    def _join(kind: fc.Kind, n: int, source: Source, seed: int) -> fc.Join:
        member = fc.Member(id=f"{kind.value}{n}", name=f"{kind.value} {n}", kind=kind)
        return fc.Join(member=member, source=source, seed=seed)

    def table_moves(self, state: Scene, rnd: random.Random) -> list[Move]:
        seed = rnd.getrandbits(64)
        heroes = [m.id for m in state.heroes]
        others = [m.id for m in state.members if not m.is_hero]
        moves: list[Move] = []
        if state.phase in (FcPhase.SETUP, FcPhase.PAGE_DONE):
            moves.append((14, fc.Deal(source=rnd.choice(list(Source)), seed=seed), GM))
            if state.page >= 3:
                moves.append((1, fc.EndScene(), GM))
        if state.to_deal:
            to = rnd.choice([None, rnd.choice(state.to_deal)])
            card = fc.DealCard(card=rnd.choice(state.deck), to=to, source=rnd.choice(PHYSICAL))
            moves.append((16, card, GM))
            wrong = fc.DealCard(card=rnd.choice(FULL_DECK), source=rnd.choice(list(Source)))
            moves.append((1, wrong, GM))
        if state.phase is FcPhase.PANELS:
            moves += self._panels(state, rnd, heroes, others)
        if state.phase is not FcPhase.ENDED and len(state.members) < 10:
            # Latecomers mid-page most: the engine deals them from what is left of the deck.
            kind = rnd.choice([fc.Kind.HERO, *fc.Kind])
            source = rnd.choice([Source.ENGINE, *Source])
            weight = 4 if state.phase is FcPhase.PANELS else 1
            moves.append((weight, self._join(kind, len(state.members), source, seed), GM))
        moves.append((2, Undo(), GM))  # last: hypothesis leans on the first
        return moves

    def _panels(
        self, state: Scene, rnd: random.Random, heroes: list[str], others: list[str]
    ) -> list[Move]:
        moves: list[Move] = [(12, fc.NextPanel(), GM)]
        for holding in state.holdings:
            if not (holding.in_hand and holding.is_secret):
                continue
            acting = rnd.choice([*others, *heroes[:1]]) if others else None
            if acting is not None:
                moves.append((5, fc.AssignCard(card=holding.card, acting=acting), GM))
            if holding.card.is_joker:
                joker = fc.PlayJoker(card=holding.card, acting=rnd.choice([None, acting]))
                moves.append((3, joker, GM))
            else:
                moves.append((4, fc.AssignCard(card=holding.card, element="the storm"), GM))
        if heroes:
            hero = rnd.choice(heroes)
            partner = rnd.choice([*heroes, fc.EDITOR])
            offering = fc.OfferTrade(hero=hero, partner=partner)
            moves.append((3, offering, rnd.choice([player(hero), player(*heroes[:2]), GM])))
        for offer in state.offers:
            if offer.partner == fc.EDITOR:
                cards = [h.card for h in state.holdings if h.in_hand and h.holder != offer.hero]
                accept = fc.AcceptTrade(offer=offer.offer, card=rnd.choice([None, *cards]))
                moves.append((4, accept, GM))
            else:
                accept = fc.AcceptTrade(offer=offer.offer)
                moves.append((4, accept, by(rnd, offer.partner)))
            decline = fc.DeclineTrade(offer=offer.offer)
            moves.append((2, decline, rnd.choice([player(offer.hero), by(rnd, offer.partner)])))
        free = [c for c in FULL_DECK if c not in {h.card for h in state.holdings}]
        if state.holdings and free:
            # A misread joker is the awkward correction: half of them turn a card into one.
            jokers = [c for c in free if c.is_joker]
            to = rnd.choice(jokers if jokers and rnd.random() < 0.5 else free)
            held = rnd.choice(state.holdings).card
            moves.append((2, fc.OverrideCard(card=held, to=to), GM))
        return moves

    def progress(self, state: Scene) -> int:
        return state.page

    def broken(self, state: Scene) -> list[str]:
        held = [h.card for h in state.holdings]
        heroes = {m.id for m in state.heroes}
        return [
            *(f"{c} held twice" for c in set(held) if held.count(c) > 1),
            *(f"{c} both held and in the deck" for c in set(held) & set(state.deck)),
            *(f"hero {h.holder} holds {h.card}" for h in state.holdings
              if h.holder in heroes and h.card.is_joker),
        ]  # fmt: skip

    def answers(self, state: Scene) -> list[list[Any]]:
        answers: list[list[Any]] = []
        for awaited in fc_view(state, GM).awaiting:
            match awaited.what:
                case "deal":
                    answers.append([fc.Deal(seed=0)])
                case "new_page_or_end":
                    answers.append([fc.Deal(seed=0), fc.EndScene()])
                case "card":
                    answers.append([fc.DealCard(card=c, to=awaited.who) for c in state.deck])
                case "assign":
                    assert awaited.card is not None
                    answers.append(
                        [fc.AssignCard(card=awaited.card, acting=m.id) for m in state.members]
                        + [fc.AssignCard(card=awaited.card, element="the storm")]
                    )
                case "next_panel":
                    answers.append([fc.NextPanel()])
        return answers

    def players(self, state: Scene) -> list[Viewer]:
        return several([m.id for m in state.heroes])

    def secrets(self, options: Any) -> Watch:
        return FourColorWatch()


# The awareness one-pager ------------------------------------------------------------------------


class AwarenessWatch(Watch):
    """Nobody's QR, Score, dice or sheet but one's own; no order to come unless revealed."""

    def __init__(self, options: AwarenessOptions) -> None:
        self.reveal = options.reveal_order
        self.ids: set[str] = set()

    def update(self, table: Table[Any, Any, Any, Any]) -> None:
        self.ids = {s.id for s in table.state.sheets}

    def leaks(self, shown: Any, viewer: Viewer) -> list[str]:
        return awareness_leaks(self._shown_by_the_table(shown), viewer.participants)

    def _shown_by_the_table(self, data: Any) -> Any:
        """``data`` without what a view shows by the table's choice: its options, and with
        ``reveal_order`` the order to come (wherever a view sits, alone or in a message)."""
        if isinstance(data, list):
            return [self._shown_by_the_table(item) for item in data]
        if not isinstance(data, dict):
            return data
        revealed = {"options"} if data.get("system") == "awareness" else set()
        if self.reveal and data.get("system") == "awareness":
            revealed.add("upcoming")
        if self.reveal and "sequence" in data and "act" in data:
            revealed |= {"sequence", "next"}
        return {k: self._shown_by_the_table(v) for k, v in data.items() if k not in revealed}

    def refusal_leaks(self, message: str, command: Any, viewer: Viewer) -> list[str]:
        named = {v for v in command.model_dump().values() if isinstance(v, str)}
        return sorted(o for o in self.ids - named - viewer.participants if f"'{o}'" in message)


class AwarenessGame(Game):
    system = AWARENESS
    progress_name = "round"

    def options(self, rnd: random.Random) -> AwarenessOptions:
        return AwarenessOptions(reveal_order=rnd.random() < 0.3)

    def cast(self, rnd: random.Random) -> list[Any]:
        return [aw.Join(sheet=self._sheet(rnd, n)) for n in range(rnd.randint(2, 5))]

    @staticmethod
    def _sheet(rnd: random.Random, n: int) -> aw.Sheet:
        return aw.Sheet(
            id=f"c{n}",
            name=f"C{n}",
            perception=rnd.randint(0, 10),
            stealth=rnd.randint(0, 10),
            coordination=rnd.randint(0, 10),
            state=rnd.choice(list(aw.Awareness)),
            position=rnd.randint(-4, 4),
        )

    def table_moves(self, state: Situation, rnd: random.Random) -> list[Move]:
        seed = rnd.getrandbits(64)
        ids = [s.id for s in state.sheets] or ["nobody"]  # undo may take back the joins
        moves: list[Move] = []
        if state.phase in (AwPhase.SETUP, AwPhase.ROUND_OVER):
            moves.append((14, aw.RollInitiative(source=rnd.choice(list(Source)), seed=seed), GM))
            ladder = rnd.choice([None, *aw.Awareness])
            position = rnd.choice([None, rnd.randint(-5, 5)])
            moved = aw.SetAwareness(character=rnd.choice(ids), state=ladder, position=position)
            moves.append((3, moved, GM))
        if len(ids) < 6:  # between rounds, or a latecomer (ruling 13)
            source = rnd.choice([None, *Source])
            late = aw.Join(sheet=self._sheet(rnd, len(ids)), source=source, seed=seed)
            moves.append((2, late, GM))
        if state.awaiting_rolls:  # the round's dice, or a latecomer's mid-round
            moves += self._rolls(state, rnd, seed, ids)
        if state.phase is AwPhase.DECLARING:
            moves += self._declarations(state, rnd, seed)
            # Most often in an exchange, where it may reorder the outcomes still to come.
            involved = sorted(state.exchange.involved()) if state.exchange else ids
            override = aw.OverrideInitiative(
                character=rnd.choice(involved), qr=rnd.randint(1, 10), score=rnd.randint(-2, 12)
            )
            moves.append((2, override, GM))
        moves.append((2, Undo(), GM))  # last: hypothesis leans on the first
        return moves

    def _rolls(self, state: Situation, rnd: random.Random, seed: int, ids: list[str]) -> list[Move]:
        moves: list[Move] = []
        for who in state.awaiting_rolls:
            die = rnd.randint(1, 10)
            given = aw.EnterInitiative(
                character=who, die=die, source=rnd.choice(PHYSICAL), seed=seed
            )
            drawn = aw.EnterInitiative(character=who, source=Source.ENGINE, seed=seed)
            typed = aw.EnterInitiative(
                character=who, qr=rnd.randint(1, 10), score=rnd.randint(-2, 12), seed=seed
            )
            moves += [(8, given, by(rnd, who)), (3, drawn, by(rnd, who)), (2, typed, GM)]
            other = rnd.choice(ids)
            moves.append((1, given.model_copy(update={"die": rnd.choice([0, 11])}), GM))
            moves.append((1, given, player(other)))
        return moves

    def _declarations(self, state: Situation, rnd: random.Random, seed: int) -> list[Move]:
        moves: list[Move] = []
        # Whose declaration it is, and whose it is for players: someone hidden before them
        # holds none of them up (the shared rulings, "No tells").
        for declaring in dict.fromkeys([state.declaring, state.declaring_among(state.hidden)]):
            if declaring is None:
                continue
            panicked = state.options.panics(state.initiative[declaring].qr)
            mode = self._mode(rnd, panicked)
            act = aw.Act(character=declaring, what="acts", mode=mode)
            wait = aw.Wait(character=declaring, trigger="someone moves")
            moves += [
                (8, act, by(rnd, declaring)),
                (1 if panicked else 9, wait, by(rnd, declaring)),
            ]
        exchange = state.exchange
        if exchange is None:
            return moves
        for reactor in (s.id for s in state.sheets if state.may_react(s.id)):
            panicked = state.options.panics(state.initiative[reactor].qr)
            to = rnd.choice(sorted(exchange.placed()))
            react = aw.React(
                character=reactor,
                to=to,
                timing="before",
                what="reacts",
                mode=self._mode(rnd, panicked),
                seed=seed,
            )
            die = rnd.randint(1, 10)
            moves += [
                (5, react.model_copy(update={"timing": "after"}), by(rnd, reactor)),
                (3, react, by(rnd, reactor)),
                (3, react.model_copy(update={"die": die}), by(rnd, reactor)),
                (4, react.model_copy(update={"source": rnd.choice(PHYSICAL)}), by(rnd, reactor)),
                (1, react.model_copy(update={"die": die, "source": Source.ENGINE}), GM),
            ]
        for pending in exchange.pending:
            read = aw.EnterPreemption(
                character=pending.character,
                die=rnd.randint(1, 10),
                source=rnd.choice(PHYSICAL),
                seed=seed,
            )
            drawn = read.model_copy(update={"die": None, "source": Source.ENGINE})
            moves += [(6, read, by(rnd, pending.character)), (2, drawn, GM)]
        if not exchange.pending:
            moves.append((8, aw.Resolve(outcome="done", performed=rnd.random() < 0.8), GM))
        return moves

    @staticmethod
    def _mode(rnd: random.Random, panicked: bool) -> aw.Mode:
        if panicked and rnd.random() < 0.9:
            return rnd.choice([aw.Mode.ALL_OUT_OFFENSIVE, aw.Mode.ALL_OUT_DEFENSIVE])
        return rnd.choice(list(aw.Mode))

    def progress(self, state: Situation) -> int:
        return state.round

    def broken(self, state: Situation) -> list[str]:
        if state.exchange is None:
            return []
        resolved = [r.character for r in state.exchange.resolved]
        return [f"{c} resolved twice" for c in set(resolved) if resolved.count(c) > 1]

    def answers(self, state: Situation) -> list[list[Any]]:
        answers: list[list[Any]] = []
        dice_awaited = state.exchange is not None and bool(state.exchange.pending)
        for awaited in aw_view(state, GM).awaiting:
            match awaited.what:
                case "roll_initiative":
                    answers.append([aw.RollInitiative(seed=0)])
                case "initiative":
                    answers += [
                        [aw.EnterInitiative(character=c, die=5, seed=0)] for c in awaited.who
                    ]
                case "declare":
                    answers += [
                        [aw.Act(character=c, what="acts", mode=aw.Mode.ALL_OUT_OFFENSIVE)]
                        for c in awaited.who
                    ]
                case "preemption":
                    answers += [[aw.EnterPreemption(character=c, die=5)] for c in awaited.who]
                case "react_or_resolve" if not dice_awaited:
                    # With a pre-emption's die awaited, that die is the answer.
                    answers.append([aw.Resolve()])
        return answers

    def players(self, state: Situation) -> list[Viewer]:
        return several([s.id for s in state.sheets])

    def secrets(self, options: AwarenessOptions) -> Watch:
        return AwarenessWatch(options)


# MegaTraveller RCS -----------------------------------------------------------------------------


class NothingSecret(Watch):
    """Ruling 9 of RCS: the cards lie in plain sight."""

    def update(self, table: Table[Any, Any, Any, Any]) -> None:
        """Nothing to follow: nothing is ever secret."""

    def leaks(self, shown: Any, viewer: Viewer) -> list[str]:
        return []


class RcsGame(Game):
    system = MEGATRAVELLER_RCS
    progress_name = "round"
    sides = ("crew", "corp", "pirates")

    def options(self, rnd: random.Random) -> BaseModel:
        return self.system.options_model()

    def cast(self, rnd: random.Random) -> list[Any]:
        sides = rnd.randint(2, 3)
        return [
            rcs.Join(character=self._character(rnd, n, sides)) for n in range(rnd.randint(2, 5))
        ]

    def _character(self, rnd: random.Random, n: int, sides: int = 3) -> rcs.Character:
        return rcs.Character(
            id=f"c{n}",
            name=f"C{n}",
            side=self.sides[n % sides],
            dex=rnd.randint(4, 9),
            movement=rnd.randint(0, 3),
            tactics=rnd.randint(0, 3),
        )

    def table_moves(self, state: Encounter, rnd: random.Random) -> list[Move]:
        seed = rnd.getrandbits(64)
        active = [c.id for c in state.active()] or ["nobody"]  # undo may take back the joins
        moves: list[Move] = []
        if state.phase in (RcsPhase.SETUP, RcsPhase.ROUND_OVER):
            moves.append((14, rcs.RollInitiative(source=rnd.choice(list(Source)), seed=seed), GM))
        if len(state.characters) < 6:  # between rounds, or a latecomer (ruling 10)
            late = rcs.Join(
                character=self._character(rnd, len(state.characters)),
                source=rnd.choice([None, *Source]),
                seed=seed,
            )
            moves.append((2, late, GM))
        if state.awaiting_rolls:  # the round's rolls, or a latecomer's mid-round
            for who in state.awaiting_rolls:
                dice = (rnd.randint(1, 6), rnd.randint(1, 6))
                given = rcs.EnterRoll(
                    character=who, dice=dice, source=rnd.choice(PHYSICAL), seed=seed
                )
                drawn = rcs.EnterRoll(character=who, source=Source.ENGINE, seed=seed)
                moves += [(8, given, by(rnd, who)), (3, drawn, by(rnd, who))]
                moves.append((1, given.model_copy(update={"dice": (0, 7)}), GM))
                moves.append((1, given, player(rnd.choice(active))))
        if state.phase is RcsPhase.ROUND:
            moves += self._turn(state, rnd)
        who = rnd.choice(active)
        moves.append((1, rcs.SetPool(side=rnd.choice(self.sides), points=rnd.randint(0, 3)), GM))
        override = rcs.OverrideInitiative(character=who, initiative=rnd.randint(4, 22))
        moves.append((1, override, GM))
        if len(active) > 2:
            moves.append((1, rcs.TakeOut(character=who), GM))
        moves.append((2, Undo(), GM))  # last: hypothesis leans on the first
        return moves

    def _turn(self, state: Encounter, rnd: random.Random) -> list[Move]:
        holder = state.holder
        assert holder is not None
        moves: list[Move] = []
        if state.pending is None:
            action = rnd.choice(list(rcs.ActionLength))
            declare = rcs.Declare(character=holder, action=action, what="fires", target="them")
            moves.append((10, declare, by(rnd, holder)))
            if state.cards[holder].used == 1:
                moves.append((3, rcs.EndTurn(character=holder), by(rnd, holder)))
        else:
            moves.append((10, rcs.Resolve(outcome="hit"), GM))
        for seizer in state.seizers():
            moves.append((4, rcs.Seize(character=seizer), by(rnd, seizer)))
        for other in state.line[1:]:
            if state.may_seize(other) and not state.window:
                ruled = rcs.Seize(character=other, ruled_interrupt=True, reason="opportunity")
                moves.append((1, ruled, GM))
        for who in state.line:
            character = state.character(who)
            assert character is not None
            spend = rcs.SpendTactics(
                side=character.side,
                character=who,
                points=rnd.choice([-2, -1, 1, 2]),
                purpose=rnd.choice(["initiative", "other"]),
                note="covering fire",
            )
            moves.append((1, spend, by(rnd, who)))
        return moves

    def progress(self, state: Encounter) -> int:
        return state.round

    def broken(self, state: Encounter) -> list[str]:
        cards = [*state.tapped, *state.line]
        return [
            *(f"{c}'s card lies twice" for c in set(cards) if cards.count(c) > 1),
            *(f"{c} has no index card" for c in cards if c not in state.cards),
            *(f"{c} used {card.used} Short Actions" for c, card in state.cards.items()
              if card.used > 2),
            *(f"the {side} pool is {points}" for side, points in state.pools.items() if points < 0),
        ]  # fmt: skip

    def answers(self, state: Encounter) -> list[list[Any]]:
        answers: list[list[Any]] = []
        for awaited in rcs_view(state, GM).awaiting:
            match awaited.what:
                case "roll_initiative":
                    answers.append([rcs.RollInitiative(seed=0)])
                case "roll":
                    answers += [
                        [rcs.EnterRoll(character=c, dice=(3, 4), seed=0)] for c in awaited.who
                    ]
                case "declare":
                    answers += [
                        [
                            rcs.Declare(character=c, action=a, what="fires", target="them")
                            for a in rcs.ActionLength
                        ]
                        for c in awaited.who
                    ]
                case "resolve" | "seize_or_resolve":
                    answers.append([rcs.Resolve()])
        return answers

    def players(self, state: Encounter) -> list[Viewer]:
        return several([c.id for c in state.characters])

    def secrets(self, options: Any) -> Watch:
        return NothingSecret()


# The machine ------------------------------------------------------------------------------------


def choose(moves: list[Move], data: st.DataObject) -> tuple[Any, Viewer]:
    """One move, drawn by its weight."""
    pool = [(command, actor) for weight, command, actor in moves for _ in range(weight)]
    return data.draw(st.sampled_from(pool), label="move")


def choose_by_chance(moves: list[Move], rnd: random.Random) -> tuple[Any, Viewer]:
    """One move, drawn by its weight from a plain generator: for a game whose course also
    depends on draws made elsewhere (a server's), which hypothesis could not replay."""
    ((_, command, actor),) = rnd.choices(moves, weights=[weight for weight, _, _ in moves])
    return command, actor


class WholeGame(RuleBasedStateMachine):
    """A game of one system played command by command in the rules alone, checking after every
    step what a real table relies on: every role's view and every event as that role sees it
    serialize to JSON; the log, through JSON, replays to the same state; a refusal changes
    nothing; no role is shown what it may not see, in a view, an event or a refusal; the
    rulings' invariants hold; and whatever the GM's view awaits, some command can give."""

    game: ClassVar[Game]
    furthest: ClassVar[list[int]]
    """How far each game got (its round or page), for the test to show that play moves on."""

    def __init__(self) -> None:
        super().__init__()
        self.table: Table[Any, Any, Any, Any] = self.game.system.table()
        self.watch: Watch = self.game.watch(self.table.options)
        self.replica: Table[Any, Any, Any, Any] = self.game.system.table()
        self.reached = 0

    @initialize(data=st.data())
    def sit_down(self, data: st.DataObject) -> None:
        rnd = data.draw(st.randoms(use_true_random=False), label="table")
        # The table under test undoes from the narrowest window, so that undos in a row reach
        # behind it; the replica folds one event at a time with the usual one.
        options = self.game.options(rnd)
        self.table = Table(self.game.system, options, window=Window(every=1, kept=2))
        self.watch = self.game.watch(self.table.options)
        self.replica = self.game.system.table(self.table.options)
        for join in self.game.cast(rnd):
            self.apply(join, GM)

    @rule(data=st.data())
    def play(self, data: st.DataObject) -> None:
        """Mostly a move of the game; now and then several undos in a row, several moves
        together, or a command from an overlay, which may only watch and so is always
        refused."""
        rnd = data.draw(st.randoms(use_true_random=False), label="choices")
        command, actor = choose(self.game.moves(self.table.state, rnd), data)
        aside = data.draw(st.integers(0, 19), label="aside")
        if aside == 17:
            self.together(data, rnd)
        elif aside == 19:
            for _ in range(rnd.randint(2, 4)):
                self.attempt(Undo(), GM)
        elif aside == 18:
            assert not self.attempt(command, OVERLAY), "an overlay's command was taken"
        else:
            self.attempt(command, actor)

    def together(self, data: st.DataObject, rnd: random.Random) -> None:
        """Moves that arrive together, as a server groups them for one commit: each decided
        on the table the one before leaves and recorded, the table rewound before any is
        stored, then each recorded again from its fold once they are. Rewound, the table must
        be as it was, every role's numbers included; recorded again, as if each had been
        played in turn (``after`` holds it to the replica, which folds the events one by one)."""
        table, viewers = self.table, self.game.viewers(self.table.state)

        def standing() -> Any:
            numbers = {v: (table.numbering.count(v), table.numbering.skips(v)) for v in viewers}
            views = {v: table.view(v).model_dump_json() for v in viewers}
            return table.state, list(table.log), table.reach, numbers, views

        before, mark = standing(), table.mark()
        taken = []
        for _ in range(rnd.randint(2, 4)):
            command, actor = choose(self.game.moves(table.state, rnd), data)
            try:
                events = table.decide(command, actor)
            except RuleError:
                continue
            folded = table.folded(events)
            table.record(events, folded)
            taken.append((events, folded))
        table.rewind(mark)
        assert standing() == before, "rewound, the table is not as it was"
        for events, folded in taken:
            table.record(events, folded)
            self.after(events)

    def attempt(self, command: Any, actor: Viewer) -> bool:
        """Send a command; True when the table took it."""
        state, log = self.table.state, list(self.table.log)
        try:
            events = self.table.execute(command, actor)
        except RuleError as refusal:
            assert self.table.state == state and list(self.table.log) == log, "refusal changed"
            if not actor.is_gm:
                assert self.watch.refusal_leaks(refusal.message, command, actor) == []
            return False
        self.after(events)
        return True

    def apply(self, command: Any, actor: Viewer) -> None:
        self.after(self.table.execute(command, actor))

    def after(self, events: list[Any]) -> None:
        """The checks after a step that changed the table. The replica is a table built from
        the log as the store keeps it (through JSON), one event at a time, which is what
        ``system.table(options, log)`` does; the whole log is replayed afresh at the end."""
        system = self.game.system
        for e in events:
            self.replica.apply(system.events.validate_json(system.events.dump_json(e)))
        assert self.replica.state == self.table.state, "the log replays to another state"
        self.watch.update(self.table)
        for viewer in self.game.viewers(self.table.state):
            made = self.table.view(viewer)
            # Made afresh from a copy of the state, which no view kept for another viewer or an
            # earlier table (rules/megatraveller_rcs/view.py) can stand in for.
            assert made == system.view(self.table.state.model_copy(), viewer), viewer
            shown = json.loads(made.model_dump_json())
            censored = json.loads(json.dumps([self.table.censor(e, viewer) for e in events]))
            if not viewer.is_gm:
                assert self.watch.leaks(shown, viewer) == [], viewer
                assert self.watch.leaks(censored, viewer) == [], viewer

        assert self.game.broken(self.table.state) == []
        if self.game.players(self.table.state):  # with no one at the table, nothing is owed
            for answers in self.game.answers(self.table.state):
                refusals = [self.refusal(a) for a in answers]
                assert not all(refusals), f"stuck: {answers} refused: {refusals}"
        self.reached = max(self.reached, self.game.progress(self.table.state))

    def refusal(self, command: Any) -> str:
        """Why the GM's command would be refused now; empty when it would be taken."""
        try:
            self.table.decide(command, GM)
        except RuleError as refused:
            return str(refused)
        return ""

    def teardown(self) -> None:
        replay = self.game.system.table(self.table.options, self.replica.log)
        assert replay.state == self.table.state, "the whole log replays to another state"
        event(f"reached {self.game.progress_name} {min(self.reached, 3)}{'+' * (self.reached > 3)}")
        type(self).furthest.append(self.reached)
