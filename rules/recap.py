"""A fight's story as a GM writes a recap: Markdown, round by round, in the game's words.

Made from a ``Told`` (``rules/chronicle.py``), so a recap for a player or an overlay holds what
their story holds and nothing else. Times are written in UTC, as stored: the recap is pure.
"""

from __future__ import annotations

from datetime import UTC, datetime

from rules.chronicle import Told


def lasted(seconds: float) -> str:
    """A span as a table says it: ``45 s``, ``2 min 5 s``, ``1 h 3 min``."""
    whole = round(seconds)
    hours, rest = divmod(whole, 3600)
    minutes, secs = divmod(rest, 60)
    if hours:
        return f"{hours} h {minutes} min"
    if minutes:
        return f"{minutes} min {secs} s" if secs else f"{minutes} min"
    return f"{secs} s"


def clock(at: float) -> str:
    return datetime.fromtimestamp(at, UTC).strftime("%H:%M:%S")


def recap(told: Told, title: str, seen_as: str) -> str:
    """The story as Markdown: a heading, each round's steps (those taken back struck through),
    and the numbers afterwards. ``seen_as`` says whose story it is ("the GM", "the stream")."""
    numbers = told.numbers
    word = numbers.round_word
    lines = [f"# {title}", ""]
    if told.steps:
        day = datetime.fromtimestamp(told.steps[0].at, UTC).strftime("%Y-%m-%d")
        lines += [f"As {seen_as} saw it, {day} (times in UTC).", ""]
    current = None
    for step in told.steps:
        if step.round != current:
            current = step.round
            lines += ["", f"## {word.capitalize()} {step.round}" if step.round else "## Setting up"]
            lines.append("")
        said = f"~~{step.said}~~ (taken back)" if step.struck else step.said
        lines.append(f"- {clock(step.at)} {said}")
    lines += ["", "## The numbers", ""]
    lines.append(f"- {word.capitalize()}s: {numbers.rounds}")
    if numbers.seizes.tried:
        lines.append(f"- Seizes: {numbers.seizes.won} of {numbers.seizes.tried} stood")
    if numbers.preemptions.tried:
        lines.append(
            f"- Pre-emptions: {numbers.preemptions.won} of {numbers.preemptions.tried} went first"
        )
    for count, what in (
        (numbers.jokers, "Editorial Control"),
        (numbers.trades, "Trades"),
        (numbers.latecomers, "Latecomers"),
        (numbers.reveals, "Reveals"),
        (numbers.undos, "Steps taken back"),
    ):
        if count:
            lines.append(f"- {what}: {count}")
    if numbers.turns:
        lines += [
            "",
            "| who | turns | in all | longest | on average |",
            "| --- | --- | --- | --- | --- |",
        ]
        for figures in numbers.turns:
            name = told.cast.get(figures.who, figures.who).replace("|", "\\|")
            lines.append(
                f"| {name} | {figures.turns} "
                f"| {lasted(figures.seconds)} | {lasted(figures.longest)} "
                f"| {lasted(figures.average)} |"
            )
    return "\n".join(lines).replace("\n\n\n", "\n\n") + "\n"
