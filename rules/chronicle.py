"""A fight's story, told from its log as one role saw it: the steps, the turns, the numbers.

The log is the whole truth of a table, and every event carries the time it was stored. The
chronicle folds the log event by event (undos included, as the table itself does) and writes
down, for one viewer, each step that viewer was shown: when, in which round, what kind, who, in
the game's words, and whether a later undo took it back. A step the viewer was not shown is
not in their story, nor an undo of one; a participant hidden from them is named only from its
reveal on, since the story reads each event as that role was shown it (``System.censor``,
which reads the stamp each event was given when it happened). The steps are numbered as that
role's table would number them without those hidden from it, so no gap counts a hidden step
(the shared rulings, "No tells"). The turns are the spans in
which the viewer's view showed one participant acting, so a player's story has exactly the
timing they lived through: a hidden participant's turn is, to them, a moment when nobody was
shown acting.

The chronicle is pure: times come in with the events, never from a clock. It holds the table's
state and what it has told, and takes the log in any pieces (a server reads it from its store
a page at a time).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from pydantic import BaseModel, Field

from rules.roles import Viewer
from rules.table import Table, Undone
from rules.telling import Story, named

AnyTable = Table[Any, Any, Any, Any]

CHAINED = frozenset({"seize", "preemption", "preemption_failed", "preemption_declared", "reaction"})
"""The kinds of step that answer the one before: a seize from a seizer, a pre-emption of a
pre-emptor (the counter-sniper) make a chain."""
ASIDE = frozenset({"hide", "reveal", "undo"})
"""Steps that neither start nor break a chain."""


class Step(BaseModel):
    """One step of the fight as one role saw it."""

    seq: int = Field(
        description="Its number among the table's steps as this role has them: its event's "
        "sequence, but that steps wholly about someone hidden from the role are not counted"
    )
    at: float = Field(description="When it was stored, in seconds since the epoch (UTC)")
    took: float | None = Field(
        description="Seconds until the next step this role saw; null for the last"
    )
    round: int = Field(description="The round (the Four Color Hack: the page), 0 before the first")
    kind: str = Field(
        description="join, latecomer, hide, reveal, undo, and each system's own: deal, panel, "
        "editorial_control, trade, seize, declare, act, wait, preemption, reaction, resolve…"
    )
    type: str = Field(description="The event's type")
    who: list[str] = Field(description="The participants it names, by id")
    chain: int = Field(
        default=0,
        description="In a chain of seizes or reactions, its place (1: the first answer)",
    )
    said: str = Field(description="The step in the game's words")
    struck: bool = Field(default=False, description="A later undo took it back")
    undoes: int | None = Field(default=None, description="For an undo: the step it took back")


class Turn(BaseModel):
    """A span in which this role's view showed one participant acting."""

    who: str
    round: int
    seq: int = Field(description="The step it began with")
    at: float
    seconds: float | None = Field(description="How long it lasted; null while it goes on")
    resumes: bool = Field(
        default=False,
        description="It goes on with this participant's turn of the same round, which a seize "
        "or a pre-emption this role was shown cut into: counted with it, as one turn",
    )
    struck: bool = Field(
        default=False,
        description="A later undo took back the step it began with: it was no turn, and is "
        "not counted",
    )


class Tried(BaseModel):
    tried: int = 0
    won: int = 0


class TurnFigures(BaseModel):
    who: str
    turns: int
    seconds: float
    longest: float
    average: float


class Numbers(BaseModel):
    """The numbers afterwards, as this role saw the fight. Steps taken back do not count, but
    in ``undos``; time spent counts wherever it went, but on a span begun by a step taken back
    (a seize, a roll undone), which was no turn."""

    rounds: int = Field(description="The highest round (or page) reached and not taken back")
    round_word: str = Field(description="round, or page")
    turns: list[TurnFigures] = Field(description="Time per turn, per participant (ended turns)")
    seizes: Tried = Field(description="Seizes made, and those that stood")
    preemptions: Tried = Field(description="Pre-emptions tried, and those that went first")
    jokers: int = Field(description="Editorial Control: jokers' Panels")
    trades: int = Field(description="Trades made")
    latecomers: int
    reveals: int
    undos: int


class Told(BaseModel):
    """A table's story as one role saw it."""

    steps: list[Step]
    turns: list[Turn]
    cast: dict[str, str] = Field(description="The name of each participant the story names")
    numbers: Numbers
    gm: str = Field(description="What the game calls its GM")


@dataclass
class Chronicle:
    """The story so far of one table, for one viewer; ``take`` each event of the log in order.

    ``table`` is the table the log is folded on (a server's may let go of old events, and
    raise ``Forgotten`` from ``take`` for an undo reaching behind them, having changed
    nothing: read it back and take the same event again)."""

    table: AnyTable
    viewer: Viewer
    keeping: bool = False
    """Keep each event as the viewer was shown it, with its time, in ``shown`` (an export)."""
    shown: list[dict[str, Any]] = field(default_factory=list)
    steps: list[Step] = field(default_factory=list)
    turns: list[Turn] = field(default_factory=list)
    cast: dict[str, str] = field(default_factory=dict)
    _by_seq: dict[int, int] = field(default_factory=dict)  # a step's number: its index
    _chains: dict[str, int] = field(default_factory=dict)  # who answered: its place in the chain
    _turn: str | None = None
    _cut: dict[str, int] = field(default_factory=dict)  # whose turn was cut into: its round
    last_at: float | None = None
    """When the last event taken was stored."""
    _names: dict[str, str] = field(default_factory=dict)
    steps_seen: int = 0
    """How many steps the viewer's table had so far: the number of the last (``Step.seq``)."""

    @property
    def story(self) -> Story[Any]:
        story: Story[Any] = self.table.system.story
        return story

    def take(self, seq: int, event: Any, at: float) -> None:
        """Fold in the event with sequence ``seq`` stored at ``at``, and tell it if this
        viewer was shown it."""
        before = self.table.state
        self.table.apply(event)  # Forgotten here changes nothing
        state, story = self.table.state, self.story
        self.last_at = at
        numbering = self.table.numbering
        shown = self._shown(before, event)
        mine = numbering.number(self.viewer, seq)
        if mine is not None:  # None: a step the viewer's table never had (rules.numbering)
            self.steps_seen = mine
        number = self.steps_seen
        answering = False  # a seize or a pre-emption the viewer was shown
        if shown is not None:
            if isinstance(event, Undone):
                shown = {**shown, "undoes": numbering.number(self.viewer, event.undoes)}
            if self.keeping:
                self.shown.append({"seq": number, "at": at, "event": shown})
            self._tell(number, shown, at, story.round(state))
            answering = self.steps[-1].kind in CHAINED
        who, round_ = story.turn(state, self.viewer), story.round(state)
        self._follow_turn(number, at, who, round_, answering)

    def _shown(self, before: Any, event: Any) -> dict[str, Any] | None:
        """The event as the viewer was shown it, or None; an undo of a step the viewer never
        saw is none of theirs either. Names are learnt from the state the event happened in."""
        if isinstance(event, Undone):
            seen = self.table.numbering.number(self.viewer, event.undoes) in self._by_seq
            return event.model_dump(mode="json") if seen else None
        for state in (before, self.table.state):
            for participant in self.table.system.roster(state):
                self._names.setdefault(participant.id, participant.name)
        return self.table.censor(event, self.viewer)

    def _tell(self, number: int, shown: dict[str, Any], at: float, round_: int) -> None:
        """Tell the event the viewer numbers ``number``."""
        kind, said, undoes = self._kind_and_words(shown, round_)
        who = [w for w in named(shown) if w in self._names]
        for w in who:
            self.cast[w] = self._names[w]
        chain = 0
        if kind in CHAINED:
            to = shown.get("to", shown.get("seized_from"))
            chain = self._chains.get(to, 0) + 1 if isinstance(to, str) else 1
            if who:
                self._chains[who[0]] = chain
        elif kind not in ASIDE:
            self._chains.clear()
        if self.steps:
            self.steps[-1].took = at - self.steps[-1].at
        if undoes is not None:
            self.steps[self._by_seq[undoes]].struck = True
            for turn in self.turns:
                turn.struck = turn.struck or turn.seq == undoes
        self._by_seq[number] = len(self.steps)
        self.steps.append(
            Step(
                seq=number,
                at=at,
                took=None,
                round=round_,
                kind=kind,
                type=str(shown.get("type")),
                who=who,
                chain=chain,
                said=_capital(said),
                undoes=undoes,
            )
        )

    def _kind_and_words(self, shown: dict[str, Any], round_: int) -> tuple[str, str, int | None]:
        story, name = self.story, self._name
        match shown.get("type"):
            case "undone":
                undoes = int(shown["undoes"])
                taken = self.steps[self._by_seq[undoes]]
                return "undo", f"{_capital(story.gm)} takes back: {taken.said}", undoes
            case "hidden":
                return "hide", f"{_capital(story.gm)} hides {name(shown['participant'])}", None
            case "revealed" if shown.get("acting"):
                return "reveal", f"{name(shown['participant'])} is revealed", None
            case "revealed":
                return "reveal", f"{_capital(story.gm)} reveals {name(shown['participant'])}", None
            case "joined":
                kind = "latecomer" if round_ > 0 else "join"
                return kind, story.told(shown, name), None
        return story.kind(shown), story.told(shown, name), None

    def _name(self, who: str | None) -> str:
        if who is None:
            return "someone"
        return self._names.get(who, self.story.gm if who == "editor" else who)

    def _follow_turn(
        self, seq: int, at: float, who: str | None, round_: int, answering: bool
    ) -> None:
        """A span ends when the view shows someone else acting, or no one. A seize or a
        pre-emption (``answering``) cuts into the turn of the one who held it, and does not end
        it: when the view shows them acting again that round, it is the same turn going on (a
        character seized from has one turn, not two, and all of its time)."""
        if who == self._turn:
            return
        if self.turns and self.turns[-1].seconds is None:
            self.turns[-1].seconds = at - self.turns[-1].at
        if answering and self._turn is not None:
            self._cut[self._turn] = round_
        self._turn = who
        if who is not None:
            self.cast.setdefault(who, self._names.get(who, who))
            resumes = self._cut.pop(who, None) == round_
            self.turns.append(
                Turn(who=who, round=round_, seq=seq, at=at, seconds=None, resumes=resumes)
            )

    def told(self) -> Told:
        """The story so far, and its numbers."""
        standing = [s for s in self.steps if not s.struck and s.kind != "undo"]
        kinds = [s.kind for s in standing]
        return Told(
            steps=self.steps,
            turns=self.turns,
            cast=self.cast,
            numbers=Numbers(
                rounds=max((s.round for s in standing), default=0),
                round_word=self.story.round_word,
                turns=_per_participant(self.turns),
                seizes=Tried(
                    tried=sum(1 for s in self.steps if s.kind == "seize"), won=kinds.count("seize")
                ),
                preemptions=_preemptions(standing),
                jokers=kinds.count("editorial_control"),
                trades=kinds.count("trade"),
                latecomers=kinds.count("latecomer"),
                reveals=kinds.count("reveal"),
                undos=sum(1 for s in self.steps if s.kind == "undo"),
            ),
            gm=self.story.gm,
        )


def _preemptions(standing: list[Step]) -> Tried:
    """A pre-emption is tried once, whether its die came with it or later; it is won when its
    pre-emptor goes first (``preemption``), lost when it goes just after (``preemption_failed``)."""
    won = sum(1 for s in standing if s.kind == "preemption")
    lost = sum(1 for s in standing if s.kind == "preemption_failed")
    return Tried(tried=won + lost, won=won)


def _per_participant(turns: Iterable[Turn]) -> list[TurnFigures]:
    """Each participant's ended turns: a span that resumes a turn cut into adds to it, and one
    a step taken back began is none."""
    spans: dict[str, list[float]] = {}
    for turn in turns:
        if turn.seconds is None or turn.struck:
            continue
        theirs = spans.setdefault(turn.who, [])
        if turn.resumes and theirs:
            theirs[-1] += turn.seconds
        else:
            theirs.append(turn.seconds)
    return [
        TurnFigures(
            who=who,
            turns=len(seconds),
            seconds=sum(seconds),
            longest=max(seconds),
            average=sum(seconds) / len(seconds),
        )
        for who, seconds in spans.items()
    ]


def _capital(words: str) -> str:
    return words[:1].upper() + words[1:]


def chronicle(table: AnyTable, viewer: Viewer, log: Iterable[tuple[int, Any, float]]) -> Chronicle:
    """The story of ``log`` ((seq, event, stored at) in order) for ``viewer``, folded on
    ``table`` (a new table of the log's system and options)."""
    told = Chronicle(table, viewer)
    for seq, event, at in log:
        told.take(seq, event, at)
    return told
