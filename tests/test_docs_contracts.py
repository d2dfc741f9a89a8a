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


@pytest.mark.parametrize("problems_of", [
    # a claim without a check, a check without a claim, a duplicate id, a checked observation
    lambda collected: collected.problems,
    # a number inside a checked claim that its check neither compares nor reads from the page
    lambda collected: claimcontract.number_problems(PROJECT, collected),
    # a tool, plugin, parameter, field or message a claim's code span names that agentkit lacks
    lambda collected: claimcontract.name_problems(PROJECT, collected),
    # a claim reworded while its checks stayed the same (`python3 dev.py regen --confirm ID` or a changed check)
    lambda collected: claimlock.reworded(PROJECT, collected),
], ids=["every claim has a check and every check a claim", "numbers in claims are compared by their checks",
        "names in claims are names agentkit knows", "no claim is reworded without review"])
def test_the_claims_keep_the_contract(collected, problems_of):
    assert collected.markers, "no page marks any claim: the claim scanner found nothing"
    problems = problems_of(collected)
    assert not problems, "\n" + "\n".join(sorted(map(str, problems)))


def test_claims_page_and_lock_are_current(collected):
    """docs/reference/claims.md and claims.lock.json equal what `python3 dev.py regen` would write."""
    committed = (REPO_ROOT / CLAIMS_PAGE).read_text(encoding="utf-8")
    assert committed == claims.render_page(PROJECT, collected), f"{CLAIMS_PAGE} is stale: run 'python3 dev.py regen' and review the diff"
    lock = REPO_ROOT / claimlock.LOCK_FILE
    assert lock.is_file(), f"{claimlock.LOCK_FILE} is missing: restore it from git, or create it with 'python3 dev.py regen --init-lock'"
    entries, _ = claimlock.updated(PROJECT, collected, set())
    assert lock.read_text(encoding="utf-8") == claimlock.render(entries), f"{claimlock.LOCK_FILE} is stale: run 'python3 dev.py regen' and review the diff"


def test_every_framework_claim_has_a_refutation_reading_of_its_current_wording(collected):
    """framework/review.toml holds, for each framework claim as worded now, a reading at the pin that tried to refute it."""
    readings, form = refutation.load(PROJECT.root)
    assert [marker for marker in collected.markers if marker.kind == "framework"], "the claim scanner found no framework claim"
    problems = form + refutation.problems(collected.markers, readings, facts.load(PROJECT.root).framework.commit)
    assert not problems, "\n" + report(problems)


def test_every_claim_states_one_behaviour_in_at_most_60_words(collected):
    """The fine print goes into a table or a Details block (issue 28); counted as `dev.py prose` counts."""
    long = [f"{marker.page}:{marker.line}: {marker.id} has {prose.markdown_words(marker.text)} words"
            for marker in collected.markers if prose.markdown_words(marker.text) > prose.CLAIM_WORDS]
    assert not long, f"claims over {prose.CLAIM_WORDS} words:\n" + "\n".join(long)
