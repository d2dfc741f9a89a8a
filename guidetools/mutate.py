"""Docs mutation testing: would a check notice if a claim's words were wrong?

    python3 dev.py mutate [PAGE ...] [--jobs N] [--claim ID ...]

For every checked claim (framework, model, extension) of the pages, one change at a time:
each number becomes another (`1,000` → `1,001`, `three` → `four`), and each name in a code span is
misspelt the way people misspell names (`search_chunks` → `searchChunks`, `Get` → `get`). Each
mutant runs only that claim's checks (the snippet files, the test functions and the pages' pycon
blocks that name it), in a copy of the tree, so the working tree is never touched.

A mutant is killed when a check fails. The static contract (guidetools/claimcontract.py) is reported
beside it: it catches a number no check compares and a name agentkit does not know without
running anything, which is what the gate runs; the survivors list says which claims need a check
that reads its words from the page (`claimcheck.stated.numbers`) or compares them.
"""

from __future__ import annotations

import argparse
import ast
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from claimcheck import numbers
from guidetools import claimcontract, claims
from claimcheck.inline import read_inline
from claimcheck.page import Marker, blank_list_marker, read_page
from guidetools.project import REPO_ROOT, Project

COPIED = ("agentkit", "docs", "snippets", "tests", "guidetools", "framework", "claimcheck", "conftest.py", "pyproject.toml", "mkdocs.yml")
NEXT_WORD = {
    "zero": "two", "two": "three", "three": "four", "four": "five", "five": "six", "six": "seven", "seven": "eight",
    "eight": "nine", "nine": "ten", "ten": "eleven", "eleven": "twelve", "twelve": "twenty", "twenty": "thirty",
    "hundred": "thousand", "thousand": "hundred", "twice": "three times", "half": "third", "third": "quarter",
    "quarter": "fifth", "fourth": "fifth", "fifth": "sixth", "sixth": "seventh", "seventh": "eighth", "eighth": "ninth",
    "ninth": "tenth", "tenth": "ninth",
}


@dataclass(frozen=True)
class Mutant:
    claim: Marker
    kind: str  # "number" or "name"
    original: str
    replacement: str
    start: int  # offset in the page's text
    units: tuple[str, ...]  # pytest node ids of the claim's checks

    def __str__(self) -> str:
        return f"{self.claim.page.as_posix()}:{self.claim.line} {self.claim.id}: {self.kind} '{self.original}' -> '{self.replacement}'"


def claim_region(text: str, marker: Marker) -> tuple[int, int]:
    """Offsets of the block a marker closes, in the page's text (list bullets blanked by the caller)."""
    lines = text.split("\n")
    start = sum(len(line) + 1 for line in lines[:marker.first_line - 1])
    end = sum(len(line) + 1 for line in lines[:marker.line - 1])
    return start, end


def mutated_number(text: str, is_word: bool) -> str:
    if is_word:
        word = NEXT_WORD[text.lower()]
        return word.capitalize() if text[0].isupper() else word
    digits = text.replace(",", "")
    if "." in digits:
        whole, fraction = digits.split(".")
        bumped = str(int(whole + fraction) + 1).rjust(len(whole + fraction), "0")
        new = f"{bumped[:-len(fraction)] or '0'}.{bumped[-len(fraction):]}"
    else:
        new = str(int(digits) + 1)
    return f"{int(new):,}" if "," in text and "." not in new else new


def misspelt(name: str, known: set[str] = frozenset(), *, letters: bool = False) -> str:
    """A misspelling people make, and one agentkit does not know: snake_case as camelCase and back,
    the first letter's case flipped, or two letters swapped. `name` itself when none is unknown."""
    candidates = []
    if "_" in name.strip("_"):
        head, *rest = name.split("_")
        candidates.append(head + "".join(part.capitalize() for part in rest))
    camel = re.sub(r"(?<=[a-z0-9])([A-Z])", lambda match: "_" + match.group(1).lower(), name)
    candidates.append(camel)
    first = next((index for index, char in enumerate(name) if char.isalpha()), 0)
    candidates.append(name[:first] + name[first].swapcase() + name[first + 1:])
    candidates += [name[:index] + name[index + 1] + name[index] + name[index + 2:] for index in range(first + 1, len(name) - 1) if name[index] != name[index + 1]]
    if letters:
        # Only a change of letters: where case and underscores are free (a path template), a case change is no error.
        candidates = [candidate for candidate in candidates if candidate.lower().replace("_", "") != name.lower().replace("_", "")]
    return next((candidate for candidate in candidates if candidate != name and candidate not in known), name)


def mutants(project: Project, collected: claims.Claims, pages: set[str] | None = None, only: set[str] | None = None) -> list[Mutant]:
    """A mutant per number and per tool, plugin, parameter or field name (agentkit's spelling) of each checked claim."""
    known = claimcontract.known_names(project.root)
    found: list[Mutant] = []
    seen: set[str] = set()
    texts: dict[Path, str] = {}
    for marker in collected.markers:
        if not marker.checked or marker.id in seen or (pages and marker.page.as_posix() not in pages) or (only and marker.id not in only):
            continue
        seen.add(marker.id)
        text = texts.setdefault(marker.page, (project.root / marker.page).read_text(encoding="utf-8"))
        start, end = claim_region(text, marker)
        region = text[start:end]
        # A list item's bullet is no number of the claim ("1. ...").
        region = "\n".join(blank_list_marker(line) for line in region.split("\n"))
        units = check_units(project, collected.checks.get(marker.id, []))
        for number in numbers.stated(region):
            found.append(Mutant(marker, "number", number.text, mutated_number(number.text, number.is_word), start + number.start, units))
        named: set[str] = set()  # each name once per claim: a second mutant of it tells nothing new
        for span in read_inline(region).code:
            for name in dict.fromkeys(claimcontract.names_in_span(span.text)):
                if name in named:
                    continue
                position = re.search(rf"(?<![\w$]){re.escape(name)}(?![\w$])", span.text)
                template = "/" in span.text and not claimcontract.CALL.match(span.text.strip())
                wrong = misspelt(name, known.names, letters=template)
                if position and name in known.strict and wrong != name:
                    named.add(name)
                    found.append(Mutant(marker, "name", name, wrong, start + span.text_start + position.start(), units))
    return found


def check_units(project: Project, sites: list[claims.CheckSite]) -> tuple[str, ...]:
    """The pytest node ids that run these checks: a snippet file, a test function, a page's pycon blocks."""
    units: list[str] = []
    for site in sites:
        path = site.file.as_posix()
        if site.file.suffix == ".md" or site.file.parts[0] == "snippets":
            unit = path
        elif site.file.parts[0] == "tests":
            unit = _test_node(project.root / site.file, site.line, path)
        else:
            # A notebook check runs in the strict build, which mutation testing does not repeat.
            continue
        if unit and unit not in units:
            units.append(unit)
    return tuple(units)


def _test_node(path: Path, line: int, shown: str) -> str | None:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    for node in tree.body:
        if isinstance(node, ast.FunctionDef) and node.lineno <= line <= (node.end_lineno or node.lineno):
            return f"{shown}::{node.name}"
        if isinstance(node, ast.ClassDef) and node.lineno <= line <= (node.end_lineno or node.lineno):
            for inner in node.body:
                if isinstance(inner, ast.FunctionDef) and inner.lineno <= line <= (inner.end_lineno or inner.lineno):
                    return f"{shown}::{node.name}::{inner.name}"
            return f"{shown}::{node.name}"
    return shown


def copy_tree(source: Path, into: Path) -> Path:
    ignore = shutil.ignore_patterns("__pycache__", "*.pyc", ".hypothesis")
    for name in COPIED:
        path = source / name
        if path.is_dir():
            shutil.copytree(path, into / name, ignore=ignore)
        elif path.is_file():
            shutil.copy2(path, into / name)
    return into


@contextmanager
def applied(mutant: Mutant, tree: Path) -> Iterator[None]:
    """The mutant written into its page in `tree`, and the page restored afterwards."""
    page = tree / mutant.claim.page
    original = page.read_text(encoding="utf-8")
    assert original[mutant.start:mutant.start + len(mutant.original)] == mutant.original, f"{mutant}: not where it was found"
    page.write_text(original[:mutant.start] + mutant.replacement + original[mutant.start + len(mutant.original):], encoding="utf-8")
    try:
        yield
    finally:
        page.write_text(original, encoding="utf-8")


# A check can only notice a changed page if its file reads pages: through claimcheck.stated, the page
# reader, or a path under docs/. A unit whose file shows none of these cannot kill a mutant of prose.
READS_PAGES = re.compile(r"\bstated\b|read_page|Project\(|[\"'/]docs[\"'/]")


def sees_pages(unit: str, tree: Path) -> bool:
    path = tree / unit.split("::")[0]
    if path.suffix == ".md":
        return "stated" in path.read_text(encoding="utf-8")
    return bool(READS_PAGES.search(path.read_text(encoding="utf-8")))


def run_mutant(mutant: Mutant, tree: Path, run_all: bool = False) -> str:
    """'killed' when the claim's checks fail on the mutated page, 'survived' when they pass, else 'error'.

    Units that cannot read a page are skipped unless `run_all`: they pass on any page, so running
    them only costs time (the outcome is the same, or a survivor more when the guess was wrong)."""
    units = [unit for unit in mutant.units if run_all or sees_pages(unit, tree)]
    if not units:
        return "survived"
    with applied(mutant, tree):
        # Only the plugins a claim's checks use: the installed ones (Hypothesis's, anyio's) cost a second
        # of start-up per mutant and no check needs them; pytest-timeout keeps pyproject's timeout, and
        # claimcheck's plugin collects the snippets and the pages' examples.
        result = subprocess.run(
            [sys.executable, "-m", "pytest", "-q", "-x", "-p", "no:cacheprovider", "-p", "pytest_timeout",
             "-p", "claimcheck.pytest_plugin",
             "-m", "not build and not browser", *units],
            cwd=tree, capture_output=True, text=True,
            env={**os.environ, "PYTHONDONTWRITEBYTECODE": "1", "PYTEST_DISABLE_PLUGIN_AUTOLOAD": "1"},
        )
    # 1: a check failed. 0: all passed. Anything else (no tests, a usage error) tells nothing.
    return {0: "survived", 1: "killed"}.get(result.returncode, "error")


def caught_statically(mutant: Mutant, tree: Path, checks: dict[str, list[claims.CheckSite]]) -> bool:
    """True when the static contract names this mutant (it runs no check): only the mutated claim is read again."""
    with applied(mutant, tree):
        page = read_page(tree / mutant.claim.page, mutant.claim.page)
    marker = next(marker for marker in page.markers if marker.id == mutant.claim.id)
    alone = claims.Claims([marker], {marker.id: checks.get(marker.id, [])}, [])
    project = Project(tree)
    problems = claimcontract.number_problems(project, alone) if mutant.kind == "number" else claimcontract.name_problems(project, alone)
    return bool(problems)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="dev.py mutate", description=__doc__.split("\n\n")[0])
    parser.add_argument("pages", nargs="*", help="pages to mutate, e.g. docs/AI/AgentDesign.md (default: all)")
    parser.add_argument("--claim", nargs="+", default=[], metavar="ID", help="only these claims")
    parser.add_argument("--run-all", action="store_true", help="also run the checks whose files read no page")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 2, help="mutants run at once (default: one per core)")
    options = parser.parse_args(argv)
    started = time.perf_counter()
    with tempfile.TemporaryDirectory(prefix="mutate-") as folder:
        # Each worker owns one copy of the tree, taken once: the working tree is never touched.
        copies = [copy_tree(REPO_ROOT, Path(folder) / f"tree{index}") for index in range(max(1, options.jobs))]
        project = Project(copies[0])
        pages = {Path(page).as_posix() for page in options.pages} or None
        collected = claims.collect(project)
        found = mutants(project, collected, pages, set(options.claim) or None)
        if not found:
            print("no number or name in a checked claim of those pages")
            return 0
        results = run_all(found, copies, collected.checks, options.run_all)
    return report(results, time.perf_counter() - started)


def run_all(found: list[Mutant], copies: list[Path], checks: dict, every_unit: bool = False) -> list[tuple[Mutant, str, bool]]:
    def work(batch: list[Mutant], tree: Path) -> list[tuple[Mutant, str, bool]]:
        return [(mutant, run_mutant(mutant, tree, every_unit), caught_statically(mutant, tree, checks)) for mutant in batch]

    batches = [found[worker::len(copies)] for worker in range(len(copies))]
    with ThreadPoolExecutor(max_workers=len(copies)) as pool:
        results = [result for batch in pool.map(work, batches, copies) for result in batch]
    return sorted(results, key=lambda result: (result[0].claim.page.as_posix(), result[0].start))


def report(results: list[tuple[Mutant, str, bool]], seconds: float) -> int:
    killed = [mutant for mutant, outcome, _ in results if outcome == "killed"]
    survivors = [(mutant, outcome, static) for mutant, outcome, static in results if outcome != "killed"]
    caught = [mutant for mutant, _, static in survivors if static]
    print(f"== survivors ({len(survivors)}): no check of the claim failed")
    for mutant, outcome, static in survivors:
        note = "static contract catches it" if static else "nothing catches it"
        print(f"  {mutant}   [{note}{'; the checks did not run cleanly' if outcome == 'error' else ''}]")
    total = len(results)
    print(f"\nmutation score: {len(killed)} of {total} killed by the claims' checks ({100 * len(killed) / total:.0f}%); "
          f"with the static contract: {len(killed) + len(caught)} of {total} ({100 * (len(killed) + len(caught)) / total:.0f}%); "
          f"{seconds:.0f} s")
    return 0 if not survivors else 1


if __name__ == "__main__":
    sys.exit(main())
