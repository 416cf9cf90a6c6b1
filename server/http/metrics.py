"""Counters, a gauge and a latency histogram, served as Prometheus text."""

from __future__ import annotations

import contextlib
import gc
import json
import os
from collections import Counter
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

Figures = dict[str, Any]
"""One process's metrics as JSON: what ``render`` takes, and what a worker shares."""
BUCKETS = (0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0)


@dataclass
class Histogram:
    counts: list[int] = field(default_factory=lambda: [0] * len(BUCKETS))
    total: float = 0.0
    n: int = 0

    def observe(self, seconds: float) -> None:
        for i, bound in enumerate(BUCKETS):
            if seconds <= bound:
                self.counts[i] += 1
        self.total += seconds
        self.n += 1


@dataclass
class Metrics:
    commands: Counter[tuple[str, str]] = field(default_factory=Counter)  # (system, outcome)
    events: Counter[str] = field(default_factory=Counter)  # system
    latency: Histogram = field(default_factory=Histogram)
    subscribers: Callable[[], int] = lambda: 0
    dropped: Callable[[], int] = lambda: 0
    bus_up: Callable[[], bool] = lambda: True

    def command(self, system: str, outcome: str, seconds: float, events: int = 0) -> None:
        self.commands[(system, outcome)] += 1
        self.events[system] += events
        self.latency.observe(seconds)

    def figures(self) -> Figures:
        """What this process counted, as JSON may carry it to another worker."""
        return {
            "commands": [[s, o, n] for (s, o), n in sorted(self.commands.items())],
            "events": dict(sorted(self.events.items())),
            "subscribers": self.subscribers(),
            "dropped": self.dropped(),
            "bus_up": int(self.bus_up()),
            "latency": [self.latency.counts, self.latency.total, self.latency.n],
            "collections": [generation["collections"] for generation in gc.get_stats()],
        }


def render(by_worker: Mapping[str, Figures]) -> str:
    """Prometheus text for the figures of each worker, labelled ``worker`` ("": a server of one
    process, unlabelled). Each metric is named once, with every worker's samples under it."""

    def samples(
        name: str, pick: Callable[[Figures], list[tuple[dict[str, str], Any]]]
    ) -> list[str]:
        return [
            f"{name}{_labels(({'worker': w} if w else {}) | labels)} {value}"
            for w, figures in by_worker.items()
            for labels, value in pick(figures)
        ]

    def latency(figures: Figures) -> list[tuple[dict[str, str], Any]]:
        counts, _, n = figures["latency"]
        bounds = [*map(str, BUCKETS), "+Inf"]
        return [({"le": b}, c) for b, c in zip(bounds, [*counts, n], strict=True)]

    lines = [
        "# HELP seize_commands_total Commands received, by system and outcome.",
        "# TYPE seize_commands_total counter",
        *samples(
            "seize_commands_total",
            lambda f: [({"system": s, "outcome": o}, n) for s, o, n in f["commands"]],
        ),
        "# HELP seize_events_total Events made durable, by system.",
        "# TYPE seize_events_total counter",
        *samples(
            "seize_events_total", lambda f: [({"system": s}, n) for s, n in f["events"].items()]
        ),
        "# HELP seize_subscribers Live WebSocket and SSE subscribers.",
        "# TYPE seize_subscribers gauge",
        *samples("seize_subscribers", lambda f: [({}, f["subscribers"])]),
        "# HELP seize_subscribers_dropped_total Subscribers told to resume: too slow.",
        "# TYPE seize_subscribers_dropped_total counter",
        *samples("seize_subscribers_dropped_total", lambda f: [({}, f["dropped"])]),
        "# HELP seize_bus_up Whether other servers' events reach this one as they should:"
        " 0 while Redis is away and the database is polled instead.",
        "# TYPE seize_bus_up gauge",
        *samples("seize_bus_up", lambda f: [({}, f["bus_up"])]),
        "# HELP seize_collections_total Passes of the cycle collector, by generation: a full"
        " pass (2) holds up every table of the process (server/run/collector.py).",
        "# TYPE seize_collections_total counter",
        *samples(
            "seize_collections_total",
            lambda f: [({"generation": str(g)}, n) for g, n in enumerate(f.get("collections", []))],
        ),
        "# HELP seize_command_seconds Time from a command's arrival to its answer.",
        "# TYPE seize_command_seconds histogram",
        *samples("seize_command_seconds_bucket", latency),
        *samples("seize_command_seconds_sum", lambda f: [({}, f["latency"][1])]),
        *samples("seize_command_seconds_count", lambda f: [({}, f["latency"][2])]),
    ]
    return "\n".join(lines) + "\n"


def _labels(labels: dict[str, str]) -> str:
    return "{" + ",".join(f'{k}="{v}"' for k, v in labels.items()) + "}" if labels else ""


INDEX = "SEIZE_WORKER_INDEX"
"""Set in a worker's environment: which worker it is (0 is the first)."""
FIGURES = "SEIZE_WORKER_FIGURES"
"""Set in a worker's environment: the folder where each worker leaves its metrics."""


def worker_index() -> int | None:
    """This process's worker number, or None when it is not one of several workers."""
    index = os.environ.get(INDEX)
    return int(index) if index is not None else None


def every_workers_figures(own: Figures) -> dict[str, Figures]:
    """Each worker's metrics by its index ("" for a server of one process): this worker's
    as they are, the others' as they last left them."""
    folder, index = os.environ.get(FIGURES), worker_index()
    if folder is None or index is None:
        return {"": own}
    found: dict[str, Figures] = {}
    for left in sorted(Path(folder).glob("*.json")):
        with contextlib.suppress(OSError, ValueError):  # being replaced: it will be back
            found[left.stem] = json.loads(left.read_text())
    found[str(index)] = own
    return dict(sorted(found.items(), key=lambda item: int(item[0])))
