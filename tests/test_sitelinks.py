"""guidetools.sitelinks: the built-site link checker catches missing files and anchors."""

from __future__ import annotations

from guidetools.sitelinks import link_problems


def write(path, html):
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(html, encoding="utf-8")


def test_reports_missing_file_and_missing_anchor_but_not_good_links(tmp_path):
    """Only the broken links are reported, each at its file and line."""
    write(tmp_path / "index.html", '<h1 id="top">Home</h1>\n<a href="guide/">ok</a>\n<a href="guide/#part">ok</a>\n<a href="gone/">bad</a>\n<a href="guide/#nowhere">bad</a>\n<a href="https://example.org/">external</a>\n<a href="/guide/">root</a>')
    write(tmp_path / "guide" / "index.html", '<h2 id="part">Part</h2><a href="../#top">up</a>')
    assert [str(p) for p in link_problems(tmp_path)] == [
        "index.html:4: link 'gone/' points at a missing file",
        "index.html:5: link 'guide/#nowhere' points at a missing anchor '#nowhere'",
    ]
