"""Checks that read a claim's own numbers from its page and compare them with what agentkit does.

A check that compares agentkit with a typed-in literal cannot notice a page that says otherwise;
these can: edit a number in one of these claims and its check here fails (`python3 dev.py mutate`
shows the difference). Each list is the claim's numbers in the order the sentence states them.
"""

from __future__ import annotations

import functools
import math

import pytest
from pypdf import PdfReader

from agentkit import CHUNK_OVERLAP, CHUNK_SIZE, SUMMARY_LIMIT, chunk_spans, extractive_summary, search_chunks
from agentkit._host import UNIFIED_READ_TIMEOUT_SECONDS
from agentkit.guide import REPORT, Worksheet, list_dimensions, read_tables, report_pdf_path, report_tokens, workspace
from agentkit.guide._facts import fused_readings
from agentkit._chunks import snippet
from agentkit._config import DEFAULT_MAXIMUM_ITERATIONS
from agentkit._cost import CACHE_READ
from agentkit._index import clamp_limit
from agentkit._messages import Message
from agentkit.guide._procedures import LONG_ROUND_CAP, TITLES
from agentkit.guide._scenarios import creates_in_scenario_3
from agentkit._paths import document_slug
from agentkit._usage import UNKNOWN_MODEL
from agentkit._threads import HISTORY_BUDGET_CHARS, HISTORY_CELL_TIMEOUT_SECONDS, HISTORY_LOAD_TIMEOUT_SECONDS, message_chars
from claimcheck import captures
from guidetools import stated
from guidetools.project import REPO_ROOT


pytestmark = pytest.mark.usefixtures("report_read_once")  # tests/conftest.py


def test_chunk_window_overlap_and_first_index():
    spans = chunk_spans(5 * CHUNK_SIZE)
    step = spans[1][0] - spans[0][0]
    window = spans[0][1] - spans[0][0]
    overlap = spans[0][1] - spans[1][0]
    one_chunk = len(chunk_spans(CHUNK_SIZE)) == 1 and len(chunk_spans(CHUNK_SIZE + 1)) == 2
    first_index = min(chunk.index for chunk in workspace().index.visible_chunks())  # the report's chunks, as indexed
    # verifies: chunks.window-and-overlap
    assert stated.numbers("chunks.window-and-overlap") == [window, overlap, step, CHUNK_SIZE if one_chunk else None, first_index]
    # verifies: chunks.chunks-reread-overlap
    assert stated.numbers("chunks.chunks-reread-overlap") == [CHUNK_OVERLAP]


def test_report_shape(report_get_text):
    tables = {row.statement for row in read_tables(report_get_text)}
    # verifies: agent.report-shape
    assert stated.numbers("agent.report-shape") == [len(PdfReader(str(report_pdf_path())).pages), len(REPORT.values), len(tables)]
    # verifies: chunks.whole-text-has-every-value
    assert stated.numbers("chunks.whole-text-has-every-value") == [len(REPORT.values)]


def test_fused_figures_and_the_read_path(report_get_text):
    """Rows whose fused figures split more than one way unless the figures share their decimals."""
    rows = read_tables(report_get_text)
    fused = ["".join(row.values.values()) for row in rows]
    ambiguous = [run for run in fused if len(fused_readings(run, len(REPORT.periods), same_decimals=False)) > 1]
    # verifies: chunks.fused-figures-need-decimals
    assert stated.numbers("chunks.fused-figures-need-decimals") == [len(REPORT.periods), len(ambiguous), len(rows)]
    # verifies: chunks.fused-figures-need-decimals
    assert all(len(fused_readings(run, len(REPORT.periods))) == 1 for run in fused) and "621.5528.2" in fused
    # verifies: agent.get-text-read-path
    assert stated.numbers("agent.get-text-read-path") == [report_tokens(), len(rows)]


def test_history_budget():
    overhead = message_chars(Message("user", "x" * 10)) - 10
    # verifies: agent.history-budget
    assert stated.numbers("agent.history-budget") == [HISTORY_BUDGET_CHARS, overhead]


def test_history_rebuild_waits():  # (framework/review.toml names this test and the one above)
    """Each message's wait, then the whole rebuild's limit, as the sentence states them (in seconds)."""
    # verifies: agent.history-rebuild-timeouts
    assert stated.numbers("agent.history-rebuild-timeouts") == [HISTORY_CELL_TIMEOUT_SECONDS, HISTORY_LOAD_TIMEOUT_SECONDS]
    # verifies: agent.history-rebuild-timeouts
    assert HISTORY_LOAD_TIMEOUT_SECONDS <= HISTORY_CELL_TIMEOUT_SECONDS  # the whole load's limit runs out first


def test_search_limit():
    mesh = workspace()
    lowest = mesh.search("", limit=-5)["limit"]
    highest = mesh.search("", limit=10_000)["limit"]
    default = mesh.search("")["limit"]
    # verifies: mesh.search-limit-clamped
    assert stated.numbers("mesh.search-limit-clamped") == [lowest, highest, default]


def test_unified_read_timeout_and_summary_limit():
    """(Reads at and past the timeout: snippets/content_chunk_navigation_01_paths.py.)"""
    # verifies: chunks.file-path-returns-text
    assert stated.numbers("chunks.file-path-returns-text") == [UNIFIED_READ_TIMEOUT_SECONDS]
    cut = extractive_summary("x" * 400)
    # verifies: chunks.summary-is-extractive
    assert stated.numbers("chunks.summary-is-extractive") == [SUMMARY_LIMIT, len(cut.rstrip("…"))]


def scenario_number(key: str) -> int:  # as the pages count them: 1 to 4, in agentkit's order
    return list(TITLES).index(key) + 1


def results():  # as the measured-effect listing computed them
    return {result.key: result for result in shown("agent_design_06_measured.py")["results"]}


def test_scenario_numbers_and_the_long_rounds_caps():
    # verifies: agent.reconciliation-explains-every-row
    assert stated.numbers("agent.reconciliation-explains-every-row") == [scenario_number("worksheet")]
    # verifies: agent.deterministic-ids-resume
    assert stated.numbers("agent.deterministic-ids-resume") == [scenario_number("worksheet"), 0, creates_in_scenario_3()]
    # verifies: agent.caching-reads-most-input
    assert stated.numbers("agent.caching-reads-most-input") == [int(1 / CACHE_READ), scenario_number("naive"), scenario_number("reread")]
    # verifies: agent.long-rounds-raise-the-cap
    assert stated.numbers("agent.long-rounds-raise-the-cap")[:2] == [scenario_number("naive"), scenario_number("reread")]
    # verifies: agent.long-rounds-raise-the-cap
    assert stated.numbers("agent.long-rounds-raise-the-cap")[2:] == [DEFAULT_MAXIMUM_ITERATIONS, DEFAULT_MAXIMUM_ITERATIONS, LONG_ROUND_CAP]


def test_protocol_nodes_correct_and_the_workspace_shape():
    correct = [r for r in results().values() if r.grade.correct == r.grade.written and not r.grade.missing]
    # verifies: agent.protocol-nodes-correct
    assert stated.numbers("agent.protocol-nodes-correct") == [scenario_number(r.key) for r in correct] + sorted({r.grade.written for r in correct})
    worksheet = Worksheet.from_text(results()["worksheet"].runs[0].answer)
    new, facts = len(worksheet.new_dimensions), len(worksheet.writable_facts)
    existing = list_dimensions(workspace(), "Meridian")["count"]
    # verifies: agent.workspace-shape
    assert stated.numbers("agent.workspace-shape") == [len(TITLES), new + facts, new, facts, existing, len(REPORT.unreported)]


def test_snippet_length():
    cut = snippet("c" * 500)
    hits = search_chunks(workspace(), "namespace:Meridian/content profit", limit=5)["results"]
    # verifies: chunks.search-chunks-shape
    assert stated.numbers("chunks.search-chunks-shape") == [hits[0]["rank"], clamp_limit(-5, 20), clamp_limit(10**6, 20), len(cut.rstrip("…"))]


@functools.cache  # run once per process: the tests only read what the listing computed
def shown(name: str) -> dict:
    """The namespace of a snippet after it ran: the values the page's listing computed."""
    return captures.run_snippet(REPO_ROOT / "snippets" / name).namespace


def test_boundary_shows_three_texts():
    rounds = shown("agent_design_02_rounds.py")
    # verifies: agent.boundary-keeps-texts-only
    assert stated.numbers("agent.boundary-keeps-texts-only") == [len(rounds["first_write"].messages())]


def test_files_sharing_a_slug():
    paths = shown("content_chunk_navigation_01_paths.py")
    slug = document_slug(paths["both"]["filePath"])
    sharing = [entry["filePath"] for entry in paths["content"].listing() if document_slug(entry["filePath"]) == slug]
    # verifies: chunks.slug-collision-last-wins
    assert stated.numbers("chunks.slug-collision-last-wins") == [len(sharing)]


def test_bulk_create_collides_once_and_a_stored_zero_reads_back_missing():
    """The JSON omits a stored `0`: the zero the page speaks of is the value the listing stored and Get left out."""
    patterns = shown("mesh_plugin_03_patterns.py")
    created = sum(line.startswith("Created: ") for line in patterns["answer"].splitlines())
    # "instead of being written twice": the template stays at its first version.
    # verifies: mesh.deterministic-ids-collide
    assert stated.numbers("mesh.deterministic-ids-collide") == [patterns["mesh"].get("Meridian/Facts/rev-FY2023-1").version + 1, created]
    stored = patterns["mesh"].get("Meridian/Facts/zero").content["value"]
    # verifies: mesh.read-back-defaults-omitted
    assert stated.numbers("mesh.read-back-defaults-omitted") == [stored] and "value" not in patterns["zero"]


def test_prompt_caching_bounds():
    """The page's bounds are the worked example's ratios rounded down: caching's cut of the sequential bill, and
    what it still costs against the batched phase."""
    cost = shown("agent_design_01_cost_model.py")
    price = cost["PRICE"]
    *_, factor, multiple = stated.numbers("agent.caching-narrows-not-closes")
    sequential, batched = cost["sequential_with_document"], cost["batched_without_document"]
    cut = sequential.cost(price) / sequential.cost(price, caching=True)
    gap = sequential.cost(price, caching=True) / batched.cost(price, caching=True)
    # verifies: agent.caching-narrows-not-closes
    assert (math.floor(cut), math.floor(gap)) == (factor, multiple), (cut, gap)


def test_unpriced_usage_counts_zero_dollars():
    """T6: before fix 369 the sub-thread's usage, recorded under (unknown), is priced at the page's $0."""
    old_report = shown("agent_design_05_operations.py")["old_report"]
    unknown = [row.cost for row in old_report.rows if row.model == UNKNOWN_MODEL]
    # verifies: agent.usage-sums-thread-tree
    assert unknown == stated.numbers("agent.usage-sums-thread-tree")


def test_first_chunk_has_no_previous():
    chunks = shown("content_chunk_navigation_03_chunk_tools.py")
    # verifies: chunks.get-chunk-shape
    assert stated.numbers("chunks.get-chunk-shape") == [chunks["first"]["chunkIndex"]] and chunks["first"]["prevIndex"] is None


def test_turns_counted_and_the_cut_value():
    chunked = shown("content_chunk_navigation_04_chunk_by_chunk.py")
    one_get, batched = len(chunked["one_get"]), len(chunked["batched"])
    # verifies: chunks.turns-counted
    assert stated.numbers("chunks.turns-counted") == [batched // one_get, chunked["PARALLEL"], batched, one_get]
    # verifies: chunks.boundary-cuts-a-value
    assert stated.numbers("chunks.boundary-cuts-a-value") == [chunked["cut"], chunked["cut"]]
