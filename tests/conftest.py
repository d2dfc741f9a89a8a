"""Shared fixtures: the strictly built site, built once per test run in the background (guidetools/gate.py)."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

import dev

from guidetools.gate import JobResult, background_fixture, require_success


def _strict_build(workdir: Path) -> list[str]:
    # `python3 dev.py build OUT`'s command (what Pages deploys), into the job's folder: two runs never share a site.
    return [sys.executable, *dev.build_command(workdir / "site")[1:]]


# Its JobResult keeps the build log out of its repr: a failed assert on the build shows the log once.
site_build = background_fixture("site_build", _strict_build, env=dev.BUILD_ENV)


@pytest.fixture(scope="session")
def built_site(site_build: JobResult) -> Path:
    """When the build failed, tests that read the site skip: test_strict_build_succeeds shows the log once."""
    require_success(site_build, "the strict build (`mkdocs build --strict`)")
    return site_build.workdir / "site"


# The report's Get text in a fresh workspace, read once (half a second of PDF); a str, so no test can change it.
@pytest.fixture(scope="session")
def report_get_text() -> str:
    from agentkit.guide import report_text, workspace

    return report_text(workspace())


# For modules that upload the report again and again without testing how it is read: each file's readings are
# computed once per process (guidetools/readings.py); the reading itself is tested anew in the other modules.
@pytest.fixture(scope="module")
def report_read_once():
    from guidetools.readings import read_once

    with read_once():
        yield


@pytest.hookimpl(tryfirst=True)
def pytest_configure(config: pytest.Config) -> None:
    # Hypothesis profiles, registered before its plugin loads the one named (tests/hypothesis_profiles.py); not
    # when the plugin is off, as in `dev.py check`: importing Hypothesis costs a process a fifth of a second.
    if config.pluginmanager.has_plugin("hypothesispytest"):
        from tests import hypothesis_profiles  # noqa: F401
