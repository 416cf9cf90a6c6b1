"""The Four Color Hack's words for a scene's story: Panels, pages, jokers' Editorial Control,
trades. Each hook reads an event as one role was shown it (``rules/telling.py``): a card the
Editor kept secret comes as null, and is told as "a card"."""

from __future__ import annotations

from rules.four_color.scene import Phase, Scene
from rules.hiding import seen_by
from rules.roles import Viewer
from rules.telling import Name, Shown, Story, possessive

SUITS = {"H": "♥", "D": "♦", "C": "♣", "S": "♠"}
JOKERS = {"RJ": "the red joker", "BJ": "the black joker"}


def card(code: object) -> str:
    """A card as a table says it (``K♥``, the red joker); a card cut out is "a card"."""
    if not isinstance(code, str):
        return "a card"
    if code in JOKERS:
        return JOKERS[code]
    return code[:-1] + SUITS.get(code[-1], code[-1])


KINDS = {
    "dealt": "deal",
    "deal_started": "deal",
    "card_dealt": "deal",
    "card_assigned": "assign",
    "trade_offered": "trade_offer",
    "traded": "trade",
    "trade_declined": "trade_declined",
    "card_overridden": "override",
    "scene_ended": "scene_end",
}


def kind(shown: Shown) -> str:
    if shown["type"] == "panel_played":
        return "editorial_control" if shown.get("editorial_control") else "panel"
    return KINDS.get(str(shown["type"]), str(shown["type"]))


def told(shown: Shown, name: Name) -> str:
    match shown["type"]:
        case "joined":
            dealt = f", dealt {card(shown['dealt'])}" if shown.get("dealt") else ""
            return f"{shown['member']['name']} joins the scene{dealt}"
        case "dealt":
            back = len(shown.get("returned") or ())
            jokers = f"; {back} joker{'s' * (back > 1)} went back into the deck" if back else ""
            return f"Page {shown['page']} is dealt{jokers}"
        case "deal_started":
            return f"Page {shown['page']}: the deal by hand begins"
        case "card_dealt":
            return f"{name(shown['to'])} is dealt {card(shown['card'])}"
        case "panel_played" if shown.get("editorial_control"):
            acting = name(shown.get("acting")) if shown.get("acting") else "the Editor"
            return f"Editorial Control: {acting} acts on {card(shown['card'])}"
        case "panel_played" if shown.get("element"):
            return f"The Editor's {card(shown['card'])} complicates {shown['element']}"
        case "panel_played":
            whose = possessive(name(shown.get("acting") or shown["holder"]))
            return f"{whose} Panel ({card(shown['card'])})"
        case "card_assigned":
            target = name(shown["acting"]) if shown.get("acting") else shown.get("element")
            return f"The Editor gives {card(shown['card'])} to {target}"
        case "trade_offered":
            return f"{name(shown['hero'])} offers {name(shown['partner'])} a trade"
        case "traded":
            return (
                f"{name(shown['hero'])} trades {card(shown['gave'])} "
                f"for {possessive(name(shown['got_from']))} {card(shown['got'])}"
            )
        case "trade_declined":
            return f"{name(shown['by'])} declines the trade"
        case "card_overridden":
            return f"{card(shown['card'])} is corrected to {card(shown['to'])}"
        case "scene_ended":
            return "The scene ends"
    return str(shown["type"]).replace("_", " ")


def turn(scene: Scene, viewer: Viewer) -> str | None:
    """The member acting on the current Panel, as the view shows it (``SceneView.current``):
    no one once the scene has ended, so its last turn ends with it."""
    if not scene.panels or scene.phase is Phase.ENDED:
        return None
    acting = scene.panels[-1].acting
    return acting if acting is not None and seen_by(viewer, scene.hidden)(acting) else None


STORY: Story[Scene] = Story(
    gm="the Editor",
    round_word="page",
    kind=kind,
    told=told,
    turn=turn,
    round=lambda scene: scene.page,
)
