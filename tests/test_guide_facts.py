"""Tests for agentkit/guide/_facts.py: typed fact and dimension nodes, the worksheet, the checks after writing."""

from __future__ import annotations

import json
from dataclasses import replace

import pytest

from agentkit.guide import MissingMasterData, WorksheetError
from agentkit.guide._facts import (
    NOT_REPORTED, DimensionRow, FactRow, Requested, Worksheet, build_worksheet, checklist_text, dimension_path, fact_id,
    fact_path, facts_for, grade, invented_key, list_dimensions, parse_amount, parse_checklist, read_tables, reconcile,
    search_dimension_by_name, verify_by_get,
)
from agentkit.guide._report import REPORT, STATEMENTS
from agentkit.guide._procedures import OWNER
from agentkit.guide._scenarios import workspace

SOURCE = f"{OWNER}/content/{REPORT.file_name}"
FACTS_HEAD = "# Worksheet: a.pdf -> Acme\n## Facts\n| id | lineItem | period | value | unit | note |\n"


@pytest.fixture(scope="module")
def text(report_get_text) -> str:
    return report_get_text


@pytest.fixture()
def mesh():
    return workspace()


def _worksheet(mesh, text) -> Worksheet:
    listed = list_dimensions(mesh, OWNER)["results"]
    return build_worksheet(OWNER, SOURCE, text, parse_checklist(checklist_text()), listed, REPORT.periods)


def test_fact_id_is_short_key_period_position():
    """The fact id is {shortKey}-{period}-{position}, the same on every call."""
    assert fact_id("rev", "FY2024", 1) == "rev-FY2024-1" == fact_id("rev", "FY2024", 1)


@pytest.mark.parametrize("key, period, position", [("re/v", "FY2024", 1), ("", "FY2024", 1), ("rev", "FY2024", 0),
                                                   ("rev", "FY 2024", 1), ("rev", "FY2024", True)])
def test_fact_id_refuses_what_is_no_slug(key, period, position):
    """A key or period that would not make a slug, or a position below 1, is refused."""
    with pytest.raises(ValueError):
        fact_id(key, period, position)


def test_parse_amount_reads_brackets_as_negative_and_refuses_a_cut_number():
    """(2,935.5) is -2935.5; a number cut at a chunk boundary ('356.') is not an amount."""
    assert parse_amount("4,812.3") == 4812.3
    assert parse_amount("(2,935.5)") == -2935.5
    with pytest.raises(ValueError):
        parse_amount("356.")


def test_read_tables_finds_every_reported_value_at_its_position(text):
    """Every value of the ground truth is read from the statement tables with its statement and row position."""
    rows = {row.name: row for row in read_tables(text)}
    assert len(rows) == len(REPORT.line_items)
    for value in REPORT.values:
        item = REPORT.item(value.item)
        row = rows[item.name]
        assert (row.statement, row.position, row.unit) == (STATEMENTS[item.statement], item.position, item.unit)
        assert parse_amount(row.values[value.period]) == value.value


def test_read_tables_reads_cells_run_together_and_ends_a_table_at_a_row_it_cannot_divide(mesh, text):
    """Get's text runs a row's cells together; the reader divides fused figures only where they split one way."""
    assert "RevenueEUR m4,812.34,523.1Cost of sales" in text  # the text as Get returns it (C9)
    spaced = text.replace("RevenueEUR m4,812.34,523.1", "Revenue EUR m 4,812.3 4,523.1\n")
    assert read_tables(spaced) == read_tables(text)
    # A row whose figures divide no way (here: printed without decimals) ends its table; the rows after it, and the
    # row itself, read as not stated in the report.
    broken = text.replace("Gross profitEUR m1,876.81,721.4", "Gross profitEUR m18771721")
    rows = [row.name for row in read_tables(broken) if row.statement == STATEMENTS["income"]]
    worksheet = _worksheet(mesh, broken)
    lost = {row.key for row in worksheet.facts if row.value is None} - {item.key for item in REPORT.unreported}
    # verifies: agent.undividable-row-ends-table
    assert rows == ["Revenue", "Cost of sales"] and "gp" in lost and len(lost) > 1
    # verifies: agent.undividable-row-ends-table
    assert all(row.reason == NOT_REPORTED for row in worksheet.facts if row.key in lost)


def test_worksheet_holds_deterministic_ids_status_and_unreported_rows(mesh, text):
    """Fact ids are the report's; seeded dimensions are 'exists', the rest 'new'; unreported items carry a reason."""
    worksheet = _worksheet(mesh, text)
    assert sorted(row.id for row in worksheet.writable_facts) == sorted(v.fact_id for v in REPORT.values)
    assert {row.key for row in worksheet.dimensions if row.status == "exists"} == {
        item.key for item in REPORT.line_items if item.statement in ("income", "balance")}
    assert len(worksheet.new_dimensions) == 11
    unreported = [row for row in worksheet.facts if row.value is None]
    assert {row.key for row in unreported} == {item.key for item in REPORT.unreported}
    assert all(row.reason == NOT_REPORTED for row in unreported)


def test_worksheet_text_round_trips(mesh, text):
    """The worksheet a reviewer reads parses back into the same worksheet."""
    worksheet = _worksheet(mesh, text)
    assert Worksheet.from_text("Here it is.\n\n" + worksheet.to_text()) == worksheet


def test_missing_master_data_is_refused_before_anything_is_written(mesh, text):
    """A new dimension without its unit fails validation, naming the key and the field, before any node is built."""
    worksheet = _worksheet(mesh, text)
    broken_text = worksheet.to_text().replace(
        "| cfo | Net cash from operating activities | Consolidated cash flow statement | EUR m | new |",
        "| cfo | Net cash from operating activities | Consolidated cash flow statement |  | new |")
    broken = Worksheet.from_text(broken_text)
    with pytest.raises(MissingMasterData, match=r"'cfo' lacks unit.*Nothing was written"):
        broken.nodes_to_create()


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
    """Each malformed worksheet raises WorksheetError saying what is wrong and where."""
    with pytest.raises(WorksheetError, match=message):
        Worksheet.from_text(text)


def test_fact_rows_need_a_dimension_row():
    """A fact whose dimension has no row is refused: phase 2 could not tell whether to create it."""
    worksheet = Worksheet("Acme", "a.pdf", (), (FactRow("x-FY-1", "x", "FY", 1.0, "EUR"),))
    with pytest.raises(WorksheetError, match="no dimension row"):
        worksheet.validate()


def test_worksheet_matches_an_existing_dimension_by_label_and_uses_its_key(text):
    """A listed node with another id but the report's label is the dimension: its id becomes the fact ids' key."""
    listed = [{"path": f"{OWNER}/LineItems/sales", "name": "revenue"}, {"path": f"{OWNER}/LineItems/np", "name": "x"}]
    worksheet = build_worksheet(OWNER, SOURCE, text, [Requested("rev", "Revenue"), Requested("np", "Net profit")],
                                listed, REPORT.periods)
    assert [(row.key, row.status) for row in worksheet.dimensions] == [("sales", "exists"), ("np", "exists")]
    assert [row.id for row in worksheet.facts] == ["sales-FY2024-1", "sales-FY2023-1", "np-FY2024-11", "np-FY2023-11"]


def test_a_fact_id_twice_is_refused():
    """Two rows with one id would write one node and silently drop the other row: refused."""
    row = FactRow("x-FY-1", "x", "FY", 1.0, "EUR")
    worksheet = Worksheet("Acme", "a.pdf", (DimensionRow("x", "X", "s", "EUR", "exists"),), (row, row))
    with pytest.raises(WorksheetError, match="fact id 'x-FY-1' appears twice"):
        worksheet.nodes_to_create()


def test_listing_finds_a_dimension_that_a_label_search_misses(mesh):
    """The seeded 'np' is labelled 'Net income': searching 'Net profit' finds nothing, the listing has it."""
    assert search_dimension_by_name(mesh, OWNER, "Net profit")["count"] == 0
    listed = {row["path"] for row in list_dimensions(mesh, OWNER)["results"]}
    assert dimension_path(OWNER, "np") in listed


def test_verification_by_get_succeeds_while_the_search_count_is_zero(mesh, text):
    """Right after writing, every expected path answers Get, while Search still counts no fact."""
    worksheet = _worksheet(mesh, text)
    existing = [row.key for row in worksheet.dimensions if row.status == "exists"]
    for node in worksheet.nodes_to_create(existing):
        mesh.create(node)
    verification = verify_by_get(mesh, worksheet)
    assert verification.complete and verification.search_count == verification.listed_count == 0  # both lag (M2)
    mesh.refresh_index()
    caught_up = verify_by_get(mesh, worksheet)
    assert caught_up.search_count == caught_up.listed_count == len(REPORT.values)


def test_reconciliation_lists_every_row_not_written_with_its_reason(mesh, text):
    """Unreported values, existing dimensions and a refused Create each appear with a reason; nothing is unexplained."""
    worksheet = _worksheet(mesh, text)
    outcomes = {}
    for node in worksheet.nodes_to_create(row.key for row in worksheet.dimensions if row.status == "exists"):
        path = f"{node['namespace']}/{node['id']}"
        outcomes[path] = mesh.create(node).message
    refused = fact_path(OWNER, "rev-FY2024-1")
    outcomes[refused] = "Error: cannot create: 'name' is not set."
    recon = reconcile(worksheet, outcomes)
    reasons = {u.row: u.reason for u in recon.unwritten}
    assert recon.unexplained == 0
    assert reasons["gwimp FY2024"] == NOT_REPORTED
    assert reasons[dimension_path(OWNER, "rev")] == "dimension already exists"
    assert reasons[refused].startswith("Create failed: Error: cannot create")
    assert len(recon.written) == 11 + len(REPORT.values) - 1


def test_a_second_spelling_of_a_dimension_splits_the_dataset(mesh):
    """A fact filed under an invented 'operating-profit' dimension is invisible in the view keyed on 'ebit'."""
    invented = invented_key("Operating profit")
    for node_id, line_item in (("ebit-FY2024-7", "ebit"), (f"{invented}-FY2023", invented)):
        mesh.create({"id": node_id, "namespace": f"{OWNER}/Facts", "name": node_id, "nodeType": "Fact",
                     "content": {"$type": "Fact", "lineItem": dimension_path(OWNER, line_item), "period": "FY2024",
                                 "value": 1.0, "unit": "EUR m"}})
    assert facts_for(mesh, OWNER, "ebit") == [fact_path(OWNER, "ebit-FY2024-7")]


def test_grade_judges_facts_by_content_and_counts_duplicates(mesh):
    """A right value under any id is correct, a wrong value is not, and a second fact for one value is a duplicate."""
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


def test_worksheet_values_round_trip_without_rounding():
    """A value with more decimals than the report prints reads back as the same float."""
    row = FactRow("x-FY-1", "x", "FY", 1234.5678, "EUR m")
    worksheet = Worksheet("Acme", "a.pdf", (DimensionRow("x", "X", "s", "EUR m", "new"),), (row,))
    assert Worksheet.from_text(worksheet.to_text()).facts[0].value == 1234.5678
    assert "| x-FY-1 | x | FY | 2 | EUR m |" in replace(worksheet, facts=(replace(row, value=2.0),)).to_text()


def test_dimension_rows_report_missing_master_data():
    """missing_master_data names each empty field of name, statement and unit."""
    assert DimensionRow("x", "", "s", " ", "new").missing_master_data() == ("name", "unit")


def test_created_nodes_are_typed_with_every_field_kept(mesh, text):
    """A worksheet's Create arguments carry the exact $type and field names: nothing is dropped."""
    worksheet = _worksheet(mesh, text)
    for node in worksheet.nodes_to_create():
        assert mesh.create(json.dumps(node)).dropped_fields == ()
