"""Which checked claims the conformance suite covers over MCP, and which are recorded as not observable there.

Every checked claim of the pages (kinds framework, model, extension) belongs to exactly one group:
a check of the conformance registry names it, or conformance/coverage.toml lists it under
`[not-observable]` with a one-line reason. `problems` names each claim in neither group or in both,
and each listed id that no page has, by file:line.
"""

from __future__ import annotations

import tomllib
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from claimcheck.page import Marker
from guidetools.tomllines import table_lines

COVERAGE_FILE = Path("conformance/coverage.toml")
SECTION = "not-observable"


@dataclass(frozen=True)
class Listed:
    """A claim id recorded as not observable over MCP, where it stands in the record and why."""

    id: str
    line: int
    reason: str


def read_listed(text: str) -> dict[str, Listed]:
    """The `[not-observable]` entries of a coverage record; a duplicate key is a TOML error, so ids are unique."""
    reasons = tomllib.loads(text).get(SECTION, {})
    lines = table_lines(text, SECTION)
    return {claim: Listed(claim, lines.get(claim, 0), reason if isinstance(reason, str) else "")
            for claim, reason in reasons.items()}


def problems(markers: Iterable[Marker], over_mcp: set[str], listed: dict[str, Listed],
             record: Path = COVERAGE_FILE) -> list[str]:
    """One line per claim in neither group or in both, per listed id that is no checked claim, per empty reason."""
    found = []
    checked = {}
    for marker in markers:
        if not marker.checked:
            continue
        checked[marker.id] = marker
        where = f"{marker.page.as_posix()}:{marker.line}"
        if marker.id in over_mcp and marker.id in listed:
            found.append(f"{where} {marker.id}: a conformance check names it, yet {record.as_posix()}:"
                         f"{listed[marker.id].line} lists it as not observable over MCP; drop one")
        elif marker.id not in over_mcp and marker.id not in listed:
            found.append(f"{where} {marker.id}: neither checked over MCP (no @check in conformance/checks/) nor listed "
                         f"in {record.as_posix()} [{SECTION}] with a reason; add a check or the reason an MCP client cannot see it")
    for entry in listed.values():
        where = f"{record.as_posix()}:{entry.line}"
        if entry.id not in checked:
            found.append(f"{where} {entry.id}: no checked claim of the pages has this id; drop the entry or fix the id")
        elif not entry.reason.strip():
            found.append(f"{where} {entry.id}: the reason is empty; say in one line why an MCP client cannot observe it")
    return found
