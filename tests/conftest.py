"""Shared fixtures: the strictly built site, built once per test run (for both xdist workers), in the background.

The plain gate starts the build before collection, any other run when collection ends (guidetools/gate.py), so it
runs while the cheap checks do; the first test that needs the site waits for it.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

import dev

from guidetools.gate import JobResult, background_fixture, require_success


def _strict_build(workdir: Path) -> list[str]:
    # `python3 dev.py build OUT`'s own command (what the Pages workflow deploys), run by this interpreter:
    # from the repository root (snippet paths are relative to it), into the job's own folder,
    # so two test runs never clean each other's site.
    return [sys.executable, *dev.build_command(workdir / "site")[1:]]


# Its JobResult keeps the build log out of its repr: a failed assert on the build shows the log once.
site_build = background_fixture("site_build", _strict_build, env=dev.BUILD_ENV)


@pytest.fixture(scope="session")
def built_site(site_build: JobResult) -> Path:
    """The built site's folder. When the build failed, tests that read the site skip with a pointer:
    test_strict_build_succeeds shows the build log once."""
    require_success(site_build, "the strict build (`mkdocs build --strict`)")
    return site_build.workdir / "site"


# The report as Get on its file path returns it in a fresh workspace: half a second of PDF reading (agentkit
# reads a file on every call), done once for the tests that compare against it. A str: no test can change it.
@pytest.fixture(scope="session")
def report_get_text() -> str:
    from agentkit.guide import report_text, workspace

    return report_text(workspace())


# For test modules that run scenarios and upload the report again and again without testing how it is read:
# each stored file's Get text and indexing text is computed once per process while the module runs, as in
# `dev.py check` (guidetools/readings.py: a pure function of the bytes, immutable results). Every upload,
# chunking and search still runs; the reading itself is tested, computed anew, in the other modules.
@pytest.fixture(scope="module")
def report_read_once():
    from guidetools.readings import read_once

    with read_once():
        yield


@pytest.hookimpl(tryfirst=True)
def pytest_configure(config: pytest.Config) -> None:
    # Hypothesis profiles ("ci" for the gate, "long" for --hypothesis-profile=long), registered before the
    # Hypothesis plugin's pytest_configure loads the one named on the command line (issue 10; see
    # tests/hypothesis_profiles.py). Not when that plugin is off, as in `dev.py check`, which runs no
    # Hypothesis test: importing Hypothesis costs every pytest process a fifth of a second.
    if config.pluginmanager.has_plugin("hypothesispytest"):
        from tests import hypothesis_profiles  # noqa: F401
