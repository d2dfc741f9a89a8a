"""Every checked claim of the pages is checked over MCP or recorded as not observable there, with its reason
(conformance/coverage.toml, read by guidetools/mcp_coverage.py)."""

from __future__ import annotations

import pytest

from conformance.checks import collect_checks
from guidetools import mcp_coverage
from guidetools.project import Project

PROJECT = Project()


@pytest.fixture(scope="module")
def markers():
    # The pages' claims alone: where their checks are (claims.collect reads every check source) is not needed here.
    return [marker for page in PROJECT.pages for marker in page.markers if marker.checked]


def over_mcp() -> set[str]:
    return {check.claim for check in collect_checks()}


def listed(text: str | None = None) -> dict[str, mcp_coverage.Listed]:
    return mcp_coverage.read_listed(text if text is not None else (PROJECT.root / mcp_coverage.COVERAGE_FILE).read_text("utf-8"))


def test_every_checked_claim_is_checked_over_mcp_or_listed_with_a_reason(markers):
    found = mcp_coverage.problems(markers, over_mcp(), listed())
    assert not found, "\n".join(found)


def test_each_kind_of_gap_is_named_by_file_line_and_id(markers):
    """Planted on the real record: a claim dropped from it, a check's claim added to it, an id no page has,
    an empty reason. Each is found and named where it stands."""
    text = (PROJECT.root / mcp_coverage.COVERAGE_FILE).read_text("utf-8")
    dropped = next(m for m in markers if m.id == "agent.history-budget")
    checked = next(m for m in markers if m.id == "mesh.json-omits-defaults")
    planted = (text.replace(f'"{dropped.id}" = ', '"agent.history-budgets" = ', 1)
               .replace('"agent.closed-forms" = "cost model: the closed-form token formulas"', '"agent.closed-forms" = " "')
               + f'"{checked.id}" = "planted: it has a check"\n"mesh.get-node-json-x" = ""\n')
    entries = listed(planted)
    found = mcp_coverage.problems(markers, over_mcp(), entries)
    line = {claim: entry.line for claim, entry in entries.items()}
    assert sorted(found) == sorted([
        f"{dropped.page.as_posix()}:{dropped.line} {dropped.id}: neither checked over MCP (no @check in conformance/checks/) "
        f"nor listed in conformance/coverage.toml [not-observable] with a reason; add a check or the reason an MCP client cannot see it",
        f"{checked.page.as_posix()}:{checked.line} {checked.id}: a conformance check names it, yet conformance/coverage.toml:"
        f"{line[checked.id]} lists it as not observable over MCP; drop one",
        f"conformance/coverage.toml:{line['agent.history-budgets']} agent.history-budgets: no checked claim of the pages has this id; "
        "drop the entry or fix the id",
        f"conformance/coverage.toml:{line['mesh.get-node-json-x']} mesh.get-node-json-x: no checked claim of the pages has this id; "
        "drop the entry or fix the id",
        f"conformance/coverage.toml:{line['agent.closed-forms']} agent.closed-forms: the reason is empty; "
        "say in one line why an MCP client cannot observe it",
    ]), "\n".join(found)


def test_the_record_is_read_with_its_line_numbers():
    entries = listed('# note\n[not-observable]\n\n"a.b" = "why"\n  "c.d"="why not"\n')
    assert [(e.id, e.line, e.reason) for e in entries.values()] == [("a.b", 4, "why"), ("c.d", 5, "why not")]
