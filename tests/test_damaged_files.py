"""The damaged-file corpus (tests/corpus.py), each file uploaded as MCP ``upload`` does (stored, then indexed). Get
returns every known phrase or an error naming the file, and leaves the mesh as it was; the index holds every known
phrase or no chunk of the file (as the framework's background indexing leaves a file it cannot read unindexed); never
a partial text. Any exception other than an agentkit error fails the test. The corpus is built when a test runs."""

from __future__ import annotations

import base64

import pytest

from agentkit import get_path_of_file
from tests import corpus
from tests.mesh_state import COMPANY, file_text, mcp, snapshot, workspace


def read_back(damaged: corpus.Specimen) -> tuple[str, str]:
    """(Get's answer, indexed text) after MCP ``upload`` into a fresh workspace, which stores the bytes without
    reading them (C7), and an index refresh."""
    mesh = workspace()
    tools = mcp(mesh)
    answer = tools["upload"].call({"path": f"{COMPANY}/content/{damaged.name}",
                                   "base64Content": base64.b64encode(damaged.data).decode()})
    assert answer.startswith('{"status":"Uploaded"'), f"{damaged.case}: upload answered {answer[:300]!r}"
    mesh.refresh_index()
    indexed = " ".join(chunk.text for chunk in mesh.index.chunks_of(f"{COMPANY}/content", damaged.name))
    stored = snapshot(mesh)
    text = file_text(tools["get"].call({"path": get_path_of_file(f"{COMPANY}/content", damaged.name)}))
    assert snapshot(mesh) == stored, f"{damaged.case}: Get changed the mesh"
    return text, indexed


def missing(known: tuple[str, ...], text: str) -> list[str]:  # whitespace collapsed: the index joins words by spaces
    return [phrase for phrase in known if " ".join(phrase.split()) not in " ".join(text.split())]


def judged(damaged: corpus.Specimen) -> str | None:
    """What is wrong with how the damaged file was read, or None."""
    try:
        text, indexed = read_back(damaged)
    except Exception as error:  # read_back's own asserts, or any exception escaping the tools: named either way
        said = str(error) if isinstance(error, AssertionError) else ""
        return said if said.startswith(f"{damaged.case}: ") else f"{damaged.case}: raised {error!r}"
    if indexed and missing(damaged.known, indexed):
        return f"{damaged.case}: indexed with partial text: {indexed[:200]!r}"
    if indexed and damaged.must_refuse:
        return f"{damaged.case}: indexed a file no reader can read whole"
    if text.startswith("Error"):
        return None if damaged.name in text else f"{damaged.case}: the refusal does not name the file: {text[:300]}"
    if damaged.must_refuse:
        return f"{damaged.case}: accepted a file no reader can read whole: {text[:200]!r}"
    lost = [phrase for phrase in damaged.known if phrase not in text]
    return f"{damaged.case}: accepted with partial text, missing {lost}: {text[:200]!r}" if lost else None


@pytest.mark.parametrize("name", [*corpus.SPECIMENS, "report.pdf"])
def test_damaged_file_is_read_whole_or_refused_naming_it(name):
    """Every damaged copy is judged, and every one that fails is named. The oracle is meaningful: each small
    producer's valid file reads with all its known phrases."""
    if name in corpus.SPECIMENS:
        specimen = corpus.SPECIMENS[name]()
        text, indexed = read_back(specimen)
        assert [phrase for phrase in specimen.known if phrase not in text] == []
        if not name.endswith(".xlsx"):  # indexing extracts no text from a workbook (D5)
            assert missing(specimen.known, indexed) == []
    problems = [problem for damaged in corpus.damaged(name) if (problem := judged(damaged))]
    assert not problems, "\n".join(problems)


def test_corpus_covers_every_kind_of_damage():
    """Each class of damage the issue lists, for each format (crafted heading styles: tests/test_hostile_input.py)."""
    cases = [case for name in corpus.SPECIMENS for case in corpus.damaged(name)]
    labels = " | ".join(f"{case.name}: {case.label}" for case in cases)
    for expected in (*(f"{name}: {kind}" for name in corpus.SPECIMENS for kind in ("truncated", "byte")),
                     "removed", "renamed", "cut in half", "size understated", "size overstated",
                     "fpdf2.pdf: stream 1 /Length understated", "reportlab.pdf: stream 2 /Length overstated",
                     "/Length past the end of the file", "reportlab.pdf: startxref past the end",
                     "fpdf2.pdf: xref offsets all shifted", "reportlab.pdf: xref offsets of stream objects",
                     "figures.xlsx: Strict OOXML", "review.docx: Strict OOXML", "shared string index out of range",
                     "sheet XML truncated", "dimension understates the used range", "listed sheet part missing"):
        assert expected in labels, expected
    assert len({case.data for case in cases}) > 200  # distinct files, not one file many times
