"""Check the links of a built site: every internal link lands on a file, every anchor on an id.

Reads the generated HTML, so it holds whatever generator builds the site.
"""

from __future__ import annotations

from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import unquote, urldefrag, urlsplit

from claimcheck.problems import Problem


class _Anchors(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.ids: set[str] = set()
        self.links: list[tuple[int, str]] = []

    def handle_starttag(self, tag, attrs):
        values = dict(attrs)
        for key in ("id", "name"):
            if values.get(key):
                self.ids.add(values[key])
        if tag == "a" and values.get("href") is not None:
            self.links.append((self.getpos()[0], values["href"]))


def _parsed(html: str) -> _Anchors:
    parser = _Anchors()
    parser.feed(html)
    return parser


def _read(path: Path) -> _Anchors:
    return _parsed(path.read_text(encoding="utf-8"))


def anchors_in(html: str) -> set[str]:
    """The ids and names a page's HTML gives its elements: what a `#fragment` can land on."""
    return _parsed(html).ids


def _target(site: Path, page: Path, href: str, root_path: str) -> tuple[Path, str] | None:
    """The file and anchor an internal href points at, or None for an external or special link."""
    parts = urlsplit(href)
    if parts.scheme or parts.netloc or href.startswith(("mailto:", "javascript:")):
        return None
    url, anchor = urldefrag(href)
    # The 404 page links from the site's root path (site_url's path), as it is served from any depth.
    if url.startswith("/"):
        url = "/" if url + "/" == root_path else "/" + url.removeprefix(root_path)
    base = site.resolve() if url.startswith("/") else page.parent
    path = page if not url else (base / unquote(url).lstrip("/")).resolve()
    if path.is_dir() or url.endswith("/"):
        path = path / "index.html"
    return path, unquote(anchor)


def served_root_path(site_url: str | None) -> str:
    """The path the site is served under, from its `site_url`: "/" when it has none."""
    path = urlsplit(site_url or "/").path or "/"
    return path if path.endswith("/") else path + "/"


def link_problems(site: Path, root_path: str = "/") -> list[Problem]:
    """Broken links of a built site; `root_path` is where the site is served (see `served_root_path`)."""
    pages = {path.resolve(): _read(path) for path in site.rglob("*.html")}
    problems = []
    for page, parsed in pages.items():
        shown = page.relative_to(site.resolve())
        for line, href in parsed.links:
            root_relative = href.startswith("/") and not href.startswith("//")
            if root_relative and not (href + "/").startswith(root_path):
                problems.append(Problem(shown, line, f"link '{href}' points outside the site's root path {root_path}"))
                continue
            target = _target(site, page, href, root_path)
            if target is None:
                continue
            path, anchor = target
            if not path.exists():
                problems.append(Problem(shown, line, f"link '{href}' points at a missing file"))
            elif anchor and path.suffix == ".html" and anchor not in pages[path].ids:
                problems.append(Problem(shown, line, f"link '{href}' points at a missing anchor '#{anchor}'"))
    return problems
