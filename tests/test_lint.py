"""ruff lints the Python the guide ships, and `ruff format` leaves the pages' Markdown alone (issue 13)."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

from guidetools.project import REPO_ROOT

# Every Python file of the project; pyproject's exclusions keep out the pages (and with them the
# notebook's source) and the deliberately broken fixtures.
LINTED = ["."]
SHIPPED = {"agentkit", "snippets", "guidetools", "tests", "conformance", "mcp_server", "claimcheck", "bench", "dev.py", "conftest.py"}


def ruff(*arguments: str) -> subprocess.CompletedProcess:
    # No cache: a run leaves nothing behind, and two runs never share state.
    return subprocess.run(
        [sys.executable, "-m", "ruff", *arguments, "--no-cache"],
        cwd=REPO_ROOT, capture_output=True, text=True,
    )


def markdown_files_in(diff: str) -> list[str]:
    return sorted({line.split()[1] for line in diff.splitlines() if line.startswith("--- ") and line.split()[1].endswith(".md")})


def test_ruff_check_passes_on_the_code():
    """`ruff check` with pyproject's rules finds nothing in the project's Python: agentkit (both layers),
    snippets, tools, tests, conformance, mcp_server, claimcheck, bench and dev.py."""
    result = ruff("check", *LINTED)
    assert result.returncode == 0, result.stdout + result.stderr


def test_ruff_reaches_every_folder_of_python():
    """No folder of the project's Python falls out of the lint by an exclusion."""
    files = ruff("check", "--show-files", *LINTED).stdout.splitlines()
    reached = {Path(line).relative_to(REPO_ROOT).parts[0] for line in files if line.endswith(".py")}
    assert SHIPPED <= reached, sorted(SHIPPED - reached)


def test_ruff_format_never_touches_markdown():
    """`ruff format --check --diff .` would rewrite no .md file, while ruff without the project's config would rewrite the pages.

    A default `ruff format .` turns each `--8<-- "path:section"` include into `--8 < --"path:section"`.
    """
    with_config = ruff("format", "--check", "--diff", ".")
    # Its summary line says it ran over the files (a config error would stop it before any file).
    assert re.search(r"\d+ files? (would be reformatted|already formatted)", with_config.stderr), with_config.stderr
    assert markdown_files_in(with_config.stdout) == []
    # The same command without pyproject's exclusions does reach the pages: the config is what protects them.
    without_config = ruff("format", "--isolated", "--check", "--diff", "docs")
    assert [path for path in markdown_files_in(without_config.stdout) if path.startswith("docs/")], without_config.stdout[:2000]
