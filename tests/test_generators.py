"""A second generator: ProperDocs, the MkDocs 1.x successor, builds the same mkdocs.yml strictly (issue 13).

Material for MkDocs reaches end of life in May 2027 and MkDocs 2 refuses this config; the gate keeps
the site buildable by ProperDocs so a move is a change of command, not a rewrite. The build runs in the
background from the moment collection ends (tools/gate.py), beside the MkDocs build, and executes the
notebook on its own kernel.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

from tools import siteconfig
from tools.background import JobResult
from tools.gate import background_fixture, require_success
from tools.problems import report
from tools.sitelinks import link_problems


def _properdocs_build(workdir: Path) -> list[str]:
    # mkdocs.yml by name: ProperDocs looks for properdocs.yml first and logs a rename hint on the fallback.
    return [sys.executable, "-m", "properdocs", "build", "--strict", "--config-file", "mkdocs.yml",
            "--site-dir", str(workdir / "site")]


properdocs_build = background_fixture("properdocs_build", _properdocs_build, env={"NO_MKDOCS_2_WARNING": "1"})


def properdocs_site(result: JobResult) -> Path:
    require_success(result, "the ProperDocs build (`properdocs build --strict`)")
    return result.workdir / "site"


def html_pages(site: Path) -> list[str]:
    return sorted(path.relative_to(site).as_posix() for path in site.rglob("*.html"))


def test_properdocs_builds_mkdocs_yml_strictly(properdocs_build: JobResult):
    """`properdocs build --strict` reads mkdocs.yml unchanged and exits 0."""
    assert properdocs_build.ok, properdocs_build.output


def test_properdocs_site_links_and_anchors_resolve(properdocs_build: JobResult):
    """The same link checker as for the MkDocs build finds no broken link or anchor in ProperDocs' output."""
    problems = link_problems(properdocs_site(properdocs_build), siteconfig.root_path())
    assert not problems, "\n" + report(problems)


def test_properdocs_builds_the_same_pages_with_hooks_plugins_and_notebook(properdocs_build: JobResult, built_site: Path):
    """ProperDocs writes the pages MkDocs writes, runs the claim-label hook, the date plugin, and executes the notebook."""
    site = properdocs_site(properdocs_build)
    assert html_pages(site) == html_pages(built_site)
    home = (site / "index.html").read_text(encoding="utf-8")
    assert 'class="claim-mark' in home, "hooks/claim_marks.py did not run"
    assert "git-revision-date-localized-plugin-date" in home, "the last-update plugin did not run"
    notebook = (site / "notebooks" / "cost-explorer" / "index.html").read_text(encoding="utf-8")
    assert re.search(r"In\s*(?:&nbsp;|\s)*\[\s*1\s*\]", notebook), "the notebook page shows no executed cell"
