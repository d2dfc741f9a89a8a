"""The refutation record: every framework claim read against the source by someone who did not write it.

A citation proves that a line still says what it said; a check proves that the page agrees with agentkit.
Neither proves that a claim is the whole truth of its code path. framework/review.toml records, per
framework claim, a reading whose task was to refute it: the tool method, the operations it calls, the
host wiring and the answer's serialization. An entry holds the wording that was read, the reader's
verdict, the files and lines read at the pin, and what changed as a result. A claim reworded after its
reading needs a new reading: the recorded wording must be the page's wording.
"""

from __future__ import annotations

import ast
import functools
import json
import re
import tomllib
from dataclasses import dataclass
from pathlib import Path

from claimcheck.page import Marker
from claimcheck.problems import Problem
from claimcheck.pysource import read_checks
from guidetools.tomllines import table_lines

REVIEW_FILE = Path("framework/review.toml")
# holds: the reading found nothing to refute in the wording it read.
# unsettled: the source cannot decide it (a build whose source is not public, a model's habit); the
#   claim's own text must say so, quoted in `page_says`.
VERDICTS = ("holds", "unsettled")
# What a reading found before the claim was corrected (kept in `was`).
EARLIER_VERDICTS = ("wrong", "incomplete", "unsettled")
# A finding or change names this repository's code as `path::name`, the path from the root: a top-level function,
# class or constant, `Class.method`, or `verifies:<claim-id>` (the checks under that comment). Never by a line,
# which drifts as the code moves; `path (removed since)` where the code is gone.
# `x.py:3`, `x.py:3-4, 9`, and the other ways to write a line: `x.py`:3, x.py line 3, x.py, lines 3-4, x.py#L3.
LINE_REF = re.compile(r"[\w/.-]*\.py`?(?::\s?|,?\s+lines?\s+|#L)\d+(?:-\d+)?(?:,\s*\d+(?:-\d+)?)*")
CODE_REF = re.compile(r"([\w/.-]*\.py)(::[\w.:-]*[\w-]| \(removed since\))?(?!:\d)")  # a name ends before "." or ":"
# "path:12-30", "path:12" or a whole file "path", optionally after a repository key of
# framework/citations.toml ("PDFPIG:…").
READ_SPAN = re.compile(r"^(?:(?P<repo>[A-Z][A-Z0-9]*):)?(?P<path>[^:\s]+\.\w+)(?::(?P<start>\d+)(?:-(?P<end>\d+))?)?$")


@dataclass(frozen=True)
class Span:
    repo: str  # "" for MeshWeaver, else a repository key of framework/citations.toml
    path: str
    start: int  # 0 with end 0: the whole file
    end: int


@dataclass(frozen=True)
class Reading:
    claim: str
    line: int  # where the entry starts in review.toml
    text: str  # the claim's wording as read
    verdict: str
    pin: str
    read: tuple[Span, ...]
    finding: str
    changed: str  # what the reading changed (claim text, agentkit, checks, facts); "" when nothing
    was: str  # the verdict on an earlier wording, when the reading led to a correction
    page_says: str  # for unsettled: the words of the claim that say the source cannot settle it


def load(root: Path) -> tuple[dict[str, Reading], list[Problem]]:
    """The readings of framework/review.toml, and the problems of its form."""
    path = root / REVIEW_FILE
    if not path.is_file():
        return {}, [Problem(REVIEW_FILE, 1, "no refutation record: every framework claim needs a reading")]
    readings, problems = _read(path.read_text(encoding="utf-8"))
    return dict(readings), list(problems)


# The contracts and the claims page each read review.toml in one process: the same text, parsed once.
@functools.lru_cache(maxsize=8)
def _read(text: str) -> tuple[dict[str, Reading], tuple[Problem, ...]]:
    data = tomllib.loads(text)
    starts = table_lines(text, "claims")
    readings: dict[str, Reading] = {}
    problems: list[Problem] = []
    for claim, entry in data.get("claims", {}).items():
        line = starts.get(claim, 1)
        spans, bad = [], []
        for item in entry.get("read", []):
            match = READ_SPAN.match(item)
            if not match:
                bad.append(item)
                continue
            start = int(match["start"] or 0)
            spans.append(Span(match["repo"] or "", match["path"], start, int(match["end"] or start)))
        reading = Reading(claim, line, entry.get("text", ""), entry.get("verdict", ""), entry.get("pin", ""),
                          tuple(spans), entry.get("finding", ""), entry.get("changed", ""), entry.get("was", ""),
                          entry.get("page_says", ""))
        problems += [_problem(reading, f"read span {item!r} is not 'path:START-END', 'path:LINE' or a file 'path'") for item in bad]
        if not entry.get("read"):
            problems.append(_problem(reading, "no file and lines read: a reading names what it read"))
        problems += _form_problems(reading)
        readings[claim] = reading
    return readings, tuple(problems)


def _problem(reading: Reading, message: str) -> Problem:
    """A problem of the reading's entry, at its line of review.toml."""
    return Problem(REVIEW_FILE, reading.line, f"{reading.claim}: {message}", reading.claim)


def _form_problems(reading: Reading) -> list[Problem]:
    problem = functools.partial(_problem, reading)
    found = []
    if reading.verdict not in VERDICTS:
        found.append(problem(f"verdict {reading.verdict!r} is not one of {', '.join(VERDICTS)}; a claim found wrong "
                             "is corrected, read again, and keeps the first verdict in `was`"))
    if not reading.finding.strip():
        found.append(problem("no finding: say what the code path does"))
    if reading.was and reading.was not in EARLIER_VERDICTS:
        found.append(problem(f"`was` {reading.was!r} is not one of {', '.join(EARLIER_VERDICTS)}"))
    if reading.was and not reading.changed.strip():
        found.append(problem(f"the reading found the claim {reading.was} but `changed` does not say what changed"))
    if reading.verdict == "unsettled" and (not reading.page_says or reading.page_says not in reading.text):
        found.append(problem("an unsettled claim must say so on the page: quote those words of its text in `page_says`"))
    return found


def problems(markers: list[Marker], readings: dict[str, Reading], pin: str) -> list[Problem]:
    """Framework claims without a reading, readings of another wording or pin, and readings of no claim."""
    found: list[Problem] = []
    framework = _framework_claims(markers)
    for claim, marker in framework.items():
        reading = readings.get(claim)
        if reading is None:
            found.append(Problem(marker.page, marker.line, f"framework claim {claim} has no refutation reading in {REVIEW_FILE}", claim))
        elif reading.text != marker.text:
            found.append(Problem(marker.page, marker.line, (
                f"framework claim {claim} was reworded after its reading ({REVIEW_FILE}:{reading.line}): read the new "
                f"wording against the source and record it\n    read: {reading.text}\n    now:  {marker.text}"), claim))
        elif not pin.startswith(reading.pin) or len(reading.pin) < 7:
            found.append(_problem(reading, f"read at {reading.pin!r}, not at the pin {pin[:12]}"))
    found += [_problem(reading, "no framework claim has this id; remove the entry")
              for claim, reading in readings.items() if claim not in framework]
    return found


def ref_problems(readings: dict[str, Reading], root: Path) -> list[Problem]:
    """Refs in findings and changes that cite a line, or name a file or code that `root` does not hold."""
    found = []
    for reading in readings.values():
        texts = (reading.finding, reading.changed)
        wrong = [f"{match.group(0)} cites a line, which drifts: cite path::name"
                 for text in texts for match in LINE_REF.finditer(text)]
        wrong += [f"{path}{rest}: {why}" for text in texts for path, rest in CODE_REF.findall(text)
                  if (why := _unresolved(root, path, rest))]
        found += [_problem(reading, message) for message in wrong]
    return found


def _unresolved(root: Path, path: str, rest: str) -> str | None:
    """Why the ref `path` + `rest` (`::name`, ` (removed since)` or nothing) names nothing in `root`; None if it does."""
    file = root / path
    if rest == " (removed since)":
        return None if "/" in path and file.parent.is_dir() else "not a path from the repository root"
    if not rest and "/" not in path:
        return None  # a bare file name ("the snippet x.py") is prose
    if not file.is_file():
        return "no such file from the repository root"
    name = rest[2:]
    if not name:
        return None
    if name.startswith("verifies:"):
        checks, _ = read_checks(file)
        return None if name.removeprefix("verifies:") in {i for check in checks for i in check.ids} else "no such check"
    return None if name in _names(file.read_text(encoding="utf-8")) else f"{path} defines no {name}"


@functools.lru_cache(maxsize=64)  # a file that several refs name is parsed once
def _names(source: str) -> frozenset[str]:
    """A module's top-level functions, classes and assigned names, and `Class.method` for each method of a class."""
    names, functions = set(), (ast.FunctionDef, ast.AsyncFunctionDef)
    for node in ast.parse(source).body:
        if isinstance(node, (*functions, ast.ClassDef)):
            names.add(node.name)
        if isinstance(node, ast.ClassDef):
            names |= {f"{node.name}.{item.name}" for item in node.body if isinstance(item, functions)}
        elif isinstance(node, (ast.Assign, ast.AnnAssign)):
            names |= {t.id for t in getattr(node, "targets", None) or [node.target] if isinstance(t, ast.Name)}
    return frozenset(names)


def span_problems(readings: dict[str, Reading], repo: str, files: dict[str, list[str] | None]) -> list[Problem]:
    """Spans into `repo` that name a file absent at its commit, or lines past its end; `files` maps a path to its lines."""
    found = []
    for reading in readings.values():
        for span in (span for span in reading.read if span.repo == repo):
            lines = files.get(span.path)
            where = f"{repo + ':' if repo else ''}{span.path}"
            if lines is None:
                found.append(_problem(reading, f"{where} does not exist at the pin"))
            elif span.start and not 1 <= span.start <= span.end <= len(lines):
                found.append(_problem(reading, f"{where}:{span.start}-{span.end} is outside the file's {len(lines)} lines"))
    return found


def summary(readings: dict[str, Reading]) -> dict[str, int]:
    """How many readings hold, are unsettled, and were corrected (their `was`)."""
    counts = dict.fromkeys(VERDICTS, 0) | {"corrected": sum(bool(reading.was) for reading in readings.values())}
    for reading in readings.values():
        counts[reading.verdict] = counts.get(reading.verdict, 0) + 1
    return counts


def _framework_claims(markers: list[Marker]) -> dict[str, Marker]:
    """Each framework claim's first marker, by id, in page order."""
    found: dict[str, Marker] = {}
    for marker in markers:
        if marker.kind == "framework":
            found.setdefault(marker.id, marker)
    return found


def unread(markers: list[Marker], readings: dict[str, Reading]) -> list[Marker]:
    """The framework claims with no reading of their current wording, in page order: a reader's to-do list."""
    return [marker for claim, marker in _framework_claims(markers).items()
            if claim not in readings or readings[claim].text != marker.text]


def main() -> int:
    """`python3 -m guidetools.refutation`: the claims a reader still has to read, as tables to fill in review.toml."""
    from guidetools.project import Project

    project = Project()
    readings, form = load(project.root)
    form += ref_problems(readings, project.root)
    for problem in form:
        print(problem)
    markers = [marker for page in project.pages for marker in page.markers]
    todo = unread(markers, readings)
    for marker in todo:
        earlier = readings.get(marker.id)
        print(f'\n[claims."{marker.id}"]  # {marker.page.as_posix()}:{marker.line}, cites {" ".join(marker.cites)}')
        print("text = " + json.dumps(marker.text, ensure_ascii=False))  # a JSON string is a TOML basic string
        print('verdict = ""  # holds | unsettled (with page_says); a wrong or incomplete claim is corrected first')
        if earlier is not None:
            print(f"# the reading of an earlier wording: {earlier.verdict}" + (f", was {earlier.was}" if earlier.was else ""))
    print(f"\n# {len(todo)} framework claim(s) without a reading of their current wording", flush=True)
    return 1 if todo or form else 0


if __name__ == "__main__":
    raise SystemExit(main())
