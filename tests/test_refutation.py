"""The refutation record (framework/review.toml): every framework claim read, by wording and at the pin."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from guidetools import facts, refutation
from claimcheck.page import Marker
from claimcheck.problems import report
from guidetools.project import Project
from guidetools.upstream import open_repository

PROJECT = Project()
PIN = facts.load().framework
MESHWEAVER_SOURCE = os.environ.get("MESHWEAVER_SOURCE", "")

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


def _marker(claim: str, text: str, kind: str = "framework") -> Marker:
    return Marker(Path("docs/page.md"), 7, claim, kind, text, ("C1",))


def test_a_framework_claim_without_a_reading_fails_at_its_page_line(tmp_path):
    readings, _ = _load(tmp_path, READING)
    found = refutation.problems([_marker("a.claim", "Get answers the text."), _marker("b.claim", "Search ranks.")],
                                readings, PIN.commit)
    assert [(str(p.file), p.line, p.claim_id) for p in found] == [("docs/page.md", 7, "b.claim")]
    assert "has no refutation reading" in found[0].message


def test_a_claim_reworded_after_its_reading_needs_a_new_one(tmp_path):
    readings, _ = _load(tmp_path, READING)
    [found] = refutation.problems([_marker("a.claim", "Get answers the text, always.")], readings, PIN.commit)
    assert "reworded after its reading" in found.message and "now:  Get answers the text, always." in found.message


def test_a_reading_at_another_commit_or_of_no_claim_fails(tmp_path):
    readings, _ = _load(tmp_path, READING.replace("2ba479c1d07d", "a7bb35662b00"))
    found = refutation.problems([_marker("a.claim", "Get answers the text.")], readings, PIN.commit)
    assert [p.message for p in found] == ["a.claim: read at 'a7bb35662b00', not at the pin 2ba479c1d07d"]
    readings, _ = _load(tmp_path, READING)
    [found] = refutation.problems([], readings, PIN.commit)
    assert found.line == 2 and "no framework claim has this id" in found.message


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
@pytest.mark.skipif(not MESHWEAVER_SOURCE, reason=(
    f"set MESHWEAVER_SOURCE to a clone of {PIN.name} holding {PIN.commit[:12]} to check the lines each reading names"))
def test_every_read_span_exists_at_the_pin():
    record, _ = refutation.load(PROJECT.root)
    repository = open_repository(Path(MESHWEAVER_SOURCE))
    assert not isinstance(repository, str), repository
    wanted = sorted({span.path for reading in record.values() for span in reading.read if not span.repo})
    lines = repository.read([(PIN.commit, path) for path in wanted])
    found = refutation.span_problems(record, "", {path: lines[(PIN.commit, path)] for path in wanted})
    assert not found, "\n" + report(found)
