"""Where things are in a checkout of the guide: pages, snippets, and the files that hold checks.

A `Project` is rooted anywhere, so the tests can point the same checks at a
small broken fixture tree under tests/fixtures/. What the root's .gitignore
ignores is no part of it (a build's leftovers, such as conformance/build/ after
`pip install ./conformance`); a new file that is not committed yet is.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property
from pathlib import Path

from pathspec import GitIgnoreSpec

from claimcheck.site import Site

REPO_ROOT = Path(__file__).resolve().parent.parent
# The generated claims page quotes every id; it is output, not a page that makes claims.
CLAIMS_PAGE = Path("docs/reference/claims.md")
CAPTURED_OUTPUT = Path("snippets/output")
CONFORMANCE = Path("conformance")


@dataclass(frozen=True)
class Project(Site):
    """The guide as claimcheck reads it (pyproject.toml: `claims_site`): its pages without the generated claims
    page, and the files whose `# verifies:` comments count."""

    root: Path = REPO_ROOT

    @cached_property
    def ignored(self) -> GitIgnoreSpec:
        """The root's .gitignore, read with git's own rules."""
        gitignore = self.root / ".gitignore"
        return GitIgnoreSpec.from_lines(gitignore.read_text(encoding="utf-8").splitlines() if gitignore.is_file() else [])

    def files(self, folder: str | Path, pattern: str, *, recursive: bool = False) -> list[Path]:
        """The files of `folder` (below it too, if `recursive`) that match `pattern` and .gitignore keeps, from the root."""
        found = (self.root / folder).rglob(pattern) if recursive else (self.root / folder).glob(pattern)
        relative = (self.relative(path) for path in found if path.is_file())
        return sorted(path for path in relative if not self.ignored.match_file(path.as_posix()))

    @cached_property
    def page_paths(self) -> list[Path]:
        return [path for path in self.files("docs", "*.md", recursive=True) if path != CLAIMS_PAGE]

    @cached_property
    def snippet_paths(self) -> list[Path]:
        return self.files("snippets", "*.py")

    @cached_property
    def notebook_paths(self) -> list[Path]:
        return self.files("docs/notebooks", "*.py")

    @cached_property
    def conformance_paths(self) -> list[Path]:
        """The conformance suite (conformance/): its checks confirm claims over MCP (`dev.py conform`)."""
        return self.files(CONFORMANCE, "*.py", recursive=True)

    @cached_property
    def check_source_paths(self) -> list[Path]:
        """Python files whose `# verifies:` comments count: snippets, tests, notebooks and the conformance suite."""
        tests = [path for path in self.files("tests", "*.py", recursive=True) if "fixtures" not in path.parts]
        return self.snippet_paths + tests + self.notebook_paths + self.conformance_paths

    def is_check_source(self, relative: Path) -> bool:
        return relative in self.check_source_paths

    @cached_property
    def library_paths(self) -> list[Path]:
        """agentkit's modules: the model and its guide layer, agentkit/guide/."""
        return self.files("agentkit", "*.py", recursive=True)

    @cached_property
    def captured_output_paths(self) -> list[Path]:
        return self.files(CAPTURED_OUTPUT, "*")
