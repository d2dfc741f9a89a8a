"""Tests for agentkit/guide/_facts.py and _checks.py beyond the pages: the table reader, the worksheet's parser and
its refusals, and grading. Label search, verification by Get, reconciliation, a second spelling and the worksheet's nodes written
typed with every field (graded correct) are checked by snippets/agent_design_04_write_patterns.py and _06_measured.py."""

from __future__ import annotations

from dataclasses import replace

import pytest

from agentkit.guide import WorksheetError
from agentkit.guide._checks import grade, list_dimensions
from agentkit.guide._facts import (
    NOT_REPORTED, DimensionRow, FactRow, Requested, Worksheet, build_worksheet, checklist_text, dimension_path, fact_id,
    parse_amount, parse_checklist, read_tables,
)
from agentkit.guide._report import REPORT, STATEMENTS
from agentkit.guide._procedures import OWNER
from agentkit.guide._scenarios import workspace

SOURCE = f"{OWNER}/content/{REPORT.file_name}"
FACTS_HEAD = "# Worksheet: a.pdf -> Acme\n## Facts\n| id | lineItem | period | value | unit | note |\n"


def _worksheet(text) -> Worksheet:
    listed = list_dimensions(workspace(), OWNER)["results"]
    return build_worksheet(OWNER, SOURCE, text, parse_checklist(checklist_text()), listed, REPORT.periods)


@pytest.mark.parametrize("key, period, position", [("re/v", "FY2024", 1), ("", "FY2024", 1), ("rev", "FY2024", 0),
                                                   ("rev", "FY 2024", 1), ("rev", "FY2024", True)])
def test_fact_id_refuses_what_is_no_slug(key, period, position):
    with pytest.raises(ValueError):
        fact_id(key, period, position)


def test_read_tables_finds_every_reported_value_at_its_position(report_get_text):
    """Each value parses back (brackets read as negative); a number cut at a chunk boundary does not."""
    with pytest.raises(ValueError):
        parse_amount("356.")
    rows = {row.name: row for row in read_tables(report_get_text)}
    assert len(rows) == len(REPORT.line_items)
    for value in REPORT.values:
        item = REPORT.item(value.item)
        row = rows[item.name]
        assert (row.statement, row.position, row.unit) == (STATEMENTS[item.statement], item.position, item.unit)
        assert parse_amount(row.values[value.period]) == value.value


def test_read_tables_reads_cells_run_together_and_ends_a_table_at_a_row_it_cannot_divide(report_get_text):
    """Get's text runs a row's cells together; the reader divides fused figures only where they split one way."""
    assert "RevenueEUR m4,812.34,523.1Cost of sales" in report_get_text  # the text as Get returns it (C9)
    spaced = report_get_text.replace("RevenueEUR m4,812.34,523.1", "Revenue EUR m 4,812.3 4,523.1\n")
    assert read_tables(spaced) == read_tables(report_get_text)
    # A row whose figures divide no way (here: printed without decimals) ends its table; the rows after it, and the
    # row itself, read as not stated in the report.
    broken = report_get_text.replace("Gross profitEUR m1,876.81,721.4", "Gross profitEUR m18771721")
    rows = [row.name for row in read_tables(broken) if row.statement == STATEMENTS["income"]]
    worksheet = _worksheet(broken)
    lost = {row.key for row in worksheet.facts if row.value is None} - {item.key for item in REPORT.unreported}
    # verifies: agent.undividable-row-ends-table
    assert rows == ["Revenue", "Cost of sales"] and "gp" in lost and len(lost) > 1
    # verifies: agent.undividable-row-ends-table
    assert all(row.reason == NOT_REPORTED for row in worksheet.facts if row.key in lost)


def test_worksheet_text_round_trips_without_rounding(report_get_text):
    """A value with more decimals than the report prints reads back the same; a whole one is written without any."""
    worksheet = _worksheet(report_get_text)
    assert Worksheet.from_text("Here it is.\n\n" + worksheet.to_text()) == worksheet
    row = FactRow("x-FY-1", "x", "FY", 1234.5678, "EUR m")
    worksheet = Worksheet("Acme", "a.pdf", (DimensionRow("x", "X", "s", "EUR m", "new"),), (row,))
    assert Worksheet.from_text(worksheet.to_text()).facts[0].value == 1234.5678
    assert "| x-FY-1 | x | FY | 2 | EUR m |" in replace(worksheet, facts=(replace(row, value=2.0),)).to_text()


@pytest.mark.parametrize("text, message", [
    ("no worksheet here", "No worksheet found"),
    ("# Worksheet: a.pdf -> Acme\n## Dimensions\n| key | name | statement | unit | status |\n| x | X | s | u | maybe |",
     "status must be 'exists' or 'new'"),
    (FACTS_HEAD + "| x-1 | x | FY | abc | u | |", "is not a number"),
    (FACTS_HEAD + "| x-1 | x | FY |  | u | |", "no value and no note"),
    ("# Worksheet: a.pdf -> Acme\n## Dimensions\n| key | name | statement | unit | status |\n| x | X | s | new |",
     "has 5 cells"),
])
def test_malformed_worksheets_name_the_problem(text, message):
    with pytest.raises(WorksheetError, match=message):
        Worksheet.from_text(text)


def test_worksheet_matches_an_existing_dimension_by_label_and_uses_its_key(report_get_text):
    """A listed node with another id but the report's label is the dimension: its id becomes the fact ids' key."""
    listed = [{"path": f"{OWNER}/LineItems/sales", "name": "revenue"}, {"path": f"{OWNER}/LineItems/np", "name": "x"}]
    requested = [Requested("rev", "Revenue"), Requested("np", "Net profit")]
    worksheet = build_worksheet(OWNER, SOURCE, report_get_text, requested, listed, REPORT.periods)
    assert [(row.key, row.status) for row in worksheet.dimensions] == [("sales", "exists"), ("np", "exists")]
    assert [row.id for row in worksheet.facts] == ["sales-FY2024-1", "sales-FY2023-1", "np-FY2024-11", "np-FY2023-11"]


ROW = FactRow("x-FY-1", "x", "FY", 1.0, "EUR")


@pytest.mark.parametrize("dimensions, facts, message", [
    ((), (ROW,), "no dimension row"),  # phase 2 could not tell whether to create the dimension
    ((DimensionRow("x", "X", "s", "EUR", "exists"),), (ROW, ROW), "fact id 'x-FY-1' appears twice"),  # one node, a row lost
])
def test_a_worksheet_that_cannot_be_written_as_it_stands_is_refused(dimensions, facts, message):
    with pytest.raises(WorksheetError, match=message):
        Worksheet("Acme", "a.pdf", dimensions, facts).nodes_to_create()


def test_grade_judges_facts_by_content_and_counts_duplicates():
    mesh = workspace()
    before = {node.path for node in mesh.nodes()}
    value = REPORT.value("rev", "FY2024")
    content = {"$type": "Fact", "lineItem": dimension_path(OWNER, "rev"), "period": "FY2024", "value": value.value,
               "unit": "EUR m"}
    mesh.create({"id": "any-id", "namespace": f"{OWNER}/Facts", "name": "r", "nodeType": "Fact", "content": content})
    mesh.create({"id": "again", "namespace": f"{OWNER}/Facts", "name": "r", "nodeType": "Fact",
                 "content": content | {"value": 1.0}})
    result = grade(mesh, OWNER, before)
    assert (result.written, result.correct, result.duplicates) == (2, 1, 1)
    assert f"{dimension_path(OWNER, 'rev')} FY2023" in result.missing
