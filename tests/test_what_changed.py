"""The "What changed" page (docs/reference/what-changed.md, issue 12): each correction says what an earlier
text said, what holds, and names claims that prove it; every claim it names exists on a page of the guide."""

from __future__ import annotations

import re

from guidetools.project import REPO_ROOT

DOCS = REPO_ROOT / "docs"
PAGE = DOCS / "reference" / "what-changed.md"
CLAIM_LINK = re.compile(r"\[`(?P<text>[^`]+)`\]\(claims\.md#claim-(?P<id>[^)\s]+)\)")
ENTRY = re.compile(r"^- \*\*Said:\*\*", re.MULTILINE)


def test_every_correction_says_what_was_said_what_holds_and_its_proof_and_each_claim_link_shows_its_id():
    """In order, and the proof links at least one claim. (That the claim exists, its row's anchor on the claims page,
    is what tests/test_site_build.py, test_internal_links_and_anchors_resolve_and_no_include_line_survives_rendering,
    checks of every link.)"""
    text = PAGE.read_text(encoding="utf-8")
    named = [(match["id"], match["text"]) for match in CLAIM_LINK.finditer(text)]
    assert len(named) >= 10, f"only {len(named)} claim links on {PAGE.relative_to(REPO_ROOT)}"
    mislabelled = [f"[{shown}] links to claim {claim_id}" for claim_id, shown in named if shown != claim_id]
    assert not mislabelled, mislabelled
    # Each list item that starts with **Said:**, up to the next item or heading.
    starts = [match.start() for match in ENTRY.finditer(text)]
    found = [re.split(r"^#", text[start:end], maxsplit=1, flags=re.MULTILINE)[0]
             for start, end in zip(starts, starts[1:] + [len(text)])]
    assert len(found) >= 10, f"only {len(found)} corrections found"
    incomplete = [
        entry.splitlines()[0]
        for entry in found
        if not (0 < entry.find("**Holds:**") < entry.find("**Proof:**"))
        or not CLAIM_LINK.search(entry[entry.find("**Proof:**"):])
    ]
    assert not incomplete, "entries without Holds/Proof or without a claim link:\n" + "\n".join(incomplete)


# Changelog prose: it speaks of texts the reader never saw; What changed keeps it, the pages state what holds.
CHANGELOG = re.compile(
    r'!!! \w+ "Corrected|draft of this page|earlier versions? of this page|the request behind|this correction',
    re.IGNORECASE,
)


def test_pages_state_what_holds_without_changelog_prose():
    """No page but What changed has a "Corrected" box or speaks of an earlier draft or version of itself."""
    assert CHANGELOG.search('!!! warning "Corrected against the framework (facts v2)"')
    assert CHANGELOG.search("The draft of this page said to derive the file path")
    assert not CHANGELOG.search("The corrected path is built from the fields.")
    found = [
        f"{path.relative_to(REPO_ROOT)}:{number}: {line.strip()}"
        for path in sorted(DOCS.rglob("*.md")) if path != PAGE and path.name != "claims.md"
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1)
        if CHANGELOG.search(line)
    ]
    assert not found, "changelog prose in a page body (move it to What changed):\n" + "\n".join(found)

