"""MegaTraveller RCS's words for an encounter's story: rounds, the Taking Turn Token, seizes
and their chains. Every hook reads an event as one role was shown it (``rules/telling.py``)."""

from __future__ import annotations

import re

from rules.hiding import seen_by
from rules.megatraveller_rcs.commands import NO_TARGET
from rules.megatraveller_rcs.encounter import Encounter
from rules.roles import Viewer
from rules.telling import Name, Shown, Story, possessive

KINDS = {
    "pool_set": "tactics",
    "tactics_spent": "tactics",
    "initiative_rolled": "roll",
    "rolls_awaited": "roll",
    "roll_entered": "roll",
    "declared": "declare",
    "resolved": "resolve",
    "seized": "seize",
    "turn_ended": "turn_end",
    "taken_out": "taken_out",
    "initiative_overridden": "override",
}


def aimed(what: str, target: str) -> str:
    """The words that follow a declaration's own (" at Vance"), or none: where it is aimed at
    no one, or the words already name the target ("shoots Vance", "fires at the Boss!"), as a
    story that said "shoots Vance at Vance" would read as a slip. Any word of the target's name
    longer than two letters counts, whole and in any case; the pages' ``aimed``
    (``shared/forms.js``) is the same rule, so the story says what the console and phones said."""
    if target == NO_TARGET:
        return ""
    named = (
        rf"(?<![A-Za-z0-9_]){re.escape(w)}(?![A-Za-z0-9_])" for w in target.split() if len(w) > 2
    )
    return "" if any(re.search(word, what, re.I) for word in named) else f" at {target}"


def told(shown: Shown, name: Name) -> str:
    match shown["type"]:
        case "joined":
            character = shown["character"]
            roll = shown.get("roll")
            rolled = f", initiative {roll['initiative']}" if roll else ""
            return f"{character['name']} joins the {character['side']} side{rolled}"
        case "pool_set":
            return f"The {shown['side']} tactics pool is set to {shown['points']}"
        case "tactics_spent":
            return _spent(shown, name)
        case "initiative_rolled":
            return f"Round {shown['round']}: initiative is rolled"
        case "rolls_awaited":
            return f"Round {shown['round']}: initiative rolls are awaited"
        case "roll_entered":
            roll = shown["roll"]
            rolled = f"{name(roll['character'])} rolls initiative {roll['initiative']}"
            lapsed = shown.get("lapsed")
            if lapsed:
                return (
                    f"{rolled}, its place passed: the token is its now, and "
                    f"{possessive(name(lapsed['character']))} action ({lapsed['what']}) lapses"
                )
            return rolled
        case "declared":
            d = shown["declaration"]
            at = aimed(d["what"], d["target"])
            return f"{name(d['character'])} declares a {d['action']} action: {d['what']}{at}"
        case "resolved":
            d = shown["declaration"]
            outcome = f": {shown['outcome']}" if shown.get("outcome") else ""
            over = ", and the turn is over" if shown.get("turn_over") else ""
            # What was declared is the player's own words ("fires his rifle"): in brackets.
            at = aimed(d["what"], d["target"])
            done = f"{possessive(name(d['character']))} action ({d['what']}{at}) resolves"
            return f"{done}{outcome}{over}"
        case "seized":
            ruled = " (an interrupt the referee ruled)" if shown.get("ruled_interrupt") else ""
            lapsed = shown.get("lapsed")
            lapses = (
                f": {possessive(name(lapsed['character']))} action ({lapsed['what']}) lapses"
                if lapsed and not ruled
                else ""
            )
            return (
                f"{name(shown['character'])} seizes the initiative "
                f"from {name(shown['seized_from'])}{ruled}{lapses}"
            )
        case "turn_ended":
            return f"{name(shown['character'])} ends the turn"
        case "taken_out":
            return f"{name(shown['character'])} is taken out"
        case "initiative_overridden":
            return (
                f"{possessive(name(shown['character']))} initiative is set to {shown['initiative']}"
            )
    return str(shown["type"]).replace("_", " ")


def turn(encounter: Encounter, viewer: Viewer) -> str | None:
    """Who holds the Taking Turn Token, as the view shows it (``EncounterView.token``)."""
    holder = encounter.holder
    return holder if holder is not None and seen_by(viewer, encounter.hidden)(holder) else None


STORY: Story[Encounter] = Story(
    gm="the referee",
    round_word="round",
    kind=lambda shown: KINDS.get(str(shown["type"]), str(shown["type"])),
    told=told,
    turn=turn,
    round=lambda encounter: encounter.round,
)


def _spent(shown: Shown, name: Name) -> str:
    """Tactics points in the console's words: how many, and which way they moved the card
    ("initiative -1 (sooner)": lower initiatives act first); or the other DM they bought."""
    points = int(shown["points"])
    count = f"{abs(points)} tactics point{'' if abs(points) == 1 else 's'}"
    note = f" ({shown['note']})" if shown.get("note") else ""
    if shown["purpose"] != "initiative":
        return f"{name(shown['character'])} spends {count} on another DM{note}"
    moved = f"-{-points} (sooner)" if points < 0 else f"+{points} (later)"
    return f"{name(shown['character'])} spends {count}: initiative {moved}{note}"
