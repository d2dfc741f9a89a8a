"""Tests for agentkit/guide/_report.py: the generated annual report and its ground truth."""

from __future__ import annotations

import io
import sys
from pathlib import Path

import pytest
from pypdf import PdfReader

from agentkit import chunk_spans, extractive_summary
from agentkit.guide import REPORT, report_index_text, report_pdf_bytes, report_pdf_path
from agentkit.guide import _report
from guidetools.gate import JobResult, background_fixture, require_success
from tests.mesh_state import NODE_TYPES


@pytest.fixture(scope="module")
def pages() -> list[str]:
    return [page.extract_text() for page in PdfReader(io.BytesIO(report_pdf_bytes())).pages]


def test_page_count_size_and_name(pages):
    """The report has 60-80 pages, stays under 1 MB and its file name has a space."""
    assert 60 <= len(pages) <= 80
    assert report_pdf_path().stat().st_size < 1_000_000
    assert " " in REPORT.file_name and report_pdf_path().name == REPORT.file_name


def test_every_reported_value_is_in_the_extracted_text(pages):
    """pypdf's text contains each value exactly as the ground truth says it is printed."""
    text = "\n".join(pages)
    missing = [value.fact_id for value in REPORT.values if value.display not in text]
    assert missing == []


def test_unreported_items_are_absent(pages):
    """The line items the report does not report appear nowhere in its text."""
    text = "\n".join(pages).lower()
    assert [item.name for item in REPORT.unreported if item.name.lower() in text] == []
    assert len(REPORT.unreported) >= 3


def test_ground_truth_shape():
    """About 60 values over two periods, all statements present, unique deterministic ids."""
    assert 55 <= len(REPORT.values) <= 70
    assert REPORT.periods == ("FY2024", "FY2023")
    assert {item.statement for item in REPORT.line_items} == {"income", "balance", "cashflow", "segment"}
    ids = [value.fact_id for value in REPORT.values]
    assert len(set(ids)) == len(ids)
    assert REPORT.value("rev", "FY2024").fact_id == "rev-FY2024-1"
    assert len({value.display.strip("()") for value in REPORT.values}) == len(REPORT.values)


def test_statements_add_up():
    """Derived lines equal the sums of their parts (in tenths, so exactly)."""
    for period in REPORT.periods:
        def tenths(key: str, period: str = period) -> int:
            return round(REPORT.value(key, period).value * 10)
        assert tenths("gp") == tenths("rev") + tenths("cos")
        assert tenths("np") == tenths("pbt") + tenths("tax")
        assert tenths("ta") == tenths("eq") + tenths("ltd") + tenths("pay") + tenths("ocl")
        assert tenths("indrev") + tenths("medrev") + tenths("conrev") == tenths("rev")


def test_lookup_errors_name_the_key():
    """Asking for an unknown line item or period names it."""
    with pytest.raises(KeyError, match="no line item with key 'nope'"):
        REPORT.item("nope")
    with pytest.raises(KeyError, match="no reported value for 'rev' in 'FY2019'"):
        REPORT.value("rev", "FY2019")
    assert REPORT.item("fcf").name == "Free cash flow"


def test_key_figures_table_straddles_a_chunk_boundary(pages):
    """No single 1000-character chunk holds the whole key-figures table."""
    text = "\n".join(pages)
    start = text.index("Key figures")
    end = text.index(REPORT.item(REPORT.line_items[-1].key).name, start) + 1
    assert not any(s <= start and end <= e for s, e in chunk_spans(len(text)))
    indexed = report_index_text().text  # what the chunks really cut (D5)
    start, end = indexed.index("Key figures"), indexed.index(REPORT.line_items[-1].name, start) + 1
    assert not any(s <= start and end <= e for s, e in chunk_spans(len(indexed)))


FRESH_BUILD = "import sys; from agentkit.guide import build_report_pdf; open(sys.argv[1], 'wb').write(build_report_pdf())"
# The report built past the cache by a process of its own, in the background (a second of CPU the gate's
# second core has to spare): one build serves both tests below.
report_build = background_fixture(
    "report_build", lambda workdir: [sys.executable, "-c", FRESH_BUILD, str(workdir / REPORT.file_name)],
)


def built(result: JobResult) -> bytes:
    return Path(result.workdir, REPORT.file_name).read_bytes()


@pytest.fixture(scope="module")
def fresh_build(report_build: JobResult) -> bytes:
    require_success(report_build, "the fresh build of the report")
    return built(report_build)


def test_bytes_are_identical_every_run(report_build: JobResult):
    """Two builds, in two processes, produce the same bytes (fixed creation date, seeded prose)."""
    assert report_build.ok, report_build.output
    assert built(report_build) == report_pdf_bytes()


def test_upload_report_creates_company_collection_and_document():
    """upload_report writes the company node, the collection and the report's Document node."""
    from agentkit import Mesh
    from agentkit.guide import upload_report

    mesh = Mesh(node_types=set(NODE_TYPES))
    node = upload_report(mesh)
    assert node.path == "Meridian/content/_Documents/Annual-Report-2024.pdf"
    assert mesh.get("Meridian").name == REPORT.company
    assert node.content["chunkCount"] == 172
    assert upload_report(mesh).version == 1  # the same bytes again: the hash gate skips them (R14)
    assert mesh.index.summarizer is extractive_summary  # the host is wired like memex (D6)


def test_upload_report_keeps_a_host_summarizer():
    """A mesh that has its own summarizer keeps it."""
    from agentkit import Mesh, SearchIndex
    from agentkit.guide import upload_report

    mesh = Mesh(node_types=set(NODE_TYPES), index=SearchIndex(summarizer=lambda text, name: f"Summary of {name}"))
    assert upload_report(mesh).content["summary"] == "Summary of Annual Report 2024.pdf"


def test_cache_is_built_once_per_generator_version(tmp_path, monkeypatch, fresh_build):
    """The cached PDF lands under a hash of the generator, with no partial file left behind."""
    builds = []

    def build() -> bytes:  # the generator's own bytes, counted: a second build would show here
        builds.append(fresh_build)
        return fresh_build

    monkeypatch.setattr(_report, "build_report_pdf", build)
    path = report_pdf_path(cache_dir=tmp_path)
    assert path.read_bytes() == report_pdf_bytes()
    assert [p.name for p in path.parent.iterdir()] == [REPORT.file_name]
    assert report_pdf_path(cache_dir=tmp_path) == path
    assert len(builds) == 1
