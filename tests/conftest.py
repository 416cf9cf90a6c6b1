"""Hypothesis profiles.

``ci`` (``CI=true``) runs fewer examples so the suite stays fast on two cores, ``dev`` is the
default, and ``long`` (``HYPOTHESIS_PROFILE=long``) explores for minutes: many more examples,
and whole games with many more steps.
"""

import os

from hypothesis import HealthCheck, settings

settings.register_profile("dev", max_examples=100, deadline=None, stateful_step_count=150)
settings.register_profile(
    "ci",
    max_examples=40,
    deadline=None,
    stateful_step_count=150,
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
