"""The published site in Debian's headless Chromium, offline, as a reader uses it (issue 5).

Page tests are parametrized by mkdocs.yml's nav and by what each source holds, so the suite grows with the pages.
Screenshots land in build/screenshots/ (whole pages with `python3 dev.py screenshots`).
"""

from __future__ import annotations

import functools
import json
import os
import re
import shutil
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from claimcheck import spoken_name
from claimcheck.mkdocs_plugin import CLAIMS_PAGE
from tests.browser import (
    CHROMIUM, CHROMIUM_ARGS, COLOR_SCHEMES, DESKTOP, FINISH_TRANSITIONS, PHONE, SET_COLOR_SCHEME, SKIP_REASON, NavPage, SiteBrowser, Viewport,
    AXE_OPTIONS, REMEMBER_PARSED_COLOURS, Audit, AxeLock, ScanInputs, audit, axe_report, driver_cpu_seconds, fonts_digest,
    inject_axe, nav_pages, page_digest, scan_id, serve,
)
from guidetools import gate, siteconfig
from claimcheck.page import MARKER_LIKE, read_page
from guidetools.project import REPO_ROOT

if not CHROMIUM.exists():
    pytest.skip(SKIP_REASON, allow_module_level=True)

# One xdist worker runs the whole suite, one module (`--dist loadscope`) and one group (`--dist loadgroup`): one
# browser, and the other worker for the rest.
pytestmark = [pytest.mark.browser, pytest.mark.xdist_group("browser")]

from PIL import Image, ImageChops  # noqa: E402 - only needed when the browser runs

SCREENSHOTS = REPO_ROOT / "build" / "screenshots"
SITE_CONFIG = siteconfig.load()
NAV = nav_pages(REPO_ROOT / "mkdocs.yml")
HOME = next(page for page in NAV if page.url_path == "")
# A nav entry without its file fails the strict build (the `built_site` fixture), not collection.
MARKDOWN_PAGES = {
    page: read_page(REPO_ROOT / "docs" / page.source, Path("docs") / page.source)
    for page in NAV if page.source.suffix == ".md" and (REPO_ROOT / "docs" / page.source).is_file()
}
NOTEBOOK_PAGES = [page for page in NAV if page.is_notebook]
PAGES_WITH_MARKERS = [page for page, source in MARKDOWN_PAGES.items() if source.markers]
# Notebook code cells carry their own copy button, so notebooks count as pages with code.
PAGES_WITH_CODE = [page for page, source in MARKDOWN_PAGES.items() if source.fences] + NOTEBOOK_PAGES
BOTH_WIDTHS = [DESKTOP, PHONE]
# The page with tool-call/Python tabs, copy buttons and claim labels that has the fewest stops to tab through.
KEYBOARD_PAGE = min(
    (page for page in PAGES_WITH_MARKERS if any(fence.includes for fence in MARKDOWN_PAGES[page].fences)
     and "=== " in (REPO_ROOT / "docs" / page.source).read_text(encoding="utf-8")),
    key=lambda page: (REPO_ROOT / "docs" / page.source).stat().st_size, default=HOME,
)
# The visits whose checks search: the search tests type into the home page's, the keyboard test into KEYBOARD_PAGE's.
SEARCHED = [(HOME, DESKTOP), (KEYBOARD_PAGE, DESKTOP)]


def listing(items: list[str]) -> str:
    """Every item on its own line: pytest's list diff would cut the messages short."""
    return "".join(f"\n  {item}" for item in items)


page_id = NavPage.name.fget


def nav_page(source: str) -> NavPage:
    """The nav page built from a docs/ source path; fails if the nav no longer lists it."""
    found = [page for page in NAV if page.source.as_posix() == source]
    assert found, f"mkdocs.yml's nav lists no page built from docs/{source}"
    return found[0]


@contextmanager
def planted(tab, html: str) -> Iterator[None]:
    """`html` at the top of the tab's article, in div#planted, for a control; removed again (the visit is shared)."""
    tab.evaluate("""html => { const sandbox = document.createElement('div'); sandbox.id = 'planted'; sandbox.innerHTML = html;
        document.querySelector('article').prepend(sandbox); }""", html)
    try:
        yield
    finally:
        tab.evaluate("() => document.getElementById('planted').remove()")


def by_width(test):
    return pytest.mark.parametrize("viewport", BOTH_WIDTHS, ids=lambda viewport: viewport.name)(test)


def by_page_and_width(test):
    return pytest.mark.parametrize("page", NAV, ids=page_id)(by_width(test))


def screenshot_path(page: NavPage, viewport: Viewport) -> Path:
    return SCREENSHOTS / f"{page.name}-{viewport.name}.jpg"


@pytest.fixture(scope="module")
def site(built_site: Path, request: pytest.FixtureRequest) -> Iterator[SiteBrowser]:
    started, own_cpu = time.perf_counter(), time.process_time()
    # A screenshot of a page the nav no longer lists would mislead a reviewer.
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    current = {screenshot_path(page, viewport) for page in NAV for viewport in (DESKTOP, PHONE)}
    for stale in (set(SCREENSHOTS.glob("*.png")) | set(SCREENSHOTS.glob("*.jpg"))) - current:
        stale.unlink()
    # Imported by the worker that runs the suite: every gate worker collects this module (0.3 s of CPU each).
    from playwright.sync_api import sync_playwright

    with serve(built_site, siteconfig.root_path()) as base_url, sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        try:
            site = SiteBrowser(browser, base_url, SEARCHED)
            site.preload(NAV, BOTH_WIDTHS)
            yield site
        finally:
            browser_cpu = driver_cpu_seconds()
            browser.close()
    # In the run's summary (from an xdist worker too): the suite's time after the build, and its CPU.
    # (The CPU of the processes the gate waited for includes only about a third of the browser's.)
    browser = "unknown (no /proc)" if browser_cpu is None else f"{browser_cpu:.1f} s"
    gate.summary_line(request.config, f"browser suite: {len(NAV)} nav pages in {time.perf_counter() - started:.1f} s "
                                      f"after the build (budget 60 s); CPU: tests and server "
                                      f"{time.process_time() - own_cpu:.1f} s, browser {browser}")


# --- every page: renders, offline, nothing raw -------------------------------------------------


def test_navigation_and_sitemap_list_every_nav_page(site: SiteBrowser):
    """The site's navigation links exactly the pages of mkdocs.yml's nav, so the tests below visit every page; and
    sitemap.xml, which MkDocs writes from site_url, lists each at its published address."""
    hrefs, addresses = site.visit(HOME).page.evaluate("""async () => [
        [...document.querySelectorAll('.md-nav--primary a.md-nav__link[href]')].filter(a => !a.getAttribute('href').includes('#')).map(a => a.href),
        [...new DOMParser().parseFromString(await (await fetch('sitemap.xml')).text(), 'application/xml').querySelectorAll('url > loc')]
            .map(loc => loc.textContent.trim()),
    ]""")
    # An external link in the nav is no page of the site.
    local = [href.removeprefix(site.base_url) for href in hrefs if href.startswith(site.base_url)]
    assert sorted(local) == sorted(page.url_path for page in NAV)
    assert sorted(addresses) == sorted(SITE_CONFIG["site_url"] + page.url_path for page in NAV)


@pytest.mark.parametrize("page", NAV, ids=page_id)
def test_page_loads_offline_without_errors(site: SiteBrowser, page: NavPage):
    """No console error or uncaught exception, no failed request, none beyond the local server, and the search worker
    answers ready (given no documents where no check searches: tests/browser.py, EMPTY_SEARCH_INDEX)."""
    visit = site.visit(page)
    traffic = visit.traffic
    assert traffic.requested, "no request was recorded, so the recorder is not watching"
    problems = traffic.console_errors + traffic.failed + [f"beyond localhost: {url}" for url in sorted(set(traffic.external))]
    assert not problems, listing(problems)
    # Material replaces "Initializing search" with its placeholder once the worker has answered.
    visit.page.wait_for_function("""() => document.querySelector('.md-search-result__meta').textContent.trim()
        === JSON.parse(document.getElementById('__config').textContent).translations['search.result.placeholder']""", timeout=5000)


# --- site conventions: edit link, last update, footer, search suggestions, 404 (issue 13) -----------


@pytest.mark.parametrize("page", NAV, ids=page_id)
def test_page_shows_its_title_edit_link_last_update_and_neighbours_and_no_raw_marker(site: SiteBrowser, page: NavPage):
    """An h1 title; an edit link to the source under edit_uri (none on a generated page); one "last update" date; footer
    links to the previous and next nav pages; no raw `{ #id .claim }` marker in the prose."""
    found = site.visit(page).page.evaluate("""() => {
        const article = document.querySelector('article.md-content__inner');
        // Code may show braces of its own and prose may quote the syntax in inline code; a raw marker would be in the prose.
        const prose = article?.cloneNode(true);
        prose?.querySelectorAll('pre, code').forEach(code => code.remove());
        return {
            title: article?.querySelector('h1')?.textContent.trim() ?? null, prose: prose?.textContent ?? null,
            edit: [...document.querySelectorAll('article a[rel=edit]')].map(link => link.href),
            dates: [...document.querySelectorAll('article .git-revision-date-localized-plugin-date')].map(date => date.textContent.trim()),
            previous: document.querySelector('footer a.md-footer__link--prev')?.href ?? null,
            next: document.querySelector('footer a.md-footer__link--next')?.href ?? null,
        };
    }""")
    assert found.pop("title"), "the page renders no h1 title in a Material article"
    raw = [match.group(0) for match in MARKER_LIKE.finditer(found.pop("prose"))]
    assert not raw, "raw claim markers:" + listing(raw)
    dates = found.pop("dates")
    assert len(dates) == 1 and re.fullmatch(r"[A-Z][a-z]+ \d{1,2}, \d{4}", dates[0]), dates
    position = NAV.index(page)
    assert found == {
        "edit": [] if page.source.as_posix() == CLAIMS_PAGE else [SITE_CONFIG["edit_uri"] + page.source.as_posix()],
        "previous": site.url(NAV[position - 1]) if position > 0 else None,
        "next": site.url(NAV[position + 1]) if position + 1 < len(NAV) else None,
    }


def test_missing_page_shows_a_working_404_page_at_any_depth(site: SiteBrowser):
    """A missing address deep in the site answers the site's 404 page, whose styles, scripts and links all work offline."""
    missing = NavPage("missing page", HOME.source, "no/such/page/at/depth/")
    visit = site.visit(missing)
    tab, traffic = visit.page, visit.traffic
    assert tab.locator("article h1").text_content().strip() == "404 - Not found"
    # The address itself answers 404; every asset and the search index must load from the root path.
    assert traffic.failed == [f"{site.url(missing)}: HTTP 404"]
    # Chromium logs the 404 of the address itself as a console error; nothing else may log one.
    errors = [error for error in traffic.console_errors if not error.endswith(f"({site.url(missing)})")]
    assert not traffic.external and not errors, listing(traffic.external + errors)
    checked, problems = link_problems(site, tab)
    assert checked > 0 and not problems, listing(problems)


# --- claim markers -----------------------------------------------------------------------------------

MARKER_STYLES = """() => [...document.querySelectorAll('article :is(.framework, .model, .extension, .observation)[id]')].map(element => {
    const style = getComputedStyle(element);
    const label = element.querySelector(':scope > a.claim-mark');
    return {
        id: element.id,
        kind: ['framework', 'model', 'extension', 'observation'].find(kind => element.classList.contains(kind)),
        look: {
            ruleStyle: style.borderLeftStyle,
            ruleWidth: parseFloat(style.borderLeftWidth),
            ruleColor: style.borderLeftColor,
            fontStyle: style.fontStyle,
        },
        label: label && {text: label.textContent, name: label.getAttribute('aria-label'), href: label.getAttribute('href'),
                         inHeading: label.closest('h1, h2, h3, h4, h5, h6, summary, caption, .admonition-title') !== null},
    };
})"""
REFERENCE_LOOKS: dict[str, dict] = {}  # each kind's look, as the first page that shows it renders it


@pytest.mark.parametrize("page", PAGES_WITH_MARKERS, ids=page_id)
def test_claim_markers_render_as_designed(site: SiteBrowser, page: NavPage):
    """Every marker of the source renders with its id and kind, a visible rule, the look of its kind on any page, and
    a label linking to the claims page, named with kind, id and status, outside any heading (where it would be read
    with every mention of the heading). Labels cut off: test_layout_clips_nothing_breaks_no_word_and_covers_no_code."""
    tab = site.visit(page).page
    rendered = tab.evaluate(MARKER_STYLES)
    shown = [(marker["id"], marker["kind"]) for marker in rendered]
    written = [(marker.id, marker.kind) for marker in MARKDOWN_PAGES[page].markers]
    assert shown == written, (
        f"written but not rendered: {[marker for marker in written if marker not in shown]}; "
        f"rendered but not written: {[marker for marker in shown if marker not in written]}"
    )
    for marker in rendered:
        expected = REFERENCE_LOOKS.setdefault(marker["kind"], marker["look"])
        assert marker["look"] == expected and expected["ruleWidth"] > 0, f"#{marker['id']} does not look like a {marker['kind']}"
        label = marker["label"]
        assert label is not None, f"#{marker['id']} has no label"
        assert marker["id"] in label["text"], f"#{marker['id']}'s label does not name its id"
        assert label["href"].endswith(f"reference/claims/#claim-{marker['id']}"), f"#{marker['id']}'s label links to {label['href']}"
        assert label["name"] == spoken_name(marker["kind"], marker["id"]), f"#{marker['id']}'s label reads {label['name']!r}"
        assert not label["inHeading"], f"#{marker['id']}'s label is inside a heading"
    # The name as the browser's accessibility tree gives it (Playwright's role query), one label of each kind: one
    # query for all of them (each walks the whole page), every name on exactly one link.
    names = sorted(spoken_name(marker["kind"], marker["id"]) for marker in {marker["kind"]: marker for marker in rendered}.values())
    links = tab.get_by_role("link", name=re.compile("^(?:" + "|".join(map(re.escape, names)) + ")$"))
    assert sorted(links.evaluate_all("links => links.map(link => link.getAttribute('aria-label'))")) == names, f"links named {names}"


# --- links of the 404 page, served at any depth ------------------------------------------------------------
# tests/test_site_build.py checks each built file's links from where the file is; the 404 page is served from every
# missing address, so its links are checked here as the browser resolves them there (an anchor on the page itself
# in the live document, one on another page in that page's HTML as served).
SAME_SITE_LINKS = """() => {
    const here = location.origin + location.pathname + location.search;
    return [...document.querySelectorAll('a[href]')].flatMap(link => {
        const url = new URL(link.href);
        if (url.origin !== location.origin) return [];  // external: not followed, the site is read offline
        const page = url.origin + url.pathname + url.search;
        const anchor = decodeURIComponent(url.hash.slice(1));
        const landsHere = page !== here || !anchor || document.getElementById(anchor) !== null || document.getElementsByName(anchor).length > 0;
        return [{href: link.getAttribute('href'), page: page === here ? null : page, anchor, landsHere}];
    });
}"""


def link_problems(site: SiteBrowser, tab) -> tuple[int, list[str]]:
    """How many same-site links the page has, and those that miss: a target that fails, or an anchor it lacks."""
    links = tab.evaluate(SAME_SITE_LINKS)
    served = {page: site.served(page) for page in {link["page"] for link in links} - {None}}  # each target fetched once
    problems = []
    for link in links:
        if link["page"] is None:
            if not link["landsHere"]:
                problems.append(f"{link['href']}: the page has no element with id '{link['anchor']}'")
            continue
        status, anchors = served[link["page"]]
        if status >= 400:
            problems.append(f"{link['href']}: HTTP {status}")
        elif link["anchor"] and anchors is not None and link["anchor"] not in anchors:
            problems.append(f"{link['href']}: the target has no element with id '{link['anchor']}'")
    return len(links), problems


# --- notebooks ----------------------------------------------------------------------------------------------

NOTEBOOK = """() => {
    const column = document.querySelector('article.md-content__inner').getBoundingClientRect().width;
    const cells = [...document.querySelectorAll('article .jupyter-wrapper .jp-Notebook .jp-CodeCell')];
    const outputs = [...document.querySelectorAll('article .jupyter-wrapper .jp-OutputArea-output')];
    return {
        errors: outputs.filter(output => output.dataset.mimeType === 'application/vnd.jupyter.stderr').map(output => output.textContent.trim().slice(0, 300)),
        visiblePrompts: [...document.querySelectorAll('article .jp-InputPrompt, article .jp-OutputPrompt')]
            .filter(prompt => prompt.getBoundingClientRect().width > 0 && prompt.textContent.trim()).map(prompt => prompt.textContent.trim()),
        plotting: cells.filter(cell => /\\bplt\\./.test(cell.querySelector('.jp-InputArea')?.textContent || ''))
            .map(cell => { const fold = cell.querySelector('details.notebook-code'); return fold ? (fold.open ? 'open' : 'folded') : 'not folded'; }),
        figures: outputs.flatMap(output => [...output.querySelectorAll('img')]).map(image => ({
            decoded: image.complete && image.naturalWidth > 0, shown: image.getBoundingClientRect().width, natural: image.naturalWidth, column})),
        tableRows: outputs.flatMap(output => [...output.querySelectorAll('table')]).map(table => table.rows.length),
    };
}"""


@by_width
@pytest.mark.parametrize("page", NOTEBOOK_PAGES, ids=page_id)
def test_notebook_shows_its_executed_cells_figures_and_table(site: SiteBrowser, page: NavPage, viewport: Viewport):
    """No prompt takes width (each cell's execution count: tests/test_generators.py); no stderr output; every
    matplotlib cell's code folded; its figures decoded, shown and within the column (on a phone at 60% of their
    natural size or more, so 10-point labels stay readable); and a table of data with a header."""
    found = site.visit(page, viewport).page.evaluate(NOTEBOOK)
    assert not found["errors"] and not found["visiblePrompts"], listing(found["errors"] + found["visiblePrompts"])
    assert found["plotting"] and set(found["plotting"]) == {"folded"}, f"plotting cells: {found['plotting']}"
    smallest = 0.6 if viewport is PHONE else 0
    bad = [figure for figure in found["figures"] if not figure["decoded"] or figure["shown"] < max(100, smallest * figure["natural"])
           or figure["shown"] > figure["column"] + 1]
    assert found["figures"] and not bad, "figures not decoded, not shown, shrunk or wider than the column:" + listing(map(str, bad))
    assert any(rows >= 2 for rows in found["tableRows"]), f"no table with a header and data (rows: {found['tableRows']})"


# --- screenshots --------------------------------------------------------------------------------------------


# A pixel this close to the commonest colour in every channel counts as it: JPEG blurs edges into such shades.
JPEG_SHADE = 24


def blank_reason(pixels: Image.Image) -> str | None:
    """Why a screenshot (RGB) counts as blank, or None: one colour on nearly every pixel."""
    # A colour on more than half the pixels has each channel's commonest value (the histogram's peaks).
    histogram = pixels.histogram()
    colour = tuple(max(range(256), key=lambda value, channel=channel: histogram[256 * channel + value]) for channel in range(3))
    total = pixels.width * pixels.height
    # No more pixels are near the colour than are near it in any one channel: usually that settles it.
    if min(sum(histogram[256 * channel + max(0, value - JPEG_SHADE):256 * channel + value + JPEG_SHADE + 1])
           for channel, value in enumerate(colour)) <= 0.995 * total:
        return None
    # How far each pixel is from that colour, in its farthest channel.
    distance = functools.reduce(ImageChops.lighter, ImageChops.difference(pixels, Image.new("RGB", pixels.size, colour)).split())
    share = sum(distance.histogram()[:JPEG_SHADE + 1]) / total
    return f"{share:.1%} of the image is {colour} or a shade within {JPEG_SHADE} of it" if share > 0.995 else None


@by_page_and_width
def test_screenshot_is_not_blank(site: SiteBrowser, page: NavPage, viewport: Viewport, request: pytest.FixtureRequest):
    """The screenshot under build/screenshots/ (the first screen; `python3 dev.py screenshots`: the whole page) shows
    something, and the page is no wider than the screen."""
    path = screenshot_path(page, viewport)
    full_page = request.config.getoption("full_page_screenshots")
    document_width = site.visit(page, viewport).screenshot(path, full_page=full_page)
    assert document_width == viewport.width, f"the page is {document_width} px wide on a {viewport.width} px {viewport.name} screen"
    with Image.open(path) as image:
        pixels = image.convert("RGB")
    if full_page:  # a first screen is the viewport as Chromium draws it, so its size is the viewport's by construction
        assert pixels.width == viewport.width, f"the screenshot is {pixels.width} px wide, the {viewport.name} screen {viewport.width} px"
    reason = blank_reason(pixels)
    assert reason is None, f"{path.relative_to(REPO_ROOT)} is blank: {reason}"


# --- layout at a desk and on a phone (issue 12) -------------------------------------------------------------

LAYOUT = """() => {
    const article = document.querySelector('article.md-content__inner');
    const screenWidth = document.documentElement.clientWidth;
    const overflows = new Map();  // each element's overflow-x, read once: the checks walk the same ancestors again and again
    const overflow = element => overflows.get(element) ?? overflows.set(element, getComputedStyle(element).overflowX).get(element);
    const scrolls = element => ['auto', 'scroll'].includes(overflow(element));
    const cuts = element => ['hidden', 'clip'].includes(overflow(element));
    const shown = element => { const box = element.getBoundingClientRect(); return box.width > 0 || box.height > 0; };
    const headings = [...article.querySelectorAll('h1, h2, h3')];
    const where = element => {
        const heading = headings.filter(h => h.compareDocumentPosition(element) & Node.DOCUMENT_POSITION_FOLLOWING).pop();
        return `${element.tagName.toLowerCase()} under "${heading ? heading.textContent.replace('\u00b6', '').trim() : 'the title'}"`;
    };
    const scrollContainer = element => {
        for (let ancestor = element.parentElement; ancestor && ancestor !== document.body; ancestor = ancestor.parentElement)
            if (scrolls(ancestor)) return ancestor;
        return null;
    };

    // Clipped: content wider than its box that no scroll container lets the reader reach.
    const clipped = [];
    for (const element of article.querySelectorAll('table, pre, img, svg, figure, a.claim-mark, :not(pre) > code')) {
        if (!shown(element) || element.closest('.md-code__nav, .zeroclipboard-container, .md-clipboard')) continue;
        if (element.matches('svg') && element.closest('a.claim-mark, button, .admonition-title, summary')) continue;
        const box = element.getBoundingClientRect();
        // Content that spills out of a box it does not fit (overflow: visible) reaches this far.
        const right = box.left + Math.max(box.width, element.scrollWidth);
        if (cuts(element) && element.scrollWidth > element.clientWidth + 1) {
            clipped.push(`${where(element)}: content ${element.scrollWidth} px cut to ${element.clientWidth} px`);
            continue;
        }
        if (scrolls(element)) continue;
        let reached = false;
        for (let ancestor = element.parentElement; ancestor && ancestor !== document.body; ancestor = ancestor.parentElement) {
            if (scrolls(ancestor)) { reached = true; break; }
            const edge = cuts(ancestor) && ancestor.getBoundingClientRect();
            if (edge && (right > edge.right + 1 || box.left < edge.left - 1)) {
                clipped.push(`${where(element)}: ${Math.round(right - box.left)} px wide, cut by a ${Math.round(edge.width)} px ${ancestor.tagName.toLowerCase()}.${ancestor.classList[0] || ''}`);
                reached = true;
                break;
            }
        }
        if (!reached && (right > screenWidth + 1 || box.left < -1))
            clipped.push(`${where(element)}: ${Math.round(right - box.left)} px wide, past the edge of the ${screenWidth} px screen`);
    }

    // A table wider than its container scrolls sideways, and its first column stays in view.
    const unstuckTables = [];
    for (const table of article.querySelectorAll('table')) {
        const container = scrollContainer(table);
        if (!shown(table) || !container || table.getBoundingClientRect().width <= container.clientWidth + 1) continue;
        const first = table.rows[0] && table.rows[0].cells[0];
        if (first && getComputedStyle(first).position !== 'sticky')
            unstuckTables.push(`${where(table)} (${Math.round(table.getBoundingClientRect().width)} px in ${container.clientWidth} px): first column not sticky`);
    }

    // A word of inline code (a path, an id) breaks after a "/" or at a space, nowhere else.
    const brokenWords = [];
    const range = document.createRange();
    for (const code of article.querySelectorAll('code')) {
        if (code.closest('pre') || code.getClientRects().length < 2) continue;
        const walker = document.createTreeWalker(code, NodeFilter.SHOW_TEXT);
        let previousTop = null, previous = '';
        const charTop = (node, offset) => { range.setStart(node, offset); range.setEnd(node, offset + 1); return range.getClientRects()[0]?.top; };
        for (let node = walker.nextNode(); node; node = walker.nextNode()) {
            // A text node on one line is measured at its first visible character only (the rest share its top).
            range.selectNodeContents(node);
            const tops = [...range.getClientRects()].map(rect => rect.top);
            const oneLine = tops.length > 0 && Math.max(...tops) - Math.min(...tops) <= 2;
            for (let offset = 0; offset < node.length; offset++) {
                const character = node.data[offset];
                const top = /\\s/.test(character) ? undefined : charTop(node, offset);
                if (top !== undefined) {
                    if (previousTop !== null && top > previousTop + 2 && !/[\\s/]/.test(previous))
                        brokenWords.push(`${where(code)}: \\`${code.textContent.slice(0, 80)}\\` breaks after '${previous}'`);
                    previousTop = top;
                    if (oneLine) {
                        previous = node.data[node.length - 1];
                        break;
                    }
                }
                previous = character;
            }
        }
    }

    // Copy buttons: no glyph of the code they copy lies under them.
    const coveredCode = [];
    for (const button of article.querySelectorAll('pre .md-code__nav, .jp-InputArea-editor .zeroclipboard-container')) {
        const code = button.closest('pre') ? button.closest('pre').querySelector('code')
            : button.closest('.jp-InputArea-editor').querySelector('.highlight-ipynb pre');
        if (!code || !shown(button)) continue;
        const area = button.getBoundingClientRect();
        const visible = code.getBoundingClientRect();
        range.selectNodeContents(code);
        const covered = [...range.getClientRects()].some(rect => rect.width > 0
            && rect.right > Math.max(area.left, visible.left) && rect.left < Math.min(area.right, visible.right)
            && rect.bottom > area.top && rect.top < area.bottom);
        if (covered) coveredCode.push(`${where(code)}: the copy button covers \\`${code.textContent.trim().split('\\n')[0].slice(0, 60)}\\``);
    }

    const cutLabels = [...article.querySelectorAll('a.claim-mark')].filter(mark => mark.scrollWidth > mark.clientWidth + 1)
        .map(mark => `claim label '${mark.textContent}' is cut off`);
    return {clipped, unstuckTables, brokenWords, coveredCode, cutLabels};
}"""


@by_page_and_width
def test_layout_clips_nothing_breaks_no_word_and_covers_no_code(site: SiteBrowser, page: NavPage, viewport: Viewport):
    """No table, code block, figure, inline code or claim label is cut outside a scroll container; a table that
    scrolls sideways keeps its first column in view; inline code (paths, ids) wraps only at a space or after a '/';
    no copy button sits on the code it copies."""
    found = site.visit(page, viewport).page.evaluate(LAYOUT)
    assert not sum(found.values(), []), listing(sum(found.values(), []))


def contrast(first: str, second: str) -> float:
    """WCAG contrast ratio of two CSS rgb()/rgba() colours (alpha ignored)."""
    def luminance(colour: str) -> float:
        channels = [float(part) / 255 for part in re.findall(r"[\d.]+", colour)[:3]]
        linear = [c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4 for c in channels]
        return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]
    lighter, darker = sorted((luminance(first), luminance(second)), reverse=True)
    return (lighter + 0.05) / (darker + 0.05)


SCHEME_LOOK = f"""() => ({{
    scheme: document.body.getAttribute('data-md-color-scheme'),
    background: getComputedStyle(document.body).backgroundColor,
    markers: ({MARKER_STYLES})(),
}})"""


# Every element's painted colours, in document order: what a scheme decides.
PAINTED_COLOURS = """() => [...document.body.querySelectorAll('*')].map(element => {
    const style = getComputedStyle(element);
    return [element.tagName.toLowerCase(), style.color, style.backgroundColor, style.borderLeftColor,
            style.textDecorationColor, style.outlineColor, style.fill].join(' ');
})"""
# The page that shows the most kinds of claim, read in the dark scheme too.
SCHEMES_PAGE = max(PAGES_WITH_MARKERS, key=lambda page: len({marker.kind for marker in MARKDOWN_PAGES[page].markers}), default=HOME)


def dark_tab(site: SiteBrowser):
    """SCHEMES_PAGE at 390 px loaded in the dark scheme (in a context of its own: Material remembers a scheme for the
    whole context), its colours eased to their end."""
    tab = site.visit(SCHEMES_PAGE, PHONE, "dark").page
    # Material applies the dark palette as its script starts, so colours may still be easing at `load`.
    assert tab.evaluate(FINISH_TRANSITIONS), "transitions still running after 20 rounds"
    return tab


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_claim_kinds_stay_distinct_and_legible_in_both_schemes(site: SiteBrowser, scheme: str):
    """In either scheme each kind of claim has a rule colour of its own (every marker of a kind looks alike:
    test_claim_markers_render_as_designed), at least 3:1 against the page's background."""
    page = SCHEMES_PAGE
    look = (dark_tab(site) if scheme == "dark" else site.visit(page, PHONE).page).evaluate(SCHEME_LOOK)
    assert look["scheme"] == {"light": "default", "dark": "slate"}[scheme]
    background = look["background"]
    colours = {}
    for marker in look["markers"]:
        colours.setdefault(marker["kind"], marker["look"]["ruleColor"])
    assert set(colours) == {marker.kind for source in MARKDOWN_PAGES.values() for marker in source.markers}, f"{sorted(colours)} on {page.name}"
    assert len(set(colours.values())) == len(colours), f"kinds share a colour in the {scheme} scheme: {colours}"
    faint = {kind: round(contrast(colour, background), 2) for kind, colour in colours.items() if contrast(colour, background) < 3}
    assert not faint, f"against the {scheme} background {background}: {faint}"


def test_a_page_switched_to_the_dark_scheme_paints_as_one_loaded_in_it(site: SiteBrowser):
    """The accessibility checks switch the shared visits to the dark scheme as Material's toggle does (SET_COLOR_SCHEME);
    so switched, every element paints the colours it paints when the page is loaded in the dark scheme."""
    tab = site.visit(SCHEMES_PAGE, PHONE).page
    try:
        assert tab.evaluate(SET_COLOR_SCHEME, "slate") == "slate"
        switched = tab.evaluate(PAINTED_COLOURS)
    finally:
        tab.evaluate(SET_COLOR_SCHEME, "default")
    loaded = dark_tab(site).evaluate(PAINTED_COLOURS)
    assert len(switched) == len(loaded), f"{len(switched)} elements switched, {len(loaded)} loaded"
    differ = [f"element {number}: switched {ours!r}, loaded {theirs!r}"
              for number, (ours, theirs) in enumerate(zip(switched, loaded)) if ours != theirs]
    assert not differ, listing(differ[:20])


# --- accessibility: axe-core on every page, at both widths, in both schemes --------------------------------
# A scan that passed with the same inputs is not run again; a run where CI is set writes no lock; --axe-rescan runs all.
AXE_LOCK = REPO_ROOT / "tests" / "axe.lock.json"


def shared_tabs(site: SiteBrowser) -> dict[tuple[str, str], object]:
    return {(page.url_path, viewport.name): site.visit(page, viewport).page for viewport in BOTH_WIDTHS for page in NAV}


@pytest.fixture(scope="module")
def scan_inputs(site: SiteBrowser, built_site: Path) -> ScanInputs:
    return ScanInputs.read(built_site, NAV, site.browser, fonts_digest(list(shared_tabs(site).values())))


@pytest.fixture(scope="module")
def accessibility_audit(site: SiteBrowser, scan_inputs: ScanInputs, request: pytest.FixtureRequest) -> Audit:
    tabs = shared_tabs(site)
    loaded = {tab.evaluate("document.body.getAttribute('data-md-color-scheme')") for tab in tabs.values()}
    assert loaded == {COLOR_SCHEMES[0]}, f"the shared visits load in the {sorted(loaded)} scheme(s)"
    started = time.perf_counter()
    result = audit(tabs, scan_inputs, AxeLock.load(AXE_LOCK), rescan=request.config.getoption("axe_rescan"))
    # axe-core comes from the package, not the network: no tab asked for anything beyond the local server.
    leaving = sorted({url for viewport in BOTH_WIDTHS for page in NAV for url in site.visit(page, viewport).recorder.external})
    assert not leaving, "requests beyond localhost during the accessibility checks:" + listing(leaving)
    reasons = sorted(set(result.scanned.values()))
    lock = AXE_LOCK.relative_to(REPO_ROOT)
    if os.environ.get("CI", "").lower() not in {"", "0", "false"}:
        written = f"CI is set: {lock} not written"
    else:
        written = f"{lock} {'written' if result.lock.write(AXE_LOCK) else 'unchanged'}"
    gate.summary_line(request.config, f"axe-core: {len(result.scanned)} of {len(result.found)} scans run in "
                                      f"{time.perf_counter() - started:.1f} s ({'; '.join(reasons) or 'none changed'}); {written}")
    return result


def assert_accessible(page: NavPage, viewport: Viewport, scheme: str, violations: list[dict]) -> None:
    assert not violations, axe_report(f"{page.name} at {viewport.width} px in the {scheme} scheme", violations)


@pytest.mark.parametrize("scheme", COLOR_SCHEMES)
@by_page_and_width
def test_page_passes_axe_core(accessibility_audit, page: NavPage, viewport: Viewport, scheme: str):
    """axe-core (WCAG 2.0 and 2.1, A and AA, every rule) finds nothing on the page, the notebook's outputs included."""
    assert_accessible(page, viewport, scheme, accessibility_audit.found[page.url_path, viewport.name, scheme])


# An element too faint to read and a box that scrolls but cannot be reached with the keyboard (nothing in it
# is focusable, and docs/javascripts/keyboard.js only sees the boxes a page has when it loads).
INACCESSIBLE = """<p style="color: #b8b8b8">text too faint to read</p>
    <div style="overflow-x: auto; width: 120px"><p style="width: 600px">a wide box that scrolls sideways</p></div>"""


def test_axe_check_reports_planted_violations_alike_with_and_without_the_colour_memo(site: SiteBrowser):
    """Planted: text at 2:1 contrast and a scrolling box the keyboard cannot reach; the check fails naming both rules. Every rule's whole result (passes, violations, incomplete, and what each check read) is the same with
    and without the memo of parsed colours (REMEMBER_PARSED_COLOURS)."""
    tab = site.visit(HOME, PHONE).page
    every_result = """async options => {
        const results = await axe.run(document, options);
        return JSON.stringify([results.violations, results.passes, results.incomplete, results.inapplicable]);
    }"""
    with planted(tab, INACCESSIBLE):
        tab.evaluate("() => { delete window.axe; }")  # a fresh axe-core, its colour parse as shipped
        inject_axe(tab, remember_colours=False)
        shipped = tab.evaluate(every_result, {"runOnly": AXE_OPTIONS["runOnly"]})
        assert tab.evaluate(REMEMBER_PARSED_COLOURS) == "remembered"
        remembering = tab.evaluate(every_result, {"runOnly": AXE_OPTIONS["runOnly"]})
        remembered = tab.evaluate("() => axe.commons.color.Color.prototype.parseString.parsed.size")
    assert remembered > 1, f"axe-core parsed {remembered} colour(s) through the memo"
    assert remembering == shipped
    with pytest.raises(AssertionError) as failure:
        assert_accessible(HOME, PHONE, COLOR_SCHEMES[0], json.loads(remembering)[0])
    report = str(failure.value)  # naming the page: test_a_changed_stylesheet_scans_every_page_again_and_...
    for rule in ("color-contrast", "scrollable-region-focusable"):
        assert f"  {rule} (serious)" in report and "#planted" in report, report


# Planted in a stylesheet every page loads: text too faint to read (1.2:1) in either scheme.
FAINT_TEXT = "\n.md-typeset p { color: #808080 !important; background-color: #8c8c8c !important; }\n"


def test_a_changed_stylesheet_scans_every_page_again_and_fails_on_a_planted_violation(
        site: SiteBrowser, built_site: Path, scan_inputs: ScanInputs, accessibility_audit: Audit, tmp_path: Path):
    """The lock the audit leaves lets every scan that passed go unrun while its inputs stay the same. In a copy of
    the site whose accessibility.css makes text too faint to read, every scan is due again; the home page's at 390 px,
    run against that lock with the rule planted, fails in both schemes, naming the page and the rule."""
    lock, scans = accessibility_audit.lock, list(accessibility_audit.found)
    assert lock.passed and all(lock.why_scan(scan_inputs, key[0], scan_id(*key)) is None for key in scans if scan_id(*key) in lock.passed)
    copy = tmp_path / "site"
    shutil.copytree(built_site, copy)
    with (copy / "stylesheets" / "accessibility.css").open("a", encoding="utf-8") as stylesheet:
        stylesheet.write(FAINT_TEXT)
    changed = ScanInputs.read(copy, NAV, site.browser, scan_inputs.shared["fonts"])
    assert changed.pages == scan_inputs.pages and changed.shared["assets"] != scan_inputs.shared["assets"]
    assert {lock.why_scan(changed, key[0], scan_id(*key)) for key in scans} == {"assets changed"}
    tab = site.visit(HOME, PHONE).page
    with planted(tab, f"<style>{FAINT_TEXT}</style>"):
        result = audit({(HOME.url_path, PHONE.name): tab}, changed, lock)
    assert result.scanned == {(HOME.url_path, PHONE.name, scheme): "assets changed" for scheme in COLOR_SCHEMES}
    assert not result.lock.passed
    for scheme in COLOR_SCHEMES:
        with pytest.raises(AssertionError) as failure:
            assert_accessible(HOME, PHONE, scheme, result.found[HOME.url_path, PHONE.name, scheme])
        assert f"{HOME.name} at {PHONE.width} px in the {scheme} scheme" in str(failure.value)
        assert "  color-contrast (serious)" in str(failure.value), str(failure.value)


def test_page_digest_leaves_out_only_what_changes_between_builds():
    """Two builds differ in the notebook's random cell ids and, after a commit, in the "last update" date: neither
    changes a page's digest. Any other change does, two cells given one id included."""
    def page(first: str, second: str, date: str, kind: str = "md-typeset") -> str:
        return (f'<div class="{kind}"><div id="cell-id={first}"></div><div id="cell-id={second}"></div><aside>'
                f'<span class="git-revision-date-localized-plugin git-revision-date-localized-plugin-date" title="{date} 00:25:59 UTC">'
                f'{date}</span></aside></div>')

    built = page_digest(page("c874c3a8", "2e813252", "December 1, 2026"))
    assert page_digest(page("57beaec5", "2cf277c4", "May 30, 2027")) == built
    assert page_digest(page("c874c3a8", "2e813252", "December 1, 2026", "md-typeset faint")) != built
    assert page_digest(page("c874c3a8", "c874c3a8", "December 1, 2026")) != built  # a repeated id stays repeated


# --- tests that click and type in the shared visits: last; each puts the page back as it found it ----------
# Material's button sits inside its <pre> (md-code__button, formerly md-clipboard); a notebook cell's beside its source.
CODE_BLOCKS = "article pre > code, article .jp-CodeCell .highlight-ipynb pre"
COPY_BUTTONS = "article pre button.md-code__button[data-md-type=copy], article pre button.md-clipboard, article clipboard-copy"
NOTHING_COPIED = "(nothing copied)"


def normalized(code: str) -> str:
    return "\n".join(line.rstrip() for line in code.strip("\n").splitlines())


# Every button in one task (a frame drawn after each click was most of the CPU): its block shown (folds opened, its
# tab selected), a click at its middle (a covered button copies nothing), and what the page hands the clipboard (the
# selection its copy command copies, or the text it writes); the clipboard, a sentinel before, holds the last copy.
CLICK_EVERY_COPY_BUTTON = """async ([blockSelector, buttonSelector, sentinel]) => {
    const blocks = document.querySelectorAll(blockSelector).length;
    const folds = [...document.querySelectorAll('details')].map(fold => [fold, fold.open]);
    const shownTabs = [...document.querySelectorAll('.tabbed-set > input:checked')];
    const scrolled = [window.scrollX, window.scrollY];
    const showBlock = button => {
        for (let fold = button.closest('details'); fold; fold = fold.parentElement.closest('details')) fold.open = true;
        for (let block = button.closest('.tabbed-block'); block; block = block.parentElement.closest('.tabbed-block')) {
            const set = block.closest('.tabbed-set');
            const index = [...block.parentElement.children].indexOf(block);
            set.querySelectorAll(':scope > input')[index].click();
        }
    };
    const clickAtMiddle = button => {
        // Scrolled there for the click and straight back: Chromium would otherwise paint every stretch of a long page.
        const [left, top] = [window.scrollX, window.scrollY];
        button.scrollIntoView({block: 'center', inline: 'center'});
        const box = button.getBoundingClientRect();
        const x = box.left + box.width / 2, y = box.top + box.height / 2;
        const target = document.elementFromPoint(x, y);
        if (!target) return 'nothing';
        const at = {bubbles: true, cancelable: true, composed: true, view: window, clientX: x, clientY: y, button: 0, detail: 1,
                    pointerType: 'mouse', isPrimary: true};
        for (const [type, Event] of [['pointerdown', PointerEvent], ['mousedown', MouseEvent], ['pointerup', PointerEvent],
                                     ['mouseup', MouseEvent], ['click', MouseEvent]]) target.dispatchEvent(new Event(type, at));
        window.scrollTo(left, top);
        return button.contains(target) ? 'the button' : `${target.tagName.toLowerCase()}.${target.classList[0] || ''}`;
    };
    const clipboard = navigator.clipboard, writeText = clipboard.writeText;
    await writeText.call(clipboard, sentinel);
    let copied, written;
    // Last in the copy event's path, so it sees the data a handler put there instead of the selection.
    const onCopy = event => { copied = event.defaultPrevented ? event.clipboardData.getData('text/plain') : document.getSelection().toString(); };
    window.addEventListener('copy', onCopy);
    clipboard.writeText = text => { copied = text; return written = writeText.call(clipboard, text); };
    const results = [];
    try {
        for (const button of document.querySelectorAll(buttonSelector)) {
            copied = sentinel;
            showBlock(button);
            const clicked = clickAtMiddle(button);
            const shown = button.closest('pre')
                ? button.closest('pre').querySelector('code').textContent
                : button.closest('.jp-InputArea-editor').querySelector('.highlight-ipynb pre').textContent;
            results.push({clicked, copied, shown});
        }
    } finally {
        window.removeEventListener('copy', onCopy);
        delete clipboard.writeText;
    }
    await written;
    const inClipboard = await clipboard.readText();
    folds.forEach(([fold, open]) => { fold.open = open; });
    shownTabs.forEach(input => input.click());
    window.scrollTo(...scrolled);
    document.activeElement?.blur();
    window.getSelection()?.removeAllRanges();
    return {blocks, results, inClipboard};
}"""


@pytest.mark.parametrize("page", PAGES_WITH_CODE, ids=page_id)
def test_copy_button_copies_the_shown_code(site: SiteBrowser, page: NavPage):
    found = site.visit(page).page.evaluate(CLICK_EVERY_COPY_BUTTON, [CODE_BLOCKS, COPY_BUTTONS, NOTHING_COPIED])
    blocks, results = found["blocks"], found["results"]
    assert len(results) == blocks > 0, f"{blocks} code blocks but {len(results)} copy buttons"
    wrong = [
        f"block {number}: clicked {result['clicked']}, copied {result['copied'][:80]!r}, shown {result['shown'][:80]!r}"
        for number, result in enumerate(results, start=1)
        if normalized(result["copied"]) != normalized(result["shown"])
    ]
    assert not wrong, listing(wrong)
    assert found["inClipboard"] == results[-1]["copied"], f"after the last click the clipboard holds {found['inClipboard'][:80]!r}"


# --- search, typed into the home page's shared visit (left with the last query: no later test reads it) -----


@pytest.fixture
def search_tab(site: SiteBrowser):
    return site.visit(HOME).page


def enter_query(tab, query: str) -> str:
    """Empty the search box, wait for the placeholder and no suggestion, type `query`; return the placeholder."""
    placeholder = tab.evaluate("JSON.parse(document.getElementById('__config').textContent).translations['search.result.placeholder']")
    box = tab.locator("input.md-search__input")
    box.click()
    box.fill("")
    # Material searches on keyup; one key press runs the whole query once.
    box.press("End")
    # The placeholder replaces "Initializing search" once the worker has loaded the index, and any
    # earlier query's result count once the box is empty.
    tab.wait_for_function(
        "([meta, suggestion, text]) => meta.textContent.trim() === text && suggestion.textContent.trim() === ''",
        arg=[tab.locator(".md-search-result__meta").element_handle(), tab.locator(".md-search__suggest").element_handle(), placeholder],
    )
    box.fill(query)
    box.press("End")
    return placeholder


def test_search_suggests_the_completion_of_a_typed_word(search_tab):
    # "Content chunk navigation" is a page title; any word of the index that starts so will do.
    typed = "navig"
    enter_query(search_tab, typed)
    suggestion = search_tab.locator(".md-search__suggest")
    search_tab.wait_for_function("element => element.textContent.trim().length > 0", arg=suggestion.element_handle())
    completed = suggestion.text_content().strip()
    assert completed.startswith(typed) and len(completed) > len(typed), f"typed {typed!r}, suggested {completed!r}"


# The claim with the longest id: a search for it, or for its words without the page prefix, lists the claims page.
LONGEST_ID = max((marker.id for source in MARKDOWN_PAGES.values() for marker in source.markers), key=len)


@pytest.mark.parametrize(("query", "source", "within"), [
    pytest.param("Document node", "Architecture/ContentChunkNavigation.md", 3, id="Document node"),
    pytest.param("maxToolCallsPerRound", "AI/AgentDesign.md", None, id="maxToolCallsPerRound"),
    pytest.param(LONGEST_ID, CLAIMS_PAGE, 5, id="a claim's whole id"),
    pytest.param(LONGEST_ID.split(".", 1)[1], CLAIMS_PAGE, 5, id="a claim's id without its page prefix"),
])
def test_search_lists_the_page_for_a_query(site: SiteBrowser, search_tab, query: str, source: str, within: int | None):
    """The page is among the first `within` results (None: anywhere). A claim's id finds the claims page, the only page
    that holds it (labels are left out of the index), though lunr scores each word alone and others may rank above."""
    placeholder = enter_query(search_tab, query)
    search_tab.wait_for_function("([meta, text]) => meta.textContent.trim() !== text",
                                 arg=[search_tab.locator(".md-search-result__meta").element_handle(), placeholder])
    hrefs = search_tab.locator(".md-search-result__item > a.md-search-result__link").evaluate_all("links => links.map(link => link.href)")
    results = [href.removeprefix(site.base_url).split("?")[0].split("#")[0] for href in hrefs]
    assert nav_page(source).url_path in results[:within], f"{query!r}: results {results}"


BROKEN_LAYOUT = f"""
    <div style="overflow: hidden; width: 200px"><table style="overflow: visible"><tr><td style="white-space: nowrap">{'wide cell ' * 30}</td></tr></table></div>
    <div class="md-typeset__scrollwrap"><div class="md-typeset__table"><table><tr>{'<td style="position: static; white-space: nowrap">column</td>' * 40}</tr></table></div></div>
    <p style="width: 120px"><code style="word-break: break-all">Meridian-content-Annual-Report-2024.pdf</code></p>
    <pre style="position: relative"><span class="md-code__nav" style="position: absolute; top: 0; left: 0; width: 100%; height: 3em"></span><code style="padding: 0">covered line of code</code></pre>
    <p><a class="claim-mark" style="display: inline-block; width: 20px; overflow: hidden; white-space: nowrap">a cut label</a></p>"""


def test_layout_and_link_checks_report_planted_breaks(site: SiteBrowser):
    """Planted in a page: a table cut by a hidden overflow, a wide table whose first column scrolls away, an id
    broken mid-word, a code line under its copy button, a cut claim label; a link to a missing page, and to anchors
    missing here and on another page. The checks must report every one, or their silence proves nothing."""
    tab = site.visit(HOME, PHONE).page
    with planted(tab, BROKEN_LAYOUT + f'<a href="no/such/page/">missing page</a><a href="#no-such-anchor">missing anchor here</a>'
                      f'<a href="{site.url(NAV[1])}#no-such-anchor-there">missing anchor there</a>'):
        found = tab.evaluate(LAYOUT)
        _, problems = link_problems(site, tab)
    for check, planted_break in (("clipped", "cut by a 200 px div"), ("unstuckTables", "first column not sticky"),
                                 ("brokenWords", "Meridian-content-Annual-Report-2024.pdf"), ("coveredCode", "covered line of code")):
        assert any(planted_break in problem for problem in found[check]), found[check]
    assert found["cutLabels"] == ["claim label 'a cut label' is cut off"], found["cutLabels"]
    assert any(problem.startswith("no/such/page/: HTTP 404") for problem in problems), problems
    assert any(problem.startswith("#no-such-anchor: the page has no element") for problem in problems), problems
    assert any("#no-such-anchor-there: the target has no element" in problem for problem in problems), problems


# --- the keyboard: one page tabbed through, and its controls used without a mouse ----------------------------
# A start point before the page's first control, focused, for the Tab key to leave.
FOCUS_BEFORE_THE_PAGE = """() => {
    const start = Object.assign(document.createElement('span'), {id: 'tab-walk-start', tabIndex: -1});
    document.body.prepend(start);
    start.focus();
}"""
# The page as the keyboard tests found it: the start point gone, the search empty and closed, nothing focused, at the top.
PUT_BACK = """() => {
    document.getElementById('tab-walk-start')?.remove();
    document.querySelector('input.md-search__input').value = '';
    document.querySelector('input[data-md-toggle=search]').checked = false;
    document.activeElement?.blur();
    window.scrollTo(0, 0);
}"""
# Every element the Tab key should stop at, in document order (of a radio group only the checked one), numbered;
# every focus from FOCUS_BEFORE_THE_PAGE on is recorded.
TAB_STOPS = """() => {
    const candidates = document.querySelectorAll('a[href], button, input, select, textarea, summary, iframe, [tabindex], [contenteditable]');
    const stops = [...candidates].filter(element => element.tabIndex >= 0 && !element.disabled && element.type !== 'hidden'
        && !element.closest('[inert]') && element.checkVisibility({visibilityProperty: true})
        && (element.type !== 'radio' || element.checked
            || (![...document.getElementsByName(element.name)].some(radio => radio.checked) && document.getElementsByName(element.name)[0] === element)));
    const region = element => element.matches('.md-skip') ? 'skip link' : element.closest('header') ? 'header'
        : element.closest('article') ? 'article' : element.closest('.md-sidebar') ? 'navigation' : element.closest('footer') ? 'footer' : 'elsewhere';
    const kind = element => element.matches('a.claim-mark') ? 'claim' : element.matches('.md-code__button') ? 'copy'
        : element.matches('.tabbed-set > input') ? 'tab' : element.matches('.md-search__input') ? 'search' : '';
    const described = stops.map((element, number) => {
        element.dataset.tabStop = number;
        const name = (element.getAttribute('aria-label') || element.getAttribute('title') || element.textContent || element.id).trim().replace(/\\s+/g, ' ');
        return {region: region(element), kind: kind(element), text: `${element.tagName.toLowerCase()}.${element.classList[0] || ''} "${name.slice(0, 60)}"`};
    });
    window.__tabWalk = [];
    window.__recordFocus = event => window.__tabWalk.push(event.target.dataset.tabStop === undefined ? -1 : Number(event.target.dataset.tabStop));
    document.addEventListener('focusin', window.__recordFocus, true);
    return {
        stops: described,
        claims: document.querySelectorAll('article a.claim-mark').length,
        tabSets: document.querySelectorAll('article .tabbed-set').length,
        copyButtons: [...document.querySelectorAll('article .md-code__button')].filter(button => button.checkVisibility()).length,
    };
}"""
END_TAB_WALK = f"""() => {{
    document.removeEventListener('focusin', window.__recordFocus, true);
    document.querySelectorAll('[data-tab-stop]').forEach(element => delete element.dataset.tabStop);
    ({PUT_BACK})();
    return window.__tabWalk;
}}"""


def test_tab_key_reaches_every_control_in_reading_order(site: SiteBrowser):
    """Tab at 1280 px stops at every control once, in document order and nowhere else: the skip link, the header (the
    search box), the navigation, the article (tool-call/Python tabs, copy buttons, every claim label) and the footer."""
    tab = site.visit(KEYBOARD_PAGE).page
    tab.evaluate(FOCUS_BEFORE_THE_PAGE)
    found = tab.evaluate(TAB_STOPS)
    stops = found["stops"]
    try:
        for _ in range(len(stops) + 1):
            tab.keyboard.press("Tab")
    finally:
        walk = tab.evaluate(END_TAB_WALK)
    # After the last stop one more Tab leaves the page (to the browser's own controls) or comes back to the top.
    expected = [*range(len(stops)), 0] if walk[len(stops):] == [0] else [*range(len(stops))]
    if walk != expected:
        first = next((step for step, (went, due) in enumerate(zip(walk, expected)) if went != due), min(len(walk), len(expected)))
        went = [stops[number]["text"] if number >= 0 else "(no expected stop)" for number in walk[first:first + 5]]
        due = [stops[number]["text"] for number in expected[first:first + 5]]
        pytest.fail(f"{KEYBOARD_PAGE.name}: Tab {first + 1} of {len(expected)} went to{listing(went)}\nnot to{listing(due)}")
    regions = [region for number, region in enumerate(stop["region"] for stop in stops) if number == 0 or stops[number - 1]["region"] != region]
    assert regions == ["skip link", "header", "navigation", "article", "footer"], f"Tab visits the page's parts in the order {regions}"
    kinds = [stop["kind"] for stop in stops]
    assert kinds.count("search") == 1, "the search box is not a stop"
    assert kinds.count("claim") == found["claims"] == len(MARKDOWN_PAGES[KEYBOARD_PAGE].markers), (
        f"{kinds.count('claim')} claim labels reached, {found['claims']} on the page")
    assert kinds.count("tab") == found["tabSets"] > 0, f"{kinds.count('tab')} of {found['tabSets']} tab sets reached"
    assert kinds.count("copy") == found["copyButtons"] > 0, f"{kinds.count('copy')} of {found['copyButtons']} copy buttons reached"


SEARCH_STATE = """() => ({
    open: document.querySelector('input[data-md-toggle=search]').checked,
    results: document.querySelectorAll('.md-search-result__item').length,
    inResults: document.activeElement.matches('.md-search-result a.md-search-result__link'),
})"""
# The next click anywhere in the page, recorded and not followed: the shared visit stays on its page.
CATCH_NEXT_CLICK = """() => document.addEventListener('click', event => { window.__clicked = event.target; event.preventDefault(); },
                                         {capture: true, once: true})"""


def test_keyboard_operates_tabs_copy_buttons_search_and_claim_labels(site: SiteBrowser):
    """The arrow keys switch a tool-call/Python tab set; Enter clicks a copy button or a claim label (what the click
    does: test_copy_button_copies_the_shown_code); a query typed lists results, the down arrow enters them, Escape
    closes the search."""
    tab = site.visit(KEYBOARD_PAGE).page
    tab_set = tab.locator("article .tabbed-set").first
    shown_blocks = "set => [...set.querySelectorAll(':scope > .tabbed-content > .tabbed-block')].map(block => block.checkVisibility())"
    tab.evaluate("() => { window.__shownTabs = [...document.querySelectorAll('.tabbed-set > input:checked')]; }")
    try:
        tab_set.locator(":scope > input").first.focus()
        tab.keyboard.press("ArrowRight")
        assert tab_set.evaluate(shown_blocks)[:2] == [False, True], "the right arrow did not show the second tab"
        tab.keyboard.press("ArrowLeft")
        assert tab_set.evaluate(shown_blocks)[:2] == [True, False], "the left arrow did not show the first tab again"

        for control in (tab.locator("article .md-code__button:visible").first, tab.locator("article a.claim-mark").first):
            tab.evaluate(CATCH_NEXT_CLICK)
            control.focus()
            tab.keyboard.press("Enter")
            assert control.evaluate("control => window.__clicked === control"), f"Enter did not click {control}"

        tab.locator("input.md-search__input").focus()
        # Material searches on every key's release, and a result list rendered for "chu" may be replaced by the one for
        # "chunk" after the arrow key has entered it: the word goes in as one input, and one key press searches it once.
        tab.keyboard.insert_text("chunk")
        tab.keyboard.press("End")
        tab.wait_for_function("() => document.querySelectorAll('.md-search-result__item').length > 0")
        tab.keyboard.press("ArrowDown")
        entered = tab.evaluate(SEARCH_STATE)
        assert entered == {"open": True, "results": entered["results"], "inResults": True} and entered["results"] > 0, entered
        tab.keyboard.press("Escape")
        assert not tab.evaluate(SEARCH_STATE)["open"], "Escape did not close the search"
    finally:
        tab.evaluate(f"() => {{ window.__shownTabs.forEach(input => input.click()); ({PUT_BACK})(); }}")


SEARCH_BOX_SHOWN = """() => {
    const box = document.querySelector('input.md-search__input');
    const area = box.getBoundingClientRect();
    return {
        focused: document.activeElement === box,
        open: document.querySelector('input[data-md-toggle=search]').checked,
        onScreen: area.width > 0 && area.left >= 0 && area.top >= 0 && area.right <= innerWidth + 1 && getComputedStyle(box.closest('.md-search__inner')).opacity === '1',
    };
}"""


def test_search_box_reached_by_tab_on_a_phone_opens_the_search(site: SiteBrowser):
    """At 390 px Material hides the search box behind a button Tab skips; reached by Tab, the box opens the search so
    the reader sees the focus (docs/javascripts/keyboard.js), and Escape closes it."""
    tab = site.visit(KEYBOARD_PAGE, PHONE).page
    tab.evaluate(FOCUS_BEFORE_THE_PAGE)
    try:
        for _ in range(10):
            tab.keyboard.press("Tab")
            if tab.evaluate("document.activeElement.matches('input.md-search__input')"):
                break
        # Material eases the search open over 0.3 s.
        tab.wait_for_function(f"() => ({SEARCH_BOX_SHOWN})().onScreen", timeout=5000)
        assert tab.evaluate(SEARCH_BOX_SHOWN) == {"focused": True, "open": True, "onScreen": True}
        tab.keyboard.press("Escape")
        assert not tab.evaluate(SEARCH_BOX_SHOWN)["open"], "Escape did not close the search"
    finally:
        tab.evaluate(PUT_BACK)
