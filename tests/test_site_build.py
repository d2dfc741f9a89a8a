"""The site builds strictly and its rendered pages keep their promises."""

from __future__ import annotations

from tools import siteconfig
from claimcheck.problems import report
from tools.sitelinks import link_problems


def test_strict_build_succeeds(site_build):
    """`mkdocs build --strict` exits 0: no missing include, no broken link or anchor, no notebook error."""
    assert site_build.returncode == 0, site_build.output


def test_internal_links_and_anchors_resolve(built_site):
    """Every internal link in the built HTML lands on an existing file and anchor."""
    problems = link_problems(built_site, siteconfig.root_path())
    assert not problems, "\n" + report(problems)


def test_no_include_line_survives_rendering(built_site):
    """Snippet includes are expanded: no raw `--8<--` line reaches a reader."""
    leftovers = []
    for page in built_site.rglob("*.html"):
        html = page.read_text(encoding="utf-8")
        if "--8&lt;--" in html or "--8<--" in html:
            leftovers.append(str(page.relative_to(built_site)))
    assert leftovers == []


def test_claim_markers_render_as_classes_with_a_label_linking_to_the_claims_page(built_site):
    """A claim marker becomes an element with its id and kind class, and a label linking to its claims-page row."""
    home = (built_site / "index.html").read_text(encoding="utf-8")
    claims_page = (built_site / "reference" / "claims" / "index.html").read_text(encoding="utf-8")
    assert 'class="model" id="home.python-listings-are-include-only"' in home
    assert 'class="observation" id="home.field-cost-fell"' in home
    assert 'href="reference/claims/#claim-home.python-listings-are-include-only"' in home
    assert 'id="claim-home.python-listings-are-include-only"' in claims_page
    assert "{ #" not in home


def test_framework_claims_link_their_source_at_the_pinned_commit(built_site):
    """The claims page renders each framework claim's citations as permalinks at the pinned commit."""
    from tools import facts

    pin = facts.load().framework
    claims_page = (built_site / "reference" / "claims" / "index.html").read_text(encoding="utf-8")
    assert f"https://github.com/{pin.name}/blob/{pin.commit}/" in claims_page
