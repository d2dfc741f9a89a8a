"""Read a Python file the way the checks need it: its named sections and its `# verifies:` checks."""

from __future__ import annotations

import ast
import functools
import io
import re
import tokenize
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from claimcheck.page import CLAIM_ID, parse_ids
from claimcheck.problems import Problem

# The marker pymdownx.snippets reads: `# --8<-- [start:name]` ... `# --8<-- [end:name]`.
SECTION = re.compile(r"-{1,}8<-{1,}\s+\[\s*(?P<type>start|end)\s*:\s*(?P<name>[a-z][-_0-9a-z]*)\s*\]", re.I)
VERIFIES = re.compile(r"^#\s*verifies:\s*(?P<ids>.*)$")
# A check must be able to fail: it is an assert, or a `with` block (pytest.raises and the like).
CHECK_STATEMENTS = (ast.Assert, ast.With)


@dataclass(frozen=True)
class Section:
    file: Path
    name: str
    start: int
    end: int


@dataclass(frozen=True)
class CodeCheck:
    """A `# verifies:` comment and the statement it stands above."""

    file: Path
    line: int
    ids: tuple[str, ...]
    # The first and last line of the assert or with statement: a failure inside them breaks the claims.
    statement: tuple[int, int]


def read_sections(path: Path, shown_as: Path | None = None) -> tuple[dict[str, Section], list[Problem]]:
    name = shown_as or path
    sections: dict[str, Section] = {}
    open_sections: dict[str, int] = {}
    problems: list[Problem] = []
    for number, text in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        match = SECTION.search(text)
        if not match:
            continue
        section = match["name"]
        if match["type"].lower() == "start":
            if section in open_sections or section in sections:
                problems.append(Problem(name, number, f"section '{section}' is started twice; give each section its own name"))
            open_sections[section] = number
        elif section not in open_sections:
            problems.append(Problem(name, number, f"section '{section}' ends but never starts; add '# --8<-- [start:{section}]' above it"))
        else:
            sections[section] = Section(name, section, open_sections.pop(section), number)
    for section, number in open_sections.items():
        problems.append(Problem(name, number, f"section '{section}' starts but never ends; add '# --8<-- [end:{section}]'"))
    return sections, problems


def read_checks(path: Path, shown_as: Path | None = None) -> tuple[list[CodeCheck], list[Problem]]:
    """Find every `# verifies:` comment and make sure an assert or with statement follows it."""
    name = shown_as or path
    checks, problems = _checks_in(path.read_text(encoding="utf-8"), name)
    return list(checks), list(problems)


# The contract tests, the claims lock and the MCP coverage each read every check file of the tree; the
# same text gives the same checks, so each file is parsed and tokenized once per process.
@functools.lru_cache(maxsize=256)
def _checks_in(source: str, name: Path) -> tuple[tuple[CodeCheck, ...], tuple[Problem, ...]]:
    if "verifies:" not in source:
        # No comment can match VERIFIES: half the files hold no check, and parsing and tokenizing them is most of
        # the time here. A file that does not parse fails where it runs; here it names no check.
        return (), ()
    try:
        tree = ast.parse(source, filename=str(name))
    except SyntaxError as error:
        return (), (Problem(name, error.lineno or 1, f"cannot parse: {error.msg}"),)
    statements = {node.lineno: node for node in _statements(tree.body)}
    lines = source.splitlines()
    checks: list[CodeCheck] = []
    problems: list[Problem] = []
    for token in tokenize.generate_tokens(io.StringIO(source).readline):
        if token.type != tokenize.COMMENT:
            continue
        match = VERIFIES.match(token.string)
        if not match:
            continue
        number = token.start[0]
        ids = parse_ids(match["ids"])
        bad = [claim for claim in ids if not CLAIM_ID.match(claim)]
        if not ids or bad:
            problems.append(Problem(name, number, f"verifies comment names no valid claim id ({', '.join(bad) or 'empty'}); write '# verifies: page.claim-id'"))
            continue
        target = _next_code_line(lines, number)
        statement = statements.get(target) if target else None
        if not isinstance(statement, CHECK_STATEMENTS):
            problems.append(Problem(name, number, f"'# verifies: {', '.join(ids)}' must stand directly above an assert or a with statement, the check that can fail"))
            continue
        checks.append(CodeCheck(name, number, ids, (statement.lineno, statement.end_lineno or statement.lineno)))
    return tuple(checks), tuple(problems)


def _statements(body: list) -> Iterator[ast.stmt]:
    """Every statement of a block and of the blocks inside it (ast.walk also visits every expression: 4x slower)."""
    for node in body:
        if isinstance(node, ast.stmt):
            yield node
        for field in ("body", "orelse", "finalbody", "handlers", "cases"):
            yield from _statements(getattr(node, field, None) or [])


def _next_code_line(lines: list[str], after: int) -> int | None:
    for number in range(after + 1, len(lines) + 1):
        stripped = lines[number - 1].strip()
        if stripped and not stripped.startswith("#"):
            return number
    return None
