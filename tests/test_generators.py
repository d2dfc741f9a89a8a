"""A second generator: ProperDocs, the MkDocs 1.x successor, builds the same mkdocs.yml strictly (issue 13).

The build runs in the background beside the MkDocs build (guidetools/gate.py: a failed build no test reports fails
the run, its log in the summary). It leaves the notebook unexecuted: the MkDocs build runs the same cells.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

from guidetools import siteconfig
from guidetools.gate import JobResult, background_fixture, require_success
from claimcheck.problems import report
from guidetools.project import REPO_ROOT
from guidetools.sitelinks import link_problems


def _properdocs_build(workdir: Path) -> list[str]:
    # mkdocs.yml by name: ProperDocs looks for properdocs.yml first and logs a rename hint on the fallback.
    return [sys.executable, "-m", "properdocs", "build", "--strict", "--config-file", "mkdocs.yml",
            "--site-dir", str(workdir / "site")]


properdocs_build = background_fixture(
    "properdocs_build", _properdocs_build, env={"NO_MKDOCS_2_WARNING": "1", "GUIDE_EXECUTE_NOTEBOOKS": "false"})


def html_pages(site: Path) -> list[str]:
    return sorted(path.relative_to(site).as_posix() for path in site.rglob("*.html"))


def test_properdocs_builds_the_same_pages_with_hooks_plugins_and_notebook(properdocs_build: JobResult, built_site: Path):
    """Its links and anchors resolve; every code cell of the notebook is shown, executed by MkDocs' build and not by
    ProperDocs'."""
    require_success(properdocs_build, "the ProperDocs build (`properdocs build --strict`)")
    site = properdocs_build.workdir / "site"
    problems = link_problems(site, siteconfig.root_path())
    assert not problems, "\n" + report(problems)
    assert html_pages(site) == html_pages(built_site)
    home = (site / "index.html").read_text(encoding="utf-8")
    assert 'class="claim-mark' in home, "the claims plugin (claimcheck) did not run"
    assert "git-revision-date-localized-plugin-date" in home, "the last-update plugin did not run"
    import jupytext  # only this test reads the notebook's source
    source = jupytext.read(REPO_ROOT / "docs" / "notebooks" / "cost-explorer.py")
    code_cells = [cell for cell in source.cells if cell.cell_type == "code"]
    for name, folder in (("ProperDocs", site), ("MkDocs", built_site)):
        page = (folder / "notebooks" / "cost-explorer" / "index.html").read_text(encoding="utf-8")
        prompts = re.findall(r'jp-InputPrompt jp-InputArea-prompt">In\s*(?:&nbsp;|\s)*\[\s*(\d*)\s*\]', page)
        assert len(prompts) == len(code_cells), f"{name}: {len(prompts)} code cells shown, the notebook has {len(code_cells)}"
        executed = name == "MkDocs"
        assert all(prompt.isdigit() == executed for prompt in prompts), f"{name}: prompts {prompts}, executed: {executed}"
