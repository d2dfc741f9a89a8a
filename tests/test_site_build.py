"""The site builds strictly and its rendered pages keep their promises."""

from __future__ import annotations

import re
from pathlib import Path

from guidetools import siteconfig
from claimcheck.problems import report
from guidetools.sitelinks import link_problems


def test_strict_build_succeeds(site_build):
    """No missing include, no broken link or anchor, no notebook error."""
    assert site_build.returncode == 0, site_build.output


def test_internal_links_and_anchors_resolve_and_no_include_line_survives_rendering(built_site):
    problems = link_problems(built_site, siteconfig.root_path())
    assert not problems, "\n" + report(problems)
    leftovers = [page.relative_to(built_site).as_posix() for page in built_site.rglob("*.html")
                 if "--8&lt;--" in (html := page.read_text(encoding="utf-8")) or "--8<--" in html]
    assert leftovers == []


def test_claims_page_rows_show_each_claim_whole_and_link_each_cited_source_line(built_site):
    """Each claim's row on the claims page holds the claim's whole text, as the page that states it renders it; a
    framework claim's row links every source line of every fact it cites, at its repository's pinned commit."""
    from bs4 import BeautifulSoup

    from guidetools import facts
    from tests.browser import nav_pages
    from guidetools.project import REPO_ROOT, Project

    def plain(element) -> str:
        for mark in element.select("a.claim-mark"):
            mark.decompose()
        # Without white space: a link's words render with spaces around them on one page and not the other.
        return "".join(element.get_text().split())

    def by_id(soup) -> dict:
        # Each id's first element, as soup.find(id=...) gives it, read in one pass (find walks the page per id).
        return {element["id"]: element for element in reversed(soup.find_all(id=True))}

    claims_page = BeautifulSoup((built_site / "reference" / "claims" / "index.html").read_text(encoding="utf-8"), "html.parser")
    rows = by_id(claims_page)
    # Where the build writes each page: the nav's own URL rule (tests/browser.py).
    url_paths = {Path("docs") / page.source: page.url_path for page in nav_pages(REPO_ROOT / "mkdocs.yml")}
    cited = facts.load().facts
    cut, unlinked = [], []
    for page in Project().pages:
        if not page.markers:
            continue
        built = by_id(BeautifulSoup((built_site / url_paths[page.path] / "index.html").read_text(encoding="utf-8"), "html.parser"))
        for marker in page.markers:
            stated = built[marker.id]
            for nested in stated.find_all(["ul", "ol", "pre", "table"]):
                nested.decompose()
            row = rows[f"claim-{marker.id}"].find_parent("tr")
            linked = {link["href"] for link in row.find_all("a", href=True)}
            unlinked += [(marker.id, citation.permalink) for fact_id in marker.cites
                         for citation in cited[fact_id].citations if citation.permalink not in linked]
            if plain(stated) not in plain(row.find_all("td")[1]):
                cut.append(marker.id)
    assert cut == [], f"rows that do not hold their claim whole: {cut}"
    assert unlinked == [], f"rows without the permalink of a source line their claim cites: {unlinked}"
    # The links' shape, pinned apart from the code that writes them: a file's line at a full commit.
    permalinks = {citation.permalink for fact in cited.values() for citation in fact.citations}
    shape = re.compile(r"https://github\.com/[\w.-]+/[\w.-]+/blob/[0-9a-f]{40}/[^\s#]+#L\d+")
    assert permalinks and not [link for link in permalinks if not shape.fullmatch(link)]


def test_pages_meet_the_prose_targets(built_site):
    """`python3 dev.py prose` prints the figures."""
    from guidetools import prose

    report = prose.measure_site(built_site)
    assert prose.misses(report) == [], "\n" + prose.markdown(report)
