"""Collect the guide's executable documentation alongside tests/.

- every ```pycon example in docs/**/*.md runs as a doctest (tools/doctests.py);
- every snippets/*.py file runs as one test: its asserts are its checks, what it
  prints must match its `#>` lines, and the captured output it declares must
  match the committed snippets/output/ file.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tools import captures, outputs
from tools.doctests import make_sybil
from tools.project import REPO_ROOT

_collect_pycon = make_sybil(path=str(REPO_ROOT / "docs"), patterns=["*.md"]).pytest()


def pytest_collect_file(file_path: Path, parent: pytest.Collector):
    if file_path.suffix == ".md":
        return _collect_pycon(file_path, parent)
    if file_path.suffix == ".py" and file_path.parent == REPO_ROOT / "snippets":
        return SnippetFile.from_parent(parent, path=file_path)
    return None


class SnippetFile(pytest.File):
    def collect(self):
        yield SnippetRun.from_parent(self, name="run")


class SnippetRun(pytest.Item):
    """Run one snippet file as a script and compare its captured output with the committed files."""

    def runtest(self) -> None:
        namespace, printed = captures.run_snippet(self.path)
        difference = outputs.output_mismatch(self.path, printed)
        if difference:
            raise SnippetOutputStale(f"{self.path.relative_to(REPO_ROOT)}: what it prints differs from its '#>' lines; show the real output below each print\n{difference}")
        outdated = captures.stale(captures.render(namespace))
        if outdated:
            names = ", ".join(str(path.relative_to(REPO_ROOT)) for path in outdated)
            raise SnippetOutputStale(f"{self.path.relative_to(REPO_ROOT)}: captured output is stale: {names}; run 'python3 dev.py regen' and review the diff")

    def repr_failure(self, excinfo):
        if isinstance(excinfo.value, SnippetOutputStale):
            return str(excinfo.value)
        return super().repr_failure(excinfo)

    def reportinfo(self):
        return self.path, 0, f"snippet {self.path.relative_to(REPO_ROOT)}"


class SnippetOutputStale(AssertionError):
    """A snippet's shown or captured output differs from what it produces now."""
