"""Rewrite the expected output of the pages' ```pycon examples from a real run (`dev.py regen --outputs`).

The examples of a page run in order in one namespace, as Sybil runs them in the gate. An example
whose expected output still matches (doctest's rules: `...` stands for any text, whitespace is
normalized) is left as written; any other gets what the run printed, and the reviewer reads the
change in `git diff`.
"""

from __future__ import annotations

import contextlib
import doctest
import io
import sys
import traceback
from dataclasses import dataclass
from pathlib import Path

from claimcheck.doctests import OPTIONFLAGS
from claimcheck.page import read_page

_CHECKER = doctest.OutputChecker()


@dataclass(frozen=True)
class ExampleRun:
    want_first: int  # page line of the first expected-output line (or where it would go)
    want_count: int  # how many expected-output lines the page has now
    indent: str
    want: str
    got: str

    @property
    def matches(self) -> bool:
        if self.want.startswith("Traceback (most recent call last):") and self.got.startswith("Traceback"):
            return self.want.rstrip().splitlines()[-1] == self.got.rstrip().splitlines()[-1]
        return _CHECKER.check_output(self.want, self.got, OPTIONFLAGS)


def run_examples(path: Path) -> list[ExampleRun]:
    """Run every pycon example of the page at `path`, in order, in one namespace."""
    page = read_page(path)
    namespace: dict = {"__name__": "__main__"}
    runs: list[ExampleRun] = []
    parser = doctest.DocTestParser()
    for fence in page.fences:
        if fence.language != "pycon":
            continue
        for example in parser.get_examples("\n".join(fence.body) + "\n"):
            first = fence.line + 1 + example.lineno + example.source.count("\n")
            runs.append(ExampleRun(first, example.want.count("\n"), " " * example.indent, example.want, _run(example.source, namespace, str(path))))
    return runs


def _run(source: str, namespace: dict, filename: str) -> str:
    printed = io.StringIO()
    with contextlib.redirect_stdout(printed):
        try:
            # "single" mode prints an expression's value, as the interactive prompt does.
            exec(compile(source, filename, "single"), namespace)
        except Exception:
            kind, error, _ = sys.exc_info()
            return printed.getvalue() + "Traceback (most recent call last):\n    ...\n" + "".join(traceback.format_exception_only(kind, error))
    return printed.getvalue()


def rewritten(path: Path) -> str | None:
    """The page with every differing expected output replaced by the real one, or None if all match."""
    runs = [run for run in run_examples(path) if not run.matches]
    if not runs:
        return None
    lines = path.read_text(encoding="utf-8").splitlines()
    for run in sorted(runs, key=lambda run: run.want_first, reverse=True):
        new = [f"{run.indent}{line}" if line.strip() else f"{run.indent}<BLANKLINE>" for line in run.got.rstrip("\n").split("\n")] if run.got else []
        lines[run.want_first - 1:run.want_first - 1 + run.want_count] = new
    return "\n".join(lines) + "\n"
