"""Hypothesis profiles, and how many workers the suite runs on.

``ci`` (``CI=true``) runs fewer examples so the suite stays fast on two cores, and the same ones
each run, so that whether a change lands never hangs on a draw; ``dev`` is the default and draws
afresh each run, and ``long`` (``HYPOTHESIS_PROFILE=long``) explores for minutes: many more
examples, and whole games with many more steps. What ``dev`` and ``long`` find becomes a
regression test.
"""

import os

import pytest
from hypothesis import HealthCheck, settings

settings.register_profile("dev", max_examples=100, deadline=None, stateful_step_count=150)
settings.register_profile(
    "ci",
    max_examples=40,
    deadline=None,
    stateful_step_count=150,
    derandomize=True,
    suppress_health_check=[HealthCheck.too_slow],
)
settings.register_profile(
    "long",
    max_examples=1000,
    deadline=None,
    stateful_step_count=300,
    suppress_health_check=[HealthCheck.too_slow],
)
settings.load_profile("ci" if os.environ.get("CI") else os.environ.get("HYPOTHESIS_PROFILE", "dev"))


def pytest_xdist_auto_num_workers(config: pytest.Config) -> int:
    """One worker more than the machine has cores (``--numprocesses=auto``): a third of the
    suite's time is spent waiting (on a browser, a server starting, a device's pace), and a
    worker per core left a two-core machine idle half of it. Measured on two cores, quiet:
    12 min 4 s with two workers, 10 min 39 s with three."""
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    return (cores or 1) + 1
