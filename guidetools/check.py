"""`python3 dev.py check` without paths: the docs checks as three pytest sessions forked from one process.

    python -m guidetools.check [PYTEST OPTION ...]

The parts run at once on the machine's two cores; their reports are printed one after the other:

1. the docs contracts (tests/test_docs_*.py) and the pages' pycon examples, which read no document;
2. agent_design_04, whose two sweeps of interrupted runs are about a third of the snippets' CPU, and
   unified_path_03, so that parts 2 and 3 take about as long: the run ends with the longer one;
3. the other snippets.

The parent imports pytest, agentkit and what every part imports as it starts, reads the pages' claim
markers (claimcheck.stated), and forks the first part. It then does, once, what every snippet process
began with: it imports openpyxl, reads the generated report as Get and indexing read it (pypdf through
62 pages, each letter placed, the words and their boxes; under guidetools/readings.py's `read_once`, as
a snippet reads it), and builds what agentkit.guide builds once per process (the scenarios' workspace,
which it hands out as copies, and the report's size in tokens). Then it forks the other two parts, which
find all that done, as a snippet finds it when another snippet of its process did it first. Every test
runs, in the part that collects it. Where the OS cannot fork (Windows), each part is a pytest process of its own and does it all.
"""

from __future__ import annotations

import gc
import importlib
import os
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SECOND_PART = ("agent_design_04_write_patterns.py", "unified_path_03_transformers.py")
# The parent imports these before any part starts, so pytest cannot rewrite their asserts in the parts (it
# would: they belong to the distribution whose entry point is the claims plugin). A failing assert of theirs
# reads as Python's plain AssertionError in check; pytest's warning saying so, on every part, is left out.
PREIMPORTED = ("agentkit", "guidetools", "claimcheck")
# What every part imports as it starts (the claims plugin, the pytest plugins found by their entry points, the
# parsers the plugin collects with), and what the two snippet parts both import (openpyxl, which imports numpy):
# imported once, in the parent, instead of once per part.
SHARED_BY_ALL = ("claimcheck.pytest_plugin", "sybil", "bs4", "markdown_it", "pathspec", "doctest", "pdb")
SHARED_BY_SNIPPETS = ("openpyxl",)
PYTEST = [
    "-q", "-p", "no:cacheprovider", "-m", "not build and not browser",
    # None of these is a Hypothesis test, and Hypothesis's plugin imports all of Hypothesis as a session ends.
    "-p", "no:hypothesispytest",
    *(argument for name in PREIMPORTED for argument in (
        "-W", f"ignore:Module already imported so cannot be rewritten; {name}:pytest.PytestAssertRewriteWarning")),
]


def parts() -> list[list[str]]:
    """The three parts' paths, from the root: the contracts and pages, the sweeps (and one more), the other snippets."""
    contracts = sorted(str(path.relative_to(ROOT)) for path in (ROOT / "tests").glob("test_docs_*.py"))
    snippets = sorted(str(path.relative_to(ROOT)) for path in (ROOT / "snippets").glob("*.py"))
    second = [path for path in snippets if Path(path).name in SECOND_PART]
    return [[*contracts, "docs"], second, [path for path in snippets if path not in second]]


def main(argv: list[str]) -> int:
    os.chdir(ROOT)
    documents, *rest = ([*PYTEST, *argv, *paths] for paths in parts())
    if not hasattr(os, "fork"):
        return _report([_spawned(arguments) for arguments in (documents, *rest)])
    import pytest  # noqa: F401  (once, here: every part starts with it)

    import agentkit.guide  # noqa: F401

    for name in SHARED_BY_ALL:
        importlib.import_module(name)
    _read_pages()
    gc.freeze()  # what the parent built is shared with the parts: their collector need not walk it
    forked = [_forked(documents)]
    for name in SHARED_BY_SNIPPETS:
        importlib.import_module(name)
    # The report's pages, letters and words, and the workspace, are read with the collector off: what they build
    # stays (frozen, for the parts), and the collections their allocations set off took a fifth of the reading.
    gc.disable()
    try:
        _read_report()
    finally:
        gc.freeze()
        gc.enable()
    forked += [_forked(arguments) for arguments in rest]
    return _report(forked)


def _read_pages() -> None:
    """The pages' claim markers as claimcheck.stated reads them, once per process: the snippets that compare a
    claim's numbers with their code find them read (the pages' parse is shared too: claimcheck keeps it by text)."""
    from claimcheck import stated
    from claimcheck.site import Site

    try:
        stated.markers(Site.enclosing(ROOT))
    except Exception:  # noqa: BLE001 - a page that cannot be read: each part reads it again and reports it, as before
        pass


def _read_report() -> None:
    from agentkit import _collections
    from agentkit.guide import REPORT, report_index_text, report_pdf_bytes, report_tokens, workspace
    from guidetools.readings import read_once

    with read_once():
        _collections.get_text(REPORT.file_name, report_pdf_bytes())
        _collections.index_text(REPORT.file_name, report_pdf_bytes())
        report_index_text()
        workspace()
        report_tokens()


class _FreezeAtExit:
    """The heap frozen as the session finishes: pytest's last full garbage collection, which would free what the
    snippets built (a quarter second in the sweeps' part) so that a finalizer's exception is reported, finds nothing
    to walk. The part ends with ``os._exit``, which frees nothing anyway. An unraisable exception raised while a
    test runs still fails it; one raised by the finalizer of a cycle still uncollected at the end is not reported.
    Nor is it by the gate: its xdist workers run the collection after their tests have reported, and what it finds
    does not fail the run; ``dev.py test -n 0`` reports it."""

    @staticmethod
    def pytest_sessionfinish() -> None:
        gc.freeze()


def _forked(arguments: list[str]):
    """A pytest session in a child process, its output in a temporary file; returns how to wait for it."""
    output = tempfile.TemporaryFile()
    sys.stdout.flush()
    sys.stderr.flush()
    pid = os.fork()
    if pid == 0:  # the child: its output goes to the file, and it ends where pytest ends
        code = 1
        try:
            os.dup2(output.fileno(), 1)
            os.dup2(output.fileno(), 2)
            import pytest

            code = int(pytest.main(arguments, plugins=[_FreezeAtExit()]))
        finally:
            sys.stdout.flush()
            sys.stderr.flush()
            os._exit(code)

    def wait() -> tuple[int, str]:
        code = os.waitstatus_to_exitcode(os.waitpid(pid, 0)[1])
        output.seek(0)
        return code, output.read().decode("utf-8", "replace")

    return wait


def _spawned(arguments: list[str]):
    process = subprocess.Popen([sys.executable, "-m", "pytest", *arguments], cwd=ROOT, stdout=subprocess.PIPE,
                               stderr=subprocess.STDOUT, text=True)

    def wait() -> tuple[int, str]:
        output = process.communicate()[0]
        return process.returncode, output

    return wait


def _report(waits: list) -> int:
    codes = []
    for number, wait in enumerate(waits, start=1):
        code, output = wait()
        print(f"== dev.py check, part {number} of {len(waits)}", flush=True)
        print(output, end="", flush=True)
        codes.append(code)
    return max(codes)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
