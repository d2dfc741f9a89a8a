"""Shared fixtures: the strictly built site, built once per test session."""

from __future__ import annotations

import os
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

from tools.project import REPO_ROOT



@dataclass(frozen=True)
class Build:
    returncode: int
    output: str
    site: Path


@pytest.fixture(scope="session")
def site_build(tmp_path_factory: pytest.TempPathFactory) -> Build:
    """Build the site with `mkdocs build --strict` from the repository root (snippet paths are relative to it).

    Each session builds into its own folder, so two test runs never clean each other's site.
    """
    site = tmp_path_factory.mktemp("site")
    result = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(site)],
        cwd=REPO_ROOT, capture_output=True, text=True,
        env={**os.environ, "NO_MKDOCS_2_WARNING": "1"},
    )
    return Build(result.returncode, result.stdout + result.stderr, site)


@pytest.fixture(scope="session")
def built_site(site_build: Build) -> Path:
    """The built site's folder; tests that need it fail at once when the build failed."""
    if site_build.returncode != 0:
        pytest.fail(f"the strict build failed:\n{site_build.output}", pytrace=False)
    return site_build.site
