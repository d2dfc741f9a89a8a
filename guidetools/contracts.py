"""The contract between pages and snippets: every include resolves, every section is shown,
and no page holds code that no test runs."""

from __future__ import annotations

import re

from claimcheck.page import Include
from claimcheck.problems import Problem
from guidetools.project import CAPTURED_OUTPUT, Project
from claimcheck.pysource import read_sections

# pymdownx.snippets' line selections: `:5`, `2:3`, `:1:5,10:`, `-3:`.
LINE_RANGE = re.compile(r"^[-0-9:,]+$")
# Doctest blocks are the only code typed into a page: Sybil runs them.
TESTED_LANGUAGE = "pycon"


def page_problems(project: Project) -> list[Problem]:
    """What reading the pages found: malformed claim markers, misplaced verifies comments, open fences."""
    return [problem for page in project.pages for problem in page.problems]


def include_problems(project: Project) -> list[Problem]:
    """Includes that point at a missing file or section, or select by line range."""
    problems = []
    for page in project.pages:
        for include in page.includes:
            problems += _check_include(project, include)
    return problems


def _check_include(project: Project, include: Include) -> list[Problem]:
    where = (include.page, include.line)
    target = project.root / include.path
    if include.section and LINE_RANGE.match(include.section):
        return [Problem(*where, f"include '{include.path}:{include.section}' selects lines by number; mark a named section and include it by name")]
    if not target.is_file():
        return [Problem(*where, f"include '{include.path}' names no file; paths are relative to the repository root")]
    if include.section is None:
        if include.path.startswith("snippets/") and not include.path.startswith(f"{CAPTURED_OUTPUT}/"):
            return [Problem(*where, f"include '{include.path}' takes the whole snippet file; include a named section ('{include.path}:name')")]
        return []
    sections, _ = read_sections(target)
    if include.section not in sections:
        known = ", ".join(sorted(sections)) or "none"
        return [Problem(*where, f"include '{include.path}:{include.section}': the file has no section '{include.section}' (sections: {known})")]
    return []


def fence_problems(project: Project) -> list[Problem]:
    """Fences that hold code no test runs: anything but includes, outside ```pycon blocks."""
    problems = []
    for page in project.pages:
        for fence in page.fences:
            if fence.language == TESTED_LANGUAGE:
                if fence.includes:
                    problems.append(Problem(fence.page, fence.includes[0].line, "an include inside a ```pycon block is never run; include it in a ```python fence instead"))
                continue
            untested = fence.non_include_lines()
            if untested:
                line, _ = untested[0]
                problems.append(Problem(fence.page, line, f"```{fence.language or 'text'} block holds code that no test runs; move it into a snippets/ section and include it, or make it a ```pycon example"))
    return problems


def section_problems(project: Project) -> list[Problem]:
    """Malformed section markers, and sections or captured output that no page shows."""
    shown = {(include.path, include.section) for page in project.pages for include in page.includes}
    problems = []
    for path in project.snippet_paths:
        sections, malformed = read_sections(project.root / path, path)
        problems += malformed
        for section in sections.values():
            if (path.as_posix(), section.name) not in shown:
                problems.append(Problem(path, section.start, f"section '{section.name}' is shown on no page; include it as \"{path.as_posix()}:{section.name}\" or remove the markers"))
    for path in project.captured_output_paths:
        if (path.as_posix(), None) not in shown:
            problems.append(Problem(path, 1, f"captured output '{path.as_posix()}' is shown on no page; include it or remove its capture() call"))
    return problems
