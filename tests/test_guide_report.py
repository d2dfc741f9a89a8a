"""Tests for agentkit/guide/_report.py: the generated report against its ground truth, and its cache. The report's
shape as the pages state it is checked by snippets/agent_design_06_measured.py and tests/test_claim_numbers.py;
every reported value in Get's text by snippets/content_chunk_navigation_01_paths.py, and the key-figures table across
a chunk boundary by snippets/content_chunk_navigation_04_chunk_by_chunk.py."""

from __future__ import annotations

import io
import sys
from pathlib import Path

import pytest
from pypdf import PdfReader

from agentkit.guide import REPORT, report_pdf_bytes, report_pdf_path
from agentkit.guide import _report
from guidetools.gate import JobResult, background_fixture


@pytest.fixture(scope="module")
def pages() -> list[str]:
    return [page.extract_text() for page in PdfReader(io.BytesIO(report_pdf_bytes())).pages]


def test_unreported_items_are_absent(pages):
    text = "\n".join(pages).lower()
    assert [item.name for item in REPORT.unreported if item.name.lower() in text] == []  # four: agent.workspace-shape


def test_statements_add_up():
    """Derived lines equal the sums of their parts (in tenths, so exactly)."""
    for period in REPORT.periods:
        tenths = {value.item: round(value.value * 10) for value in REPORT.values if value.period == period}
        assert tenths["gp"] == tenths["rev"] + tenths["cos"]
        assert tenths["np"] == tenths["pbt"] + tenths["tax"]
        assert tenths["ta"] == tenths["eq"] + tenths["ltd"] + tenths["pay"] + tenths["ocl"]
        assert tenths["indrev"] + tenths["medrev"] + tenths["conrev"] == tenths["rev"]


def test_lookup_errors_name_the_key():
    with pytest.raises(KeyError, match="no line item with key 'nope'"):
        REPORT.item("nope")
    with pytest.raises(KeyError, match="no reported value for 'rev' in 'FY2019'"):
        REPORT.value("rev", "FY2019")
    assert REPORT.item("fcf").name == "Free cash flow"


FRESH_BUILD = "import sys; from agentkit.guide import build_report_pdf; open(sys.argv[1], 'wb').write(build_report_pdf())"
# The report built past the cache by a process of its own, in the background (a second of CPU the gate's
# second core has to spare).
report_build = background_fixture(
    "report_build", lambda workdir: [sys.executable, "-c", FRESH_BUILD, str(workdir / REPORT.file_name)],
)


def test_a_fresh_build_has_the_same_bytes_and_is_cached_once_per_generator_version(tmp_path, monkeypatch,
                                                                                   report_build: JobResult):
    """Two builds, in two processes, produce the same bytes (fixed creation date, seeded prose); the cached PDF
    lands under a hash of the generator, with no partial file left behind."""
    assert report_build.ok, report_build.output
    fresh, builds = Path(report_build.workdir, REPORT.file_name).read_bytes(), []

    def build() -> bytes:  # the generator's own bytes, counted: a second build would show here
        builds.append(fresh)
        return fresh

    monkeypatch.setattr(_report, "build_report_pdf", build)
    path = report_pdf_path(cache_dir=tmp_path)
    assert fresh == path.read_bytes() == report_pdf_bytes()
    assert [p.name for p in path.parent.iterdir()] == [REPORT.file_name]
    assert report_pdf_path(cache_dir=tmp_path) == path
    assert len(builds) == 1
