"""Collect the guide's executable documentation alongside tests/.

- every ```pycon example in docs/**/*.md runs as a doctest (tools/doctests.py);
- every snippets/*.py file runs as one test: its asserts are its checks, what it
  prints must match its `#>` lines, and the captured output it declares must
  match the committed snippets/output/ file.
"""

from __future__ import annotations

import functools
import gc
from pathlib import Path

import pytest

from _pytest.assertion.rewrite import rewrite_asserts
from sybil.example import SybilFailure

from tools import captures, claims, outputs
from tools.doctests import make_sybil
from tools.project import REPO_ROOT, Project

# The gate's running order and its background jobs (the strict build): tools/gate.py.
pytest_plugins = ["tools.gate"]

# A session keeps what it collected and what the snippets computed (a few hundred thousand objects), and
# CPython's collector walked all of them again each time the heap grew by a quarter: some 3 s of the
# gate's CPU. The oldest generation is collected after 100 collections of the middle one, not 10.
gc.set_threshold(700, 10, 100)

_collect_pycon = make_sybil(path=str(REPO_ROOT / "docs"), patterns=["*.md"]).pytest()


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        "--full-page-screenshots", action="store_true",
        help="the browser suite's screenshots show whole pages, not the first screen (python3 dev.py screenshots)",
    )


def _is_snippet(path: Path) -> bool:
    return path.suffix == ".py" and path.parent == REPO_ROOT / "snippets"


def pytest_collect_file(file_path: Path, parent: pytest.Collector):
    if file_path.suffix == ".md":
        return _collect_pycon(file_path, parent)
    if _is_snippet(file_path) and not parent.session.isinitpath(file_path):
        return SnippetFile.from_parent(parent, path=file_path)
    return None


def pytest_pycollect_makemodule(module_path: Path, parent: pytest.Collector):
    # A snippet named on the command line reaches the Python plugin, which would import it as a test module.
    if _is_snippet(module_path):
        return SnippetFile.from_parent(parent, path=module_path)
    return None


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo):
    """Name the claims a failure breaks, with where each is stated and checked, under the failure."""
    report = yield
    if report.failed and call.excinfo is not None:
        broken = _broken_claims(call.excinfo)
        if broken:
            report.sections.append(("broken claims", "\n".join(broken)))
    return report


def _broken_claims(excinfo: pytest.ExceptionInfo) -> list[str]:
    if isinstance(excinfo.value, SybilFailure):
        places = [(Path(excinfo.value.example.path), excinfo.value.example.line)]
    else:
        places = [(Path(entry.path), entry.lineno + 1) for entry in excinfo.traceback]
    project, collected = _claims()
    broken: list[str] = []
    for path, line in places:
        if path.resolve().is_relative_to(REPO_ROOT):
            broken += [text for text in claims.broken_by(project, collected, path, line) if text not in broken]
    return broken


@functools.cache
def _claims() -> tuple[Project, claims.Claims]:
    # Collected once, on the first failure: passing runs never pay for it.
    project = Project()
    return project, claims.collect(project)


class SnippetFile(pytest.File):
    def collect(self):
        yield SnippetRun.from_parent(self, name="run")


class SnippetRun(pytest.Item):
    """Run one snippet file as a script and compare its captured output with the committed files."""

    def runtest(self) -> None:
        namespace, recorder = captures.run_snippet_recorded(self.path, rewrite=self._rewrite_asserts)
        difference = outputs.output_mismatch(self.path, recorder.getvalue())
        if difference:
            project = Project()
            located = outputs.mismatch_report(project, project.relative(self.path), outputs.attribute(self.path, recorder.writes))
            raise SnippetOutputStale(
                f"{located or difference}\n"
                "Show the real output below each print: 'python3 dev.py regen --outputs' rewrites the '#>' lines; review the diff."
            )
        outdated = captures.stale(captures.render(namespace))
        if outdated:
            names = ", ".join(str(path.relative_to(REPO_ROOT)) for path in outdated)
            raise SnippetOutputStale(f"{self.path.relative_to(REPO_ROOT)}: captured output is stale: {names}; run 'python3 dev.py regen' and review the diff")

    def repr_failure(self, excinfo):
        if isinstance(excinfo.value, SnippetOutputStale):
            return str(excinfo.value)
        # A snippet is one module-level frame: the long style would print the whole file.
        return super().repr_failure(excinfo, style="short")

    def _rewrite_asserts(self, tree, source: bytes) -> None:
        # The same rewriting pytest applies to test modules, so a failing check prints its values.
        rewrite_asserts(tree, source, str(self.path), self.config)

    def _traceback_filter(self, excinfo: pytest.ExceptionInfo):
        # Show the snippet and agentkit frames, not pytest's and runpy's plumbing.
        own = excinfo.traceback.filter(lambda entry: Path(entry.path) == self.path or "agentkit" in Path(entry.path).parts)
        return own or excinfo.traceback

    def reportinfo(self):
        return self.path, 0, f"snippet {self.path.relative_to(REPO_ROOT)}"


class SnippetOutputStale(AssertionError):
    """A snippet's shown or captured output differs from what it produces now."""


def pytest_collection_finish(session: pytest.Session) -> None:
    # What collection built (modules, pages, parametrized items) lives to the end: the collector need not walk it again.
    gc.freeze()
