"""The review report of a doc change, in Markdown for a CI job summary.

    python3 dev.py review [BASE] [--run]

BASE defaults to the merge base with `main`, or HEAD~1 when the checkout is main itself; the
change is BASE against the working tree (what is committed since BASE plus what is not yet).
The report lists the claims added, removed or reworded (old and new text, with their checks),
the numbers that changed on the pages, and the new or changed sentences that state behaviour
without a claim marker, so the reviewer reads those first. `--run` also runs the checks of
those claims and gives each file's status.
"""

from __future__ import annotations

import argparse
import io
import re
import subprocess
import sys
import tarfile
import tempfile
from dataclasses import dataclass
from pathlib import Path

from guidetools import claimlock, claims
from claimcheck.numbers import numbers_in
from claimcheck.inline import read_inline
from claimcheck.page import MARKER, blank_list_marker, list_marker, read_page
from guidetools.project import REPO_ROOT, Project

# Words that state how something behaves; a sentence with one of them (or a code span) is a promise.
BEHAVIOUR_WORDS = re.compile(r"\b(returns?|always|never|only|must|cannot|can't|refuses?|fails?|guarantees?|every|each|exactly)\b", re.I)
SENTENCE_END = re.compile(r"(?<=[.!?])\s+(?=[A-Z`*(])")
HUNK = re.compile(r"^@@ -\d+(?:,\d+)? \+(?P<new>\d+)(?:,\d+)? @@")


def git(root: Path, *args: str) -> str:
    return subprocess.run(["git", *args], cwd=root, check=True, capture_output=True, text=True).stdout


def default_base(root: Path) -> str:
    """The merge base with main; on main itself (or with a single branch), HEAD~1."""
    head = git(root, "rev-parse", "HEAD").strip()
    try:
        base = git(root, "merge-base", "HEAD", "main").strip()
    except subprocess.CalledProcessError:
        base = head
    return "HEAD~1" if base == head else base


def tree_at(root: Path, ref: str, into: Path) -> Project:
    """The docs, snippets, tests and facts of `ref`, unpacked into a folder, as a Project."""
    # Every folder that holds pages, checks or facts (Project.check_source_paths reads the same ones).
    paths = [path for path in ("docs", "snippets", "tests", "framework", "conformance") if git(root, "ls-tree", "--name-only", ref, path).strip()]
    archive = subprocess.run(["git", "archive", ref, *paths], cwd=root, check=True, capture_output=True).stdout
    with tarfile.open(fileobj=io.BytesIO(archive)) as tar:
        tar.extractall(into, filter="data")
    facts_file = into / "framework" / "citations.toml"
    if not facts_file.is_file():
        # A tree from before the facts file: its claims cite nothing, which is all the report needs to know.
        facts_file.parent.mkdir(parents=True, exist_ok=True)
        facts_file.write_text('[pin]\nrepo = "unknown/unknown"\ncommit = "0000000"\n\n[facts]\n', encoding="utf-8")
    return Project(into)


# A framework claim's new wording is read against the source by someone who did not write it (guidetools/refutation.py).
_READING_NEEDED = ("  - refutation reading: the new wording needs one in `framework/review.toml` by a reader who did not "
                   "write it (`python3 -m guidetools.refutation` lists it)")

@dataclass
class Report:
    base: str
    added: list[tuple[claims.Marker, list[claims.CheckSite]]]
    removed: list[claims.Marker]
    reworded: list[tuple[claims.Marker, claims.Marker, list[claims.CheckSite], bool]]  # old, new, checks, checks changed
    numbers: list[tuple[str, int, list[str], list[str]]]  # page, line, numbers gone, numbers new
    unmarked: list[tuple[str, int, str, list[str]]]  # page, line, sentence, why it reads as behaviour
    statuses: dict[str, str]

    def markdown(self) -> str:
        out = [f"# Doc review: `{self.base}` → working tree", "",
               f"**{len(self.added)} claims added, {len(self.removed)} removed, {len(self.reworded)} reworded; "
               f"{len(self.numbers)} places with changed numbers; {len(self.unmarked)} unmarked behaviour sentences.**",
               "", "## Claims", ""]
        if not (self.added or self.removed or self.reworded):
            out.append("No claim was added, removed or reworded.")
        for marker, sites in self.added:
            out += [f"- **added** `{marker.id}` ({marker.kind}) at {_where(marker)}: {marker.text}", f"  - checks: {self._checks(sites)}"]
            out += [_READING_NEEDED] if marker.kind == "framework" else []
        for marker in self.removed:
            out += [f"- **removed** `{marker.id}` ({marker.kind}), was at {_where(marker)}: {marker.text}"]
        for old, new, sites, changed in self.reworded:
            verdict = "changed with it" if changed else f"**unchanged**: the new wording needs `python3 dev.py regen --confirm {new.id}` or a changed check"
            out += [
                f"- **reworded** `{new.id}` ({new.kind}) at {_where(new)}",
                f"  - was: {old.text}",
                f"  - now: {new.text}",
                f"  - checks: {self._checks(sites)}; {verdict}",
            ]
            out += [_READING_NEEDED] if new.kind == "framework" else []
        out += ["", "## Numbers changed", ""]
        if not self.numbers:
            out.append("No number on a page changed.")
        else:
            out += ["| where | was | now |", "| --- | --- | --- |"]
            out += [f"| {page}:{line} | {', '.join(gone) or '—'} | {', '.join(new) or '—'} |" for page, line, gone, new in self.numbers]
        out += ["", "## Behaviour stated without a claim marker", ""]
        if not self.unmarked:
            out.append("No new or changed sentence states behaviour without a claim marker.")
        else:
            out += ["New or changed sentences that read as a promise but carry no claim marker, so no check stands behind them:", ""]
            out += [f"- {page}:{line}: {sentence} _({', '.join(why)})_" for page, line, sentence, why in self.unmarked]
        return "\n".join(out) + "\n"

    def _checks(self, sites: list[claims.CheckSite]) -> str:
        if not sites:
            return "none"
        return ", ".join(f"`{site}`" + (f" {self.statuses[str(site)]}" if str(site) in self.statuses else "") for site in sites)


def _where(marker: claims.Marker) -> str:
    return f"{marker.page.as_posix()}:{marker.line}"


def build(root: Path, base: str, run_checks: bool = False) -> Report:
    new_project = Project(root)
    new_claims = claims.collect(new_project)
    with tempfile.TemporaryDirectory() as folder:
        old_project = tree_at(root, base, Path(folder))
        old_claims = claims.collect(old_project)
        old_entries = claimlock.current(old_project, old_claims)
    new_entries = claimlock.current(new_project, new_claims)
    old_markers = {marker.id: marker for marker in old_claims.markers}
    new_markers = {marker.id: marker for marker in new_claims.markers}
    added = [(marker, new_claims.checks.get(marker.id, [])) for claim, marker in new_markers.items() if claim not in old_markers]
    removed = [marker for claim, marker in old_markers.items() if claim not in new_markers]
    none = claimlock.Entry("", "")
    reworded = [
        (old_markers[claim], marker, new_claims.checks.get(claim, []),
         old_entries.get(claim, none).checks != new_entries.get(claim, none).checks)
        for claim, marker in new_markers.items()
        if claim in old_markers and old_markers[claim].text != marker.text
    ]
    numbers, unmarked = _diff_findings(root, base)
    touched = [site for _, sites in added for site in sites] + [site for *_, sites, _ in reworded for site in sites]
    statuses = _run_checks(root, touched) if run_checks else {}
    return Report(base, added, removed, reworded, numbers, unmarked, statuses)


def _diff_findings(root: Path, base: str):
    """Walk the diff of the pages: numbers that changed per hunk, and unmarked behaviour in added lines."""
    diff = git(root, "diff", "-U0", "--no-color", base, "--", "docs/*.md", "docs/**/*.md", ":!docs/reference/claims.md")
    hunks: list[tuple[str, int, list[str], list[str]]] = []  # page, its first new line, the lines removed and added
    page = None
    for line in diff.splitlines():
        if line.startswith("+++ "):
            page = line[6:] if line.startswith("+++ b/") else None
        elif line.startswith("@@") and page:
            hunks.append((page, int(HUNK.match(line)["new"]), [], []))
        elif hunks and line.startswith("-") and not line.startswith("---"):
            hunks[-1][2].append(line[1:])
        elif hunks and line.startswith("+") and not line.startswith("+++"):
            hunks[-1][3].append(line[1:])
    numbers: list[tuple[str, int, list[str], list[str]]] = []
    unmarked: list[tuple[str, int, str, list[str]]] = []
    pages: dict[str, tuple[list[str], set[int]]] = {}  # a page's lines, and those inside its fences
    for page, start, old_lines, new_lines in hunks:
        was, now = numbers_in(" ".join(old_lines)), numbers_in(" ".join(new_lines))
        gone, new = [n for n in was if n not in now], [n for n in now if n not in was]
        if gone or new:
            numbers.append((page, start, gone, new))
        if page not in pages:
            path = root / page
            lines = path.read_text(encoding="utf-8").splitlines() if path.is_file() else []
            pages[page] = lines, _code_lines(path) if lines else set()
        lines, code_lines = pages[page]
        for number, text in enumerate(new_lines, start):
            if (number in code_lines or not text.strip() or text.lstrip().startswith(("#", "<!--", "{", "|", "--8<--"))
                    or MARKER.match(text) or _is_claimed(lines, number)):
                continue
            for sentence, code in sentences(blank_list_marker(text).strip()):
                why = [f"`{span}`" for span in code] + sorted({word.lower() for word in BEHAVIOUR_WORDS.findall(sentence)})
                if why:
                    unmarked.append((page, number, sentence, why))
    return numbers, unmarked


def sentences(text: str) -> list[tuple[str, list[str]]]:
    """Each sentence of a line with the code spans it holds; a sentence never ends inside a code span."""
    code = read_inline(text).code
    ends = [end for end in SENTENCE_END.finditer(text) if not any(span.start < end.start() < span.end for span in code)]
    sentences, start = [], 0
    for end in [*ends, None]:
        stop = end.start() if end else len(text)
        sentences.append((text[start:stop], [span.text for span in code if start <= span.start < stop]))
        start = end.end() if end else stop
    return sentences


def _code_lines(path: Path) -> set[int]:
    """Lines inside fences: code is checked by the tests, not read as prose."""
    page = read_page(path)
    return {fence.line + offset for fence in page.fences for offset in range(len(fence.body) + 2)}


def _is_claimed(lines: list[str], number: int) -> bool:
    """True when the paragraph or list item holding the line ends with a claim marker."""
    for index in range(number - 1, len(lines)):
        text = lines[index]
        if MARKER.match(text):
            return True
        if not text.strip() or (index > number - 1 and list_marker(text)):
            return False
    return False


def _run_checks(root: Path, sites: list[claims.CheckSite]) -> dict[str, str]:
    """Run each check's unit (its snippet file, test function or page) once: ✓ or ✗ per check site.

    A check of the conformance suite runs against an MCP server (`dev.py conform`), not here."""
    from guidetools.mutate import check_units

    project = Project(root)
    statuses: dict[str, str] = {}
    outcome: dict[str, str] = {}
    for site in sites:
        units = check_units(project, [site])
        if not units:
            continue
        unit = units[0]
        if unit not in outcome:
            result = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", unit], cwd=root, capture_output=True, text=True)
            outcome[unit] = {0: "✓ passes", 1: "✗ fails"}.get(result.returncode, f"? pytest exit {result.returncode}")
        statuses[str(site)] = outcome[unit]
    return statuses


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="dev.py review", description=__doc__.split("\n\n")[0])
    parser.add_argument("base", nargs="?", help="the ref to compare with (default: merge base with main, or HEAD~1 on main)")
    parser.add_argument("--run", action="store_true", help="run the checks of the claims the change touches")
    parser.add_argument("--output", type=Path, help="write the Markdown here instead of printing it")
    options = parser.parse_args(argv)
    base = options.base or default_base(REPO_ROOT)
    text = build(REPO_ROOT, base, options.run).markdown()
    if options.output:
        options.output.write_text(text, encoding="utf-8")
    else:
        sys.stdout.write(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
