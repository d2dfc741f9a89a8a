"""The built site served on 127.0.0.1 and read in Debian's headless Chromium, offline; `Traffic` records what a page does."""

from __future__ import annotations

import base64
import functools
import hashlib
import importlib.metadata
import json
import os
import re
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Collection, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path, PurePosixPath
from urllib.parse import urlsplit

import yaml

from guidetools.sitelinks import anchors_in

# Debian's headless shell: Chromium's engine without its window machinery, a third less CPU; else the full browser.
CHROMIUM_SHELL = Path("/usr/bin/chromium-headless-shell")
CHROMIUM_BROWSER = Path("/usr/bin/chromium")
CHROMIUM = next((path for path in (CHROMIUM_SHELL, CHROMIUM_BROWSER) if path.exists()), CHROMIUM_SHELL)
# A tab of the full browser asks for the page's icon by itself; the shell shows no tab and never does.
BROWSER_FETCHES_THE_ICON = CHROMIUM != CHROMIUM_SHELL
SKIP_REASON = (f"browser tests skipped: neither {CHROMIUM_SHELL} nor {CHROMIUM_BROWSER} is installed; "
               ".ci/run installs the shell with apt-get")
# Chromium's own background connections are off, so every failed request is a page's. Every request beyond the
# loopback address goes to a proxy on the discard port, where nothing listens: no page can reach the network, and
# (unlike a Playwright route) Chromium's HTTP cache stays on.
BLOCKING_PROXY = "http://127.0.0.1:9"
# One renderer per context for all its tabs, not one per tab: Material's script is compiled once, a tenth less CPU;
# the two contexts' renderers (1280 and 390 px) still run side by side.
CHROMIUM_ARGS = [
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync", "--process-per-site",
    f"--proxy-server={BLOCKING_PROXY}",
]
# What a page requests by itself after its load event: the search worker's index and the tab's icon.
SEARCH_INDEX = "search/search_index.json"
# In a tab whose checks never search, Material's search worker is handed the index without its documents: it starts
# and answers "ready" as with all of them, but indexes nothing (a third of a page load's CPU). The page still requests
# the index and the server answers it; the documents only decide the results of a search, which no check there reads.
EMPTY_SEARCH_INDEX = """Worker.prototype.postMessage = (post => function (message, ...transfer) {
    if (message?.type === 0 && Array.isArray(message.data?.docs)) message = {...message, data: {...message.data, docs: []}};
    return post.call(this, message, ...transfer);
})(Worker.prototype.postMessage);"""

# axe-core as axe-playwright-python bundles it (pinned, injected offline): every rule of WCAG 2.0 and 2.1, A and AA.
AXE_TAGS = ("wcag2a", "wcag2aa", "wcag21a", "wcag21aa")
AXE_OPTIONS = {"runOnly": {"type": "tag", "values": list(AXE_TAGS)}, "resultTypes": ["violations"]}
# axe-core's time goes to its colour-contrast rule, a third of it to parsing each colour string afresh with Color.js
# (a dozen per element with text, a few dozen distinct per page). The parse depends on the string alone, so each tab
# remembers it: test_axe_check_reports_planted_violations_alike_with_and_without_the_colour_memo compares whole results.
REMEMBER_PARSED_COLOURS = """() => {
    const color = axe.commons.color.Color.prototype, parse = color.parseString, parsed = new Map();
    if (typeof parse !== 'function') return 'axe.commons.color.Color has no parseString';
    color.parseString = Object.assign(function (text) {
        const known = parsed.get(text);
        if (!known) {
            parse.call(this, text);  // a string it cannot parse throws here, and is not remembered
            parsed.set(text, [this.r, this.g, this.b, this.alpha]);
            return this;
        }
        [this.r, this.g, this.b, this.alpha] = known;
        return this;
    }, {parsed});
    return 'remembered';
}"""
COLOR_SCHEMES = ("default", "slate")  # Material's, as <body data-md-color-scheme> names them
# A page switched to another scheme as Material's palette toggle does, its easing transitions run to their end
# (an element that inherits its colour starts its own when its parent's ends: finished until none is left).
FINISH_TRANSITIONS = """() => {
    for (let round = 0; round < 20; round++) {
        const easing = document.getAnimations().filter(animation => animation instanceof CSSTransition && animation.playState !== 'finished');
        if (!easing.length) return true;
        easing.forEach(animation => animation.finish());
    }
    return false;
}"""
SET_COLOR_SCHEME = f"""scheme => {{
    document.body.setAttribute('data-md-color-scheme', scheme);
    return ({FINISH_TRANSITIONS})() ? document.body.getAttribute('data-md-color-scheme') : 'still easing after 20 rounds';
}}"""


def driver_cpu_seconds() -> float | None:
    """CPU time of Playwright's driver and all under it, from /proc (None without): getrusage never sees the renderers'."""
    children: dict[int, list[int]] = {}
    ticks: dict[int, int] = {}  # utime, stime, and the same for its ended, reaped children (stat fields 14 to 17)
    drivers = []
    for pid in (int(name) for name in (os.listdir("/proc") if os.path.isdir("/proc") else []) if name.isdigit()):
        try:
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
            is_driver = int(fields[1]) == os.getpid() and b"run-driver" in Path(f"/proc/{pid}/cmdline").read_bytes()
        except OSError:  # ended meanwhile
            continue
        children.setdefault(int(fields[1]), []).append(pid)
        ticks[pid] = sum(int(value) for value in fields[11:15])
        if is_driver:
            drivers.append(pid)
    total, stack = 0, list(drivers)
    while stack:
        pid = stack.pop()
        total += ticks[pid]
        stack.extend(children.get(pid, []))
    return total / os.sysconf("SC_CLK_TCK") if drivers else None


@dataclass(frozen=True)
class Viewport:
    name: str
    width: int
    height: int
    is_mobile: bool


DESKTOP = Viewport("desktop", 1280, 800, is_mobile=False)
PHONE = Viewport("phone", 390, 844, is_mobile=True)


@dataclass(frozen=True)
class NavPage:
    title: str
    source: PurePosixPath
    url_path: str  # relative to the site root: "" for the home page, "AI/AgentDesign/" otherwise

    @property
    def name(self) -> str:  # for test ids and screenshot files
        return self.url_path.strip("/").replace("/", "-") or "index"

    @property
    def is_notebook(self) -> bool:
        return self.source.suffix in {".py", ".ipynb"}


class _NavLoader(yaml.SafeLoader):
    """Reads mkdocs.yml's tags (!!python/name, !ENV) as None: the nav never needs them."""


_NavLoader.add_multi_constructor("", lambda loader, suffix, node: None)


def nav_pages(mkdocs_yml: Path) -> list[NavPage]:
    """Every page of the nav, in nav order (external links are no pages of the site)."""
    config = yaml.load(mkdocs_yml.read_text(encoding="utf-8"), Loader=_NavLoader)
    assert config.get("use_directory_urls", True), "the suite builds URLs as MkDocs' use_directory_urls does"
    pages: list[NavPage] = []

    def walk(entries) -> None:
        for entry in entries:
            title, target = next(iter(entry.items())) if isinstance(entry, dict) else (None, entry)
            if isinstance(target, list):
                walk(target)
            elif isinstance(target, str) and not urlsplit(target).scheme:
                source = PurePosixPath(target)
                pages.append(NavPage(title or source.stem, source, _url_path(source)))

    walk(config.get("nav") or [])
    return pages


def _url_path(source: PurePosixPath) -> str:
    # MkDocs' own rule: index.md and README.md stand for their folder.
    if source.stem in {"index", "README"}:
        folder = source.parent.as_posix()
        return "" if folder == "." else f"{folder}/"
    return f"{source.with_suffix('').as_posix()}/"


class _SiteHandler(SimpleHTTPRequestHandler):
    """Serves the built site under its root path and answers a missing file with its 404.html, as a static host does."""

    def __init__(self, *args, root_path: str = "/", **kwargs) -> None:
        self.root_path = root_path  # set first: the base class handles the request inside __init__
        super().__init__(*args, **kwargs)

    def translate_path(self, path: str) -> str:
        request_path = urlsplit(path).path
        if request_path + "/" == self.root_path:
            return self.directory  # the root without its slash: the base class redirects to it
        if not request_path.startswith(self.root_path):
            return str(Path(self.directory) / "\u2205 outside the root path")
        return super().translate_path("/" + path[len(self.root_path):])

    def send_error(self, code: int, message: str | None = None, explain: str | None = None) -> None:
        not_found_page = Path(self.directory) / "404.html"
        if code != 404 or not not_found_page.is_file():
            super().send_error(code, message, explain)
            return
        body = not_found_page.read_bytes()
        self.send_response(404, message)
        self.send_header("Content-Type", "text/html; charset=utf-8")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(body)

    def log_message(self, format, *args) -> None:  # noqa: A002 - the stdlib's signature
        pass


@contextmanager
def serve(directory: Path, root_path: str = "/") -> Iterator[str]:
    """Serve a built site on 127.0.0.1 at a free port under `root_path` (site_url's path); yield its base URL."""
    handler = functools.partial(_SiteHandler, directory=str(directory), root_path=root_path)
    server = ThreadingHTTPServer(("127.0.0.1", 0), handler)
    # shutdown() waits for the loop's next poll: every 50 ms rather than the default 500.
    thread = threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.05}, name="site-server", daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}{root_path}"
    finally:
        server.shutdown()
        server.server_close()
        thread.join()


@dataclass
class Traffic:
    """What one page did on the network and in its console."""

    origin: str
    requested: list[str] = field(default_factory=list)
    external: list[str] = field(default_factory=list)
    failed: list[str] = field(default_factory=list)
    console_errors: list[str] = field(default_factory=list)
    # Requests not yet answered or failed, and the URLs of those that ended.
    pending: set = field(default_factory=set, repr=False)
    ended: list[str] = field(default_factory=list, repr=False)

    def is_local(self, url: str) -> bool:
        parts = urlsplit(url)
        return parts.scheme in {"data", "blob", "about"} or f"{parts.scheme}://{parts.netloc}" == self.origin

    def watch(self, page) -> None:
        # Page-level events also see the requests of the page's workers (the search index).
        page.on("request", self._on_request)
        page.on("requestfinished", self._on_end)
        page.on("requestfailed", self._on_failed)
        page.on("response", self._on_response)
        page.on("console", self._on_console)
        page.on("pageerror", lambda error: self.console_errors.append(f"uncaught {error.name}: {error.message}"))

    def _on_request(self, request) -> None:
        self.requested.append(request.url)
        self.pending.add(request)
        if not self.is_local(request.url):
            self.external.append(request.url)

    def _on_end(self, request) -> None:
        self.pending.discard(request)
        self.ended.append(request.url)

    def _on_failed(self, request) -> None:
        self._on_end(request)
        # A blocked external request is reported once, as external.
        if self.is_local(request.url):
            self.failed.append(f"{request.url}: {request.failure}")

    def _on_response(self, response) -> None:
        if response.status >= 400:
            self.failed.append(f"{response.url}: HTTP {response.status}")

    def _on_console(self, message) -> None:
        if message.type == "error":
            location = message.location.get("url", "")
            self.console_errors.append(f"{message.text} ({location})" if location else message.text)


@dataclass
class Visit:
    page: object  # playwright.sync_api.Page
    recorder: Traffic  # what the page does, from its first request on
    traffic: Traffic | None = None  # what it did until it settled (`settle`), not what tests did to it later

    def screenshot(self, path: Path, *, full_page: bool = False) -> int:
        """Write a JPEG of the first screen or the whole page; return the document's width in CSS pixels."""
        self.page.bring_to_front()  # a tab in the background paints rarely
        # Chromium's own JPEG capture: half the time of Playwright's full-page screenshot, a fifth less than PNG. The
        # first screen is the view as drawn, unclipped: for a clip Chromium emulates the screen anew, which restyles a
        # whole page at 390 px (seven times the CPU, for the very same pixels).
        if not full_page:
            self.page.evaluate("() => window.scrollTo(0, 0)")  # the first screen, whatever a check scrolled to
        session = self.page.context.new_cdp_session(self.page)
        try:
            content = session.send("Page.getLayoutMetrics")["cssContentSize"]
            whole = {"x": 0, "y": 0, "width": content["width"], "height": content["height"], "scale": 1}
            shot = session.send("Page.captureScreenshot", {"format": "jpeg", "quality": 80, "optimizeForSpeed": True,
                                                           **({"captureBeyondViewport": True, "clip": whole} if full_page else {})})
        finally:
            session.detach()
        path.write_bytes(base64.b64decode(shot["data"]))
        return round(content["width"])

    def settle(self, timeout: float = 30.0) -> None:
        """Wait until every request the page makes by itself has ended: after its load event, the search index and the
        icon (asked for here where the shell does not). Playwright's "networkidle" would wait 500 ms more."""
        self.page.wait_for_load_state("load")
        icon = self.page.evaluate("document.querySelector('link[rel~=icon]')?.href ?? null")
        if icon and not BROWSER_FETCHES_THE_ICON:
            # Asked for as a reader's browser would, so a missing icon still fails the page's requests.
            self.page.evaluate("icon => { fetch(icon).catch(() => {}); }", icon)
        recorded = self.recorder
        awaited = {"the search index": lambda url: urlsplit(url).path.endswith("/" + SEARCH_INDEX)}
        if icon:
            awaited["the icon"] = lambda url: url == icon
        deadline = time.monotonic() + timeout
        while recorded.pending or not all(any(map(ended, recorded.ended)) for ended in awaited.values()):
            missing = [name for name, ended in awaited.items() if not any(map(ended, recorded.ended))]
            assert time.monotonic() < deadline, (
                f"{self.page.url} did not settle in {timeout:.0f} s: still loading "
                f"{sorted(request.url for request in recorded.pending)}, never ended {missing}"
            )
            self.page.wait_for_timeout(25)  # a poll is a round trip through the driver: 1-2 ms of CPU
        self.traffic = Traffic(recorded.origin, *map(list, (recorded.requested, recorded.external, recorded.failed, recorded.console_errors)))
        # Collapsed Details blocks opened, as a reader opens them, so their content is checked as the rest.
        self.page.evaluate(OPEN_DETAILS)


# The notebook's folded plotting code stays folded, as its own test requires.
OPEN_DETAILS = """() => document.querySelectorAll('article details:not([open]):not(.notebook-code)')
    .forEach(details => { details.open = true; })"""


def inject_axe(page, *, remember_colours: bool = True) -> None:
    """axe-core in the tab, once, remembering its colour parses (REMEMBER_PARSED_COLOURS) unless told not to."""
    if not page.evaluate("typeof window.axe !== 'undefined'"):
        page.evaluate(_axe().axe_script)
        if remember_colours:
            remembered = page.evaluate(REMEMBER_PARSED_COLOURS)
            assert remembered == "remembered", f"axe-core {page.evaluate('axe.version')}: {remembered}"


def start_axe(page) -> None:
    """Start axe-core without waiting, so other contexts' renderers scan at the same time (`axe_violations` collects)."""
    inject_axe(page)
    page.evaluate("options => { window.__axeRun = axe.run(document, options)"
                  ".then(results => results.violations, error => ({error: String(error)})); }", AXE_OPTIONS)


def axe_violations(page) -> list[dict]:
    found = page.evaluate("() => window.__axeRun")
    assert isinstance(found, list), f"axe-core did not run on {page.url}: {found}"
    return found


@functools.cache
def _axe():
    # Imported here: the browser suite's modules load where Playwright is not installed, and skip.
    from axe_playwright_python.sync_playwright import Axe

    return Axe()


def axe_report(where: str, violations: list[dict], examples: int = 4) -> str:
    """What axe-core found, rule by rule: id, impact, help, how many elements and the first few."""
    lines = [f"{where}: {len(violations)} axe-core rule(s) fail"]
    for violation in violations:
        nodes = violation["nodes"]
        lines.append(f"  {violation['id']} ({violation['impact']}), {len(nodes)} element(s): {violation['help']} ({violation['helpUrl']})")
        for node in nodes[:examples]:
            summary = " ".join((node.get("failureSummary") or "").split())
            lines.append(f"    {' '.join(map(str, node['target']))}: {node['html'][:120]}  {summary[:240]}")
        if len(nodes) > examples:
            lines.append(f"    and {len(nodes) - examples} more")
    return "\n".join(lines)


class SiteBrowser:
    """Opens the served site's pages in Chromium: one context per viewport and colour scheme, one tab per visit."""

    # Loading this many pages at once lets their idle waits overlap without starving two cores.
    CONCURRENT_LOADS = 8
    # The colour scheme every visit's context asks for unless told otherwise (Playwright's default, said aloud).
    COLOR_SCHEME = "light"

    def __init__(self, browser, base_url: str, searched: Collection[tuple[NavPage, Viewport]] = ()) -> None:
        self.browser = browser
        self.base_url = base_url
        # The site may be served under a path (site_url's); requests count as local by scheme, host and port.
        self.origin = "{0.scheme}://{0.netloc}".format(urlsplit(base_url))
        # The visits whose checks search, given the whole index; every other is given none (EMPTY_SEARCH_INDEX).
        self.searched = {(page.url_path, viewport.name) for page, viewport in searched}
        self._contexts: dict[tuple[str, str], object] = {}
        self._visits: dict[tuple[str, str, str], Visit] = {}

    def url(self, page: NavPage) -> str:
        return self.base_url + page.url_path

    def served(self, url: str) -> tuple[int, set[str] | None]:
        """The status the server answers for `url`, and the page's anchors (None unless it is HTML)."""
        try:
            with urllib.request.urlopen(url) as response:
                status, kind, body = response.status, response.headers.get_content_type(), response.read()
        except urllib.error.HTTPError as error:
            return error.code, None
        return status, anchors_in(body.decode("utf-8", errors="replace")) if kind == "text/html" else None

    def preload(self, pages: list[NavPage], viewports: list[Viewport], scheme: str = COLOR_SCHEME) -> None:
        """Load every page at every viewport, several at once, so their waits for an idle network overlap."""
        wanted = {(page.url_path, viewport.name, scheme): viewport for viewport in viewports for page in pages}
        wanted = [(key, viewport) for key, viewport in wanted.items() if key not in self._visits]
        for first in range(0, len(wanted), self.CONCURRENT_LOADS):
            batch = wanted[first:first + self.CONCURRENT_LOADS]
            for key, viewport in batch:
                self._visits[key] = self._start(key[0], viewport, scheme)
            for key, _ in batch:
                self._visits[key].settle()

    def visit(self, page: NavPage, viewport: Viewport = DESKTOP, scheme: str = COLOR_SCHEME) -> Visit:
        """The shared, settled visit, loaded once per run; a test that changes it puts it back."""
        self.preload([page], [viewport], scheme)
        return self._visits[page.url_path, viewport.name, scheme]

    @classmethod
    def context_options(cls, viewport: Viewport, scheme: str = COLOR_SCHEME) -> dict:
        return {
            "viewport": {"width": viewport.width, "height": viewport.height},
            "is_mobile": viewport.is_mobile, "has_touch": viewport.is_mobile, "device_scale_factor": 1, "color_scheme": scheme,
            # Requests must all pass our route; a service worker could answer them unseen.
            "service_workers": "block",
        }

    def _start(self, url_path: str, viewport: Viewport, scheme: str) -> Visit:
        if (viewport.name, scheme) not in self._contexts:
            context = self.browser.new_context(**self.context_options(viewport, scheme))
            context.grant_permissions(["clipboard-read", "clipboard-write"], origin=self.origin)
            self._contexts[viewport.name, scheme] = context
        tab = self._contexts[viewport.name, scheme].new_page()
        if (url_path, viewport.name) not in self.searched:
            tab.add_init_script(EMPTY_SEARCH_INDEX)
        recorder = Traffic(self.origin)
        recorder.watch(tab)
        tab.goto(self.base_url + url_path, wait_until="commit")
        return Visit(tab, recorder)


# --- axe-core's scans, run again only when something they read has changed (tests/axe.lock.json, ScanInputs) ---

# The assets, hashed whole: a change to one scans every page again. Not read: other pages' HTML, the search
# index (nothing of it shows before a reader types), the sitemap, source maps and downloads.
SCANNED_ASSETS = {".css", ".js", ".woff", ".woff2", ".ttf", ".otf", ".png", ".jpg", ".jpeg", ".gif", ".svg", ".webp", ".ico"}
# Left out of a page's digest, as they change without the page: the notebook's random cell ids (referenced by
# nothing; numbered by first appearance, so duplicates stay duplicates), and the "last update" date, which the
# commit of a lock would change.
CELL_ID = re.compile(r'(?<=id="cell-id=)[0-9a-f]+(?=")')
REVISION_DATE = re.compile(r'(<span class="git-revision-date-localized-plugin[^"]*"[^>]*?)(?: title="[^"]*")?>[^<]*</span>')
# The system fonts the page's text is drawn with: every computed font-family, measured at two weights.
FONT_METRICS = """() => {
    const families = new Set([...document.querySelectorAll('body *')].map(element => getComputedStyle(element).fontFamily));
    const canvas = document.createElement('canvas').getContext('2d');
    return [...families].flatMap(family => ['400', '700'].map(weight => {
        canvas.font = `${weight} 100px ${family}`;
        return `${weight} ${family}: ${canvas.measureText('Hamburgefonstiv 0123456789 ([{}])').width}`;
    }));
}"""
AXE_VERSION = re.compile(r"/\*! axe v(\S+)")  # axe.min.js's first line
AXE_LOCK_ABOUT = ("axe-core's scans that passed, with the inputs they read (tests/browser.py, SCANNED_ASSETS): while every input "
                  "is the same a scan is not run again. Written by a local run of the browser suite, never where CI is set.")


def digest(data: bytes | str) -> str:
    return hashlib.sha256(data.encode() if isinstance(data, str) else data).hexdigest()[:16]


def built_file(site: Path, page: NavPage) -> Path:
    return site / (page.url_path + "index.html" if page.url_path.endswith("/") or not page.url_path else page.url_path)


def page_digest(html: str) -> str:
    numbers: dict[str, int] = {}  # each id by the order of its first appearance: a repeated id stays repeated
    html = CELL_ID.sub(lambda found: str(numbers.setdefault(found.group(0), len(numbers) + 1)), html)
    return digest(REVISION_DATE.sub(r"\1>(date)</span>", html))


def assets_digest(site: Path) -> str:
    files = sorted(path for path in site.rglob("*") if path.suffix.lower() in SCANNED_ASSETS and path.is_file())
    return digest("\n".join(f"{path.relative_to(site).as_posix()} {digest(path.read_bytes())}" for path in files))


def fonts_digest(tabs: list) -> str:
    """FONT_METRICS over `tabs`, measured in every tab at once (each context's in its renderer)."""
    for tab in tabs:
        tab.evaluate(f"() => {{ window.__fonts = new Promise(resolve => setTimeout(() => resolve(({FONT_METRICS})()))); }}")
    return digest("\n".join(sorted({metric for tab in tabs for metric in tab.evaluate("() => window.__fonts")})))


def scan_id(url_path: str, viewport: str, scheme: str) -> str:
    return f"{url_path or '/'} {viewport} {scheme}"


@dataclass(frozen=True)
class ScanInputs:
    """What a scan reads: the page's HTML (`pages`, by URL path), and the site's assets, the fonts, the harness and the
    versions of axe-core, Chromium and Playwright (`shared`)."""

    shared: dict[str, str]
    pages: dict[str, str]

    @classmethod
    def read(cls, site: Path, pages: list[NavPage], browser, fonts: str) -> ScanInputs:
        harness = {
            "viewports": [[viewport, SiteBrowser.context_options(viewport)] for viewport in (DESKTOP, PHONE)],
            "schemes": COLOR_SCHEMES, "chromium flags": CHROMIUM_ARGS, "axe options": AXE_OPTIONS,
            "scripts": [OPEN_DETAILS, SET_COLOR_SCHEME, REMEMBER_PARSED_COLOURS, EMPTY_SEARCH_INDEX],
        }
        script = _axe().axe_script
        return cls({
            "assets": assets_digest(site),
            "axe-core": f"{AXE_VERSION.match(script).group(1)} (axe.min.js {digest(script)})",
            "chromium": browser.version,
            "fonts": fonts,
            "harness": digest(json.dumps(harness, sort_keys=True, default=repr)),
            "playwright": importlib.metadata.version("playwright"),
        }, {page.url_path: page_digest(built_file(site, page).read_text(encoding="utf-8")) for page in pages})


@dataclass(frozen=True)
class AxeLock:
    inputs: ScanInputs
    passed: frozenset[str]  # scan ids

    @classmethod
    def load(cls, path: Path) -> AxeLock:
        if not path.is_file():
            return cls(ScanInputs({}, {}), frozenset())
        data = json.loads(path.read_text(encoding="utf-8"))
        return cls(ScanInputs(data["inputs"], data["pages"]), frozenset(data["passed"]))

    def why_scan(self, inputs: ScanInputs, url_path: str, scan: str) -> str | None:
        """Why the scan must run with these inputs; None when it passed with the very same."""
        if not self.inputs.shared:
            return "no lock"
        changed = sorted(name for name in inputs.shared.keys() | self.inputs.shared.keys()
                         if inputs.shared.get(name) != self.inputs.shared.get(name))
        if changed:
            return ", ".join(changed) + " changed"
        if inputs.pages.get(url_path) != self.inputs.pages.get(url_path):
            return "its page changed"
        return None if scan in self.passed else "it did not pass"

    def write(self, path: Path) -> bool:
        """Whether it wrote: not when `path` holds the lock already."""
        data = {"about": AXE_LOCK_ABOUT, "inputs": self.inputs.shared, "pages": self.inputs.pages, "passed": sorted(self.passed)}
        text = json.dumps(data, indent=1, sort_keys=True) + "\n"
        if path.is_file() and path.read_text(encoding="utf-8") == text:
            return False
        temporary = path.with_suffix(".tmp")
        temporary.write_text(text, encoding="utf-8")
        temporary.replace(path)
        return True


@dataclass
class Audit:
    found: dict[tuple[str, str, str], list[dict]]  # by (URL path, viewport name, scheme); [] for a scan the lock let pass
    scanned: dict[tuple[str, str, str], str]  # the scans run, with why
    lock: AxeLock  # what the lock holds after this audit: its inputs, and every scan that passed with them


def audit(tabs: dict[tuple[str, str], object], inputs: ScanInputs, lock: AxeLock, *, rescan: bool = False) -> Audit:
    """Scan `tabs` (by URL path and viewport name) in every scheme but where `lock` passed the same inputs (unless
    `rescan`); all at once, each context's renderer scanning its own; each tab left as loaded."""
    keys = [(url_path, width, scheme) for scheme in COLOR_SCHEMES for url_path, width in tabs]
    scanned = {key: "asked to" if rescan else lock.why_scan(inputs, key[0], scan_id(*key)) for key in keys}
    scanned = {key: why for key, why in scanned.items() if why}
    found: dict[tuple[str, str, str], list[dict]] = {key: [] for key in keys}
    try:
        for scheme in COLOR_SCHEMES:
            due = {(url_path, width): tab for (url_path, width), tab in tabs.items() if (url_path, width, scheme) in scanned}
            for tab in due.values():
                assert tab.evaluate(SET_COLOR_SCHEME, scheme) == scheme, f"{tab.url} did not settle in the {scheme} scheme"
                start_axe(tab)
            for (url_path, width), tab in due.items():
                found[url_path, width, scheme] = axe_violations(tab)
    finally:
        for tab in tabs.values():
            tab.evaluate(SET_COLOR_SCHEME, COLOR_SCHEMES[0])
    passed = {scan_id(*key) for key, violations in found.items() if not violations}
    return Audit(found, scanned, AxeLock(inputs, frozenset(passed)))
