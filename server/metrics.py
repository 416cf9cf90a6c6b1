"""Counters, a gauge and a latency histogram, served as Prometheus text."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field

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

    def render(self) -> str:
        lines = [
            "# HELP seize_commands_total Commands received, by system and outcome.",
            "# TYPE seize_commands_total counter",
            *(
                f'seize_commands_total{{system="{s}",outcome="{o}"}} {n}'
                for (s, o), n in sorted(self.commands.items())
            ),
            "# HELP seize_events_total Events made durable, by system.",
            "# TYPE seize_events_total counter",
            *(f'seize_events_total{{system="{s}"}} {n}' for s, n in sorted(self.events.items())),
            "# HELP seize_subscribers Live WebSocket and SSE subscribers.",
            "# TYPE seize_subscribers gauge",
            f"seize_subscribers {self.subscribers()}",
            "# HELP seize_subscribers_dropped_total Subscribers told to resume: too slow.",
            "# TYPE seize_subscribers_dropped_total counter",
            f"seize_subscribers_dropped_total {self.dropped()}",
            "# HELP seize_bus_up Whether other servers' events reach this one as they should:"
            " 0 while Redis is away and the database is polled instead.",
            "# TYPE seize_bus_up gauge",
            f"seize_bus_up {int(self.bus_up())}",
            "# HELP seize_command_seconds Time from a command's arrival to its answer.",
            "# TYPE seize_command_seconds histogram",
            *(
                f'seize_command_seconds_bucket{{le="{b}"}} {c}'
                for b, c in zip(BUCKETS, self.latency.counts, strict=True)
            ),
            f'seize_command_seconds_bucket{{le="+Inf"}} {self.latency.n}',
            f"seize_command_seconds_sum {self.latency.total}",
            f"seize_command_seconds_count {self.latency.n}",
        ]
        return "\n".join(lines) + "\n"
