"""The awareness one-pager's words for a situation's story: declarations, waits, and
pre-emptions and their chains (the counter-sniper). Every hook reads an event as one role was
shown it (``rules/telling.py``): a wait's trigger the role may not know comes empty, and is not
told."""

from __future__ import annotations

from rules.awareness.situation import Situation
from rules.awareness.view import without_the_unseen
from rules.hiding import seen_by
from rules.roles import Viewer
from rules.telling import Name, Shown, Story, possessive

MODES = {"all_out_offensive": " (all-out offensive)", "all_out_defensive": " (all-out defensive)"}


def kind(shown: Shown) -> str:
    match shown["type"]:
        case "declared":
            return "act" if shown["kind"] == "act" else "wait"
        case "preemption_awaited":
            return "preemption_declared"
        case "reacted" if not shown.get("preempt"):
            return "reaction"
        case "reacted":
            return "preemption" if shown["placed"] == "before" else "preemption_failed"
        case "awareness_set":
            return "awareness"
        case "initiative_rolled" | "rolls_awaited" | "initiative_entered":
            return "roll"
        case "resolved":
            return "resolve"
        case "initiative_overridden":
            return "override"
    return str(shown["type"])


def told(shown: Shown, name: Name) -> str:
    said = _said(shown, name)
    lapsed = [name(c) for c in shown.get("lapsed") or ()]
    if lapsed:
        whose = " and ".join(lapsed)
        return f"{said}; in its place, before {whose}, whose declaration lapses and comes again"
    return said


def _said(shown: Shown, name: Name) -> str:
    mode = MODES.get(str(shown.get("mode")), "")
    match shown["type"]:
        case "joined":
            return f"{shown['sheet']['name']} joins"
        case "awareness_set":
            return f"{name(shown['character'])} is {shown['state']}, position {shown['position']}"
        case "initiative_rolled":
            return f"Round {shown['round']}: initiative is rolled"
        case "rolls_awaited":
            return f"Round {shown['round']}: the initiative dice are awaited"
        case "initiative_entered":
            return f"{possessive(name(shown['result']['character']))} initiative is in"
        case "declared" if shown["kind"] == "act":
            return f"{name(shown['character'])} acts{mode}: {shown['what']}"
        case "declared":
            trigger = f" for {shown['what']}" if shown.get("what") else ""
            return f"{name(shown['character'])} waits{trigger}"
        case "preemption_awaited":
            return f"{name(shown['character'])} tries to pre-empt {name(shown['to'])}{mode}"
        case "reacted" if not shown.get("preempt"):
            return f"{name(shown['character'])} reacts just after {name(shown['to'])}{mode}"
        case "reacted" if shown["placed"] == "before":
            return f"{name(shown['character'])} pre-empts {name(shown['to'])}{mode}"
        case "reacted":
            return (
                f"{name(shown['character'])} fails to pre-empt {name(shown['to'])} "
                f"and goes just after{mode}"
            )
        case "resolved" if not shown.get("performed", True):
            outcome = f": {shown['outcome']}" if shown.get("outcome") else ""
            return f"{possessive(name(shown['character']))} action could not happen{outcome}"
        case "resolved":
            outcome = f": {shown['outcome']}" if shown.get("outcome") else ""
            return f"{possessive(name(shown['character']))} action resolves{outcome}"
        case "initiative_overridden":
            return f"{possessive(name(shown['result']['character']))} initiative is corrected"
    return str(shown["type"]).replace("_", " ")


def turn(situation: Situation, viewer: Viewer) -> str | None:
    """Who is declaring, or whose act the open exchange is, as the view shows them
    (``SituationView.declaring``, ``exchange.act``): in the situation as it would stand
    without those hidden from the viewer."""
    situation = without_the_unseen(situation, seen_by(viewer, situation.hidden))
    if situation.declaring is not None:
        return situation.declaring
    exchange = situation.resolving
    return exchange.act.character if exchange is not None else None


STORY: Story[Situation] = Story(
    gm="the GM",
    round_word="round",
    kind=kind,
    told=told,
    turn=turn,
    round=lambda situation: situation.round,
)
