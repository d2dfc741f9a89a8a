"""The guide's pytest settings; its executable documentation is collected by claimcheck's plugin.

claimcheck (claimcheck/pytest_plugin.py, registered through the `pytest11` entry point and switched
on by the `claims_*` settings in pyproject.toml) collects it alongside tests/:

- every ```pycon example in docs/**/*.md runs as a doctest (claimcheck/doctests.py);
- every snippets/*.py file runs as one test: its asserts are its checks, what it
  prints must match its `#>` lines, and the captured output it declares must
  match the committed snippets/output/ file.
"""

from __future__ import annotations

import gc

import pytest

# The gate's running order and its background jobs (the strict build): guidetools/gate.py.
pytest_plugins = ["guidetools.gate"]

# A session keeps what it collected and what the snippets computed (a few hundred thousand objects), and
# CPython's collector walked all of them again each time the heap grew by a quarter. The oldest generation
# is collected after 100 collections of the middle one, not 10. Process-wide, but kept: on the gate's
# in-process tiers, without this and the freeze below the collector took 4.5 s CPU (its oldest generation
# 16 runs, 3.4 s), with them 1.6 s (3 runs, 0.6 s).
gc.set_threshold(700, 10, 100)


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        "--full-page-screenshots", action="store_true",
        help="the browser suite's screenshots show whole pages, not the first screen (python3 dev.py screenshots)",
    )
    parser.addoption(
        "--axe-rescan", action="store_true",
        help="the browser suite runs every axe-core scan, also those tests/axe.lock.json says passed with the same inputs",
    )


@pytest.hookimpl(wrapper=True)
def pytest_runtest_call(item: pytest.Item):
    # A snippet reads each document's text once per process (guidetools/readings.py): the generated report is
    # uploaded, indexed and read again and again, and each reading of it is pypdf parsing 62 pages.
    if item.path.parent != item.config.rootpath / item.config.getini("claims_snippets"):
        return (yield)
    from guidetools.readings import read_once

    with read_once():
        return (yield)


def pytest_collection_finish(session: pytest.Session) -> None:
    # What collection built (modules, pages, parametrized items) lives to the end: the collector need not walk it again.
    gc.freeze()
