"""Hypothesis profiles: ``ci``, the gate's, tries the same bounded inputs on every run (a fixed seed); ``long``
(``--hypothesis-profile=long``) searches deeper with fresh ones. Neither keeps a database: a failure prints in full."""

from __future__ import annotations

from hypothesis import HealthCheck, settings

_SHARED = dict(
    deadline=None,  # the scaling test measures time; a per-example deadline only flakes on a loaded machine
    database=None,
    print_blob=False,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large, HealthCheck.filter_too_much,
                           HealthCheck.large_base_example],
)

settings.register_profile("ci", derandomize=True, max_examples=25, stateful_step_count=15, **_SHARED)
settings.register_profile("long", derandomize=False, max_examples=3000, stateful_step_count=60, **_SHARED)
settings.load_profile("ci")
