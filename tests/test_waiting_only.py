"""Every wait in the tests goes through ``tests/waiting.py``: no test has a short timeout of its
own or sleeps "long enough", for that passes where it was written and fails on a loaded machine.
This reads the tests' Python and fails on a time written out as a number where a test waits:
a ``timeout=``, a second argument to ``asyncio.wait_for``, a sleep, a Playwright default, a
deadline made by hand from the clock. The few that are the behaviour under test, or a pace
rather than a wait, are listed in ``ALLOWED``, each with its reason. A hypothesis ``deadline``
is a timed assertion too: it is ``None`` in every profile and nowhere set otherwise."""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

from hypothesis import settings

TESTS = Path(__file__).parent
ROOT = TESTS.parent

TIMEOUTS = {"timeout", "total", "seconds"}
"""Keywords that bound a wait (aiohttp's, asyncpg's, subprocess's, urllib's, Playwright's),
given to a call or as a helper's default."""
SLEEPS = {"sleep", "wait_for_timeout"}
DEFAULTS = {"set_default_timeout", "set_default_navigation_timeout", "set_options"}
BOUNDED = {"wait", "join"}
"""A threading.Event's ``wait(seconds)`` and a thread's ``join(seconds)``."""
CLOCKS = {"monotonic", "time", "perf_counter"}

ALLOWED: dict[tuple[str, str], str] = {
    ("tests/waiting.py", "time.sleep(0.02)"): "the pace of polling, set here once for all",
    ("tests/waiting.py", "asyncio.sleep(0.01)"): "the pace of polling, set here once for all",
}
"""Numbers that stay, by file and the call as written: each is the behaviour under test, a pace
of sending rather than a wait, or one owed a change to the shared deadline."""


def literal(node: ast.expr) -> bool:
    """A number written out (``5``, ``0.5``, ``30 * 1000``, ``-1``), not a name for one."""
    if isinstance(node, ast.Constant):
        return isinstance(node.value, int | float) and not isinstance(node.value, bool)
    if isinstance(node, ast.UnaryOp):
        return literal(node.operand)
    if isinstance(node, ast.BinOp):
        return literal(node.left) and literal(node.right)
    return False


def called(node: ast.Call) -> str:
    function = node.func
    if isinstance(function, ast.Attribute):
        return function.attr
    return function.id if isinstance(function, ast.Name) else ""


def timed(node: ast.AST) -> bool:
    """Whether ``node`` waits for a number of seconds written out."""
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
        clock = node.left
        return (
            isinstance(clock, ast.Call) and called(clock) in CLOCKS and literal(node.right)
        )  # a deadline made by hand: time.monotonic() + 30
    if not isinstance(node, ast.Call):
        return False
    name, args = called(node), node.args
    if any(k.arg in TIMEOUTS and literal(k.value) for k in node.keywords):
        return True
    if name in SLEEPS:
        return bool(args) and literal(args[0]) and ast.literal_eval(args[0]) != 0
    if name in ("wait_for", "timeout"):
        return any(literal(arg) for arg in args)
    if name in DEFAULTS or name in BOUNDED:
        return len(args) == 1 and literal(args[0])
    return False


def sources() -> Iterator[tuple[str, ast.Module]]:
    for path in sorted(TESTS.rglob("*.py")):
        if "node_modules" not in path.parts:
            yield path.relative_to(ROOT).as_posix(), ast.parse(path.read_text(), str(path))


def written(node: ast.AST) -> str:
    """The call as written, for ``ALLOWED``; a call spread over lines, by its first line."""
    text = ast.unparse(node)
    return text if isinstance(node, ast.BinOp) or len(text) <= 100 else text.split("(")[0] + "("


def defaults(node: ast.AST) -> Iterator[str]:
    """A helper's bound on its waits, given as a number: ``until(seconds=10)``."""
    if not isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
        return
    given = node.args
    positional = [*given.posonlyargs, *given.args]
    pairs = [
        *zip(positional[len(positional) - len(given.defaults) :], given.defaults, strict=True),
        *zip(given.kwonlyargs, given.kw_defaults, strict=True),
    ]
    for arg, default in pairs:
        if arg.arg in TIMEOUTS and default is not None and literal(default):
            yield f"{node.name}({arg.arg}={ast.unparse(default)})"


def found() -> dict[tuple[str, str], int]:
    """Every wait for a number of seconds written out: (file, as written) → its first line."""
    where: dict[tuple[str, str], int] = {}
    for name, module in sources():
        for node in ast.walk(module):
            line = getattr(node, "lineno", 0)
            if timed(node):
                where.setdefault((name, written(node)), line)
            for text in defaults(node):
                where.setdefault((name, text), line)
    return where


def test_no_test_waits_for_a_time_of_its_own() -> None:
    unexplained = [
        f"{name}:{line}: {text}"
        for (name, text), line in found().items()
        if (name, text) not in ALLOWED
    ]
    assert unexplained == [], (
        "a wait for a time written out: wait for a condition with tests/waiting.py "
        "(until, eventually, within, PATIENCE), or, if the time is what is tested, "
        "list it in ALLOWED with the reason:\n" + "\n".join(unexplained)
    )


def test_everything_allowed_is_still_there() -> None:
    """An allowance whose wait has gone goes too, so the list says what is true."""
    assert sorted(set(ALLOWED) - set(found())) == []


def test_the_scan_finds_what_it_is_for() -> None:
    """The kinds of wait it must find, and the kinds it must leave."""
    waits = [
        "asyncio.wait_for(ws.receive_json(), 5)",
        "ws.receive_json(timeout=1)",
        "process.wait(timeout=10)",
        "subprocess.run(command, timeout=60)",
        "aiohttp.ClientTimeout(total=30)",
        "page.wait_for_function('x', timeout=10_000)",
        "context.set_default_timeout(10 * 1000)",
        "time.sleep(0.1)",
        "page.wait_for_timeout(100)",
        "ready.wait(10)",
        "thread.join(5)",
        "time.monotonic() + 30",
        "asyncio.timeout(2)",
    ]
    fine = [
        "asyncio.wait_for(x, PATIENCE)",
        "process.wait(timeout=PATIENCE)",
        "asyncio.sleep(0)",
        "asyncio.sleep(PACE)",
        "page.wait_for_timeout(PACE * 1000)",
        "serve(body_timeout=0.5)",
        "time.monotonic() + PATIENCE",
        "thread.join()",
        "answers.get('x', 5)",
    ]
    assert [w for w in waits if not timed(ast.parse(w, mode="eval").body)] == []
    helper = ast.parse("def call(url, *, timeout: float = 5, tries=3): ...").body[0]
    assert list(defaults(helper)) == ["call(timeout=5)"]
    assert [f for f in fine if timed(ast.parse(f, mode="eval").body)] == []


def test_hypothesis_has_no_deadline_in_any_profile() -> None:
    """Hypothesis fails an example slower than its ``deadline`` (200 ms unless told): on a
    loaded machine, any of them. Every profile registered sets it to ``None``, the one loaded
    has none, and no test sets one."""
    profiles: list[str] = []
    for name, module in sources():
        for node in ast.walk(module):
            if not isinstance(node, ast.Call):
                continue
            deadline = [k.value for k in node.keywords if k.arg == "deadline"]
            if called(node) == "register_profile":
                profile = node.args[0]
                assert isinstance(profile, ast.Constant), f"{name}:{node.lineno}"
                profiles.append(str(profile.value))
                assert len(deadline) == 1, f"{name}:{node.lineno}: a profile without deadline=None"
            for value in deadline:
                assert isinstance(value, ast.Constant) and value.value is None, (
                    f"{name}:{node.lineno}: deadline={ast.unparse(value)}"
                )
    assert {"dev", "ci", "long"} <= set(profiles)
    assert [p for p in profiles if settings.get_profile(p).deadline is not None] == []
    assert settings().deadline is None
