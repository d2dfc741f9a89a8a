"""Where things are in a checkout of the guide: pages, snippets, and the files that hold checks.

A `Project` is rooted anywhere, so the tests can point the same checks at a
small broken fixture tree under tests/fixtures/.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property
from pathlib import Path

from claimcheck.page import Page, read_page

REPO_ROOT = Path(__file__).resolve().parent.parent
# The generated claims page quotes every id; it is output, not a page that makes claims.
CLAIMS_PAGE = Path("docs/reference/claims.md")
CAPTURED_OUTPUT = Path("snippets/output")
CONFORMANCE = Path("conformance")


@dataclass(frozen=True)
class Project:
    root: Path = REPO_ROOT

    def relative(self, path: Path) -> Path:
        return path.resolve().relative_to(self.root.resolve())

    @cached_property
    def page_paths(self) -> list[Path]:
        docs = self.root / "docs"
        return sorted(
            self.relative(path) for path in docs.rglob("*.md")
            if self.relative(path) != CLAIMS_PAGE
        )

    @cached_property
    def pages(self) -> list[Page]:
        return [read_page(self.root / path, path) for path in self.page_paths]

    @cached_property
    def snippet_paths(self) -> list[Path]:
        return sorted(self.relative(path) for path in (self.root / "snippets").glob("*.py"))

    @cached_property
    def notebook_paths(self) -> list[Path]:
        return sorted(self.relative(path) for path in (self.root / "docs" / "notebooks").glob("*.py"))

    @cached_property
    def conformance_paths(self) -> list[Path]:
        """The conformance suite (conformance/): its checks confirm claims over MCP (`dev.py conform`)."""
        return sorted(self.relative(path) for path in (self.root / CONFORMANCE).rglob("*.py"))

    @cached_property
    def check_source_paths(self) -> list[Path]:
        """Python files whose `# verifies:` comments count: snippets, tests, notebooks and the conformance suite."""
        tests = sorted(
            self.relative(path) for path in (self.root / "tests").rglob("*.py")
            if "fixtures" not in self.relative(path).parts
        )
        return self.snippet_paths + tests + self.notebook_paths + self.conformance_paths

    @cached_property
    def captured_output_paths(self) -> list[Path]:
        return sorted(self.relative(path) for path in (self.root / CAPTURED_OUTPUT).glob("*") if path.is_file())
