"""The contract between the guide's pages and its code, checked on the real tree."""

from __future__ import annotations

import pytest

from guidetools import claimcontract, claimlock, claims, contracts, facts, prose, refutation
from claimcheck.problems import report
from guidetools.project import CLAIMS_PAGE, REPO_ROOT, Project

PROJECT = Project()


@pytest.fixture(scope="module")
def collected() -> claims.Claims:
    """Every claim and check of the tree, read once for the tests below."""
    return claims.collect(PROJECT)


@pytest.mark.parametrize("problems_of", [
    contracts.page_problems,  # claim markers, verifies comments and fences on every page are well formed
    contracts.include_problems,  # every `--8<--` line names an existing file and, for snippets, an existing section
    contracts.fence_problems,  # fences hold only includes or pycon examples: no page holds code that no test runs
    contracts.section_problems,  # each named section and each captured output file appears on some page
], ids=lambda problems_of: problems_of.__name__)
def test_the_pages_and_snippets_keep_the_contract(problems_of):
    problems = problems_of(PROJECT)
    assert not problems, "\n" + report(problems)


def test_every_claim_has_a_check_and_every_check_a_claim(collected):
    """Claims without checks (every claim on every page is confirmed by one at least), checks without claims,
    duplicate ids and checked observations fail."""
    assert collected.markers, "no page marks any claim: the claim scanner found nothing"
    problems = collected.problems
    assert not problems, "\n" + report(problems)


def test_claims_page_is_current(collected):
    """docs/reference/claims.md equals what `python3 dev.py regen` would write."""
    expected = claims.render_page(PROJECT, collected)
    committed = (REPO_ROOT / CLAIMS_PAGE).read_text(encoding="utf-8")
    assert committed == expected, f"{CLAIMS_PAGE} is stale: run 'python3 dev.py regen' and review the diff"


def test_numbers_in_claims_are_compared_by_their_checks(collected):
    """Every number inside a checked claim is compared by the claim's check or read from the page by it."""
    problems = claimcontract.number_problems(PROJECT, collected)
    assert not problems, "\n" + report(problems)


def test_names_in_claims_are_names_agentkit_knows(collected):
    """Every tool, plugin, parameter, field or message a claim's code span names is one agentkit has."""
    problems = claimcontract.name_problems(PROJECT, collected)
    assert not problems, "\n" + report(problems)


def test_no_claim_is_reworded_without_review(collected):
    """A claim reworded while its checks stayed the same needs `python3 dev.py regen --confirm ID` or a changed check."""
    reworded = claimlock.reworded(PROJECT, collected)
    assert not reworded, "\n" + "\n".join(str(item) for item in reworded)


def test_claims_lock_is_current(collected):
    """docs/reference/claims.lock.json equals what `python3 dev.py regen` would write (reworded claims aside)."""
    lock = REPO_ROOT / claimlock.LOCK_FILE
    assert lock.is_file(), f"{claimlock.LOCK_FILE} is missing: restore it from git, or create it with 'python3 dev.py regen --init-lock'"
    entries, _ = claimlock.updated(PROJECT, collected, set())
    assert lock.read_text(encoding="utf-8") == claimlock.render(entries), f"{claimlock.LOCK_FILE} is stale: run 'python3 dev.py regen' and review the diff"


def test_every_framework_claim_has_a_refutation_reading_of_its_current_wording(collected):
    """framework/review.toml holds, for each framework claim as worded now, a reading at the pin that tried to refute it."""
    readings, form = refutation.load(PROJECT.root)
    framework = [marker for marker in collected.markers if marker.kind == "framework"]
    assert framework, "the claim scanner found no framework claim"
    problems = form + refutation.problems(collected.markers, readings, facts.load(PROJECT.root).framework.commit)
    assert not problems, "\n" + report(problems)


def test_every_claim_states_one_behaviour_in_at_most_60_words(collected):
    """A claim states one behaviour with its scope; the fine print goes into a table or a Details block (issue 28).
    Counted as `dev.py prose` counts: an inline code span is one word, a link its text."""
    long = [f"{marker.page}:{marker.line}: {marker.id} has {prose.markdown_words(marker.text)} words"
            for marker in collected.markers if prose.markdown_words(marker.text) > prose.CLAIM_WORDS]
    assert not long, f"claims over {prose.CLAIM_WORDS} words:\n" + "\n".join(long)
