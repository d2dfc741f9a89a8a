"""A project's documentation as claimcheck reads it: where its pages, snippets and captured output are.

claimcheck's pytest plugin builds a `Site` from its ini settings (`claims_pages`, `claims_snippets`); a
project that knows more about itself (which files hold checks, which pages are generated) names a subclass,
or any callable that takes the root and returns a `Site`, in `claims_site = "module:attr"`:

    [tool.pytest.ini_options]
    claims_snippets = "snippets"
    claims_pages = "docs"
    claims_site = "myproject.docs:Site"   # optional

`Site.enclosing(folder)` finds the same settings in the nearest pyproject.toml above a folder, for code that
runs outside pytest (a snippet run as a script, `claimcheck.stated`).
"""

from __future__ import annotations

import importlib
import tomllib
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path

from claimcheck.page import Marker, Page, read_page
from claimcheck.pysource import read_checks

# The site of the snippet that runs now (claimcheck.captures.run_snippet sets it); None outside a run.
_CURRENT: ContextVar[Site | None] = ContextVar("claimcheck_site", default=None)


@dataclass(frozen=True)
class Site:
    root: Path
    pages_folder: Path = Path("docs")
    snippets_folder: Path = Path("snippets")

    @property
    def output_folder(self) -> Path:
        """Where the snippets' captured output is committed: `output/` beside them."""
        return self.snippets_folder / "output"

    def relative(self, path: Path) -> Path:
        return path.resolve().relative_to(self.root.resolve())

    @cached_property
    def page_paths(self) -> list[Path]:
        """The Markdown pages, from the root."""
        return sorted(path.relative_to(self.root) for path in (self.root / self.pages_folder).rglob("*.md") if path.is_file())

    @cached_property
    def pages(self) -> list[Page]:
        return [read_page(self.root / path, path) for path in self.page_paths]

    def is_check_source(self, relative: Path) -> bool:
        """Whether the `# verifies:` comments of a file (from the root) count: here, any Python file."""
        return relative.suffix == ".py"

    @classmethod
    def enclosing(cls, folder: Path) -> Site:
        """The site whose pyproject.toml, in `folder` or above it, sets `claims_pages` or `claims_snippets`."""
        for root in (folder, *folder.parents):
            pyproject = root / "pyproject.toml"
            if pyproject.is_file():
                options = tomllib.loads(pyproject.read_text(encoding="utf-8")).get("tool", {}).get("pytest", {})
                options = options.get("ini_options", {})
                if options.get("claims_pages") or options.get("claims_snippets"):
                    return configured(root, options.get("claims_pages", ""), options.get("claims_snippets", ""),
                                      options.get("claims_site", ""))
        raise LookupError(f"no pyproject.toml at or above {folder} sets claims_pages or claims_snippets")


def configured(root: Path, pages: str, snippets: str, factory: str = "") -> Site:
    """The site the settings describe: `factory` ("module:attr") called with the root, else a plain `Site`."""
    if factory:
        module, _, attribute = factory.partition(":")
        site = getattr(importlib.import_module(module), attribute)(root)
        if not isinstance(site, Site):
            raise TypeError(f"claims_site {factory!r} made a {type(site).__name__}, not a claimcheck.site.Site")
        return site
    return Site(root, Path(pages or "docs"), Path(snippets or "snippets"))


def current() -> Site | None:
    return _CURRENT.get()


@contextmanager
def running_in(site: Site | None) -> Iterator[Site | None]:
    token = _CURRENT.set(site)
    try:
        yield site
    finally:
        _CURRENT.reset(token)


def broken_by(site: Site, markers: list[Marker], file: Path, line: int) -> list[str]:
    """Describe the claims whose check spans `file:line` (a failing assert, with block or pycon example)."""
    relative = site.relative(file) if file.is_absolute() else file
    # Only pages and the files that hold checks can name claims; a library frame names none.
    ids: tuple[str, ...] = ()
    if relative.suffix == ".md":
        page = next((p for p in site.pages if p.path == relative), None)
        for check in page.checks if page else []:
            if check.fence.line <= line <= check.fence.line + len(check.fence.body) + 1:
                ids = check.ids
    elif site.is_check_source(relative):
        found, _ = read_checks(site.root / relative, relative)
        for check in found:
            if check.statement[0] <= line <= check.statement[1]:
                ids = check.ids
    stated: dict[str, Marker] = {}
    for marker in markers:
        stated.setdefault(marker.id, marker)
    return [
        f"{claim}: stated at {stated[claim].page.as_posix()}:{stated[claim].line}, checked at {relative.as_posix()}:{line}"
        if claim in stated else f"{claim}: checked at {relative.as_posix()}:{line}, stated on no page"
        for claim in ids
    ]
