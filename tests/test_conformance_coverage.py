"""Every checked claim is checked over MCP or recorded in conformance/coverage.toml with its reason."""

from __future__ import annotations

import pytest

from conformance.checks import collect_checks
from guidetools import mcp_coverage
from guidetools.project import Project

PROJECT = Project()
OVER_MCP = {check.claim for check in collect_checks()}
RECORD = (PROJECT.root / mcp_coverage.COVERAGE_FILE).read_text("utf-8")


@pytest.fixture(scope="module")
def markers():
    return [marker for page in PROJECT.pages for marker in page.markers if marker.checked]


def test_every_checked_claim_is_checked_over_mcp_or_listed_with_a_reason(markers):
    found = mcp_coverage.problems(markers, OVER_MCP, mcp_coverage.read_listed(RECORD))
    assert not found, "\n".join(found)


def test_each_kind_of_gap_is_named_by_file_line_and_id(markers):
    """Planted on the real record: a claim dropped, a checked claim added, ids no page has, an empty reason."""
    dropped = next(m for m in markers if m.id == "agent.history-budget")
    checked = next(m for m in markers if m.id == "mesh.json-omits-defaults")
    planted = (RECORD.replace(f'"{dropped.id}" = ', '"agent.history-budgets" = ', 1)
               .replace('"agent.closed-forms" = "cost model: the closed-form token formulas"', '"agent.closed-forms" = " "')
               + f'"{checked.id}" = "planted: it has a check"\n"mesh.get-node-json-x" = ""\n')
    entries = mcp_coverage.read_listed(planted)
    found = mcp_coverage.problems(markers, OVER_MCP, entries)
    # Each planted entry's line, counted here (not by read_listed) from the record it reads.
    line = {claim: planted[:planted.index(f'"{claim}" =')].count("\n") + 1 for claim in entries}
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

