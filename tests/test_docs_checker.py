"""The checker itself: each kind of broken page or snippet (in tests/fixtures/broken/, a small tree shaped like the
repository) fails with one line naming file:line and the fix."""

from __future__ import annotations

from pathlib import Path

import pytest
from sybil.example import SybilFailure

from guidetools import claims, contracts
from claimcheck.doctests import make_sybil
from guidetools.project import Project

BROKEN = Project(Path(__file__).parent / "fixtures" / "broken")


def messages(problems) -> list[str]:
    return sorted(str(problem) for problem in problems)


INCLUDE_PROBLEMS = [
    # an include of a file that does not exist, or of an unknown section (naming the sections the file has)
    "docs/broken_include.md:4: include 'snippets/missing_file.py' names no file; paths are relative to the repository root",
    "docs/broken_include.md:8: include 'snippets/sample_01_basics.py:subtract': the file has no section 'subtract' (sections: add)",
    # including by line numbers, in any of the forms pymdownx.snippets reads, is refused in favour of named sections
    "docs/broken_include.md:12: include 'snippets/sample_01_basics.py:2:3' selects lines by number; mark a named section and include it by name",
    "docs/broken_include.md:16: include 'snippets/sample_01_basics.py::5' selects lines by number; mark a named section and include it by name",
]
SECTION_PROBLEMS = [  # a section no page includes, and a section that never ends
    "snippets/sample_02_sections.py:1: section 'orphan' is shown on no page; include it as \"snippets/sample_02_sections.py:orphan\" or remove the markers",
    "snippets/sample_02_sections.py:5: section 'unclosed' starts but never ends; add '# --8<-- [end:unclosed]'",
]
CLAIM_PROBLEMS = [
    # a claim that nothing verifies is reported at the claim
    "docs/claims.md:4: claim 'sample.unchecked' has no check; add '# verifies: sample.unchecked' above an assert in a snippet or test, or mark it .observation if no code can confirm it",
    # a check naming an id that no page has is reported at the check, in snippets and in tests
    "snippets/sample_01_basics.py:9: check names claim 'sample.claim-nobody-marked', which no page has; mark the claim on its page or fix the id",
    "tests/test_sample.py:2: check names claim 'sample.unknown-in-tests', which no page has; mark the claim on its page or fix the id",
    # an id used twice is reported at the second use, naming the first
    "docs/failing_pycon.md:4: claim id 'sample.adds' is used twice (first at docs/claims.md:7); give each claim its own id",
    "docs/claims.md:12: 'sample.field-figure' is an observation, which no code can confirm; mark it .framework, .model or .extension on docs/claims.md:10 or drop the check",
    # a verifies comment above a statement that cannot fail is rejected, and its claim stays unchecked
    "snippets/sample_01_basics.py:12: '# verifies: sample.prints' must stand directly above an assert or a with statement, the check that can fail",
    "docs/claims.md:22: claim 'sample.prints' has no check; add '# verifies: sample.prints' above an assert in a snippet or test, or mark it .observation if no code can confirm it",
    "docs/claims.md:25: framework claim 'sample.uncited' cites no source; add cite=\"FACT\" naming a fact of framework/citations.toml (path:line at the pinned commit)",
    # a cited fact must exist and, for a framework claim, carry a source line
    "docs/claims.md:28: claim 'sample.unknown-fact' cites fact 'Q9', which framework/citations.toml does not hold; cite an existing fact or add it with its path:line and evidence",
    "docs/claims.md:31: claim 'sample.sourceless-fact' cites fact 'X1', which has no source line in the framework; a framework claim needs a fact with path:line",
    "docs/claims.md:34: observation 'sample.cited-observation' cites framework source; a cited behaviour is a .framework claim with a check",
]


@pytest.mark.parametrize("problems_of, expected", [
    (contracts.include_problems, INCLUDE_PROBLEMS),
    (contracts.section_problems, SECTION_PROBLEMS),
    # exactly these: the well-formed framework claim ('sample.cited') raises none
    (lambda project: claims.collect(project).problems, CLAIM_PROBLEMS),
], ids=["include", "section", "claim traceability"])
def test_each_broken_include_section_or_claim_is_one_line_with_file_line_and_fix(problems_of, expected):
    assert messages(problems_of(BROKEN)) == sorted(expected)


def test_untested_inline_python_fails():
    """A python fence holding anything but includes is code no test runs."""
    # verifies: home.python-listings-are-include-only
    assert messages(contracts.fence_problems(BROKEN)) == [
        "docs/inline_python.md:5: ```python block holds code that no test runs; move it into a snippets/ section and include it, or make it a ```pycon example",
    ]


def test_failing_pycon_example_reports_page_line_expected_and_actual():
    [example] = make_sybil().parse(BROKEN.root / "docs" / "failing_pycon.md")
    with pytest.raises(SybilFailure) as failure:
        example.evaluate()
    assert "failing_pycon.md, line 8" in str(failure.value)
    assert "Expected:\n    3\nGot:\n    2" in str(failure.value)


@pytest.mark.parametrize("path, line, broken", [
    # (a failing verified assert of a snippet: tests/claimcheck/test_pytest_plugin.py, through pytest's report)
    pytest.param("snippets/sample_01_basics.py", 3, [], id="line no claim verifies"),
    pytest.param("docs/failing_pycon.md", 8,
                 ["sample.adds: stated at docs/claims.md:7, checked at docs/failing_pycon.md:8"], id="pycon example"),
])
def test_a_failure_names_the_claim_it_breaks_and_where_it_is_stated(path, line, broken):
    assert claims.broken_by(BROKEN, claims.collect(BROKEN), Path(path), line) == broken
