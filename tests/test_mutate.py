"""guidetools/mutate.py on a copy of tests/fixtures/minidocs."""

from __future__ import annotations

import shutil
from pathlib import Path

from guidetools import claims, mutate
from guidetools.project import REPO_ROOT, Project

MINIDOCS = Path(__file__).parent / "fixtures" / "minidocs"


def mini_tree(into: Path) -> Project:
    # With the guide's tools, conftest and pytest settings, so its checks run as the gate runs them.
    shutil.copytree(MINIDOCS, into)
    shutil.copytree(REPO_ROOT / "guidetools", into / "guidetools", ignore=shutil.ignore_patterns("__pycache__"))
    for name in ("conftest.py", "pyproject.toml"):
        shutil.copy2(REPO_ROOT / name, into / name)
    return Project(into)


def test_mutants_cover_each_number_and_tool_or_field_name_of_checked_claims_only(tmp_path):
    """Not the observation's 42, nor a name that is no tool, plugin, parameter or field (`left`)."""
    project = mini_tree(tmp_path / "mini")
    page = project.root / "docs" / "guide.md"
    page.write_text(page.read_text(encoding="utf-8").replace("and `right`.", "and `right`, unlike `search_chunks`."), encoding="utf-8")
    project = Project(project.root)
    found = [str(mutant).split(" ", 1)[1] for mutant in mutate.mutants(project, claims.collect(project))]
    assert found == [
        "mini.adds: number '2' -> '3'",
        "mini.adds: number '3' -> '4'",
        "mini.adds: number '5' -> '6'",
        "mini.add-params: name 'search_chunks' -> 'searchChunks'",
        "mini.limit: number '1,000' -> '1,001'",
    ]


def test_a_check_reading_the_page_kills_the_mutant_and_a_literal_check_does_not(tmp_path):
    project = mini_tree(tmp_path / "mini")
    limit = next(m for m in mutate.mutants(project, claims.collect(project)) if m.original == "1,000")
    assert mutate.run_mutant(limit, project.root) == "survived"
    assert mutate.caught_statically(limit, project.root, claims.collect(project).checks)
    snippet = project.root / "snippets" / "mini_01_sum.py"
    snippet.write_text(snippet.read_text(encoding="utf-8").replace("assert LIMIT == 1000", "assert stated.numbers('mini.limit', ROOT) == [LIMIT]"), encoding="utf-8")
    assert mutate.run_mutant(limit, project.root) == "killed"
    # The page is restored after each mutant.
    assert "1,000 characters" in (project.root / "docs" / "guide.md").read_text(encoding="utf-8")
