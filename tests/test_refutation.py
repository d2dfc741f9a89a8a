"""The refutation record (framework/review.toml): every framework claim read, by wording and at the pin."""

from __future__ import annotations

from pathlib import Path

import pytest

from guidetools import refutation
from claimcheck.page import Marker
from claimcheck.problems import report
from guidetools.project import Project
from guidetools.upstream import open_repository
from tests.test_upstream import MESHWEAVER_SOURCE, PIN, needs_source

PROJECT = Project()

READING = '''
[claims."a.claim"]
text = "Get answers the text."
verdict = "holds"
pin = "2ba479c1d07d"
read = ["src/MeshWeaver.AI/MeshOperations.cs:1000-1080"]
finding = "MeshOperations.Get serializes the text as a JSON string."
'''


def _load(tmp_path: Path, text: str) -> tuple[dict, list]:
    (tmp_path / "framework").mkdir(exist_ok=True)
    (tmp_path / refutation.REVIEW_FILE).write_text(text, encoding="utf-8")
    return refutation.load(tmp_path)


AT_CLAIM, AT_READING = ("docs/page.md", 7), ("framework/review.toml", 2)


# A module of the guide's code, as a finding or change names it.
CODE = """K = 1


def f():
    pass


class C:
    def m(self):
        pass


# verifies: a.claim
assert K
"""


@pytest.mark.parametrize(("finding", "message"), [
    ("g/x.py::K, g/x.py::f, g/x.py::C.m and g/x.py::verifies:a.claim. g/gone.py (removed since); the snippet x.py.", None),
    ("See g/x.py:3-4.", "g/x.py:3-4 cites a line, which drifts: cite path::name"),
    ("See x.py:3, 5-6 and the rest.", "x.py:3, 5-6 cites a line, which drifts: cite path::name"),
    ("See `g/x.py`:3 there.", "g/x.py`:3 cites a line, which drifts: cite path::name"),
    ("See g/x.py, lines 3-4.", "g/x.py, lines 3-4 cites a line, which drifts: cite path::name"),
    ("See g/x.py#L3.", "g/x.py#L3 cites a line, which drifts: cite path::name"),
    ("See g/x.py::g.", "g/x.py::g: g/x.py defines no g"),
    ("See g/x.py::C.n.", "g/x.py::C.n: g/x.py defines no C.n"),
    ("See g/x.py::verifies:b.claim.", "g/x.py::verifies:b.claim: no such check"),
    ("See g/y.py::f.", "g/y.py::f: no such file from the repository root"),
    ("See h/y.py for it.", "h/y.py: no such file from the repository root"),
    ("See x.py (removed since).", "x.py (removed since): not a path from the repository root"),
], ids=["names that exist", "a line", "lines without their folder", "a line after a quoted path",
        "lines after a comma", "a line as an anchor", "no such name", "no such method", "no such check",
        "no such file", "a path to no file", "removed, without its path"])
def test_a_finding_names_the_guides_code_that_exists_and_never_a_line(tmp_path, finding, message):
    """Refs that resolve, and a bare file name, raise none."""
    (tmp_path / "g").mkdir()
    (tmp_path / "g" / "x.py").write_text(CODE, encoding="utf-8")
    readings, form = _load(tmp_path, READING.replace("serializes the text as a JSON string.", finding))
    found = refutation.ref_problems(readings, tmp_path)
    assert form == [] and [problem.message for problem in found] == ([f"a.claim: {message}"] if message else [])


@pytest.mark.parametrize(("pin", "markers", "where", "messages"), [
    pytest.param("2ba479c1d07d", [("a.claim", "Get answers the text."), ("b.claim", "Search ranks.")],
                 (*AT_CLAIM, "b.claim"), ["has no refutation reading"], id="claim without a reading"),
    pytest.param("2ba479c1d07d", [("a.claim", "Get answers the text, always.")], (*AT_CLAIM, "a.claim"),
                 ["reworded after its reading", "now:  Get answers the text, always."], id="reworded claim"),
    pytest.param("a7bb35662b00", [("a.claim", "Get answers the text.")], (*AT_READING, "a.claim"),
                 ["a.claim: read at 'a7bb35662b00', not at the pin 2ba479c1d07d"], id="reading at another commit"),
    pytest.param("2ba479c1d07d", [], (*AT_READING, "a.claim"), ["no framework claim has this id"],
                 id="reading of no claim"),
])
def test_a_claim_without_a_reading_of_its_wording_at_the_pin_fails_at_its_line(tmp_path, pin, markers, where, messages):
    """At the reading's line when it was read at another commit or names no claim."""
    readings, _ = _load(tmp_path, READING.replace("2ba479c1d07d", pin))
    claims = [Marker(Path("docs/page.md"), 7, claim, "framework", text, ("C1",)) for claim, text in markers]
    [found] = refutation.problems(claims, readings, PIN.commit)
    assert (str(found.file), found.line, found.claim_id) == where, found
    assert all(message in found.message for message in messages), found.message


@pytest.mark.parametrize(("change", "message"), [
    (('verdict = "holds"', 'verdict = "wrong"'), "verdict 'wrong' is not one of holds, unsettled"),
    (('read = ["src/MeshWeaver.AI/MeshOperations.cs:1000-1080"]', 'read = []'), "no file and lines read"),
    (('read = ["src/MeshWeaver.AI/MeshOperations.cs:1000-1080"]', 'read = ["git show 3a0c9a9"]'), "is not 'path:START-END'"),
    (('finding = "MeshOperations.Get serializes the text as a JSON string."', 'finding = ""'), "no finding"),
    (('verdict = "holds"', 'verdict = "holds"\nwas = "wrong"'), "does not say what changed"),
    (('verdict = "holds"', 'verdict = "unsettled"'), "must say so on the page"),
])
def test_a_malformed_reading_is_named(tmp_path, change, message):
    _, form = _load(tmp_path, READING.replace(*change))
    assert len(form) == 1 and message in form[0].message and form[0].line == 2, report(form)


def test_spans_outside_the_file_or_of_a_missing_file_fail(tmp_path):
    readings, _ = _load(tmp_path, READING)
    path = "src/MeshWeaver.AI/MeshOperations.cs"
    assert refutation.span_problems(readings, "", {path: ["x"] * 1080}) == []
    assert refutation.span_problems(readings, "PDFPIG", {}) == []  # no span into that repository
    [short] = refutation.span_problems(readings, "", {path: ["x"] * 1079})
    assert "1000-1080 is outside the file's 1079 lines" in short.message
    [missing] = refutation.span_problems(readings, "", {path: None})
    assert "does not exist at the pin" in missing.message


# -- the guide's own record: its form, and that each framework claim has a reading, are a docs contract
# (tests/test_docs_contracts.py) ----------------------------------------------------------------------------
@needs_source("check the lines each reading names")
def test_every_read_span_exists_at_the_pin():
    record, _ = refutation.load(PROJECT.root)
    repository = open_repository(Path(MESHWEAVER_SOURCE))
    assert not isinstance(repository, str), repository
    wanted = sorted({span.path for reading in record.values() for span in reading.read if not span.repo})
    lines = repository.read([(PIN.commit, path) for path in wanted])
    found = refutation.span_problems(record, "", {path: lines[(PIN.commit, path)] for path in wanted})
    assert not found, "\n" + report(found)


def test_the_records_findings_name_the_guides_code_that_exists():
    readings, _ = refutation.load(PROJECT.root)
    problems = refutation.ref_problems(readings, PROJECT.root)
    assert not problems, "\n" + report(problems)
