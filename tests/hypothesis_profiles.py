"""Hypothesis profiles for the fuzz suite (tests/test_fuzz.py, tests/test_damaged_files.py).

``ci`` is what the gate runs: a fixed seed (derandomize) and bounded example
counts, so every run tries the same inputs and stays within the time budget.
``long`` searches deeper with fresh random inputs on every run:

    .venv/bin/python -m pytest tests/test_fuzz.py --hypothesis-profile=long

Neither keeps an example database: a failing example is printed in full.
"""

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
