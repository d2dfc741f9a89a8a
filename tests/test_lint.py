"""ruff lints the Python the guide ships, and `ruff format` leaves the pages' Markdown alone (issue 13)."""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from pathlib import Path

from guidetools import claimlock, claims
from guidetools.project import REPO_ROOT, Project

SHIPPED = {"agentkit", "snippets", "guidetools", "tests", "conformance", "mcp_server", "claimcheck", "bench", "dev.py", "conftest.py"}


def ruff(*arguments: str) -> subprocess.CompletedProcess:
    # No cache: a run leaves nothing behind, and two runs never share state.
    return subprocess.run([sys.executable, "-m", "ruff", *arguments, "--no-cache"], cwd=REPO_ROOT, capture_output=True, text=True)


def markdown_files_in(diff: str) -> list[str]:
    return sorted({line.split()[1] for line in diff.splitlines() if line.startswith("--- ") and line.split()[1].endswith(".md")})


def test_ruff_check_passes_on_the_code_and_reaches_every_folder_of_python():
    """pyproject's exclusions keep out the pages and the broken fixtures, and no folder of the project's Python."""
    result = ruff("check", ".")
    assert result.returncode == 0, result.stdout + result.stderr
    files = ruff("check", "--show-files", ".").stdout.splitlines()
    reached = {Path(line).relative_to(REPO_ROOT).parts[0] for line in files if line.endswith(".py")}
    assert SHIPPED <= reached, sorted(SHIPPED - reached)


def test_ruff_format_never_touches_markdown():
    """A default `ruff format .` turns each `--8<-- "path:section"` include into `--8 < --"path:section"`."""
    with_config = ruff("format", "--check", "--diff", ".")
    # Its summary line says it ran over the files (a config error would stop it before any file).
    assert re.search(r"\d+ files? (would be reformatted|already formatted)", with_config.stderr), with_config.stderr
    assert markdown_files_in(with_config.stdout) == []
    # The same command without pyproject's exclusions does reach the pages: the config is what protects them.
    without_config = ruff("format", "--isolated", "--check", "--diff", "docs")
    assert [path for path in markdown_files_in(without_config.stdout) if path.startswith("docs/")], without_config.stdout[:2000]


# In this module, not among the docs checks of `dev.py check`: no page edit can change it, and it copies the tree.
def test_what_gitignore_ignores_is_no_part_of_the_checked_tree(tmp_path):
    """A build's leftovers (conformance/build/) change no claim, claims page, claims lock or lint finding; a new
    snippet not committed yet is still checked."""
    skipped = shutil.ignore_patterns("__pycache__", "*.pyc")
    for name in ("agentkit", "claimcheck", "conformance", "docs", "framework", "snippets", "tests", "guidetools"):
        shutil.copytree(REPO_ROOT / name, tmp_path / name, ignore=skipped)
    for name in (".gitignore", "pyproject.toml"):
        shutil.copy2(REPO_ROOT / name, tmp_path / name)
    copy = Project(tmp_path)
    before = claims.collect(copy)
    planted = tmp_path / "conformance" / "build" / "lib" / "conformance" / "x.py"
    planted.parent.mkdir(parents=True)
    # A check of a real claim, one of no claim, and a lint finding (an unused import).
    planted.write_text("import os\n\n# verifies: mesh.create-collides\nassert True\n# verifies: no.such-claim\nassert True\n")
    new_snippet = tmp_path / "snippets" / "zz_99_not_committed.py"
    new_snippet.write_text("# verifies: no.such-claim\nassert True\n", encoding="utf-8")

    planted_copy = Project(tmp_path)
    after = claims.collect(planted_copy)
    assert sorted(str(problem) for problem in after.problems) == [
        "snippets/zz_99_not_committed.py:1: check names claim 'no.such-claim', which no page has; mark the claim on its "
        "page or fix the id"]
    # The snippet checks no claim: with it, the claims page and the lock are those of the tree before.
    assert claims.render_page(planted_copy, after) == claims.render_page(copy, before)
    assert claimlock.render(claimlock.updated(planted_copy, after, set())[0]) == \
        claimlock.render(claimlock.updated(copy, before, set())[0])
    assert "conformance/build/lib/conformance/x.py" not in {path.as_posix() for path in planted_copy.check_source_paths}
    # ruff applies .gitignore in a git work tree, as a checkout is (outside one it lints the planted file).
    subprocess.run(["git", "init", "-q", str(tmp_path)], check=True)
    lint = subprocess.run([sys.executable, "-m", "ruff", "check", "--no-cache", "conformance"], cwd=tmp_path,
                          capture_output=True, text=True)
    assert lint.returncode == 0, lint.stdout
